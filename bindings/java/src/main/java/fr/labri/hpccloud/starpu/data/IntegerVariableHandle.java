package fr.labri.hpccloud.starpu.data;

import fr.labri.hpccloud.starpu.internal.Native;

import java.nio.ByteBuffer;

/**
 * One {@code int} in native memory shared with the runtime (see {@link ScalarVariableHandle}).
 */
public class IntegerVariableHandle extends ScalarVariableHandle {
	protected IntegerVariableHandle(long handle) {
		super(handle);
	}

	private IntegerVariableHandle(long handle, ByteBuffer bytes) {
		super(handle, bytes);
	}

	/** Registers a new variable holding 0. */
	public static IntegerVariableHandle register() {
		ByteBuffer b = Memory.allocate(1, 4);
		return new IntegerVariableHandle(register(b, Native.KIND_INT), b);
	}

	/** Registers a variable without memory: the runtime allocates it where it is first needed. */
	public static IntegerVariableHandle registerLazy() {
		return new IntegerVariableHandle(register(null, Native.KIND_INT), null);
	}

	public int getValue() {
		return bytes().getInt(0);
	}

	public void setValue(int v) {
		bytes().putInt(0, v);
	}

	@Override
	public DataHandle lentView(ByteBuffer lent) {
		return new IntegerVariableHandle(0, lent);
	}
}
