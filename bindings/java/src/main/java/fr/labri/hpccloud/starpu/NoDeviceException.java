// Generated from starpu-core by bindings/java/native/src/codegen.rs: do not edit.
// After a change in the core: STARPU_JAVA_REGENERATE=1 cargo test -p starpu-java codegen
package fr.labri.hpccloud.starpu;

/** No worker can run the task: errno 19 (ENODEV), kind {@link ErrorKind#NO_DEVICE}. */
public class NoDeviceException extends StarPUException {
	private static final long serialVersionUID = 1L;

	public NoDeviceException(String message) {
		this(message, null, null);
	}

	/** With the exception that caused it (a failed task's) and the task's name (or null). */
	public NoDeviceException(String message, Throwable cause, String taskName) {
		super(ErrorKind.NO_DEVICE, message, cause, taskName);
	}
}
