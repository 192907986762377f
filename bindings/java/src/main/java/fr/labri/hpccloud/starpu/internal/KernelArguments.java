package fr.labri.hpccloud.starpu.internal;

import java.util.Arrays;

/**
 * The arguments of a device kernel being set, in the kernel's order, each with the Java
 * type of the kernel's parameter: {@code int} for an {@code int} or {@code unsigned},
 * {@code long} for a 64-bit integer, {@code float}, {@code double}, {@code short},
 * {@code byte}; the device's kernel class adds its buffers (and OpenCL's {@code __local}
 * memory). What the OpenCL and CUDA kernels share; {@code K} is the kernel class itself.
 */
public abstract class KernelArguments<K extends KernelArguments<K>> {
	private final DeviceCall call;
	/** The program the kernel belongs to. */
	protected final NativeProgram program;
	/** For messages: the kernel's name. */
	protected final String name;
	private int[] kinds = new int[8];
	private long[] values = new long[8];
	private int count;

	protected KernelArguments(DeviceCall call, NativeProgram program, String name) {
		this.call = call;
		this.program = program;
		this.name = name;
	}

	/** The next argument: a buffer of this kernel's task (by its index). */
	protected final K addBuffer(DeviceArray buffer) {
		if (buffer.call != call) {
			throw new IllegalArgumentException("kernel " + name + ": the buffer belongs to another task's call");
		}
		return add(Native.ARG_BUFFER, buffer.getIndex());
	}

	/** Launches the kernel with {@code launch}, given the call's and the program's addresses. */
	protected final void launchWith(LongBiConsumer launch) {
		launch.accept(call.pointer(), program.pointer());
		program.keepAlive();
	}

	/** A native launch: {@code (call, program)}. */
	@FunctionalInterface
	protected interface LongBiConsumer {
		void accept(long call, long program);
	}

	/** This kernel, as its own class. */
	protected abstract K self();

	/** The next argument: {@code kind} ({@code Native.ARG_*}) with {@code value}'s bits. */
	protected final K add(int kind, long value) {
		if (count == kinds.length) {
			kinds = Arrays.copyOf(kinds, 2 * count);
			values = Arrays.copyOf(values, 2 * count);
		}
		kinds[count] = kind;
		values[count] = value;
		count++;
		return self();
	}

	public K arg(byte value) {
		return add(Native.ARG_BYTE, value);
	}

	public K arg(short value) {
		return add(Native.ARG_SHORT, value);
	}

	public K arg(int value) {
		return add(Native.ARG_INT, value);
	}

	public K arg(long value) {
		return add(Native.ARG_LONG, value);
	}

	public K arg(float value) {
		return add(Native.ARG_FLOAT, Float.floatToRawIntBits(value));
	}

	public K arg(double value) {
		return add(Native.ARG_DOUBLE, Double.doubleToRawLongBits(value));
	}

	/** The kinds of the arguments set so far. */
	protected final int[] kinds() {
		return Arrays.copyOf(kinds, count);
	}

	/** Their values, as the bits of a long each. */
	protected final long[] values() {
		return Arrays.copyOf(values, count);
	}
}
