package fr.labri.hpccloud.starpu.data;

import fr.labri.hpccloud.starpu.internal.Native;

import java.nio.ByteBuffer;

/**
 * One {@code long} in native memory shared with the runtime (see {@link ScalarVariableHandle}).
 */
public class LongVariableHandle extends ScalarVariableHandle {
	protected LongVariableHandle(long handle) {
		super(handle);
	}

	private LongVariableHandle(long handle, ByteBuffer bytes) {
		super(handle, bytes);
	}

	/** Registers a new variable holding 0. */
	public static LongVariableHandle register() {
		ByteBuffer b = Memory.allocate(1, 8);
		return new LongVariableHandle(register(b, Native.KIND_LONG), b);
	}

	/** Registers a variable without memory: the runtime allocates it where it is first needed. */
	public static LongVariableHandle registerLazy() {
		return new LongVariableHandle(register(null, Native.KIND_LONG), null);
	}

	public long getValue() {
		return bytes().getLong(0);
	}

	public void setValue(long v) {
		bytes().putLong(0, v);
	}

	@Override
	public DataHandle lentView(ByteBuffer lent) {
		return new LongVariableHandle(0, lent);
	}
}
