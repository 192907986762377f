package fr.labri.hpccloud.starpu.internal;

import java.util.function.LongConsumer;

/**
 * A device program the native library holds for a Java object (an OpenCL or CUDA
 * {@code Program}): freed once the object is unreachable.
 */
public abstract class NativeProgram {
	private final NativeObject program;

	/** Owns {@code pointer}, which {@code free} releases. */
	protected NativeProgram(long pointer, LongConsumer free) {
		program = NativeObject.own(pointer, free);
	}

	/** The native program's address. */
	public final long pointer() {
		return program.pointer();
	}

	/** Keeps the native program alive up to here (see {@link NativeObject#keepAlive}). */
	public final void keepAlive() {
		program.keepAlive();
	}
}
