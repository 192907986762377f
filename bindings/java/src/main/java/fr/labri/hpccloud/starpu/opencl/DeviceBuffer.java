package fr.labri.hpccloud.starpu.opencl;

import fr.labri.hpccloud.starpu.internal.DeviceArray;
import fr.labri.hpccloud.starpu.internal.Native;

/**
 * A task's buffer on an OpenCL device ({@link OpenCLCall#getBuffer}): an OpenCL memory
 * object, and where the data lies in it, in elements. Data that is a piece of a
 * partitioned handle lies inside its parent's memory object, from element
 * {@link #getFirst}; a matrix is {@link #getNy} rows of {@link #getNx} elements,
 * {@link #getLd} apart (StarPU's {@code dev_handle}, {@code offset}, {@code nx},
 * {@code ny}, {@code ld}). A kernel gets the memory object from
 * {@link Kernel#arg(DeviceBuffer)} and the numbers as arguments of their own.
 */
public final class DeviceBuffer extends DeviceArray {
	private final long first;

	DeviceBuffer(OpenCLCall call, int index, long[] shape) {
		super(call, index, shape);
		this.first = shape[Native.BUFFER_FIRST];
	}

	/** The index of the data's first element in the memory object. */
	public long getFirst() {
		return first;
	}
}
