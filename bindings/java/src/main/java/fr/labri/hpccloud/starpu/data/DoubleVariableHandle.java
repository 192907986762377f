package fr.labri.hpccloud.starpu.data;

import fr.labri.hpccloud.starpu.internal.Native;

import java.nio.ByteBuffer;

/**
 * One {@code double} in native memory shared with the runtime: tasks and Java read and write
 * it in place.
 */
public class DoubleVariableHandle extends DataHandle {
	/** Null for data registered without a home (see {@link Memory#current}). */
	private final ByteBuffer bytes;

	protected DoubleVariableHandle(long handle) {
		super(handle);
		throw new UnsupportedOperationException("variables are made by register()");
	}

	private DoubleVariableHandle(long handle, ByteBuffer bytes) {
		super(handle);
		this.bytes = bytes;
	}

	/** Registers a new variable holding 0. */
	public static DoubleVariableHandle register() {
		ByteBuffer b = Memory.allocate(1, 8);
		return new DoubleVariableHandle(Memory.register(b, Native.KIND_DOUBLE, Native.SHAPE_VARIABLE, 1, 1), b);
	}

	/** Registers a variable without memory: the runtime allocates it where it is first needed. */
	public static DoubleVariableHandle registerLazy() {
		return new DoubleVariableHandle(Memory.register(null, Native.KIND_DOUBLE, Native.SHAPE_VARIABLE, 1, 1), null);
	}

	public double getValue() {
		return Memory.current(this, bytes).getDouble(0);
	}

	public void setValue(double v) {
		Memory.current(this, bytes).putDouble(0, v);
	}

	@Override
	public DataHandle lentView(ByteBuffer lent) {
		return new DoubleVariableHandle(0, lent);
	}

	@Override
	protected DataHandle newChild(long handle) {
		throw new UnsupportedOperationException("a variable has no parts");
	}
}
