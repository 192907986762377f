package fr.labri.hpccloud.starpu.data;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;

/**
 * One {@code double} in native memory shared with the runtime: tasks and Java read and write
 * it in place.
 */
public class DoubleVariableHandle extends DataHandle {
	private final ByteBuffer bytes;
	private final DoubleBuffer value;

	protected DoubleVariableHandle(long handle) {
		super(handle);
		throw new UnsupportedOperationException("variables are made by register()");
	}

	private DoubleVariableHandle(long handle, ByteBuffer bytes) {
		super(handle);
		this.bytes = bytes;
		this.value = bytes.asDoubleBuffer();
	}

	/** Registers a new variable holding 0. */
	public static DoubleVariableHandle register() {
		ByteBuffer b = ScalarVectorHandle.allocate(1, 8);
		return new DoubleVariableHandle(ScalarVectorHandle.register(b, fr.labri.hpccloud.starpu.internal.Native.KIND_DOUBLE, 1, true), b).setRegistered();
	}

	public double getValue() {
		return value.get(0);
	}

	public void setValue(double v) {
		value.put(0, v);
	}

	@Override
	public DataHandle lentView(ByteBuffer lent) {
		return new DoubleVariableHandle(0, lent);
	}

	@Override
	protected DataHandle newChild(long handle, int first, int length) {
		throw new UnsupportedOperationException("a variable has no parts");
	}
}
