package fr.labri.hpccloud.starpu.data;

import fr.labri.hpccloud.starpu.internal.Native;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;

/**
 * A vector of {@code double} values in native memory shared with the runtime (see
 * {@link ScalarVectorHandle}).
 */
public class DoubleVectorHandle extends ScalarVectorHandle<Double> {
	private DoubleVectorHandle(long handle, ByteBuffer bytes, int size) {
		super(handle, bytes, size, 8);
	}

	/** Registers a new vector of {@code size} zeros. */
	public static DoubleVectorHandle register(int size) {
		return wrap(Memory.allocate(size, 8), size);
	}

	/**
	 * Registers the first {@code size} values of {@code buffer} (direct, native byte order),
	 * without copy: the runtime and the buffer share the memory from now on.
	 */
	public static DoubleVectorHandle wrap(ByteBuffer buffer, int size) {
		return new DoubleVectorHandle(register(buffer, Native.KIND_DOUBLE, size), buffer, size);
	}

	/**
	 * Registers a vector of {@code size} elements without memory: the runtime allocates it
	 * where it is first needed (the first task using it must write it).
	 */
	public static DoubleVectorHandle registerLazy(int size) {
		return new DoubleVectorHandle(register(null, Native.KIND_DOUBLE, size), null, size);
	}

	public double getValueAt(int index) {
		return bytes().getDouble(offset(index));
	}

	public void setValueAt(int index, double value) {
		bytes().putDouble(offset(index), value);
	}

	/** This vector's values as a buffer (a view: no copy). */
	public DoubleBuffer asBuffer() {
		return view().asDoubleBuffer();
	}

	@Override
	ScalarVectorHandle<Double> over(long handle, ByteBuffer bytes, int size) {
		return new DoubleVectorHandle(handle, bytes, size);
	}
}
