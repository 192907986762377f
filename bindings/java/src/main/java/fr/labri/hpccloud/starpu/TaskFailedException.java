// Generated from starpu-core by bindings/java/native/src/codegen.rs: do not edit.
// After a change in the core: STARPU_JAVA_REGENERATE=1 cargo test -p starpu-java codegen
package fr.labri.hpccloud.starpu;

/** A task failed (its kernel raised or returned an error): errno 125 (ECANCELED), kind {@link ErrorKind#TASK_FAILED}. */
public class TaskFailedException extends StarPUException {
	private static final long serialVersionUID = 1L;

	public TaskFailedException(String message) {
		this(message, null, null);
	}

	/** With the exception that caused it (a failed task's) and the task's name (or null). */
	public TaskFailedException(String message, Throwable cause, String taskName) {
		super(ErrorKind.TASK_FAILED, message, cause, taskName);
	}
}
