// Generated from starpu-core by bindings/java/native/src/codegen.rs: do not edit.
// After a change in the core: STARPU_JAVA_REGENERATE=1 cargo test -p starpu-java codegen
package fr.labri.hpccloud.starpu;

/** Memory for data is exhausted: errno 12 (ENOMEM), kind {@link ErrorKind#OUT_OF_MEMORY}. */
public class OutOfMemoryException extends StarPUException {
	private static final long serialVersionUID = 1L;

	public OutOfMemoryException(String message) {
		this(message, null, null);
	}

	/** With the exception that caused it (a failed task's) and the task's name (or null). */
	public OutOfMemoryException(String message, Throwable cause, String taskName) {
		super(ErrorKind.OUT_OF_MEMORY, message, cause, taskName);
	}
}
