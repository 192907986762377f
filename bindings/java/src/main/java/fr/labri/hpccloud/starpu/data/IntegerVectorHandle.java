package fr.labri.hpccloud.starpu.data;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;

/**
 * A vector of {@code int} values in native memory shared with the runtime (see
 * {@link ScalarVectorHandle}).
 */
public class IntegerVectorHandle extends ScalarVectorHandle<Integer> {
	private final IntBuffer values;

	private IntegerVectorHandle(long handle, ByteBuffer bytes, int first, int size, boolean child) {
		super(handle, bytes, first, size, child);
		this.values = bytes.duplicate().order(bytes.order()).asIntBuffer();
	}

	/** Registers a new vector of {@code size} zeros. */
	public static IntegerVectorHandle register(int size) {
		return wrap(allocate(size, 4), size);
	}

	/**
	 * Registers the first {@code size} values of {@code buffer} (direct, native byte order),
	 * without copy: the runtime and the buffer share the memory from now on.
	 */
	public static IntegerVectorHandle wrap(ByteBuffer buffer, int size) {
		return new IntegerVectorHandle(register(buffer, fr.labri.hpccloud.starpu.internal.Native.KIND_INT, size, false), buffer, 0, size, false).setRegistered();
	}

	public int getValueAt(int index) {
		return values.get(slot(index));
	}

	public void setValueAt(int index, int value) {
		values.put(slot(index), value);
	}

	/** This vector's values as a buffer (a view: no copy). */
	public IntBuffer asBuffer() {
		IntBuffer b = values.duplicate();
		b.position(first).limit(first + size);
		return b.slice();
	}

	@Override
	public DataHandle lentView(ByteBuffer lent) {
		return new IntegerVectorHandle(0, lent, 0, lent.capacity() / 4, true);
	}

	@Override
	protected DataHandle newChild(long handle, int first, int length) {
		return new IntegerVectorHandle(handle, bytes, this.first + first, length, true);
	}
}
