package fr.labri.hpccloud.starpu.internal;

import fr.labri.hpccloud.starpu.Codelet;
import fr.labri.hpccloud.starpu.data.DataHandle;

import java.nio.ByteBuffer;
import java.util.function.BooleanSupplier;

/**
 * The native methods of the library (implemented in Rust, over the runtime's core). Not
 * for applications: use {@link fr.labri.hpccloud.starpu.StarPU}, tasks and data handles.
 * Errors are thrown as the {@link fr.labri.hpccloud.starpu.StarPUException} subclass of
 * their kind. The constants below are this class's protocol with the native library
 * (bindings/java/native/src/protocol.rs names them the same way; a test checks the values).
 */
public final class Native {
	static {
		Loader.load();
	}

	/** Element kinds of registered buffers. */
	public static final int KIND_BYTE = 0, KIND_INT = 1, KIND_LONG = 2, KIND_FLOAT = 3, KIND_DOUBLE = 4;
	/** Shapes of registered buffers. */
	public static final int SHAPE_VARIABLE = 0, SHAPE_VECTOR = 1, SHAPE_MATRIX = 2;
	/** Submission flags. */
	public static final int SYNC = 1, NODETACH = 2, TAGGED = 4;
	/** How {@link #unregister} forgets a handle. */
	public static final int UNREGISTER = 0, UNREGISTER_NO_COHERENCY = 1, UNREGISTER_SUBMIT = 2;
	/** Filters. */
	public static final int FILTER_VECTOR_BLOCK = 0, FILTER_MATRIX_BLOCK = 1, FILTER_MATRIX_VERTICAL_BLOCK = 2;
	/** Partition plan switches. */
	public static final int PLAN_PARTITION = 0, PLAN_PARTITION_READONLY = 1, PLAN_READWRITE_UPGRADE = 2,
			PLAN_READONLY_DOWNGRADE = 3, PLAN_UNPARTITION = 4, PLAN_UNPARTITION_READONLY = 5, PLAN_CLEAN = 6;
	/** Codelet types ({@link fr.labri.hpccloud.starpu.CodeletType}). */
	public static final int TYPE_SEQ = 0, TYPE_SPMD = 1, TYPE_FORKJOIN = 2;
	/** The entries of {@link #layout}. */
	public static final int LAYOUT_ADDRESS = 0, LAYOUT_NX = 1, LAYOUT_NY = 2, LAYOUT_LD = 3;
	/** Where a codelet has implementations ({@link fr.labri.hpccloud.starpu.WorkerType}'s bits). */
	public static final int WHERE_CPU = 1, WHERE_OPENCL = 2, WHERE_CUDA = 4;
	/** The entries of {@link #openclBuffer} and {@link #cudaBuffer} (in elements). */
	public static final int BUFFER_FIRST = 0, BUFFER_NX = 1, BUFFER_NY = 2, BUFFER_LD = 3, BUFFER_ELEMSIZE = 4;
	/** Kinds of kernel arguments ({@link #openclLaunch}, {@link #cudaLaunch}). */
	public static final int ARG_BUFFER = 0, ARG_BYTE = 1, ARG_SHORT = 2, ARG_INT = 3, ARG_LONG = 4, ARG_FLOAT = 5,
			ARG_DOUBLE = 6, ARG_LOCAL = 7;

	private Native() {
	}

	// The runtime.

	public static native void setenv(String name, String value, boolean overwrite);

	public static native void init();

	public static native void shutdown();

	public static native boolean isInitialized();

	public static native int workerCount();

	/** The number of workers of a type ({@code WHERE_*}). */
	public static native int workerCountOf(int where);

	public static native int workerId();

	public static native int combinedWorkerSize();

	public static native int combinedWorkerRank();

	// Codelets and tasks.

	/** The runtime's codelet; {@code where}: its implementations ({@code WHERE_*} bits). */
	public static native long codelet(String name, int[] modes, int type, int maxParallelism, int where);

	public static native long taskCreate();

	public static native void taskFree(long task);

	public static native long taskId(long task);

	public static native void taskDeclareDeps(long task, long[] preds, boolean end);

	/** Waits for the task; {@code timeoutNanos} < 0: without a time limit. */
	public static native void taskWait(long task, long timeoutNanos);

	public static native long submit(long task, long codelet, Invocation invocation, long[] handles, int[] modes,
			int flags, int priority, String name, Runnable callback, long tag, int context, long transaction);

