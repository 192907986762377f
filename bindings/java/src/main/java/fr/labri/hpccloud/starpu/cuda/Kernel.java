package fr.labri.hpccloud.starpu.cuda;

import fr.labri.hpccloud.starpu.internal.KernelArguments;
import fr.labri.hpccloud.starpu.internal.Native;

/**
 * A CUDA kernel with its arguments, queued on the stream of a CUDA worker
 * ({@link CudaCall#kernel}). Arguments are given in the kernel's order, each with the Java
 * type of the kernel's parameter ({@code int} for {@code int} or {@code unsigned},
 * {@code long} for {@code long long} or {@code size_t}, {@code float}, {@code double},
 * {@code short}, {@code byte}), a {@link DeviceBuffer} for a pointer. CUDA does not check
 * them against the kernel: a wrong type is the kernel's wrong value. A source NVRTC does
 * not compile, a missing kernel or a launch CUDA refuses throws a
 * {@link fr.labri.hpccloud.starpu.StarPUException} saying which (with NVRTC's log); an
 * error while the kernel runs fails the task.
 */
public final class Kernel extends KernelArguments<Kernel> {
	Kernel(CudaCall call, Program program, String name) {
		super(call, program, name);
	}

	@Override
	protected Kernel self() {
		return this;
	}

	/** The next argument: the device address of a buffer of this kernel's task. */
	public Kernel arg(DeviceBuffer buffer) {
		return addBuffer(buffer);
	}

	/** Queues the kernel over {@code blocks} blocks of {@code threads} threads (one dimension). */
	public void launch(long blocks, long threads) {
		launch(new long[] {blocks}, new long[] {threads}, 0);
	}

	/**
	 * Queues the kernel over a {@code grid} of blocks of {@code block} threads (1 to 3
	 * dimensions each), with {@code sharedMem} bytes of dynamic shared memory per block.
	 */
	public void launch(long[] grid, long[] block, int sharedMem) {
		if (grid == null || block == null) {
			throw new NullPointerException("kernel " + name + ": no grid or block size");
		}
		launchWith((call, program) -> Native.cudaLaunch(call, program, name, kinds(), values(), grid, block, sharedMem));
	}
}
