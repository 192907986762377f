package fr.labri.hpccloud.starpu.data;

import fr.labri.hpccloud.starpu.internal.Native;

import java.nio.ByteBuffer;
import java.nio.LongBuffer;

/**
 * A vector of {@code long} values in native memory shared with the runtime (see
 * {@link ScalarVectorHandle}).
 */
public class LongVectorHandle extends ScalarVectorHandle<Long> {
	private LongVectorHandle(long handle, ByteBuffer bytes, int size) {
		super(handle, bytes, size, 8);
	}

	/** Registers a new vector of {@code size} zeros. */
	public static LongVectorHandle register(int size) {
		return wrap(Memory.allocate(size, 8), size);
	}

	/**
	 * Registers the first {@code size} values of {@code buffer} (direct, native byte order),
	 * without copy: the runtime and the buffer share the memory from now on.
	 */
	public static LongVectorHandle wrap(ByteBuffer buffer, int size) {
		return new LongVectorHandle(register(buffer, Native.KIND_LONG, size), buffer, size);
	}

	/**
	 * Registers a vector of {@code size} elements without memory: the runtime allocates it
	 * where it is first needed (the first task using it must write it).
	 */
	public static LongVectorHandle registerLazy(int size) {
		return new LongVectorHandle(register(null, Native.KIND_LONG, size), null, size);
	}

	public long getValueAt(int index) {
		return bytes().getLong(offset(index));
	}

	public void setValueAt(int index, long value) {
		bytes().putLong(offset(index), value);
	}

	/** This vector's values as a buffer (a view: no copy). */
	public LongBuffer asBuffer() {
		return view().asLongBuffer();
	}

	@Override
	ScalarVectorHandle<Long> over(long handle, ByteBuffer bytes, int size) {
		return new LongVectorHandle(handle, bytes, size);
	}
}
