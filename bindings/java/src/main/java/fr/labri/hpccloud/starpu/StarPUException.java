package fr.labri.hpccloud.starpu;

/**
 * A runtime call failed: the runtime is not running, an argument is wrong, or a task
 * failed. When a task failed because its codelet threw, the cause is what it threw.
 */
public class StarPUException extends Exception {
	private static final long serialVersionUID = 1L;

	public StarPUException() {
		super();
	}

	public StarPUException(String message) {
		super(message);
	}

	public StarPUException(String message, Throwable cause) {
		super(message, cause);
	}

	/** With the errno StarPU's C API returns for this error (EINVAL, ENODEV...; 0: unknown). */
	public StarPUException(String message, Throwable cause, int errno) {
		super(message, cause);
		this.errno = errno;
	}

	private int errno;

	/** The errno StarPU's C API returns for this error (positive; 0 when unknown). */
	public int getErrno() {
		return errno;
	}
}
