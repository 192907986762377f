package fr.labri.hpccloud.starpu;

/**
 * A runtime call failed. The runtime throws the subclass of its {@link ErrorKind}
 * ({@link InvalidArgumentException}, {@link DeadlockException}, {@link TaskFailedException}...),
 * never a rewrapped one: {@link #getKind} and {@link #getErrno} say what went wrong the way
 * StarPU's C API would. When a task failed because its codelet threw, the cause is the very
 * {@link Throwable} it threw and {@link #getTaskName} names the task.
 * <p>
 * It is unchecked (as the exceptions of most Java bindings of native libraries are), so the
 * data handle calls of StarPU's Java interface, which declare none, report their errors
 * as such too; the methods that declare {@code throws StarPUException} keep doing so.
 */
public class StarPUException extends RuntimeException {
	private static final long serialVersionUID = 1L;

	private final ErrorKind kind;
	private final String taskName;

	public StarPUException() {
		this((String) null);
	}

	public StarPUException(String message) {
		this(message, null);
	}

	public StarPUException(String message, Throwable cause) {
		this(null, message, cause, null);
	}

	protected StarPUException(ErrorKind kind, String message, Throwable cause, String taskName) {
		super(message, cause);
		this.kind = kind;
		this.taskName = taskName;
	}

	/** The runtime's kind of error; null for an exception the application made itself. */
	public ErrorKind getKind() {
		return kind;
	}

	/** The errno StarPU's C API returns for this error (positive; 0 when it has no kind). */
	public int getErrno() {
		return kind == null ? 0 : kind.errno();
	}

	/** The name of the failed task this error is about, or null. */
	public String getTaskName() {
		return taskName;
	}

	/** StarPU's Java interface has it (its tests call it); throws a {@code StarPUException} with {@code message}. */
	static void throwStarPUException(String message) throws StarPUException {
		throw new StarPUException(message);
	}

	/** The exception the native library throws for an error of the kind the core names {@code kind}. */
	static StarPUException of(String kind, String message, Throwable cause, String taskName) {
		ErrorKind k = ErrorKind.named(kind);
		return k == null ? new StarPUException(null, message, cause, taskName) : k.exception(message, cause, taskName);
	}
}
