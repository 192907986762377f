package fr.labri.hpccloud.starpu.internal;

import fr.labri.hpccloud.starpu.Codelet;
import fr.labri.hpccloud.starpu.data.DataHandle;

/**
 * One task's call of a codelet on its handles: what a runtime worker runs (through
 * {@link #run}) and what keeps the codelet and the handles reachable while the task is
 * pending. An exception the codelet throws fails the task; it is kept here too, for
 * completion callbacks.
 */
public final class Invocation {
	private final Codelet codelet;
	private final DataHandle[] buffers;
	private volatile Throwable failure;

	public Invocation(Codelet codelet, DataHandle[] buffers) {
		this.codelet = codelet;
		this.buffers = buffers;
	}

	/** Called by the runtime's worker; an exception propagates to the native caller. */
	void run() {
		try {
			codelet.run(buffers);
		} catch (RuntimeException | Error e) {
			failure = e;
			throw e;
		}
	}

	/** What the codelet threw, or null. */
	public Throwable failure() {
		return failure;
	}
}
