package fr.labri.hpccloud.starpu.cuda;

import fr.labri.hpccloud.starpu.internal.DeviceArray;

/**
 * A task's buffer on a GPU ({@link CudaCall#getBuffer}): a kernel gets the address of the
 * data's first element from {@link Kernel#arg(DeviceBuffer)} (a piece of a partitioned
 * handle has its own), and the layout as arguments of their own: a matrix is
 * {@link #getNy} rows of {@link #getNx} elements, {@link #getLd} apart.
 */
public final class DeviceBuffer extends DeviceArray {
	DeviceBuffer(CudaCall call, int index, long[] shape) {
		super(call, index, shape);
	}
}
