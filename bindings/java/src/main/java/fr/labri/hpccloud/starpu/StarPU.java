package fr.labri.hpccloud.starpu;

import fr.labri.hpccloud.starpu.data.DataHandle;
import fr.labri.hpccloud.starpu.internal.Native;

import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The runtime: start it, submit tasks (a {@link Codelet} on {@link DataHandle}s), wait for
 * them, stop it. Tasks run asynchronously on the runtime's CPU workers, one per core by
 * default ({@code STARPU_NCPU} sets the number); tasks that use the same data are ordered
 * by their access modes, in submission order, as in StarPU's C API.
 */
public class StarPU {
	/** Kept for source compatibility with StarPU's Java interface; traces nothing. */
	public static boolean enableTrace = false;

	protected StarPU() {
	}

	/**
	 * Sets an environment variable the runtime reads at {@link #init} ({@code STARPU_NCPU},
	 * {@code STARPU_SCHED}...).
	 */
	public static void setenv(String variable, String value, boolean overwrite) {
		try {
			Native.setenv(variable, value, overwrite);
		} catch (StarPUException e) {
			throw new IllegalArgumentException(e.getMessage(), e);
		}
	}

	/** Starts the runtime (a nested call only counts one more user, as in C). */
	public static void init() throws StarPUException {
		Native.init();
	}

	/** Sets the given environment variables, then starts the runtime. */
	public static void init(Map<String, String> env) throws StarPUException {
		for (Map.Entry<String, String> e : env.entrySet()) {
			setenv(e.getKey(), e.getValue(), true);
		}
		init();
	}

	/** Waits for every task and stops the runtime (the last of nested {@link #init}s does). */
	public static void shutdown() throws StarPUException {
		Native.shutdown();
	}

	/** Whether the runtime is running. */
	public static boolean isInitialized() {
		return Native.isInitialized();
	}

	/** The number of workers of the running runtime. */
	public static int workerCount() throws StarPUException {
		return Native.workerCount();
	}

	/**
	 * Submits a task running {@code codelet} on {@code handles}, in the modes the codelet
	 * declares. With {@code synchronous}, returns once the task is over, and throws if it
	 * failed.
	 */
	public static void submitTask(Codelet codelet, boolean synchronous, DataHandle... handles) throws StarPUException {
		new Task(codelet).handles(handles).synchronous(synchronous).submit();
	}

	/** Submits a task and returns its id, for {@link #waitForTasks}. */
	public static long submitTask_(Codelet codelet, DataHandle... handles) throws StarPUException {
		return new Task(codelet).handles(handles).waitable(true).submit();
	}

	/** Describes a task with more options than {@link #submitTask} has. */
	public static Task task(Codelet codelet) {
		return new Task(codelet);
	}

	/**
	 * Waits until the tasks (ids from {@link #submitTask_}) are over. Throws the first
	 * failure among them, once all are over.
	 */
	public static void waitForTasks(long[] tasks) throws StarPUException {
		Native.waitTasks(tasks);
	}

	/**
	 * Waits until every submitted task is over. Throws if tasks failed since the previous
	 * call: the message counts them, the cause is the first exception a codelet threw.
	 */
	public static void taskWaitForAll() throws StarPUException {
		Native.waitForAll();
	}

	/**
	 * Runs {@code mapCl} on (input, output), or on each pair of their children when the
	 * input is partitioned (one task per child).
	 */
	public static void mapCodelet(Codelet mapCl, boolean waitForAll, DataHandle input, DataHandle output) throws StarPUException {
		int n = input.getNbChildren();
		if (n == 0) {
			submitTask(mapCl, waitForAll, input, output);
			return;
		}
		if (output.getNbChildren() != n) {
			throw new StarPUException("mapCodelet: the input has " + n + " parts, the output "
					+ output.getNbChildren());
		}
		long[] ids = new long[n];
		for (int i = 0; i < n; i++) {
			DataHandle in = input.getSubData(i);
			DataHandle out = in == input || output.getNbChildren() == 0 ? output : output.getSubData(i);
			if (waitForAll) {
				ids[i] = submitTask_(mapCl, in, out);
			} else {
				submitTask(mapCl, false, in, out);
			}
		}
		if (waitForAll) {
			waitForTasks(ids);
		}
	}

	/**
	 * Runs {@code joinCl} on (a part of input1, a part of input2, the matching part of
	 * output) for every pair of parts.
	 */
	public static void joinCodelet(Codelet joinCl, boolean waitForAll, DataHandle input1, DataHandle input2, DataHandle output) throws StarPUException {
		int n1 = input1.getNbHandles();
		long[] ids = new long[n1 * input2.getNbHandles()];
		int t = 0;
		for (int h = 0; h < n1; h++) {
			DataHandle in1 = input1.getNbChildren() == 0 ? input1 : input1.getSubData(h);
			DataHandle out = output.getNbChildren() == 0 ? output : output.getSubData(h);
			for (DataHandle in2 : input2.getHandles()) {
				ids[t++] = submitTask_(joinCl, in1, in2, out);
			}
		}
		if (waitForAll) {
			waitForTasks(ids);
		}
	}

	/** Gathers a partitioned input, then runs {@code reduceCl} on (input, accumulator). */
	public static void reduceCodelet(Codelet reduceCl, boolean waitForAll, DataHandle input, DataHandle accumulator) throws StarPUException {
		if (input.getNbChildren() > 0) {
			input.unpartition();
		}
		submitTask(reduceCl, waitForAll, input, accumulator);
	}

	/** A uniformly distributed double in [0, 1) (a per-thread generator). */
	public static double drand48() {
		return ThreadLocalRandom.current().nextDouble();
	}
}
