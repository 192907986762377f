// Generated from starpu-core by bindings/java/native/src/codegen.rs: do not edit.
// After a change in the core: STARPU_JAVA_REGENERATE=1 cargo test -p starpu-java codegen
package fr.labri.hpccloud.starpu;

/** An argument is wrong (handle, mode, buffer count, key...): errno 22 (EINVAL), kind {@link ErrorKind#INVALID_ARGUMENT}. */
public class InvalidArgumentException extends StarPUException {
	private static final long serialVersionUID = 1L;

	public InvalidArgumentException(String message) {
		this(message, null, null);
	}

	/** With the exception that caused it (a failed task's) and the task's name (or null). */
	public InvalidArgumentException(String message, Throwable cause, String taskName) {
		super(ErrorKind.INVALID_ARGUMENT, message, cause, taskName);
	}
}
