package fr.labri.hpccloud.starpu;

import fr.labri.hpccloud.starpu.data.DataHandle;
import fr.labri.hpccloud.starpu.internal.Native;

/**
 * A computation that tasks apply to data handles: {@link #run} receives the task's handles,
 * in the access modes {@link #getAccessModes} declares, one per buffer. It runs on one of the
 * runtime's CPU workers; an exception it throws fails its task, and the waiting call
 * ({@link StarPU#taskWaitForAll}, a synchronous submission...) throws a
 * {@link StarPUException} with it as the cause.
 */
public abstract class Codelet {
	/** The runtime's codelet for this one, made at the first submission. */
	private volatile long nativeId = -1;

	public abstract void run(DataHandle[] buffers);

	public final int getNbBuffers() {
		return getAccessModes().length;
	}

	/** The access mode of each buffer; {@code null} lets each task choose its buffers and modes. */
	public abstract DataHandle.AccessMode[] getAccessModes();

	public String getName() {
		return "codelet";
	}

	final long nativeId() {
		long id = nativeId;
		if (id < 0) {
			DataHandle.AccessMode[] modes = getAccessModes();
			int[] bits = null;
			if (modes != null) {
				bits = new int[modes.length];
				for (int i = 0; i < modes.length; i++) {
					if (modes[i] == null) {
						throw new IllegalArgumentException("codelet " + getName() + ": access mode " + i + " is null");
					}
					bits[i] = modes[i].bits();
				}
			}
			try {
				id = Native.codelet(getName(), bits);
			} catch (StarPUException e) {
				throw new IllegalArgumentException(e.getMessage(), e);
			}
			nativeId = id;
		}
		return id;
	}
}
