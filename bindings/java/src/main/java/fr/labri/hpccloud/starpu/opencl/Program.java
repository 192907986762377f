package fr.labri.hpccloud.starpu.opencl;

import fr.labri.hpccloud.starpu.internal.Native;
import fr.labri.hpccloud.starpu.internal.NativeProgram;

import java.util.Objects;

/**
 * An OpenCL program: OpenCL C source whose kernels the {@code runOpenCL} implementations of codelets
 * launch ({@link OpenCLCall#kernel}). It is built for each device the first time one of its
 * kernels runs there, and kept built; a build error fails that task, with the compiler's
 * log in the exception. Programs are made once (a static field of the codelet, typically)
 * and shared by every task and device.
 *
 * @see fr.labri.hpccloud.starpu.Codelet#runOpenCL
 */
public final class Program extends NativeProgram {
	/** A program made of {@code source}, built without options. */
	public Program(String source) {
		this(source, "");
	}

	/** A program made of {@code source}, built with {@code options} ({@code "-D N=4"}...). */
	public Program(String source, String options) {
		this(Objects.requireNonNull(source, "source"), options, false);
	}

	private Program(String text, String options, boolean file) {
		super(Native.programCreate(text, options == null ? "" : options, file), Native::programFree);
	}

	/**
	 * The program in source file {@code name}, found as StarPU's
	 * {@code starpu_opencl_load_opencl_from_file} finds it: the path as given, else under
	 * {@code STARPU_OPENCL_PROGRAM_DIR}; its directory is in the include path, so that
	 * {@code #include "x.h"} finds a header beside it. Read now: a missing file is an
	 * {@link fr.labri.hpccloud.starpu.InvalidArgumentException}.
	 */
	public static Program fromFile(String name) {
		return fromFile(name, "");
	}

	/** {@link #fromFile(String)}, built with {@code options}. */
	public static Program fromFile(String name, String options) {
		return new Program(Objects.requireNonNull(name, "name"), options, true);
	}
}
