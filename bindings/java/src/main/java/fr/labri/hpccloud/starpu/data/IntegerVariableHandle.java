package fr.labri.hpccloud.starpu.data;

import fr.labri.hpccloud.starpu.internal.Native;

import java.nio.ByteBuffer;

/**
 * One {@code int} in native memory shared with the runtime: tasks and Java read and write
 * it in place.
 */
public class IntegerVariableHandle extends DataHandle {
	/** Null for data registered without a home (see {@link Memory#current}). */
	private final ByteBuffer bytes;

	protected IntegerVariableHandle(long handle) {
		super(handle);
		throw new UnsupportedOperationException("variables are made by register()");
	}

	private IntegerVariableHandle(long handle, ByteBuffer bytes) {
		super(handle);
		this.bytes = bytes;
	}

	/** Registers a new variable holding 0. */
	public static IntegerVariableHandle register() {
		ByteBuffer b = Memory.allocate(1, 4);
		return new IntegerVariableHandle(Memory.register(b, Native.KIND_INT, Native.SHAPE_VARIABLE, 1, 1), b);
	}

	/** Registers a variable without memory: the runtime allocates it where it is first needed. */
	public static IntegerVariableHandle registerLazy() {
		return new IntegerVariableHandle(Memory.register(null, Native.KIND_INT, Native.SHAPE_VARIABLE, 1, 1), null);
	}

	public int getValue() {
		return Memory.current(this, bytes).getInt(0);
	}

	public void setValue(int v) {
		Memory.current(this, bytes).putInt(0, v);
	}

	@Override
	public DataHandle lentView(ByteBuffer lent) {
		return new IntegerVariableHandle(0, lent);
	}

	@Override
	protected DataHandle newChild(long handle) {
		throw new UnsupportedOperationException("a variable has no parts");
	}
}
