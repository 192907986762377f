package fr.labri.hpccloud.starpu;

/** How many workers run one task of a codelet (StarPU's {@code enum starpu_codelet_type}). */
public enum CodeletType {
	/** One worker (the default). */
	SEQ,
	/**
	 * Several workers at once, each running the codelet: it finds its place in the team
	 * with {@link StarPU#combinedWorkerRank} and {@link StarPU#combinedWorkerSize}. Needs a
	 * parallel scheduling policy ({@code peager}, {@code pheft}); others run it on one worker.
	 */
	SPMD,
	/** Several workers reserved, the codelet running once and starting its own threads. */
	FORKJOIN
}
