package fr.labri.hpccloud.starpu.opencl;

import fr.labri.hpccloud.starpu.data.DataHandle;
import fr.labri.hpccloud.starpu.data.VectorHandle;
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
public final class OpenCLCall {
	/** The runtime's call this one stands for (checked by the native library at each use). */
	private final long call;
	private final DataHandle[] handles;

	/** Made by the runtime's OpenCL workers only. */
	private OpenCLCall(long call, Invocation invocation) {
		this.call = call;
		this.handles = invocation.buffers();
	}

	/** The number of the worker's device among the runtime's OpenCL devices (StarPU's {@code devid}). */
	public int getDeviceId() {
		return Native.openclDevice(call);
	}

	/** The device's name, as OpenCL gives it. */
	public String getDeviceName() {
		return Native.openclDeviceName(call);
	}

	/** The number of buffers of the task. */
	public int getNbBuffers() {
		return handles.length;
	}

	/** The task's handles, in order (their values are on the device: read them there). */
	public DataHandle[] getHandles() {
		return handles.clone();
	}

	/**
	 * Buffer {@code index} of the task on the device: what a kernel gets as a
	 * {@code __global} pointer ({@link Kernel#arg(DeviceBuffer)}), and where the data lies in
	 * it. Vectors, matrices and variables of primitive numbers have a device form; a
	 * {@link VectorHandle} of Java objects does not.
	 */
	public DeviceBuffer getBuffer(int index) {
		if (index < 0 || index >= handles.length) {
			throw new IndexOutOfBoundsException("buffer " + index + " of a task of " + handles.length + " buffers");
		}
		if (handles[index] instanceof VectorHandle) {
			throw new IllegalArgumentException("buffer " + index + " is a vector of Java objects: it has no OpenCL form");
		}
		long[] s = Native.openclBuffer(call, index);
		return new DeviceBuffer(this, index, s[Native.BUFFER_FIRST], (int) s[Native.BUFFER_NX],
				(int) s[Native.BUFFER_NY], (int) s[Native.BUFFER_LD], (int) s[Native.BUFFER_ELEMSIZE]);
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

	long pointer() {
		return call;
	}
}
