// Generated from starpu-core by bindings/java/native/src/codegen.rs: do not edit.
// After a change in the core: STARPU_JAVA_REGENERATE=1 cargo test -p starpu-java codegen
package fr.labri.hpccloud.starpu;

/** The call would wait for itself (from a task or a callback): errno 35 (EDEADLK), kind {@link ErrorKind#DEADLOCK}. */
public class DeadlockException extends StarPUException {
	private static final long serialVersionUID = 1L;

	public DeadlockException(String message) {
		this(message, null, null);
	}

	/** With the exception that caused it (a failed task's) and the task's name (or null). */
	public DeadlockException(String message, Throwable cause, String taskName) {
		super(ErrorKind.DEADLOCK, message, cause, taskName);
	}
}
