package fr.labri.hpccloud.starpu.internal;

import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.util.function.LongConsumer;

/**
 * A native object a Java object owns (a task, a transaction): its pointer, freed by the
 * native library once this object is unreachable. A method passing {@link #pointer} to a
 * native call calls {@link #keepAlive} after it, so that the object cannot be freed during
 * the call.
 */
public final class NativeObject {
	private static final Cleaner CLEANER = Cleaner.create();

	private final long pointer;

	private NativeObject(long pointer) {
		this.pointer = pointer;
	}

	/** Owns {@code pointer}; {@code free} releases it once the returned object is unreachable. */
	public static NativeObject own(long pointer, LongConsumer free) {
		NativeObject o = new NativeObject(pointer);
		CLEANER.register(o, () -> free.accept(pointer));
		return o;
	}

	public long pointer() {
		return pointer;
	}

	/** Keeps this object (and its native object) alive up to here. */
	public void keepAlive() {
		Reference.reachabilityFence(this);
	}
}
