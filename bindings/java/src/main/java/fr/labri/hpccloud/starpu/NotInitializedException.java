// Generated from starpu-core by bindings/java/native/src/codegen.rs: do not edit.
// After a change in the core: STARPU_JAVA_REGENERATE=1 cargo test -p starpu-java codegen
package fr.labri.hpccloud.starpu;

/** The runtime is not running: errno 19 (ENODEV), kind {@link ErrorKind#NOT_INITIALIZED}. */
public class NotInitializedException extends StarPUException {
	private static final long serialVersionUID = 1L;

	public NotInitializedException(String message) {
		this(message, null, null);
	}

	/** With the exception that caused it (a failed task's) and the task's name (or null). */
	public NotInitializedException(String message, Throwable cause, String taskName) {
		super(ErrorKind.NOT_INITIALIZED, message, cause, taskName);
	}
}
