package fr.labri.hpccloud.starpu.data;

import fr.labri.hpccloud.starpu.internal.Native;

import java.nio.ByteBuffer;

/**
 * One {@code double} in native memory shared with the runtime (see {@link ScalarVariableHandle}).
 */
public class DoubleVariableHandle extends ScalarVariableHandle {
	protected DoubleVariableHandle(long handle) {
		super(handle);
	}

	private DoubleVariableHandle(long handle, ByteBuffer bytes) {
		super(handle, bytes);
	}

	/** Registers a new variable holding 0. */
	public static DoubleVariableHandle register() {
		ByteBuffer b = Memory.allocate(1, 8);
		return new DoubleVariableHandle(register(b, Native.KIND_DOUBLE), b);
	}

	/** Registers a variable without memory: the runtime allocates it where it is first needed. */
	public static DoubleVariableHandle registerLazy() {
		return new DoubleVariableHandle(register(null, Native.KIND_DOUBLE), null);
	}

	public double getValue() {
		return bytes().getDouble(0);
	}

	public void setValue(double v) {
		bytes().putDouble(0, v);
	}

	@Override
	public DataHandle lentView(ByteBuffer lent) {
		return new DoubleVariableHandle(0, lent);
	}
}
