import fr.labri.hpccloud.starpu.Codelet;
import fr.labri.hpccloud.starpu.CodeletType;
import fr.labri.hpccloud.starpu.SchedContext;
import fr.labri.hpccloud.starpu.StarPU;
import fr.labri.hpccloud.starpu.StarPUException;
import fr.labri.hpccloud.starpu.Task;
import fr.labri.hpccloud.starpu.Transaction;
import fr.labri.hpccloud.starpu.WorkerType;
import fr.labri.hpccloud.starpu.data.DataHandle;
import fr.labri.hpccloud.starpu.data.DataHandle.AccessMode;
import fr.labri.hpccloud.starpu.data.Filter;
import fr.labri.hpccloud.starpu.data.LongMatrixHandle;
import fr.labri.hpccloud.starpu.data.LongVariableHandle;
import fr.labri.hpccloud.starpu.data.LongVectorHandle;
import fr.labri.hpccloud.starpu.data.PartitionPlan;
import fr.labri.hpccloud.starpu.opencl.DeviceBuffer;
import fr.labri.hpccloud.starpu.opencl.OpenCLCall;
import fr.labri.hpccloud.starpu.opencl.Program;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The Java conformance driver (tests/conformance/README.md): runs a plan of operations
 * through the Java face's public API, with every kernel written in Java. Usage: Driver PLAN
 * | --capabilities. The face has every operation of the suite; the one thing Java cannot
 * express is a {@code starpu_task_insert} key the runtime does not know ({@code badkey}):
 * tasks are built with typed methods, not a variadic key list. OpenCL implementations
 * ({@code impl=opencl}) are {@code Codelet.runOpenCL}, launching one OpenCL C kernel.
 */
