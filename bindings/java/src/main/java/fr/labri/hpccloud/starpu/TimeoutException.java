// Generated from starpu-core by bindings/java/native/src/codegen.rs: do not edit.
// After a change in the core: STARPU_JAVA_REGENERATE=1 cargo test -p starpu-java codegen
package fr.labri.hpccloud.starpu;

/** A wait ran out of time: errno 110 (ETIMEDOUT), kind {@link ErrorKind#TIMEOUT}. */
public class TimeoutException extends StarPUException {
	private static final long serialVersionUID = 1L;

	public TimeoutException(String message) {
		this(message, null, null);
	}

	/** With the exception that caused it (a failed task's) and the task's name (or null). */
	public TimeoutException(String message, Throwable cause, String taskName) {
		super(ErrorKind.TIMEOUT, message, cause, taskName);
	}
}
