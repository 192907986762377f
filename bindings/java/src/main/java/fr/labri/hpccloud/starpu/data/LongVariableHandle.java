package fr.labri.hpccloud.starpu.data;

import java.nio.ByteBuffer;
import java.nio.LongBuffer;

/**
 * One {@code long} in native memory shared with the runtime: tasks and Java read and write
 * it in place.
 */
public class LongVariableHandle extends DataHandle {
	private final ByteBuffer bytes;
	private final LongBuffer value;

	protected LongVariableHandle(long handle) {
		super(handle);
		throw new UnsupportedOperationException("variables are made by register()");
	}

	private LongVariableHandle(long handle, ByteBuffer bytes) {
		super(handle);
		this.bytes = bytes;
		this.value = bytes.asLongBuffer();
	}

	/** Registers a new variable holding 0. */
	public static LongVariableHandle register() {
		ByteBuffer b = ScalarVectorHandle.allocate(1, 8);
		return new LongVariableHandle(ScalarVectorHandle.register(b, fr.labri.hpccloud.starpu.internal.Native.KIND_LONG, 1, true), b).setRegistered();
	}

	public long getValue() {
		return value.get(0);
	}

	public void setValue(long v) {
		value.put(0, v);
	}

	@Override
	public DataHandle lentView(ByteBuffer lent) {
		return new LongVariableHandle(0, lent);
	}

	@Override
	protected DataHandle newChild(long handle, int first, int length) {
		throw new UnsupportedOperationException("a variable has no parts");
	}
}
