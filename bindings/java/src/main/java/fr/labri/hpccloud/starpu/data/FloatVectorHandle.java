package fr.labri.hpccloud.starpu.data;

import fr.labri.hpccloud.starpu.internal.Native;

import java.nio.ByteBuffer;
import java.nio.FloatBuffer;

/**
 * A vector of {@code float} values in native memory shared with the runtime (see
 * {@link ScalarVectorHandle}).
 */
public class FloatVectorHandle extends ScalarVectorHandle<Float> {
	private FloatVectorHandle(long handle, ByteBuffer bytes, int size) {
		super(handle, bytes, size, 4);
	}

	/** Registers a new vector of {@code size} zeros. */
	public static FloatVectorHandle register(int size) {
		return wrap(Memory.allocate(size, 4), size);
	}

	/**
	 * Registers the first {@code size} values of {@code buffer} (direct, native byte order),
	 * without copy: the runtime and the buffer share the memory from now on.
	 */
	public static FloatVectorHandle wrap(ByteBuffer buffer, int size) {
		return new FloatVectorHandle(register(buffer, Native.KIND_FLOAT, size), buffer, size);
	}

	/**
	 * Registers a vector of {@code size} elements without memory: the runtime allocates it
	 * where it is first needed (the first task using it must write it).
	 */
	public static FloatVectorHandle registerLazy(int size) {
		return new FloatVectorHandle(register(null, Native.KIND_FLOAT, size), null, size);
	}

	public float getValueAt(int index) {
		return bytes().getFloat(offset(index));
	}

	public void setValueAt(int index, float value) {
		bytes().putFloat(offset(index), value);
	}

	/** This vector's values as a buffer (a view: no copy). */
	public FloatBuffer asBuffer() {
		return view().asFloatBuffer();
	}

	@Override
	ScalarVectorHandle<Float> over(long handle, ByteBuffer bytes, int size) {
		return new FloatVectorHandle(handle, bytes, size);
	}
}
