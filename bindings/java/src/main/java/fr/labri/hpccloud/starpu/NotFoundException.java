// Generated from starpu-core by bindings/java/native/src/codegen.rs: do not edit.
// After a change in the core: STARPU_JAVA_REGENERATE=1 cargo test -p starpu-java codegen
package fr.labri.hpccloud.starpu;

/** The thing asked for does not exist: errno 2 (ENOENT), kind {@link ErrorKind#NOT_FOUND}. */
public class NotFoundException extends StarPUException {
	private static final long serialVersionUID = 1L;

	public NotFoundException(String message) {
		this(message, null, null);
	}

	/** With the exception that caused it (a failed task's) and the task's name (or null). */
	public NotFoundException(String message, Throwable cause, String taskName) {
		super(ErrorKind.NOT_FOUND, message, cause, taskName);
	}
}
