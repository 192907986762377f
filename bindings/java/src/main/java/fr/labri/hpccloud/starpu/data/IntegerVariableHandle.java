package fr.labri.hpccloud.starpu.data;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;

/**
 * One {@code int} in native memory shared with the runtime: tasks and Java read and write
 * it in place.
 */
public class IntegerVariableHandle extends DataHandle {
	private final ByteBuffer bytes;
	private final IntBuffer value;

	protected IntegerVariableHandle(long handle) {
		super(handle);
		throw new UnsupportedOperationException("variables are made by register()");
	}

	private IntegerVariableHandle(long handle, ByteBuffer bytes) {
		super(handle);
		this.bytes = bytes;
		this.value = bytes.asIntBuffer();
	}

	/** Registers a new variable holding 0. */
	public static IntegerVariableHandle register() {
		ByteBuffer b = ScalarVectorHandle.allocate(1, 4);
		return new IntegerVariableHandle(ScalarVectorHandle.register(b, fr.labri.hpccloud.starpu.internal.Native.KIND_INT, 1, true), b).setRegistered();
	}

	public int getValue() {
		return value.get(0);
	}

	public void setValue(int v) {
		value.put(0, v);
	}

	@Override
	public DataHandle lentView(ByteBuffer lent) {
		return new IntegerVariableHandle(0, lent);
	}

	@Override
	protected DataHandle newChild(long handle, int first, int length) {
		throw new UnsupportedOperationException("a variable has no parts");
	}
}
