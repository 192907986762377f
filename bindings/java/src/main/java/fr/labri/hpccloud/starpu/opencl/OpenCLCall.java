package fr.labri.hpccloud.starpu.opencl;

import fr.labri.hpccloud.starpu.internal.DeviceCall;
import fr.labri.hpccloud.starpu.internal.Invocation;
import fr.labri.hpccloud.starpu.internal.Native;

/**
 * What the OpenCL implementation of a codelet ({@link fr.labri.hpccloud.starpu.Codelet#runOpenCL})
 * works with, for one task on one OpenCL worker: the task's buffers on the worker's device
 * ({@link #getBuffer}) and kernels to launch on them ({@link #kernel}). It is valid during
 * that call only, on the worker's thread: kept and used later (or elsewhere), every method
 * throws {@link fr.labri.hpccloud.starpu.InvalidArgumentException}.
 *
 * <pre>{@code
 * static final Program PROGRAM = new Program(
 *     "__kernel void scale(__global float *v, unsigned first, unsigned n, float k) {\n"
 *   + "    const size_t i = get_global_id(0);\n"
 *   + "    if (i < n) v[first + i] *= k;\n"
 *   + "}");
 *
 * public void runOpenCL(OpenCLCall call) {
 *     DeviceBuffer v = call.getBuffer(0);
 *     call.kernel(PROGRAM, "scale").arg(v).arg((int) v.getFirst()).arg((int) v.getCount()).arg(2.0f)
 *         .launch(v.getCount());
 * }
 * }</pre>
 */
public final class OpenCLCall extends DeviceCall {
	/** Made by the runtime's OpenCL workers only. */
	private OpenCLCall(long call, Invocation invocation) {
		super(call, invocation);
	}

	/** The number of the worker's device among the runtime's OpenCL devices (StarPU's {@code devid}). */
	public int getDeviceId() {
		return Native.openclDevice(pointer());
	}

	/** The device's name, as OpenCL gives it. */
	public String getDeviceName() {
		return Native.openclDeviceName(pointer());
	}

	/**
	 * Buffer {@code index} of the task on the device: what a kernel gets as a
	 * {@code __global} pointer ({@link Kernel#arg(DeviceBuffer)}), and where the data lies in
	 * it. Vectors, matrices and variables of primitive numbers have a device form; a
	 * {@link fr.labri.hpccloud.starpu.data.VectorHandle} of Java objects does not.
	 */
	public DeviceBuffer getBuffer(int index) {
		checkBuffer(index, "OpenCL");
		return new DeviceBuffer(this, index, Native.openclBuffer(pointer(), index));
	}

	/**
	 * Kernel {@code name} of {@code program}, to give arguments to and launch on this
	 * worker's device. The program is built for the device at the first launch there.
	 */
	public Kernel kernel(Program program, String name) {
		if (program == null || name == null) {
			throw new NullPointerException("kernel: a program and a kernel name are needed");
		}
		return new Kernel(this, program, name);
	}
}
