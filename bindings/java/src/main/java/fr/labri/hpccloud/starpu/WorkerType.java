package fr.labri.hpccloud.starpu;

import fr.labri.hpccloud.starpu.internal.Native;

/**
 * The kinds of the runtime's workers (StarPU's worker types), which are also where a
 * codelet has implementations (StarPU's {@code where}, {@link Codelet#getWhere}).
 */
public enum WorkerType {
	/** A CPU core, running {@link Codelet#run}. */
	CPU(Native.WHERE_CPU),
	/**
	 * An OpenCL device (a GPU; a CPU device such as PoCL only with
	 * {@code STARPU_OPENCL_ON_CPUS=1}, as in StarPU), running {@link Codelet#runOpenCL}.
	 */
	OPENCL(Native.WHERE_OPENCL),
	/** An NVIDIA GPU (CUDA), running {@link Codelet#runCUDA}. */
	CUDA(Native.WHERE_CUDA);

	private final int bit;

	WorkerType(int bit) {
		this.bit = bit;
	}

	/** The bit of StarPU's {@code where} mask ({@code STARPU_CPU}, {@code STARPU_OPENCL}, {@code STARPU_CUDA}). */
	public int bit() {
		return bit;
	}
}
