// Generated from starpu-core by bindings/java/native/src/codegen.rs: do not edit.
// After a change in the core: STARPU_JAVA_REGENERATE=1 cargo test -p starpu-java codegen
package fr.labri.hpccloud.starpu;

/** This build does not implement the feature: errno 38 (ENOSYS), kind {@link ErrorKind#UNSUPPORTED}. */
public class UnsupportedException extends StarPUException {
	private static final long serialVersionUID = 1L;

	public UnsupportedException(String message) {
		this(message, null, null);
	}

	/** With the exception that caused it (a failed task's) and the task's name (or null). */
	public UnsupportedException(String message, Throwable cause, String taskName) {
		super(ErrorKind.UNSUPPORTED, message, cause, taskName);
	}
}
