package fr.labri.hpccloud.starpu.data;

import fr.labri.hpccloud.starpu.internal.Native;

import java.nio.ByteBuffer;

/**
 * One primitive number in native memory shared with the runtime: tasks and Java read and
 * write it in place. A variable has no parts.
 */
public abstract class ScalarVariableHandle extends DataHandle {
	/** Null for data registered without a home (see {@link Memory#current}). */
	private final ByteBuffer bytes;

	protected ScalarVariableHandle(long handle) {
		super(handle);
		throw new UnsupportedOperationException("variables are made by register()");
	}

	ScalarVariableHandle(long handle, ByteBuffer bytes) {
		super(handle);
		this.bytes = bytes;
	}

	/** Registers the variable of {@code kind} that {@code buffer} holds (null: no home). */
	static long register(ByteBuffer buffer, int kind) {
		return Memory.register(buffer, kind, Native.SHAPE_VARIABLE, 1, 1);
	}

	/** The variable's memory (for data registered without a home: while acquired). */
	protected final ByteBuffer bytes() {
		return Memory.current(this, bytes);
	}

	@Override
	protected DataHandle newChild(long handle) {
		throw new UnsupportedOperationException("a variable has no parts");
	}
}
