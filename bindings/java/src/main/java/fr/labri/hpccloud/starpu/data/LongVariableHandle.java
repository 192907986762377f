package fr.labri.hpccloud.starpu.data;

import fr.labri.hpccloud.starpu.internal.Native;

import java.nio.ByteBuffer;

/**
 * One {@code long} in native memory shared with the runtime: tasks and Java read and write
 * it in place.
 */
public class LongVariableHandle extends DataHandle {
	/** Null for data registered without a home (see {@link Memory#current}). */
	private final ByteBuffer bytes;

	protected LongVariableHandle(long handle) {
		super(handle);
		throw new UnsupportedOperationException("variables are made by register()");
	}

	private LongVariableHandle(long handle, ByteBuffer bytes) {
		super(handle);
		this.bytes = bytes;
	}

	/** Registers a new variable holding 0. */
	public static LongVariableHandle register() {
		ByteBuffer b = Memory.allocate(1, 8);
		return new LongVariableHandle(Memory.register(b, Native.KIND_LONG, Native.SHAPE_VARIABLE, 1, 1), b);
	}

	/** Registers a variable without memory: the runtime allocates it where it is first needed. */
	public static LongVariableHandle registerLazy() {
		return new LongVariableHandle(Memory.register(null, Native.KIND_LONG, Native.SHAPE_VARIABLE, 1, 1), null);
	}

	public long getValue() {
		return Memory.current(this, bytes).getLong(0);
	}

	public void setValue(long v) {
		Memory.current(this, bytes).putLong(0, v);
	}

	@Override
	public DataHandle lentView(ByteBuffer lent) {
		return new LongVariableHandle(0, lent);
	}

	@Override
	protected DataHandle newChild(long handle) {
		throw new UnsupportedOperationException("a variable has no parts");
	}
}
