import fr.labri.hpccloud.starpu.Codelet;
import fr.labri.hpccloud.starpu.StarPU;
import fr.labri.hpccloud.starpu.StarPUException;
import fr.labri.hpccloud.starpu.Task;
import fr.labri.hpccloud.starpu.data.DataHandle;
import fr.labri.hpccloud.starpu.data.LongVariableHandle;
import fr.labri.hpccloud.starpu.data.LongVectorHandle;

import java.io.BufferedOutputStream;
import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Java conformance driver (tests/conformance/README.md, protocol 2): runs a plan of
 * operations through StarPU's Java interface, with every kernel written in Java.
 * Usage: Driver PLAN | --capabilities. What the Java interface has no call for (explicit
 * task objects and dependencies, tags, matrices, home-less data, invalidation,
 * sequential-consistency flags, COMMUTE) is not in the capabilities; REDUX and SCRATCH
 * buffers reach the kernels as views of the memory the runtime lends them.
 */
public class Driver {
	static final PrintStream OUT = new PrintStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16), false, StandardCharsets.UTF_8);
	static final Object EVENTS = new Object();
	static long tick;
	static final Set<String> happened = new HashSet<>();

	static final List<String> OPS = List.of("init", "shutdown", "data", "read", "acquire", "show", "store", "release",
			"buffer", "partition", "unpartition", "unregister", "codelet", "insert", "task", "submit", "wait_all", "clock", "await", "open",
			"redux_methods");
	static final List<String> KERNELS = List.of("noop", "set", "add", "scale", "affine", "axpy", "copy", "sum", "gate",
			"try_acquire", "try_wait_all");
	static final List<String> OPTIONS = List.of("value", "ref", "delay", "prio", "callback", "sync");

	static final Map<String, DataHandle> handles = new HashMap<>();
	static final Map<String, String[]> codelets = new HashMap<>(); // name -> kernel, modes...
	static final Set<Integer> gates = new HashSet<>();
	static final Map<String, Task> described = new HashMap<>();
	static String plan;
	static int lineNo;

	public static void main(String[] args) throws Exception {
		if (args.length != 1) {
			System.err.println("usage: Driver PLAN | --capabilities");
			System.exit(2);
		}
		if (args[0].equals("--capabilities")) {
			OPS.forEach(o -> OUT.println("op " + o));
			KERNELS.forEach(k -> OUT.println("kernel " + k));
			OPTIONS.forEach(o -> OUT.println("option " + o));
			OUT.println("filter vector_block");
			OUT.println("kind variable");
			OUT.println("kind vector");
			for (String m : new String[] { "R", "W", "RW", "REDUX", "SCRATCH" }) {
				OUT.println("mode " + m);
			}
			OUT.println("nbuffers variable");
			OUT.println("handle null");
			OUT.flush();
			return;
		}
		plan = args[0];
		List<String> lines = Files.readAllLines(Paths.get(plan), StandardCharsets.UTF_8);
		for (String line : lines) {
			lineNo++;
			String[] t = line.trim().split("\\s+");
			if (t.length == 0 || t[0].isEmpty()) {
				continue;
			}
			try {
				run(t);
			} catch (ScenarioError e) {
				OUT.flush();
				System.err.println(plan + ":" + lineNo + ": scenario error: " + e.getMessage());
				System.exit(2);
			}
		}
		if (StarPU.isInitialized()) {
			StarPU.shutdown();
		}
		OUT.flush();
		System.exit(0);
	}

	static final class ScenarioError extends Exception {
		ScenarioError(String m) {
			super(m);
		}
	}

	static void run(String[] t) throws ScenarioError {
		switch (t[0]) {
			case "init": {
				Map<String, String> env = new HashMap<>();
				for (int i = 1; i < t.length; i++) {
					if (t[i].startsWith("ncpus=")) {
						env.put("STARPU_NCPU", t[i].substring(6));
					} else if (t[i].startsWith("sched=")) {
						env.put("STARPU_SCHED", t[i].substring(6));
					} else {
						throw new ScenarioError("init: unknown option " + t[i]);
					}
				}
				call(t, () -> StarPU.init(env));
				break;
			}
			case "shutdown":
				call(t, StarPU::shutdown);
				break;
			case "data":
				data(t);
				break;
			case "redux_methods": {
				DataHandle h = handle(t, 1);
				call(t, () -> unchecked(() -> h.setReductionMethods(REDUX_SUM, REDUX_ZERO)));
				break;
			}
			case "read": {
				DataHandle h = handle(t, 1);
				call(t, () -> unchecked(() -> {
					h.acquire(DataHandle.AccessMode.STARPU_R);
					OUT.println("read " + t[1] + " = " + show(h));
					h.release();
				}));
				break;
			}
			case "acquire": {
				DataHandle h = handle(t, 1);
				DataHandle.AccessMode m = mode(arg(t, 2));
				call(t, () -> unchecked(() -> h.acquire(m)));
				break;
			}
			case "show":
				OUT.println("show " + t[1] + " = " + show(handle(t, 1)));
				break;
			case "store": {
				DataHandle h = handle(t, 1);
				for (int i = 2; i < t.length; i++) {
					set(h, i - 2, parse(t[i]));
				}
				break;
			}
			case "release": {
				DataHandle h = handle(t, 1);
				call(t, () -> unchecked(h::release));
				break;
			}
			case "buffer":
				OUT.println("buffer " + t[1] + " = " + show(handle(t, 1)));
				break;
			case "partition": {
				DataHandle h = handle(t, 1);
				if (!arg(t, 2).equals("vector_block") || !(h instanceof LongVectorHandle)) {
					throw new ScenarioError("partition: only vector_block on vectors");
				}
				int n = (int) parse(arg(t, 3));
				call(t, () -> unchecked(() -> {
					h.partition(n);
					for (int i = 0; i < n; i++) {
						handles.put(t[1] + "." + i, h.getSubData(i));
					}
				}));
				break;
			}
			case "unpartition": {
				DataHandle h = handle(t, 1);
				int n = h.getNbChildren();
				call(t, () -> unchecked(h::unpartition));
				for (int i = 0; i < n; i++) {
					handles.remove(t[1] + "." + i);
				}
				break;
			}
			case "unregister": {
				DataHandle h = handle(t, 1);
				call(t, () -> unchecked(h::unregister));
				break;
			}
			case "codelet": {
				if (t.length < 3 || !KERNELS.contains(t[2])) {
					throw new ScenarioError("codelet: expected a name and a known kernel");
				}
				for (int i = 3; i < t.length; i++) {
					if (!t[i].equals("*")) {
						mode(t[i]);
					}
				}
				codelets.put(t[1], Arrays.copyOfRange(t, 2, t.length));
				break;
			}
			case "insert":
				insert(t, false);
				break;
			case "task":
				insert(t, true);
				break;
			case "submit": {
				Task b = described.remove(arg(t, 1));
				if (b == null) {
					throw new ScenarioError("unknown task " + t[1]);
				}
				call(t, () -> b.submit());
				break;
			}
			case "wait_all":
				call(t, StarPU::taskWaitForAll);
				break;
			case "clock":
				synchronized (EVENTS) {
					OUT.println("@clock " + tick);
				}
				break;
			case "await": {
				String e = arg(t, 1);
				synchronized (EVENTS) {
					while (!happened.contains(e)) {
						try {
							EVENTS.wait();
						} catch (InterruptedException x) {
							throw new ScenarioError("interrupted");
						}
					}
				}
				break;
			}
			case "open":
				synchronized (gates) {
					gates.add((int) parse(arg(t, 1)));
					gates.notifyAll();
				}
				break;
			default:
				throw new ScenarioError("unknown operation " + t[0]);
		}
	}

	interface Call {
		void run() throws StarPUException;
	}

	interface Body {
		void run();
	}

	/** Runs a handle call (its errors are unchecked StarPUExceptions). */
	static void unchecked(Body b) throws StarPUException {
		b.run();
	}

	/** Runs an operation; an error prints `error VERB [SUBJECT] CODE`. */
	static void call(String[] t, Call c) {
		try {
			c.run();
		} catch (StarPUException e) {
			String subject = t.length > 1 && !t[1].contains("=") ? " " + t[1] : "";
			OUT.println("error " + t[0] + subject + " " + code(e.getErrno()));
		}
	}

	/** A return code as the driver prints it: the negative errno (0 for success), as a C
	 * program would get it; the harness names it. */
	static String code(int errno) {
		return Integer.toString(-errno);
	}

	static String arg(String[] t, int i) throws ScenarioError {
		if (i >= t.length) {
			throw new ScenarioError(t[0] + ": missing argument " + i);
		}
		return t[i];
	}

	static long parse(String s) throws ScenarioError {
		try {
			return Long.parseLong(s);
		} catch (NumberFormatException e) {
			throw new ScenarioError("not an integer: " + s);
		}
	}

	static DataHandle handle(String[] t, int i) throws ScenarioError {
		DataHandle h = handles.get(arg(t, i));
		if (h == null) {
			throw new ScenarioError("unknown handle " + t[i]);
		}
		return h;
	}

	static DataHandle.AccessMode mode(String m) throws ScenarioError {
		switch (m) {
			case "R": return DataHandle.AccessMode.STARPU_R;
			case "W": return DataHandle.AccessMode.STARPU_W;
			case "RW": return DataHandle.AccessMode.STARPU_RW;
			case "REDUX": return DataHandle.AccessMode.STARPU_REDUX;
			case "SCRATCH": return DataHandle.AccessMode.STARPU_SCRATCH;
			default: throw new ScenarioError("unknown access mode " + m);
		}
	}

	static void data(String[] t) throws ScenarioError {
		String name = arg(t, 1);
		if (handles.containsKey(name)) {
			throw new ScenarioError("handle " + name + " registered twice");
		}
		String kind = arg(t, 2);
		List<Long> values = new ArrayList<>();
		DataHandle h;
		try {
			if (kind.equals("variable")) {
				for (int i = 3; i < t.length; i++) {
					values.add(parse(t[i]));
				}
				LongVariableHandle v = LongVariableHandle.register();
				h = v;
			} else if (kind.equals("vector")) {
				int n = (int) parse(arg(t, 3));
				for (int i = 4; i < t.length; i++) {
					values.add(parse(t[i]));
				}
				h = LongVectorHandle.register(n);
			} else {
				throw new ScenarioError("data: unknown kind " + kind);
			}
		} catch (StarPUException e) {
			OUT.println("error data " + name + " " + code(e.getErrno()));
			return;
		}
		for (int i = 0; i < values.size(); i++) {
			set(h, i, values.get(i));
		}
		handles.put(name, h);
	}

	/** The reduction methods of `redux_methods`: a sum, and zero as the neutral element. */
	static final Codelet REDUX_SUM = new Codelet() {
		@Override
		public void run(DataHandle[] b) {
			for (int i = 0; i < size(b[0]); i++) set(b[0], i, get(b[0], i) + get(b[1], i));
		}

		@Override
		public DataHandle.AccessMode[] getAccessModes() {
			return new DataHandle.AccessMode[] { DataHandle.AccessMode.STARPU_RW, DataHandle.AccessMode.STARPU_R };
		}
	};
	static final Codelet REDUX_ZERO = new Codelet() {
		@Override
		public void run(DataHandle[] b) {
			for (int i = 0; i < size(b[0]); i++) set(b[0], i, 0);
		}

		@Override
		public DataHandle.AccessMode[] getAccessModes() {
			return new DataHandle.AccessMode[] { DataHandle.AccessMode.STARPU_W };
		}
	};

	static int size(DataHandle h) {
		return h instanceof LongVectorHandle ? ((LongVectorHandle) h).getSize() : 1;
	}

	static long get(DataHandle h, int i) {
		return h instanceof LongVectorHandle ? ((LongVectorHandle) h).getValueAt(i) : ((LongVariableHandle) h).getValue();
	}

	static void set(DataHandle h, int i, long v) {
		if (h instanceof LongVectorHandle) {
			((LongVectorHandle) h).setValueAt(i, v);
		} else {
			((LongVariableHandle) h).setValue(v);
		}
	}

	static String show(DataHandle h) {
		StringBuilder b = new StringBuilder();
		for (int i = 0; i < size(h); i++) {
			b.append(i == 0 ? "" : " ").append(get(h, i));
		}
		return b.toString();
	}

	static void event(String kind, String task, String text) {
		synchronized (EVENTS) {
			tick++;
			OUT.println("@ev " + tick + " " + kind + " " + task + (text == null ? "" : " " + text));
			happened.add(kind.equals("cb") ? "cb:" + task : task);
			EVENTS.notifyAll();
		}
	}

	/** `insert` submits now; `task` describes the task for a later `submit`. */
	static void insert(String[] t, boolean later) throws ScenarioError {
		String task = arg(t, 1);
		String[] cl = codelets.get(arg(t, 2));
		if (cl == null) {
			throw new ScenarioError("unknown codelet " + t[2]);
		}
		List<DataHandle> bufs = new ArrayList<>();
		List<DataHandle.AccessMode> modes = new ArrayList<>();
		List<Long> values = new ArrayList<>();
		DataHandle[] ref = { null };
		long[] delay = { 0 };
		int prio = 0;
		boolean callback = false, sync = false;
		for (int i = 3; i < t.length; i++) {
			String o = t[i];
			int colon = o.indexOf(':');
			if (o.startsWith("value=")) {
				values.add(parse(o.substring(6)));
			} else if (o.startsWith("ref=")) {
				ref[0] = handles.get(o.substring(4));
				if (ref[0] == null) {
					throw new ScenarioError("unknown handle " + o.substring(4));
				}
			} else if (o.startsWith("delay=")) {
				delay[0] = parse(o.substring(6));
			} else if (o.startsWith("prio=")) {
				prio = (int) parse(o.substring(5));
			} else if (o.equals("callback")) {
				callback = true;
			} else if (o.equals("sync")) {
				sync = true;
			} else if (colon > 0) {
				modes.add(mode(o.substring(0, colon)));
				String hn = o.substring(colon + 1);
				if (hn.equals("null")) {
					bufs.add(null);
				} else {
					DataHandle h = handles.get(hn);
					if (h == null) {
						throw new ScenarioError("unknown handle " + hn);
					}
					bufs.add(h);
				}
			} else {
				throw new ScenarioError("insert: unknown option " + o);
			}
		}
		String kernel = cl[0];
		boolean variable = cl.length == 2 && cl[1].equals("*");
		DataHandle.AccessMode[] declared = null;
		if (!variable) {
			declared = new DataHandle.AccessMode[cl.length - 1];
			for (int i = 1; i < cl.length; i++) {
				declared[i - 1] = mode(cl[i]);
			}
		}
		long[] v = values.stream().mapToLong(Long::longValue).toArray();
		Codelet c = new Kernel(t[2], kernel, declared, task, v, ref[0], delay[0]);
		Task b = StarPU.task(c).handles(bufs.toArray(new DataHandle[0])).priority(prio).name(task).synchronous(sync);
		// Each buffer's mode as the scenario gives it: the runtime checks it against the codelet's.
		b.modes(modes.toArray(new DataHandle.AccessMode[0]));
		if (callback) {
			b.callback(() -> event("cb", task, null));
		}
		if (later) {
			described.put(task, b);
			return;
		}
		final Task submit = b;
		call(t, () -> submit.submit());
	}

	/** One task's codelet: the kernel, its arguments, and the events it records. */
	static final class Kernel extends Codelet {
		final String name, kernel, task;
		final DataHandle.AccessMode[] modes;
		final long[] v;
		final DataHandle ref;
		final long delay;

		Kernel(String name, String kernel, DataHandle.AccessMode[] modes, String task, long[] v, DataHandle ref, long delay) {
			this.name = name;
			this.kernel = kernel;
			this.modes = modes;
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
		public DataHandle.AccessMode[] getAccessModes() {
			return modes;
		}

		long arg(int i) {
			if (i >= v.length) {
				throw new IllegalArgumentException("kernel " + kernel + ": value " + i + " is missing");
			}
			return v[i];
		}

		@Override
		public void run(DataHandle[] b) {
			event("start", task, null);
			if (delay > 0) {
				try {
					Thread.sleep(delay);
				} catch (InterruptedException e) {
					Thread.currentThread().interrupt();
				}
			}
			String report = null;
			switch (kernel) {
				case "noop":
					break;
				case "set":
					for (int i = 0; i < size(b[0]); i++) set(b[0], i, arg(0));
					break;
				case "add":
					for (int i = 0; i < size(b[0]); i++) set(b[0], i, get(b[0], i) + arg(0));
					break;
				case "scale":
					for (int i = 0; i < size(b[0]); i++) set(b[0], i, get(b[0], i) * arg(0));
					break;
				case "affine":
					for (int i = 0; i < size(b[0]); i++) set(b[0], i, get(b[0], i) * arg(0) + arg(1));
					break;
				case "axpy":
					for (int i = 0; i < size(b[0]); i++) set(b[0], i, get(b[0], i) + arg(0) * get(b[1], i));
					break;
				case "copy":
					for (int i = 0; i < size(b[0]); i++) set(b[0], i, get(b[1], i));
					break;
				case "sum": {
					long s = 0;
					for (int k = 1; k < b.length; k++) {
						for (int i = 0; i < size(b[k]); i++) s += get(b[k], i);
					}
					for (int i = 0; i < size(b[0]); i++) set(b[0], i, s);
					break;
				}
				case "gate": {
					int g = (int) arg(0);
					synchronized (gates) {
						while (!gates.contains(g)) {
							try {
								gates.wait();
							} catch (InterruptedException e) {
								Thread.currentThread().interrupt();
								break;
							}
						}
					}
					break;
				}
				case "try_acquire":
					try {
						unchecked(() -> {
							ref.acquire(DataHandle.AccessMode.STARPU_R);
							ref.release();
						});
						report = "acquire OK";
					} catch (StarPUException e) {
						report = "acquire " + code(e.getErrno());
					}
					break;
				case "try_wait_all":
					try {
						StarPU.taskWaitForAll();
						report = "wait_all OK";
					} catch (StarPUException e) {
						report = "wait_all " + code(e.getErrno());
					}
					break;
				default:
					throw new IllegalStateException("unknown kernel " + kernel);
			}
			if (report != null) {
				event("report", task, report);
			}
			event("end", task, null);
		}
	}
}
