package fr.labri.hpccloud.starpu.data;

import java.nio.ByteBuffer;
import java.nio.FloatBuffer;

/**
 * A vector of {@code float} values in native memory shared with the runtime (see
 * {@link ScalarVectorHandle}).
 */
public class FloatVectorHandle extends ScalarVectorHandle<Float> {
	private final FloatBuffer values;

	private FloatVectorHandle(long handle, ByteBuffer bytes, int first, int size, boolean child) {
		super(handle, bytes, first, size, child);
		this.values = bytes.duplicate().order(bytes.order()).asFloatBuffer();
	}

	/** Registers a new vector of {@code size} zeros. */
	public static FloatVectorHandle register(int size) {
		return wrap(allocate(size, 4), size);
	}

	/**
	 * Registers the first {@code size} values of {@code buffer} (direct, native byte order),
	 * without copy: the runtime and the buffer share the memory from now on.
	 */
	public static FloatVectorHandle wrap(ByteBuffer buffer, int size) {
		return new FloatVectorHandle(register(buffer, fr.labri.hpccloud.starpu.internal.Native.KIND_FLOAT, size, false), buffer, 0, size, false).setRegistered();
	}

	public float getValueAt(int index) {
		return values.get(slot(index));
	}

	public void setValueAt(int index, float value) {
		values.put(slot(index), value);
	}

	/** This vector's values as a buffer (a view: no copy). */
	public FloatBuffer asBuffer() {
		FloatBuffer b = values.duplicate();
		b.position(first).limit(first + size);
		return b.slice();
	}

	@Override
	public DataHandle lentView(ByteBuffer lent) {
		return new FloatVectorHandle(0, lent, 0, lent.capacity() / 4, true);
	}

	@Override
	protected DataHandle newChild(long handle, int first, int length) {
		return new FloatVectorHandle(handle, bytes, this.first + first, length, true);
	}
}