	public static native void waitTasks(long[] ids);

	public static native void waitForAll();

	public static native void tagDeclareDeps(long tag, long[] deps);

	public static native void tagNotify(long tag);

	public static native void tagWait(long[] tags);

	// Scheduling contexts and transactions.

	public static native int contextCreate(String name, String policy, int[] workers);

	public static native void contextAddWorkers(int context, int[] workers);

	public static native void contextRemoveWorkers(int context, int[] workers);

	public static native void contextSetInheritor(int context, int heir);

	public static native void contextDelete(int context);

	public static native long transactionOpen(BooleanSupplier start);

	public static native void transactionNextEpoch(long transaction, BooleanSupplier start);

	public static native void transactionClose(long transaction);

	public static native void transactionFree(long transaction);

	// Data.

	/** Registers {@code buffer} (null: no home buffer) as a variable, vector or matrix of {@code nx} x {@code ny}. */
	public static native long register(ByteBuffer buffer, int kind, int shape, int nx, int ny);

	public static native long registerObjects(int count);

	public static native boolean isRegistered(long handle);

	public static native void unregister(long handle, int how);

	/** Acquires; returns the main-memory replica of data registered without a home, null for others. */
	public static native ByteBuffer acquire(long handle, int mode);

	public static native void release(long handle);

	public static native void invalidate(long handle);

	public static native void setSequentialConsistency(long handle, boolean on);

	/** The main-memory replica of the handle, null while it has none. */
	public static native ByteBuffer buffer(long handle);

	/** The handle's main-memory layout: {@code LAYOUT_*} entries (in elements, but the address). */
	public static native long[] layout(long handle);

	public static native void partition(long handle, int filter, int parts);

	public static native void unpartition(long handle);

	public static native int nchildren(long handle);

	/** Child {@code index} of the partition of the handle, 0 if there is none. */
	public static native long child(long handle, int index);

	public static native long[] partitionPlan(long handle, int filter, int parts);

	public static native void planSwitch(long handle, long[] children, int how);

	public static native int nplans(long handle);

	public static native void setReductionMethods(long handle, DataHandle shape, Codelet redux, Codelet init);

	// OpenCL: programs, and what an OpenCL implementation asks of its call (the address of
	// the running call, checked by the library against the call its thread runs).

	/** An OpenCL program from source text, or ({@code file}) from the source file so named. */
	public static native long programCreate(String text, String options, boolean file);

	public static native void programFree(long program);

	/** The number of the call's OpenCL device among the runtime's. */
	public static native int openclDevice(long call);

	public static native String openclDeviceName(long call);

	/** Where buffer {@code index} of the call lies on its device: {@code BUFFER_*} entries. */
	public static native long[] openclBuffer(long call, int index);

	/**
	 * Builds kernel {@code name} of {@code program} for the call's device, sets its arguments
	 * ({@code ARG_*} kinds, each value as the bits of a long; a buffer by its index) and runs
	 * it over {@code global} work items, in groups of {@code local} (null: the driver's choice).
	 */
	public static native void openclLaunch(long call, long program, String name, int[] kinds, long[] values,
			long[] global, long[] local);

	// CUDA: programs, and what a CUDA implementation asks of its call (as for OpenCL).

	/** A CUDA program from CUDA C source (NVRTC {@code options}), or ({@code ptx}) PTX text. */
	public static native long cudaProgramCreate(String text, String options, boolean ptx);

	public static native void cudaProgramFree(long program);

	/** The number of the call's GPU among the runtime's CUDA devices. */
	public static native int cudaDevice(long call);

	public static native String cudaDeviceName(long call);

	/** Buffer {@code index} of the call on its GPU: {@code BUFFER_*} entries ({@code BUFFER_FIRST} 0). */
	public static native long[] cudaBuffer(long call, int index);

	/**
	 * Queues kernel {@code name} of {@code program} on the call's stream, with its arguments
	 * ({@code ARG_*} kinds as for {@link #openclLaunch}; no {@code ARG_LOCAL}), over a
	 * {@code grid} of blocks of {@code block} threads (1 to 3 dimensions) with
	 * {@code sharedMem} bytes of dynamic shared memory.
	 */
	public static native void cudaLaunch(long call, long program, String name, int[] kinds, long[] values,
			long[] grid, long[] block, int sharedMem);
}
