package fr.labri.hpccloud.starpu;

import fr.labri.hpccloud.starpu.data.DataHandle;
import fr.labri.hpccloud.starpu.internal.Native;
import fr.labri.hpccloud.starpu.cuda.CudaCall;
import fr.labri.hpccloud.starpu.opencl.OpenCLCall;

import java.util.EnumSet;
import java.util.Set;

/**
 * A computation that tasks apply to data handles: {@link #run} receives the task's handles,
 * in the access modes {@link #getAccessModes} declares, one per buffer. It runs on one of the
 * runtime's CPU workers; an exception it throws fails its task, and the waiting call
 * ({@link StarPU#taskWaitForAll}, {@link Task#waitFor}, a synchronous submission...) throws a
 * {@link TaskFailedException} whose cause is that very exception.
 * <p>
 * A codelet may also have an OpenCL implementation, {@link #runOpenCL}, that launches
 * OpenCL kernels on the task's data on an OpenCL device; {@link #getWhere} says which
 * implementations it has, and the runtime runs each task on a worker of one of those kinds
 * (see {@link fr.labri.hpccloud.starpu.opencl.OpenCLCodelet} for a codelet with an OpenCL
 * implementation only). A CUDA implementation, {@link #runCUDA}, launches CUDA kernels on
 * the task's data on an NVIDIA GPU the same way
 * ({@link fr.labri.hpccloud.starpu.cuda.CudaCodelet}).
 */
public abstract class Codelet {
	/** The runtime's codelet for this one, made at the first submission. */
	private volatile long nativeId = -1;

	public abstract void run(DataHandle[] buffers);

	public final int getNbBuffers() {
		return getAccessModes().length;
	}

	/** The access mode of each buffer; {@code null} lets each task choose its buffers and modes. */
	public abstract DataHandle.AccessMode[] getAccessModes();

	/**
	 * The kinds of workers this codelet has an implementation for (StarPU's {@code where}):
	 * {@link WorkerType#CPU} ({@link #run}) by default. A codelet overriding
	 * {@link #runOpenCL} adds {@link WorkerType#OPENCL}, one overriding {@link #runCUDA}
	 * {@link WorkerType#CUDA}; without CPU, its tasks run on those workers only, and their
	 * submission throws {@link NoDeviceException} when there is none.
	 */
	public Set<WorkerType> getWhere() {
		return EnumSet.of(WorkerType.CPU);
	}

	/**
	 * The OpenCL implementation, run on an OpenCL worker when {@link #getWhere} has
	 * {@link WorkerType#OPENCL}: {@code call} gives the task's buffers on the worker's device
	 * and launches kernels of an {@link fr.labri.hpccloud.starpu.opencl.Program} on them. The
	 * data is on the device for the call and, for a write, comes back to main memory when
	 * Java reads it (an acquisition, a CPU task). An exception, such as a kernel that fails
	 * to build or launch, fails the task as one thrown by {@link #run} does.
	 */
	public void runOpenCL(OpenCLCall call) {
		throw new UnsupportedOperationException("codelet " + getName() + " has no OpenCL implementation");
	}

	/**
	 * The CUDA implementation, run on a CUDA worker when {@link #getWhere} has
	 * {@link WorkerType#CUDA}: {@code call} gives the task's buffers on the worker's GPU and
	 * queues kernels of a {@link fr.labri.hpccloud.starpu.cuda.Program} on the worker's
	 * stream; the task ends when they are done. The data is on the GPU for the call and, for
	 * a write, comes back to main memory when Java reads it. An exception, such as a kernel
	 * that fails to compile or launch, fails the task as one thrown by {@link #run} does.
	 */
	public void runCUDA(CudaCall call) {
		throw new UnsupportedOperationException("codelet " + getName() + " has no CUDA implementation");
	}

	public String getName() {
		return "codelet";
	}

	/** How many workers run one task ({@link CodeletType#SEQ}: one). */
	public CodeletType getType() {
		return CodeletType.SEQ;
	}

	/** For a parallel codelet: the most workers one task may take. */
	public int getMaxParallelism() {
		return Integer.MAX_VALUE;
	}

	final long nativeId() {
		long id = nativeId;
		if (id < 0) {
			DataHandle.AccessMode[] modes = getAccessModes();
			int[] bits = null;
			if (modes != null) {
				bits = new int[modes.length];
				for (int i = 0; i < modes.length; i++) {
					if (modes[i] == null) {
						throw new NullPointerException("codelet " + getName() + ": access mode " + i + " is null");
					}
					bits[i] = modes[i].bits();
				}
			}
			CodeletType t = getType();
			int type = t == CodeletType.SPMD ? Native.TYPE_SPMD : t == CodeletType.FORKJOIN ? Native.TYPE_FORKJOIN : Native.TYPE_SEQ;
			Set<WorkerType> where = getWhere();
			if (where == null) {
				throw new NullPointerException("codelet " + getName() + ": getWhere() returned null");
			}
			int whereBits = 0;
			for (WorkerType w : where) {
				whereBits |= w.bit();
			}
			id = Native.codelet(getName(), bits, type, getMaxParallelism(), whereBits);
			nativeId = id;
		}
		return id;
	}
}
