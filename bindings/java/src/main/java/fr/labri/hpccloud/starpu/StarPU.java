package fr.labri.hpccloud.starpu;

import fr.labri.hpccloud.starpu.data.DataHandle;
import fr.labri.hpccloud.starpu.internal.Invocation;
import fr.labri.hpccloud.starpu.internal.Native;

import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;

/**
 * The runtime: start it, submit tasks (a {@link Codelet} on {@link DataHandle}s), wait for
 * them, stop it. Tasks run asynchronously on the runtime's CPU workers, one per core by
 * default ({@code STARPU_NCPU} sets the number); tasks that use the same data are ordered
 * by their access modes, in submission order, as in StarPU's C API. Beyond StarPU's Java
 * interface: task objects ({@link #task}), tags, scheduling contexts, transactions.
 * Errors are thrown as the {@link StarPUException} subclass of their {@link ErrorKind}.
 */
public class StarPU {
	/** Kept for source compatibility with StarPU's Java interface; traces nothing. */
	public static boolean enableTrace = false;

	private static final int[] NO_MODES = new int[0];

	protected StarPU() {
	}

	/**
	 * Sets an environment variable the runtime reads at {@link #init} ({@code STARPU_NCPU},
	 * {@code STARPU_SCHED}...).
	 */
	public static void setenv(String variable, String value, boolean overwrite) {
		Native.setenv(variable, value, overwrite);
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

	/** The number of workers of a type ({@code starpu_worker_get_count_by_type}). */
	public static int workerCount(WorkerType type) throws StarPUException {
		return Native.workerCountOf(type.bit());
	}

	/** The worker running the calling codelet (its id, from 0), or -1 outside workers. */
	public static int workerId() {
		return Native.workerId();
	}

	/** In a parallel ({@link CodeletType#SPMD}) codelet: how many workers run the task (1 otherwise). */
	public static int combinedWorkerSize() {
		return Native.combinedWorkerSize();
	}

	/** In a parallel codelet: the calling worker's rank in the task's team (0 otherwise). */
	public static int combinedWorkerRank() {
		return Native.combinedWorkerRank();
	}

	/**
	 * Submits a task running {@code codelet} on {@code handles}, in the modes the codelet
	 * declares. With {@code synchronous}, returns once the task is over, and throws if it
	 * failed.
	 */
	public static void submitTask(Codelet codelet, boolean synchronous, DataHandle... handles) throws StarPUException {
		Task.submit(0, codelet, new Invocation(codelet, handles), NO_MODES, synchronous ? Native.SYNC : 0, 0, null,
				null, 0, null, 0);
	}

	/** Submits a task and returns its id, for {@link #waitForTasks}. */
	public static long submitTask_(Codelet codelet, DataHandle... handles) throws StarPUException {
		return Task.submit(0, codelet, new Invocation(codelet, handles), NO_MODES, Native.NODETACH, 0, null, null, 0,
				null, 0);
	}

	/** A task to describe and submit, with more options than {@link #submitTask} has. */
	public static Task task(Codelet codelet) {
		return new Task(codelet);
	}

	/**
	 * Waits until the tasks (ids from {@link #submitTask_} or of tasks submitted with
	 * {@code detach(false)}) are over. Throws the first failure among them, once all are over;
	 * an id no task ever had is a {@link NotFoundException}.
	 */
	public static void waitForTasks(long[] tasks) throws StarPUException {
		Native.waitTasks(tasks);
	}

	/**
	 * Waits until every submitted task is over. Throws {@link TaskFailedException} if tasks
	 * failed since the previous call: the message counts them, the cause is the first
	 * exception a codelet threw.
	 */
	public static void taskWaitForAll() throws StarPUException {
		Native.waitForAll();
	}

	/** Tag {@code tag} is done only once every one of {@code deps} is ({@code starpu_tag_declare_deps}). */
	public static void tagDeclareDeps(long tag, long... deps) {
		Native.tagDeclareDeps(tag, deps);
	}

	/** Marks tag {@code tag} done from the application ({@code starpu_tag_notify_from_apps}). */
	public static void tagNotifyFromApps(long tag) {
		Native.tagNotify(tag);
	}

	/** Waits until every one of {@code tags} is done ({@code starpu_tag_wait_array}). */
	public static void tagWait(long... tags) {
		Native.tagWait(tags);
	}

	/**
	 * Makes a scheduling context of {@code workers} (ids from 0) scheduled by the policy
	 * named {@code policy} (null: the default policy); tasks go there with {@link Task#context}.
	 */
	public static SchedContext createContext(String name, String policy, int... workers) {
		return new SchedContext(Native.contextCreate(name, policy, workers), name);
	}

	/**
	 * Opens a transaction whose first epoch's tasks run if {@code start} answers true
	 * ({@code starpu_transaction_open}).
	 */
	public static Transaction transactionOpen(BooleanSupplier start) {
		return Transaction.open(start);
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
		int m = output.getNbChildren();
		if (m != n) {
			throw new InvalidArgumentException("mapCodelet: the input has " + n + " parts, the output " + m);
		}
		long[] ids = new long[n];
		for (int i = 0; i < n; i++) {
			DataHandle in = input.getSubData(i);
			DataHandle out = output.getSubData(i);
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

	/**
	 * StarPU's Java interface runs its own C tests here (of its HDFS layer); this face has no
	 * HDFS layer, so it has none to run: always throws {@link UnsupportedException}.
	 */
	public static boolean runNativeTests() {
		throw new UnsupportedException("runNativeTests: StarPU's native tests exercise its HDFS layer, which this face does not have");
	}

	/** A uniformly distributed double in [0, 1) (a per-thread generator). */
	public static double drand48() {
		return ThreadLocalRandom.current().nextDouble();
	}
}
