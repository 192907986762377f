package fr.labri.hpccloud.starpu.internal;

import fr.labri.hpccloud.starpu.Codelet;
import fr.labri.hpccloud.starpu.data.DataHandle;
import fr.labri.hpccloud.starpu.cuda.CudaCall;
import fr.labri.hpccloud.starpu.opencl.OpenCLCall;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

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
		this.buffers = buffers == null ? new DataHandle[0] : buffers;
	}

	/** The task's handles, in order. */
	public DataHandle[] buffers() {
		return buffers;
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

	/** Called by an OpenCL worker: the codelet's OpenCL implementation on {@code call}. */
	void runOpenCL(OpenCLCall call) {
		try {
			codelet.runOpenCL(call);
		} catch (RuntimeException | Error e) {
			failure = e;
			throw e;
		}
	}

	/** Called by a CUDA worker: the codelet's CUDA implementation on {@code call}. */
	void runCUDA(CudaCall call) {
		try {
			codelet.runCUDA(call);
		} catch (RuntimeException | Error e) {
			failure = e;
			throw e;
		}
	}

	/**
	 * {@link #run}, with buffer {@code i} replaced by a view of {@code lent[i]} where that is
	 * not null: the memory the runtime lends the task for a REDUX or SCRATCH access, or the
	 * replica of data registered without a home.
	 */
	void runLent(ByteBuffer[] lent) {
		DataHandle[] views = buffers.clone();
		for (int i = 0; i < lent.length && i < views.length; i++) {
			if (lent[i] != null) {
				views[i] = views[i].lentView(lent[i].order(ByteOrder.nativeOrder()));
			}
		}
		try {
			codelet.run(views);
		} catch (RuntimeException | Error e) {
			failure = e;
			throw e;
		}
	}

	/** Runs a reduction codelet of {@code shape}'s handle on views of the lent buffers. */
	static void runReduction(Codelet codelet, DataHandle shape, ByteBuffer[] lent) {
		DataHandle[] views = new DataHandle[lent.length];
		for (int i = 0; i < lent.length; i++) {
			views[i] = shape.lentView(lent[i].order(ByteOrder.nativeOrder()));
		}
		codelet.run(views);
	}

	/** What the codelet threw, or null. */
	public Throwable failure() {
		return failure;
	}
}
