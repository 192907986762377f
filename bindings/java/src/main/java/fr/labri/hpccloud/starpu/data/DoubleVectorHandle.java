package fr.labri.hpccloud.starpu.data;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;

/**
 * A vector of {@code double} values in native memory shared with the runtime (see
 * {@link ScalarVectorHandle}).
 */
public class DoubleVectorHandle extends ScalarVectorHandle<Double> {
	private final DoubleBuffer values;

	private DoubleVectorHandle(long handle, ByteBuffer bytes, int first, int size, boolean child) {
		super(handle, bytes, first, size, child);
		this.values = bytes.duplicate().order(bytes.order()).asDoubleBuffer();
	}

	/** Registers a new vector of {@code size} zeros. */
	public static DoubleVectorHandle register(int size) {
		return wrap(allocate(size, 8), size);
	}

	/**
	 * Registers the first {@code size} values of {@code buffer} (direct, native byte order),
	 * without copy: the runtime and the buffer share the memory from now on.
	 */
	public static DoubleVectorHandle wrap(ByteBuffer buffer, int size) {
		return new DoubleVectorHandle(register(buffer, fr.labri.hpccloud.starpu.internal.Native.KIND_DOUBLE, size, false), buffer, 0, size, false).setRegistered();
	}

	public double getValueAt(int index) {
		return values.get(slot(index));
	}

	public void setValueAt(int index, double value) {
		values.put(slot(index), value);
	}

	/** This vector's values as a buffer (a view: no copy). */
	public DoubleBuffer asBuffer() {
		DoubleBuffer b = values.duplicate();
		b.position(first).limit(first + size);
		return b.slice();
	}

	@Override
	public DataHandle lentView(ByteBuffer lent) {
		return new DoubleVectorHandle(0, lent, 0, lent.capacity() / 8, true);
	}

	@Override
	protected DataHandle newChild(long handle, int first, int length) {
		return new DoubleVectorHandle(handle, bytes, this.first + first, length, true);
	}
}