public class Driver {
	static final PrintStream OUT = new PrintStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16), false, StandardCharsets.UTF_8);
	static final Object EVENTS = new Object();
	static long tick;
	static final Set<String> happened = new HashSet<>();
	static final Set<Integer> gates = new HashSet<>();

	static final List<String> KERNELS = List.of("noop", "set", "add", "scale", "affine", "axpy", "copy", "sum", "gate",
			"try_acquire", "try_wait_all", "worker", "spmd", "clfail");
	/**
	 * The kernels that have an OpenCL implementation (`codelet ... impl=opencl`): each one runs
	 * an operation of {@link #PROGRAM} on the device copies of its buffers.
	 */
	static final Map<String, OpenCLKernel> OPENCL = new LinkedHashMap<>();
	static final List<String> OPTIONS = List.of("value", "ref", "delay", "prio", "callback", "sync", "tag", "nodetach",
			"ctx", "trs");
	static final Map<String, Function<Integer, Filter>> FILTERS = new LinkedHashMap<>();
	static final Map<String, AccessMode> MODES = new LinkedHashMap<>();
	static final List<String> KINDS = List.of("variable", "vector", "matrix");

	static {
		FILTERS.put("vector_block", Filter::vectorBlock);
		FILTERS.put("matrix_block", Filter::matrixBlock);
		FILTERS.put("matrix_vertical_block", Filter::matrixVerticalBlock);
		MODES.put("R", AccessMode.STARPU_R);
		MODES.put("W", AccessMode.STARPU_W);
		MODES.put("RW", AccessMode.STARPU_RW);
		MODES.put("RW|COMMUTE", AccessMode.STARPU_RW.with(AccessMode.STARPU_COMMUTE));
		MODES.put("REDUX", AccessMode.STARPU_REDUX);
		MODES.put("SCRATCH", AccessMode.STARPU_SCRATCH);
	}

	static final Map<String, DataHandle> handles = new HashMap<>();
	static final Map<String, List<String>> children = new HashMap<>();
	static final Map<String, PartitionPlan> plans = new HashMap<>();
	static final Map<String, CodeletSpec> codelets = new HashMap<>();
	static final Map<String, Task> tasks = new HashMap<>();
	static final Map<String, SchedContext> contexts = new HashMap<>();
	static final Map<String, Transaction> transactions = new HashMap<>();

	/** A malformed plan line. */
	static final class ScenarioError extends Exception {
		private static final long serialVersionUID = 1L;

		ScenarioError(String m) {
			super(m);
		}
	}

	interface Op {
		void run(String[] t) throws ScenarioError;
	}

	/** The operations, by verb: the capabilities are printed from this table. */
	static final Map<String, Op> OPS = new LinkedHashMap<>();

	static {
		OPS.put("init", Driver::init);
		OPS.put("shutdown", t -> call(t, StarPU::shutdown));
		OPS.put("data", Driver::data);
		OPS.put("read", t -> {
			DataHandle h = handle(t, 1);
			call(t, () -> {
				h.acquire(AccessMode.STARPU_R);
				OUT.println("read " + t[1] + " = " + show(h));
				h.release();
			});
		});
		OPS.put("acquire", t -> {
			DataHandle h = handle(t, 1);
			AccessMode m = mode(arg(t, 2));
			call(t, () -> h.acquire(m));
		});
		OPS.put("show", t -> OUT.println("show " + t[1] + " = " + show(handle(t, 1))));
		OPS.put("store", t -> {
			DataHandle h = handle(t, 1);
			for (int i = 2; i < t.length; i++) {
				set(h, i - 2, number(t[i]));
			}
		});
		OPS.put("release", t -> {
			DataHandle h = handle(t, 1);
			call(t, h::release);
		});
		OPS.put("buffer", t -> OUT.println("buffer " + t[1] + " = " + show(handle(t, 1))));
		OPS.put("partition", Driver::partition);
		OPS.put("unpartition", t -> {
			DataHandle h = handle(t, 1);
			call(t, () -> {
				h.unpartition();
				forget(children.remove(t[1]));
			});
		});
		OPS.put("partition_plan", Driver::partitionPlan);
		OPS.put("partition_submit", planSwitch((name, p) -> p.partitionSubmit()));
		OPS.put("partition_readonly_submit", planSwitch((name, p) -> p.partitionReadonlySubmit()));
		OPS.put("partition_readwrite_upgrade_submit", planSwitch((name, p) -> p.partitionReadwriteUpgradeSubmit()));
		OPS.put("partition_readonly_downgrade_submit", planSwitch((name, p) -> p.partitionReadonlyDowngradeSubmit()));
		OPS.put("unpartition_submit", planSwitch((name, p) -> p.unpartitionSubmit()));
		OPS.put("unpartition_readonly_submit", planSwitch((name, p) -> p.unpartitionReadonlySubmit()));
		OPS.put("partition_clean", planSwitch((name, p) -> {
			// The children go with the plan: forget their names.
			plans.remove(name);
			forget(children.remove(name));
			p.clean();
		}));
		OPS.put("nplans", t -> OUT.println("nplans " + t[1] + " = " + handle(t, 1).getNbPlans()));
		OPS.put("unregister", t -> {
			DataHandle h = handle(t, 1);
			call(t, h::unregister);
		});
		OPS.put("unregister_no_coherency", t -> {
			DataHandle h = handle(t, 1);
			call(t, h::unregisterNoCoherency);
		});
		OPS.put("invalidate", t -> {
			DataHandle h = handle(t, 1);
			call(t, h::invalidate);
		});
		OPS.put("seqcons", t -> handle(t, 1).setSequentialConsistency(number(arg(t, 2)) != 0));
		OPS.put("redux_methods", t -> {
			DataHandle h = handle(t, 1);
			call(t, () -> h.setReductionMethods(Driver.REDUX_SUM, Driver.REDUX_ZERO));
		});
		OPS.put("codelet", Driver::codelet);
		OPS.put("insert", t -> {
			Task task = task(t);
			call(t, task::submit);
		});
		OPS.put("task", t -> task(t));
		OPS.put("deps", t -> {
			Task me = known(arg(t, 1));
			Task[] preds = new Task[t.length - 2];
			for (int i = 2; i < t.length; i++) {
				preds[i - 2] = known(t[i]);
			}
			quietly(t, () -> me.after(preds));
		});
		OPS.put("submit", t -> {
			Task task = known(arg(t, 1));
			call(t, task::submit);
		});
		OPS.put("wait", t -> {
			Task task = known(arg(t, 1));
			call(t, task::waitFor);
		});
		OPS.put("wait_all", t -> call(t, StarPU::taskWaitForAll));
		OPS.put("tag_deps", t -> {
			long[] tags = numbers(t, 1);
			quietly(t, () -> StarPU.tagDeclareDeps(tags[0], Arrays.copyOfRange(tags, 1, tags.length)));
		});
		OPS.put("tag_notify", t -> {
			long tag = number(arg(t, 1));
			quietly(t, () -> StarPU.tagNotifyFromApps(tag));
		});
		OPS.put("tag_wait", t -> {
			long[] tags = numbers(t, 1);
			call(t, () -> StarPU.tagWait(tags));
		});
		OPS.put("clock", t -> {
			synchronized (EVENTS) {
				OUT.println("@clock " + tick);
			}
		});
		OPS.put("await", t -> awaitEvent(arg(t, 1)));
		OPS.put("open", t -> {
			synchronized (gates) {
				gates.add((int) number(arg(t, 1)));
				gates.notifyAll();
			}
		});
		OPS.put("ctx", Driver::context);
		OPS.put("ctx_remove", t -> {
			SchedContext c = context(arg(t, 1));
			int[] ws = workers(t, 2);
			call(t, () -> c.removeWorkers(ws));
		});
		OPS.put("ctx_inheritor", t -> {
			SchedContext c = context(arg(t, 1));
			SchedContext heir = context(arg(t, 2));
			call(t, () -> c.setInheritor(heir));
		});
		OPS.put("ctx_delete", t -> {
			SchedContext c = context(arg(t, 1));
			call(t, c::delete);
		});
		OPS.put("trs_open", t -> {
			boolean yes = yesNo(t);
			call(t, () -> transactions.put(t[1], StarPU.transactionOpen(() -> yes)));
		});
		OPS.put("trs_next", t -> {
			Transaction x = transaction(arg(t, 1));
			boolean yes = yesNo(t);
			call(t, () -> x.nextEpoch(() -> yes));
		});
		OPS.put("trs_close", t -> {
			Transaction x = transaction(arg(t, 1));
			transactions.remove(t[1]);
			call(t, x::close);
		});
	}

	public static void main(String[] args) throws Exception {
		if (args.length != 1) {
			System.err.println("usage: Driver PLAN | --capabilities");
			System.exit(2);
		}
		if (args[0].equals("--capabilities")) {
			OPS.keySet().forEach(o -> OUT.println("op " + o));
			KERNELS.forEach(k -> OUT.println("kernel " + k));
			OPTIONS.forEach(o -> OUT.println("option " + o));
			FILTERS.keySet().forEach(f -> OUT.println("filter " + f));
			KINDS.forEach(k -> OUT.println("kind " + k));
			MODES.keySet().forEach(m -> OUT.println("mode " + m));
			OUT.println("nbuffers variable");
			OUT.println("handle null");
			OUT.println("home none");
			OUT.println("device opencl");
			OUT.println("impl opencl");
			OUT.flush();
			return;
		}
		int lineNo = 0;
		for (String line : Files.readAllLines(Paths.get(args[0]), StandardCharsets.UTF_8)) {
			lineNo++;
			String[] t = line.trim().split("\\s+");
			if (t[0].isEmpty()) {
				continue;
			}
			try {
				Op op = OPS.get(t[0]);
				if (op == null) {
					throw new ScenarioError("unknown operation " + t[0]);
				}
				op.run(t);
			} catch (ScenarioError e) {
				OUT.flush();
				System.err.println(args[0] + ":" + lineNo + ": scenario error: " + e.getMessage());
				System.exit(2);
			}
			OUT.flush();
		}
		if (StarPU.isInitialized()) {
			StarPU.shutdown();
		}
		OUT.flush();
		System.exit(0);
	}

	interface Call {
		void run() throws StarPUException;
	}

	/** Runs an operation; an error prints `error VERB [SUBJECT] CODE`. */
	static void call(String[] t, Call c) {
		try {
			c.run();
		} catch (StarPUException e) {
			System.err.println(t[0] + ": " + e.getMessage());
			String subject = t.length > 1 && !t[1].contains("=") ? " " + t[1] : "";
			OUT.println("error " + t[0] + subject + " " + code(e));
		}
	}

	/** Runs an operation whose C call returns nothing: an error is said on stderr only. */
	static void quietly(String[] t, Call c) {
		try {
			c.run();
		} catch (StarPUException e) {
			System.err.println(t[0] + ": " + e.getMessage());
		}
	}

	/** A return code as a C program would get it (the negative errno); the harness names it. */
	static String code(StarPUException e) {
		return Integer.toString(-e.getErrno());
	}

	static String arg(String[] t, int i) throws ScenarioError {
		if (i >= t.length) {
			throw new ScenarioError(t[0] + ": missing argument " + i);
		}
		return t[i];
	}

	static long number(String s) throws ScenarioError {
		try {
			return Long.parseLong(s);
		} catch (NumberFormatException e) {
			throw new ScenarioError("not an integer: " + s);
		}
	}

	static long[] numbers(String[] t, int from) throws ScenarioError {
		long[] n = new long[Math.max(0, t.length - from)];
		for (int i = from; i < t.length; i++) {
			n[i - from] = number(t[i]);
		}
		return n;
	}

	static DataHandle handle(String[] t, int i) throws ScenarioError {
		DataHandle h = handles.get(arg(t, i));
		if (h == null) {
			throw new ScenarioError("unknown handle " + t[i]);
		}
		return h;
	}

	static AccessMode mode(String m) throws ScenarioError {
		AccessMode a = MODES.get(m);
		if (a == null) {
			throw new ScenarioError("unknown access mode " + m);
		}
		return a;
	}

	static Task known(String name) throws ScenarioError {
		Task t = tasks.get(name);
		if (t == null) {
			throw new ScenarioError("unknown task " + name);
		}
		return t;
	}

	static SchedContext context(String name) throws ScenarioError {
		SchedContext c = name.equals("global") ? SchedContext.GLOBAL : contexts.get(name);
		if (c == null) {
			throw new ScenarioError("unknown context " + name);
		}
		return c;
	}

	static Transaction transaction(String name) throws ScenarioError {
		Transaction x = transactions.get(name);
		if (x == null) {
			throw new ScenarioError("unknown transaction " + name);
		}
		return x;
	}

	static boolean yesNo(String[] t) throws ScenarioError {
		if (t.length != 3 || !(t[2].equals("yes") || t[2].equals("no"))) {
			throw new ScenarioError(t[0] + ": expected a transaction and yes|no");
		}
		return t[2].equals("yes");
	}

	/** The worker ids among t[from..] (tokens without '='). */
	static int[] workers(String[] t, int from) throws ScenarioError {
		List<Integer> ws = new ArrayList<>();
		for (int i = from; i < t.length; i++) {
			if (!t[i].contains("=")) {
				ws.add((int) number(t[i]));
			}
		}
		return ws.stream().mapToInt(Integer::intValue).toArray();
	}

	static void init(String[] t) throws ScenarioError {
		Map<String, String> env = new HashMap<>();
		int nopencl = 0;
		for (int i = 1; i < t.length; i++) {
			if (t[i].startsWith("ncpus=")) {
				env.put("STARPU_NCPU", t[i].substring(6));
			} else if (t[i].startsWith("sched=")) {
				env.put("STARPU_SCHED", t[i].substring(6));
			} else if (t[i].startsWith("opencl=")) {
				nopencl = (int) number(t[i].substring(7)); // PoCL also needs STARPU_OPENCL_ON_CPUS=1
			} else if (t[i].startsWith("limit_opencl_mem=")) {
				env.put("STARPU_LIMIT_OPENCL_MEM", Long.toString(number(t[i].substring(17))));
			} else {
				throw new ScenarioError("init: unknown option " + t[i]);
			}
		}
		env.put("STARPU_NOPENCL", Integer.toString(nopencl));
		call(t, () -> StarPU.init(env));
		if (nopencl > 0 && StarPU.isInitialized() && StarPU.workerCount(WorkerType.OPENCL) < nopencl) {
			System.err.println(nopencl + " OpenCL worker(s) asked for, " + StarPU.workerCount(WorkerType.OPENCL)
					+ " found: no OpenCL device (PoCL needs STARPU_OPENCL_ON_CPUS=1)");
			StarPU.shutdown();
			OUT.flush();
			System.exit(77);
		}
	}

	/** `data H KIND [dims] [values] [home=none]`. */
	static void data(String[] t) throws ScenarioError {
		String name = arg(t, 1);
		String kind = arg(t, 2);
		List<Long> nums = new ArrayList<>();
		boolean home = true;
		for (int i = 3; i < t.length; i++) {
			if (t[i].equals("home=none")) {
				home = false;
			} else {
				nums.add(number(t[i]));
			}
		}
		int dims = kind.equals("matrix") ? 2 : kind.equals("vector") ? 1 : 0;
		if (nums.size() < dims) {
			throw new ScenarioError("data: missing dimensions");
		}
		int nx = dims > 0 ? nums.get(0).intValue() : 1, ny = dims > 1 ? nums.get(1).intValue() : 1;
		DataHandle h;
		switch (kind) {
			case "variable":
				h = home ? LongVariableHandle.register() : LongVariableHandle.registerLazy();
				break;
			case "vector":
				h = home ? LongVectorHandle.register(nx) : LongVectorHandle.registerLazy(nx);
				break;
			case "matrix":
				h = home ? LongMatrixHandle.register(nx, ny) : LongMatrixHandle.registerLazy(nx, ny);
				break;
			default:
				throw new ScenarioError("data: unknown kind " + kind);
		}
		List<Long> values = nums.subList(dims, nums.size());
		for (int i = 0; i < values.size(); i++) {
			set(h, i, values.get(i));
		}
		handles.put(name, h);
	}

	static Filter filter(String[] t) throws ScenarioError {
		Function<Integer, Filter> f = FILTERS.get(arg(t, 2));
		if (f == null) {
			throw new ScenarioError("unknown filter " + t[2]);
		}
		return f.apply((int) number(arg(t, 3)));
	}

	/** Names `pieces` PREFIX.0, PREFIX.1, ... */
	static List<String> name(String prefix, List<DataHandle> pieces) {
		List<String> names = new ArrayList<>();
		for (int i = 0; i < pieces.size(); i++) {
			handles.put(prefix + "." + i, pieces.get(i));
			names.add(prefix + "." + i);
		}
		return names;
	}

	static void forget(List<String> names) {
		if (names != null) {
			names.forEach(handles::remove);
		}
	}

	static void partition(String[] t) throws ScenarioError {
		DataHandle h = handle(t, 1);
		Filter f = filter(t);
		call(t, () -> {
			h.partition(f);
			List<DataHandle> pieces = new ArrayList<>();
			h.getHandles().forEach(pieces::add);
			children.put(t[1], name(t[1], pieces));
		});
	}

	/** `partition_plan H FILTER N P`. */
	static void partitionPlan(String[] t) throws ScenarioError {
		DataHandle h = handle(t, 1);
		Filter f = filter(t);
		String p = arg(t, 4);
		call(t, () -> {
			PartitionPlan plan = h.partitionPlan(f);
			plans.put(p, plan);
			children.put(p, name(p, plan.getChildren()));
		});
	}

	interface PlanSwitch {
		void apply(String name, PartitionPlan p) throws StarPUException;
	}

	/**
	 * `VERB H P`: a switch of plan P of H. The switches return nothing in C: a refused one
	 * is said on stderr only.
	 */
	static Op planSwitch(PlanSwitch sw) {
		return t -> {
			handle(t, 1);
			PartitionPlan p = plans.get(arg(t, 2));
			if (p == null) {
				throw new ScenarioError("unknown plan " + t[2]);
			}
			quietly(t, () -> sw.apply(t[2], p));
		};
	}

	/** A `codelet` line: its kernel, its modes (null: `*`), and where it has implementations. */
	static final class CodeletSpec {
		final String kernel;
		final AccessMode[] modes;
		final Set<WorkerType> where;

		CodeletSpec(String kernel, AccessMode[] modes, Set<WorkerType> where) {
			this.kernel = kernel;
			this.modes = modes;
			this.where = where;
		}
	}

	/** `codelet C KERNEL MODE... [impl=cpu|opencl|cpu+opencl]`, or `codelet C KERNEL *`. */
	static void codelet(String[] t) throws ScenarioError {
		if (t.length < 3 || !KERNELS.contains(t[2])) {
			throw new ScenarioError("codelet: expected a name and a known kernel");
		}
		int end = t.length;
		Set<WorkerType> where = EnumSet.of(WorkerType.CPU);
		if (t[end - 1].startsWith("impl=")) {
			where = EnumSet.noneOf(WorkerType.class);
			for (String i : t[--end].substring(5).split("\\+")) {
				if (i.equals("cpu")) {
					where.add(WorkerType.CPU);
				} else if (i.equals("opencl") && OPENCL.containsKey(t[2])) {
					where.add(WorkerType.OPENCL);
				} else {
					throw new ScenarioError("codelet: kernel " + t[2] + " has no implementation " + i);
				}
			}
		}
		AccessMode[] modes = null;
		if (!(end == 4 && t[3].equals("*"))) {
			modes = new AccessMode[end - 3];
			for (int i = 3; i < end; i++) {
				modes[i - 3] = mode(t[i]);
			}
		}
		codelets.put(t[1], new CodeletSpec(t[2], modes, where));
	}

	/** Builds task t[1] of `insert` / `task` (named in the task table). */
	static Task task(String[] t) throws ScenarioError {
		String name = arg(t, 1);
		CodeletSpec cl = codelets.get(arg(t, 2));
		if (cl == null) {
			throw new ScenarioError("unknown codelet " + t[2]);
		}
		List<Long> values = new ArrayList<>();
		DataHandle ref = null;
		long delay = 0;
		List<DataHandle> bufs = new ArrayList<>();
		List<AccessMode> modes = new ArrayList<>();
		int prio = 0;
		boolean callback = false, sync = false, nodetach = false;
		Long tag = null;
		SchedContext ctx = null;
		Transaction trs = null;
		for (int i = 3; i < t.length; i++) {
			String o = t[i];
			int eq = o.indexOf('='), colon = o.lastIndexOf(':');
			String key = eq > 0 ? o.substring(0, eq) : o, v = eq > 0 ? o.substring(eq + 1) : "";
			if (eq > 0 && key.equals("value")) {
				values.add(number(v));
			} else if (eq > 0 && key.equals("ref")) {
				ref = handle(new String[] { "ref", v }, 1);
			} else if (eq > 0 && key.equals("delay")) {
				delay = number(v);
			} else if (eq > 0 && key.equals("prio")) {
				prio = (int) number(v);
			} else if (eq > 0 && key.equals("tag")) {
				tag = number(v);
			} else if (eq > 0 && key.equals("ctx")) {
				ctx = context(v);
			} else if (eq > 0 && key.equals("trs")) {
				trs = transaction(v);
			} else if (o.equals("callback")) {
				callback = true;
			} else if (o.equals("sync")) {
				sync = true;
			} else if (o.equals("nodetach")) {
				nodetach = true;
			} else if (colon > 0) {
				modes.add(mode(o.substring(0, colon)));
				String h = o.substring(colon + 1);
				bufs.add(h.equals("null") ? null : handle(new String[] { "buffer", h }, 1));
			} else {
				throw new ScenarioError(t[0] + ": unknown option " + o);
			}
		}
		long[] v = values.stream().mapToLong(Long::longValue).toArray();
		Task task = StarPU.task(new Kernel(t[2], cl, name, v, ref, delay)).name(name).priority(prio)
				.synchronous(sync).detach(!nodetach).context(ctx).transaction(trs);
		// Each buffer in the mode the scenario gives: the runtime checks it against the codelet's.
		for (int i = 0; i < bufs.size(); i++) {
			task.buffer(bufs.get(i), modes.get(i));
		}
		if (tag != null) {
			task.tag(tag);
		}
		if (callback) {
			task.callback(() -> event("cb", name, null));
		}
		tasks.put(name, task);
		return task;
	}

	static void context(String[] t) throws ScenarioError {
		String name = arg(t, 1);
		String policy = "eager";
		for (int i = 2; i < t.length; i++) {
			if (t[i].startsWith("policy=")) {
				policy = t[i].substring(7);
			} else if (t[i].contains("=")) {
				throw new ScenarioError("ctx: unknown option " + t[i]);
			}
		}
		int[] ws = workers(t, 2);
		String p = policy;
		call(t, () -> contexts.put(name, StarPU.createContext(name, p, ws)));
	}

	static void awaitEvent(String e) throws ScenarioError {
		synchronized (EVENTS) {
			while (!happened.contains(e)) {
				try {
					EVENTS.wait();
				} catch (InterruptedException x) {
					throw new ScenarioError("interrupted");
				}
			}
		}
	}

	/** The reduction methods of `redux_methods`: a sum, and zero as the neutral element. */
	static final Codelet REDUX_SUM = new Kernel("redux_sum", new CodeletSpec("redux_sum",
			new AccessMode[] { AccessMode.STARPU_RW, AccessMode.STARPU_R }, EnumSet.of(WorkerType.CPU)), null,
			new long[0], null, 0);
	static final Codelet REDUX_ZERO = new Kernel("redux_zero", new CodeletSpec("redux_zero",
			new AccessMode[] { AccessMode.STARPU_W }, EnumSet.of(WorkerType.CPU)), null, new long[0], null, 0);

	// Elements of the scenarios' data (int64), whatever the handle: variable, vector, matrix
	// (walked row by row), in memory order.

	static int size(DataHandle h) {
		if (h instanceof LongVectorHandle) {
			return ((LongVectorHandle) h).getSize();
		}
		if (h instanceof LongMatrixHandle) {
			return ((LongMatrixHandle) h).getNx() * ((LongMatrixHandle) h).getNy();
		}
		return 1;
	}

	static long get(DataHandle h, int i) {
		if (h instanceof LongVectorHandle) {
			return ((LongVectorHandle) h).getValueAt(i);
		}
		if (h instanceof LongMatrixHandle) {
			LongMatrixHandle m = (LongMatrixHandle) h;
			return m.getValueAt(i % m.getNx(), i / m.getNx());
		}
		return ((LongVariableHandle) h).getValue();
	}

	static void set(DataHandle h, int i, long v) {
		if (h instanceof LongVectorHandle) {
			((LongVectorHandle) h).setValueAt(i, v);
		} else if (h instanceof LongMatrixHandle) {
			LongMatrixHandle m = (LongMatrixHandle) h;
			m.setValueAt(i % m.getNx(), i / m.getNx(), v);
		} else {
			((LongVariableHandle) h).setValue(v);
		}
	}

	/** `v v v`, or rows separated by ` | ` for a matrix. */
	static String show(DataHandle h) {
		int row = h instanceof LongMatrixHandle ? ((LongMatrixHandle) h).getNx() : Integer.MAX_VALUE;
		StringBuilder b = new StringBuilder();
		for (int i = 0; i < size(h); i++) {
			b.append(i == 0 ? "" : i % row == 0 ? " | " : " ").append(get(h, i));
		}
		return b.toString();
	}

	static void event(String kind, String task, String text) {
		synchronized (EVENTS) {
			tick++;
			OUT.println("@ev " + tick + " " + kind + " " + task + (text == null ? "" : " " + text));
			OUT.flush();
			happened.add(kind.equals("cb") ? "cb:" + task : task);
			EVENTS.notifyAll();
		}
	}

	/** One task's codelet: the kernel, its arguments (the face's STARPU_VALUE), and the events it records. */
	static final class Kernel extends Codelet {
		final String name, kernel, task;
		final AccessMode[] modes;
		final Set<WorkerType> where;
		final long[] v;
		final DataHandle ref;
		final long delay;

		Kernel(String name, CodeletSpec spec, String task, long[] v, DataHandle ref, long delay) {
			this.name = name;
			this.kernel = spec.kernel;
			this.modes = spec.modes;
			this.where = spec.where;
			this.task = task;
			this.v = v;
			this.ref = ref;
			this.delay = delay;
		}

		@Override
		public String getName() {
			return name;
		}

		@Override
		public AccessMode[] getAccessModes() {
			return modes;
		}

		@Override
		public Set<WorkerType> getWhere() {
			return where;
		}

		@Override
		public CodeletType getType() {
			return kernel.equals("spmd") ? CodeletType.SPMD : CodeletType.SEQ;
		}

		long arg(int i) {
			if (i >= v.length) {
				throw new IllegalArgumentException("kernel " + kernel + ": value " + i + " is missing");
			}
			return v[i];
		}

		@Override
		public void run(DataHandle[] b) {
			if (kernel.startsWith("redux_")) {
				// The reduction methods run outside any scenario task: no event.
				body(b);
				return;
			}
			if (kernel.equals("spmd") && StarPU.combinedWorkerRank() != 0) {
				// The other ranks of an SPMD task: the task's events are rank 0's.
				spmd(b[0]);
				return;
			}
			started();
			String report = body(b);
			if (report != null) {
				event("report", task, report);
			}
			event("end", task, null);
		}

		/** The task's start event, then its delay. */
		void started() {
			event("start", task, null);
			if (delay > 0) {
				try {
					Thread.sleep(delay);
				} catch (InterruptedException e) {
					Thread.currentThread().interrupt();
				}
			}
		}

		/**
		 * The OpenCL implementation: one OpenCL kernel applies the operation to the device
		 * copies of the buffers. The end event is recorded even when the kernel fails.
		 */
		@Override
		public void runOpenCL(OpenCLCall call) {
			started();
			try {
				OPENCL.get(kernel).run(call, this);
			} finally {
				event("end", task, null);
			}
		}

		/** The kernel's work; returns what it reports, or null. */
		String body(DataHandle[] b) {
			switch (kernel) {
				case "noop":
					return null;
				case "set":
					each(b[0], x -> arg(0));
					return null;
				case "add":
					each(b[0], x -> x + arg(0));
					return null;
				case "scale":
					each(b[0], x -> x * arg(0));
					return null;
				case "affine":
					each(b[0], x -> x * arg(0) + arg(1));
					return null;
				case "axpy":
					for (int i = 0; i < size(b[0]); i++) set(b[0], i, get(b[0], i) + arg(0) * get(b[1], i));
					return null;
				case "copy":
				case "redux_sum":
					boolean add = kernel.equals("redux_sum");
					for (int i = 0; i < size(b[0]); i++) set(b[0], i, (add ? get(b[0], i) : 0) + get(b[1], i));
					return null;
				case "redux_zero":
					each(b[0], x -> 0);
					return null;
				case "sum": {
					long s = 0;
					for (int k = 1; k < b.length; k++) {
						for (int i = 0; i < size(b[k]); i++) s += get(b[k], i);
					}
					long total = s;
					each(b[0], x -> total);
					return null;
				}
				case "gate":
					gate((int) arg(0));
					return null;
				case "try_acquire":
					try {
						ref.acquire(AccessMode.STARPU_R);
						ref.release();
						return "acquire 0";
					} catch (StarPUException e) {
						return "acquire " + code(e);
					}
				case "try_wait_all":
					try {
						StarPU.taskWaitForAll();
						return "wait_all 0";
					} catch (StarPUException e) {
						return "wait_all " + code(e);
					}
				case "worker":
					return "worker " + StarPU.workerId();
				case "spmd":
					spmd(b[0]);
					return null;
				case "clfail":
					return null; // fails on OpenCL only
				default:
					throw new IllegalStateException("unknown kernel " + kernel);
			}
		}
	}

	/** The OpenCL kernel of the scenarios' operations: b0 (and b1), walked by rows of nx, ld apart. */
	static final Program PROGRAM = new Program(String.join("\n",
			"enum { SET, ADD, SCALE, AFFINE, AXPY, COPY };",
			"__kernel void apply(int op, __global long *b0, unsigned off0, unsigned nx0, unsigned ld0,",
			"                    __global const long *b1, unsigned off1, unsigned nx1, unsigned ld1,",
			"                    long k0, long k1, unsigned n) {",
			"    const size_t i = get_global_id(0);",
			"    if (i >= n) return;",
			"    __global long *x = b0 + off0 + (i / nx0) * ld0 + i % nx0;",
			"    const long y = b1[off1 + (i / nx1) * ld1 + i % nx1];",
			"    switch (op) {",
			"    case SET: *x = k0; break;",
			"    case ADD: *x += k0; break;",
			"    case SCALE: *x *= k0; break;",
			"    case AFFINE: *x = *x * k0 + k1; break;",
			"    case AXPY: *x += k0 * y; break;",
			"    case COPY: *x = y; break;",
			"    }",
			"}"));

	interface OpenCLKernel {
		void run(OpenCLCall call, Kernel k);
	}

	// The operations of PROGRAM's kernel, numbered as in its enum.
	static final int SET = 0, ADD = 1, SCALE = 2, AFFINE = 3, AXPY = 4, COPY = 5;

	static {
		OPENCL.put("noop", (call, k) -> {
		});
		OPENCL.put("set", (call, k) -> apply(call, SET, k.arg(0), 0, false));
		OPENCL.put("add", (call, k) -> apply(call, ADD, k.arg(0), 0, false));
		OPENCL.put("scale", (call, k) -> apply(call, SCALE, k.arg(0), 0, false));
		OPENCL.put("affine", (call, k) -> apply(call, AFFINE, k.arg(0), k.arg(1), false));
		OPENCL.put("axpy", (call, k) -> apply(call, AXPY, k.arg(0), 0, true));
		OPENCL.put("copy", (call, k) -> apply(call, COPY, 0, 0, true));
		// A program that does not compile: building it fails the task.
		OPENCL.put("clfail", (call, k) -> call.kernel(new Program("__kernel void f( {"), "f").launch(1));
	}

	/** Runs operation {@code op} of the OpenCL kernel on buffer 0 (and buffer 1 when {@code binary}). */
	static void apply(OpenCLCall call, int op, long k0, long k1, boolean binary) {
		DeviceBuffer b0 = call.getBuffer(0), b1 = binary ? call.getBuffer(1) : b0;
		if (b1.getCount() != b0.getCount()) {
			throw new IllegalArgumentException("buffers of different sizes");
		}
		call.kernel(PROGRAM, "apply").arg(op)
				.arg(b0).arg((int) b0.getFirst()).arg(b0.getNx()).arg(b0.getLd())
				.arg(b1).arg((int) b1.getFirst()).arg(b1.getNx()).arg(b1.getLd())
				.arg(k0).arg(k1).arg((int) b0.getCount())
				.launch(b0.getCount());
	}

	interface LongOp {
		long apply(long x);
	}

	static void each(DataHandle h, LongOp f) {
		for (int i = 0; i < size(h); i++) {
			set(h, i, f.apply(get(h, i)));
		}
	}

	static void gate(int g) {
		synchronized (gates) {
			while (!gates.contains(g)) {
				try {
					gates.wait();
				} catch (InterruptedException e) {
					Thread.currentThread().interrupt();
					return;
				}
			}
		}
	}

	/** Rank r of a team of s sets its block of vector v to 10 s + r (the first n mod s blocks one longer). */
	static void spmd(DataHandle v) {
		int s = StarPU.combinedWorkerSize(), r = StarPU.combinedWorkerRank(), n = size(v);
		int first = r * (n / s) + Math.min(r, n % s);
		int len = n / s + (r < n % s ? 1 : 0);
		for (int i = first; i < first + len; i++) {
			set(v, i, 10L * s + r);
		}
	}
}
