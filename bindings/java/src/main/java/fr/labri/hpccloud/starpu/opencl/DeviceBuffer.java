package fr.labri.hpccloud.starpu.opencl;

/**
 * A task's buffer on an OpenCL device ({@link OpenCLCall#getBuffer}): an OpenCL memory
 * object, and where the data lies in it, in elements. Data that is a piece of a
 * partitioned handle lies inside its parent's memory object, from element
 * {@link #getFirst}; a matrix is {@link #getNy} rows of {@link #getNx} elements,
 * {@link #getLd} apart (StarPU's {@code dev_handle}, {@code offset}, {@code nx},
 * {@code ny}, {@code ld}). A kernel gets the memory object from
 * {@link Kernel#arg(DeviceBuffer)} and the numbers as arguments of their own.
 */
public final class DeviceBuffer {
	final OpenCLCall call;
	final int index;
	private final long first;
	private final int nx, ny, ld, elemSize;

	DeviceBuffer(OpenCLCall call, int index, long first, int nx, int ny, int ld, int elemSize) {
		this.call = call;
		this.index = index;
		this.first = first;
		this.nx = nx;
		this.ny = ny;
		this.ld = ld;
		this.elemSize = elemSize;
	}

	/** The buffer's index among the task's buffers. */
	public int getIndex() {
		return index;
	}

	/** The index of the data's first element in the memory object. */
	public long getFirst() {
		return first;
	}

	/** Elements in a row (a vector's size; 1 for a variable). */
	public int getNx() {
		return nx;
	}

	/** Rows (1 for a vector or a variable). */
	public int getNy() {
		return ny;
	}

	/** Elements from the start of a row to the start of the next. */
	public int getLd() {
		return ld;
	}

	/** Bytes per element. */
	public int getElemSize() {
		return elemSize;
	}

	/** The number of elements: {@code nx * ny}. */
	public long getCount() {
		return (long) nx * ny;
	}
}
