package fr.labri.hpccloud.starpu.cuda;

import fr.labri.hpccloud.starpu.internal.Native;
import fr.labri.hpccloud.starpu.internal.NativeProgram;

import java.util.Objects;

/**
 * A CUDA program whose kernels the {@code runCUDA} implementations of codelets launch
 * ({@link CudaCall#kernel}): CUDA C source, compiled by NVRTC for each GPU the first time
 * one of its kernels runs there (kernels declared {@code extern "C"} keep their names), or
 * PTX ({@link #fromPtx}). A compile error fails that task, with NVRTC's log in the
 * exception. Programs are made once (a static field of the codelet, typically) and shared
 * by every task and GPU.
 *
 * @see fr.labri.hpccloud.starpu.Codelet#runCUDA
 */
public final class Program extends NativeProgram {
	/** A program made of CUDA C {@code source}, compiled without options. */
	public Program(String source) {
		this(source, "");
	}

	/** A program made of {@code source}, compiled with NVRTC {@code options} ({@code "-DN=4 --use_fast_math"}). */
	public Program(String source, String options) {
		this(Objects.requireNonNull(source, "source"), options, false);
	}

	private Program(String text, String options, boolean ptx) {
		super(Native.cudaProgramCreate(text, options == null ? "" : options, ptx), Native::cudaProgramFree);
	}

	/** A program of PTX text (what {@code nvcc --ptx} writes). */
	public static Program fromPtx(String ptx) {
		return new Program(Objects.requireNonNull(ptx, "ptx"), "", true);
	}
}
