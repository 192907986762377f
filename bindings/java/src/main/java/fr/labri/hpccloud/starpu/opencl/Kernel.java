package fr.labri.hpccloud.starpu.opencl;

import fr.labri.hpccloud.starpu.internal.KernelArguments;
import fr.labri.hpccloud.starpu.internal.Native;

/**
 * An OpenCL kernel with its arguments, launched on the device of an OpenCL worker
 * ({@link OpenCLCall#kernel}). Arguments are given in the kernel's order, each with the
 * Java type of the kernel's parameter: {@code int} for an {@code int} or {@code unsigned},
 * {@code long} for {@code long}, {@code float}, {@code double}, {@code short},
 * {@code byte}; a {@link DeviceBuffer} for a {@code __global} pointer, {@link #argLocal}
 * for a {@code __local} one. OpenCL checks each against the kernel's parameter: a wrong
 * size, or a kernel that does not build, fails the launch with a
 * {@link fr.labri.hpccloud.starpu.StarPUException} saying which (and the compiler's log).
 */
public final class Kernel extends KernelArguments<Kernel> {
	Kernel(OpenCLCall call, Program program, String name) {
		super(call, program, name);
	}

	@Override
	protected Kernel self() {
		return this;
	}

	/** The next argument: the memory object of a buffer of this kernel's task. */
	public Kernel arg(DeviceBuffer buffer) {
		return addBuffer(buffer);
	}

	/** The next argument, a {@code __local} pointer: {@code bytes} of local memory per work group. */
	public Kernel argLocal(long bytes) {
		return add(Native.ARG_LOCAL, bytes);
	}

	/**
	 * Runs the kernel over {@code global} work items (1 to 3 dimensions), in work groups the
	 * OpenCL driver chooses, and returns once it is over.
	 */
	public void launch(long... global) {
		launch(global, null);
	}

	/**
	 * Runs the kernel over {@code global} work items in work groups of {@code local} items
	 * (as many dimensions; null: the driver's choice), and returns once it is over.
	 */
	public void launch(long[] global, long[] local) {
		if (global == null) {
			throw new NullPointerException("kernel " + name + ": no global size");
		}
		launchWith((call, program) -> Native.openclLaunch(call, program, name, kinds(), values(), global, local));
	}
}
