package fr.labri.hpccloud.starpu.data;

import java.nio.ByteBuffer;
import java.nio.LongBuffer;

/**
 * A vector of {@code long} values in native memory shared with the runtime (see
 * {@link ScalarVectorHandle}).
 */
public class LongVectorHandle extends ScalarVectorHandle<Long> {
	private final LongBuffer values;

	private LongVectorHandle(long handle, ByteBuffer bytes, int first, int size, boolean child) {
		super(handle, bytes, first, size, child);
		this.values = bytes.duplicate().order(bytes.order()).asLongBuffer();
	}

	/** Registers a new vector of {@code size} zeros. */
	public static LongVectorHandle register(int size) {
		return wrap(allocate(size, 8), size);
	}

	/**
	 * Registers the first {@code size} values of {@code buffer} (direct, native byte order),
	 * without copy: the runtime and the buffer share the memory from now on.
	 */
	public static LongVectorHandle wrap(ByteBuffer buffer, int size) {
		return new LongVectorHandle(register(buffer, fr.labri.hpccloud.starpu.internal.Native.KIND_LONG, size, false), buffer, 0, size, false).setRegistered();
	}

	public long getValueAt(int index) {
		return values.get(slot(index));
	}

	public void setValueAt(int index, long value) {
		values.put(slot(index), value);
	}

	/** This vector's values as a buffer (a view: no copy). */
	public LongBuffer asBuffer() {
		LongBuffer b = values.duplicate();
		b.position(first).limit(first + size);
		return b.slice();
	}

	@Override
	public DataHandle lentView(ByteBuffer lent) {
		return new LongVectorHandle(0, lent, 0, lent.capacity() / 8, true);
	}

	@Override
	protected DataHandle newChild(long handle, int first, int length) {
		return new LongVectorHandle(handle, bytes, this.first + first, length, true);
	}
}
