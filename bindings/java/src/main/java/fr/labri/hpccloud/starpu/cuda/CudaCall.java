package fr.labri.hpccloud.starpu.cuda;

import fr.labri.hpccloud.starpu.internal.DeviceCall;
import fr.labri.hpccloud.starpu.internal.Invocation;
import fr.labri.hpccloud.starpu.internal.Native;

/**
 * What the CUDA implementation of a codelet ({@link fr.labri.hpccloud.starpu.Codelet#runCUDA})
 * works with, for one task on one CUDA worker: the task's buffers on the worker's GPU
 * ({@link #getBuffer}) and kernels to launch on them ({@link #kernel}), queued on the
 * worker's stream. The task ends when its kernels are done. It is valid during that call
 * only, on the worker's thread: kept and used later (or elsewhere), every method throws
 * {@link fr.labri.hpccloud.starpu.InvalidArgumentException}.
 *
 * <pre>{@code
 * static final Program PROGRAM = new Program(
 *     "extern \"C\" __global__ void scale(float *v, unsigned n, float k) {\n"
 *   + "    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n"
 *   + "    if (i < n) v[i] *= k;\n"
 *   + "}");
 *
 * public void runCUDA(CudaCall call) {
 *     DeviceBuffer v = call.getBuffer(0);
 *     int n = (int) v.getCount();
 *     call.kernel(PROGRAM, "scale").arg(v).arg(n).arg(2.0f).launch((n + 255) / 256, 256);
 * }
 * }</pre>
 */
public final class CudaCall extends DeviceCall {
	/** Made by the runtime's CUDA workers only. */
	private CudaCall(long call, Invocation invocation) {
		super(call, invocation);
	}

	/** The number of the worker's GPU among the runtime's CUDA devices (StarPU's {@code devid}). */
	public int getDeviceId() {
		return Native.cudaDevice(pointer());
	}

	/** The GPU's name, as CUDA gives it. */
	public String getDeviceName() {
		return Native.cudaDeviceName(pointer());
	}

	/**
	 * Buffer {@code index} of the task on the GPU: what a kernel gets as a pointer to the
	 * data's first element ({@link Kernel#arg(DeviceBuffer)}), and its layout. Vectors,
	 * matrices and variables of primitive numbers have a device form; a
	 * {@link fr.labri.hpccloud.starpu.data.VectorHandle} of Java objects does not.
	 */
	public DeviceBuffer getBuffer(int index) {
		checkBuffer(index, "CUDA");
		return new DeviceBuffer(this, index, Native.cudaBuffer(pointer(), index));
	}

	/**
	 * Kernel {@code name} of {@code program}, to give arguments to and launch on this
	 * worker's stream. NVRTC compiles the program for the GPU at the first launch there.
	 */
	public Kernel kernel(Program program, String name) {
		if (program == null || name == null) {
			throw new NullPointerException("kernel: a program and a kernel name are needed");
		}
		return new Kernel(this, program, name);
	}
}
