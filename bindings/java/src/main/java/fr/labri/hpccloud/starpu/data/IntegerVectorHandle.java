package fr.labri.hpccloud.starpu.data;

import fr.labri.hpccloud.starpu.internal.Native;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;

/**
 * A vector of {@code int} values in native memory shared with the runtime (see
 * {@link ScalarVectorHandle}).
 */
public class IntegerVectorHandle extends ScalarVectorHandle<Integer> {
	private IntegerVectorHandle(long handle, ByteBuffer bytes, int size) {
		super(handle, bytes, size, 4);
	}

	/** Registers a new vector of {@code size} zeros. */
	public static IntegerVectorHandle register(int size) {
		return wrap(Memory.allocate(size, 4), size);
	}

	/**
	 * Registers the first {@code size} values of {@code buffer} (direct, native byte order),
	 * without copy: the runtime and the buffer share the memory from now on.
	 */
	public static IntegerVectorHandle wrap(ByteBuffer buffer, int size) {
		return new IntegerVectorHandle(register(buffer, Native.KIND_INT, size), buffer, size);
	}

	/**
	 * Registers a vector of {@code size} elements without memory: the runtime allocates it
	 * where it is first needed (the first task using it must write it).
	 */
	public static IntegerVectorHandle registerLazy(int size) {
		return new IntegerVectorHandle(register(null, Native.KIND_INT, size), null, size);
	}

	public int getValueAt(int index) {
		return bytes().getInt(offset(index));
	}

	public void setValueAt(int index, int value) {
		bytes().putInt(offset(index), value);
	}

	/** This vector's values as a buffer (a view: no copy). */
	public IntBuffer asBuffer() {
		return view().asIntBuffer();
	}

	@Override
	ScalarVectorHandle<Integer> over(long handle, ByteBuffer bytes, int size) {
		return new IntegerVectorHandle(handle, bytes, size);
	}
}
