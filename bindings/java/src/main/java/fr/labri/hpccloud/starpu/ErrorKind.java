// Generated from starpu-core by bindings/java/native/src/codegen.rs: do not edit.
// After a change in the core: STARPU_JAVA_REGENERATE=1 cargo test -p starpu-java codegen
package fr.labri.hpccloud.starpu;

/**
 * What went wrong, in the runtime core's words: each kind has its errno (the code
 * StarPU's C API returns, negated) and its subclass of {@link StarPUException}.
 */
public enum ErrorKind {
	/** An argument is wrong (handle, mode, buffer count, key...) (EINVAL). */
	INVALID_ARGUMENT("InvalidArgument", 22, "EINVAL"),
	/** No worker can run the task (ENODEV). */
	NO_DEVICE("NoDevice", 19, "ENODEV"),
	/** The call would wait for itself (from a task or a callback) (EDEADLK). */
	DEADLOCK("Deadlock", 35, "EDEADLK"),
	/** The runtime is not running (ENODEV). */
	NOT_INITIALIZED("NotInitialized", 19, "ENODEV"),
	/** This build does not implement the feature (ENOSYS). */
	UNSUPPORTED("Unsupported", 38, "ENOSYS"),
	/** Memory for data is exhausted (ENOMEM). */
	OUT_OF_MEMORY("OutOfMemory", 12, "ENOMEM"),
	/** The thing asked for does not exist (ENOENT). */
	NOT_FOUND("NotFound", 2, "ENOENT"),
	/** A task failed (its kernel raised or returned an error) (ECANCELED). */
	TASK_FAILED("TaskFailed", 125, "ECANCELED"),
	/** A wait ran out of time (ETIMEDOUT). */
	TIMEOUT("Timeout", 110, "ETIMEDOUT");

	private final String coreName;
	private final int errno;
	private final String errnoName;

	ErrorKind(String coreName, int errno, String errnoName) {
		this.coreName = coreName;
		this.errno = errno;
		this.errnoName = errnoName;
	}

	/** The kind's stable name in the core ({@code InvalidArgument}...). */
	public String coreName() {
		return coreName;
	}

	/** The positive errno of this kind (StarPU's C API returns its negation). */
	public int errno() {
		return errno;
	}

	/** The symbolic name of {@link #errno} ({@code EINVAL}...). */
	public String errnoName() {
		return errnoName;
	}

	/** The kind the core calls {@code coreName}, or null. */
	public static ErrorKind named(String coreName) {
		for (ErrorKind k : values()) {
			if (k.coreName.equals(coreName)) {
				return k;
			}
		}
		return null;
	}

	/** A new exception of this kind's class. */
	StarPUException exception(String message, Throwable cause, String taskName) {
		switch (this) {
			case INVALID_ARGUMENT:
				return new InvalidArgumentException(message, cause, taskName);
			case NO_DEVICE:
				return new NoDeviceException(message, cause, taskName);
			case DEADLOCK:
				return new DeadlockException(message, cause, taskName);
			case NOT_INITIALIZED:
				return new NotInitializedException(message, cause, taskName);
			case UNSUPPORTED:
				return new UnsupportedException(message, cause, taskName);
			case OUT_OF_MEMORY:
				return new OutOfMemoryException(message, cause, taskName);
			case NOT_FOUND:
				return new NotFoundException(message, cause, taskName);
			case TASK_FAILED:
				return new TaskFailedException(message, cause, taskName);
			case TIMEOUT:
				return new TimeoutException(message, cause, taskName);
			default:
				throw new AssertionError(this);
		}
	}
}
