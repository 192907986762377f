package fr.labri.hpccloud.starpu.internal;

/**
 * A task's buffer on a device, as the OpenCL and CUDA implementations of a codelet see it:
 * {@link #getNy} rows of {@link #getNx} elements, {@link #getLd} apart (a vector is one
 * row, a variable one element; StarPU's {@code nx}, {@code ny}, {@code ld}).
 */
public abstract class DeviceArray {
	/** The call whose task the buffer belongs to. */
	final DeviceCall call;
	private final int index;
	private final int nx, ny, ld, elemSize;

	/** From {@code shape}, the {@code Native.BUFFER_*} entries the native library gave. */
	protected DeviceArray(DeviceCall call, int index, long[] shape) {
		this.call = call;
		this.index = index;
		this.nx = (int) shape[Native.BUFFER_NX];
		this.ny = (int) shape[Native.BUFFER_NY];
		this.ld = (int) shape[Native.BUFFER_LD];
		this.elemSize = (int) shape[Native.BUFFER_ELEMSIZE];
	}

	/** The buffer's index among the task's buffers. */
	public int getIndex() {
		return index;
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
