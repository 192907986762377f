package fr.labri.hpccloud.starpu.internal;

import fr.labri.hpccloud.starpu.Codelet;
import fr.labri.hpccloud.starpu.StarPUException;
import fr.labri.hpccloud.starpu.data.DataHandle;
import java.nio.ByteBuffer;

/**
 * The native methods of the library (implemented in Rust, over the runtime's core). Not
 * for applications: use {@link fr.labri.hpccloud.starpu.StarPU} and the data handles.
 * Errors are thrown as {@link fr.labri.hpccloud.starpu.StarPUException}.
 */
public final class Native {
	static {
		Loader.load();
	}

	/** Element kinds of registered buffers. */
	public static final int KIND_BYTE = 0, KIND_INT = 1, KIND_LONG = 2, KIND_FLOAT = 3, KIND_DOUBLE = 4;
	/** Submission flags. */
	public static final int SYNC = 1, WAITABLE = 2;

	private Native() {
	}

	public static native void setenv(String name, String value, boolean overwrite) throws StarPUException;

	public static native void init() throws StarPUException;

	public static native void shutdown() throws StarPUException;

	public static native boolean isInitialized();

	public static native int workerCount() throws StarPUException;

	public static native void waitForAll() throws StarPUException;

	public static native long codelet(String name, int[] modes) throws StarPUException;

	public static native long submit(long codelet, Invocation invocation, long[] handles, int[] modes,
			int flags, int priority, String name, Runnable callback) throws StarPUException;

	public static native void waitTasks(long[] ids) throws StarPUException;

	public static native long registerBuffer(ByteBuffer buffer, int kind, int count, boolean variable) throws StarPUException;

	public static native long registerObjects(int count) throws StarPUException;

	public static native void unregister(long handle, boolean later) throws StarPUException;

	public static native void acquire(long handle, int mode) throws StarPUException;

	public static native void release(long handle) throws StarPUException;

	public static native long partition(long handle, int parts) throws StarPUException;

	public static native long[] children(long handle) throws StarPUException;

	public static native void unpartition(long handle) throws StarPUException;

	public static native void setReductionMethods(long handle, DataHandle shape, Codelet redux, Codelet init)
			throws StarPUException;
}
