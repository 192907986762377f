package fr.labri.hpccloud.starpu;

import fr.labri.hpccloud.starpu.data.DataHandle;
import fr.labri.hpccloud.starpu.internal.Native;

/**
 * A computation that tasks apply to data handles: {@link #run} receives the task's handles,
 * in the access modes {@link #getAccessModes} declares, one per buffer. It runs on one of the
 * runtime's CPU workers; an exception it throws fails its task, and the waiting call
 * ({@link StarPU#taskWaitForAll}, {@link Task#waitFor}, a synchronous submission...) throws a
 * {@link TaskFailedException} whose cause is that very exception.
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

	/** How many workers run one task ({@link CodeletType#SEQ}: one). */
	public CodeletType getType() {
		return CodeletType.SEQ;
	}

	/** For a parallel codelet: the most workers one task may take. */
	public int getMaxParallelism() {
		return Integer.MAX_VALUE;
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
						throw new NullPointerException("codelet " + getName() + ": access mode " + i + " is null");
					}
					bits[i] = modes[i].bits();
				}
			}
			CodeletType t = getType();
			int type = t == CodeletType.SPMD ? Native.TYPE_SPMD : t == CodeletType.FORKJOIN ? Native.TYPE_FORKJOIN : Native.TYPE_SEQ;
			id = Native.codelet(getName(), bits, type, getMaxParallelism());
			nativeId = id;
		}
		return id;
	}
}
