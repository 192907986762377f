package fr.labri.hpccloud.starpu;

import fr.labri.hpccloud.starpu.data.DataHandle;
import fr.labri.hpccloud.starpu.internal.Invocation;
import fr.labri.hpccloud.starpu.internal.Native;
import fr.labri.hpccloud.starpu.internal.NativeObject;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A task: {@code StarPU.task(codelet).handles(a, b).priority(1).submit()}. Beyond StarPU's
 * Java interface it has what StarPU's C tasks have: per-buffer access modes (for a codelet
 * whose {@link Codelet#getAccessModes} is null, or with flags such as
 * {@code STARPU_RW.with(STARPU_COMMUTE)}), priority, name, completion callback, tag,
 * dependencies on other tasks ({@link #after}, {@link #endAfter}), scheduling context,
 * transaction, and waiting for it ({@link #waitFor}, or {@link #submitAsync} for a
 * {@link CompletableFuture}). A task object is the runtime's task from its first use on, so
 * other tasks may depend on it before it is submitted.
 */
public final class Task {
	private static final DataHandle[] NONE = new DataHandle[0];

	private final Codelet codelet;
	private final List<DataHandle> handles = new ArrayList<>();
	private final List<DataHandle.AccessMode> modes = new ArrayList<>();
	private int priority;
	private String name;
	private Runnable callback;
	private boolean synchronous;
	private boolean detach = true;
	private boolean tagged;
	private long tag;
	private SchedContext context;
	private Transaction transaction;
	/** The runtime's task, made at the first call that needs it. */
	private NativeObject task;

	Task(Codelet codelet) {
		this.codelet = codelet;
	}

	/** The task's buffers, in the modes its codelet declares. */
	public Task handles(DataHandle... handles) {
		this.handles.clear();
		this.modes.clear();
		for (DataHandle h : handles == null ? NONE : handles) {
			buffer(h, null);
		}
		return this;
	}

	/** One more buffer, in {@code mode} (null: the codelet's mode for it). */
	public Task buffer(DataHandle handle, DataHandle.AccessMode mode) {
		handles.add(handle);
		modes.add(mode);
		return this;
	}

	/** The mode of each buffer given to {@link #handles}, for codelets that let tasks choose. */
	public Task modes(DataHandle.AccessMode... modes) {
		for (int i = 0; i < modes.length; i++) {
			if (i < this.modes.size()) {
				this.modes.set(i, modes[i]);
			}
		}
		return this;
	}

	public Task priority(int priority) {
		this.priority = priority;
		return this;
	}

	public Task name(String name) {
		this.name = name;
		return this;
	}

	/** Runs on a worker once the codelet has run (even if it threw), before dependent tasks start. */
	public Task callback(Runnable callback) {
		this.callback = callback;
		return this;
	}

	/** {@link #submit} returns once the task is over, and throws if it failed. */
	public Task synchronous(boolean synchronous) {
		this.synchronous = synchronous;
		return this;
	}

	/**
	 * With {@code false}, the task may be waited for: {@link #waitFor}, or
	 * {@link StarPU#waitForTasks} with the id {@link #submit} returns. Default: true, nobody
	 * waits for it (as in StarPU).
	 */
	public Task detach(boolean detach) {
		this.detach = detach;
		return this;
	}

	/** The task's tag: other tags may depend on it, {@link StarPU#tagWait} waits for it. */
	public Task tag(long tag) {
		this.tag = tag;
		this.tagged = true;
		return this;
	}

	/** The task starts only after every one of {@code tasks} has ended (declared before submission). */
	public Task after(Task... tasks) {
		Native.taskDeclareDeps(pointer(), pointers(tasks), false);
		keepAlive(tasks);
		return this;
	}

	/** The task does not end before every one of {@code tasks} has ended (its successors wait too). */
	public Task endAfter(Task... tasks) {
		Native.taskDeclareDeps(pointer(), pointers(tasks), true);
		keepAlive(tasks);
		return this;
	}

	/** The scheduling context the task is submitted to. */
	public Task context(SchedContext context) {
		this.context = context;
		return this;
	}

	/** Makes the task one of {@code transaction}'s current epoch. */
	public Task transaction(Transaction transaction) {
		this.transaction = transaction;
		return this;
	}

	/** The runtime's id of the task. */
	public long getId() {
		try {
			return Native.taskId(pointer());
		} finally {
			task.keepAlive();
		}
	}

	/** Submits the task; returns its id. */
	public long submit() {
		return submit(new Invocation(codelet, array()), callback);
	}

	/** Submits the task; the future completes when it is over (exceptionally if the codelet threw). */
	public CompletableFuture<Void> submitAsync() {
		CompletableFuture<Void> done = new CompletableFuture<>();
		Invocation inv = new Invocation(codelet, array());
		Runnable user = callback;
		submit(inv, () -> {
			try {
				if (user != null) {
					user.run();
				}
			} finally {
				Throwable t = inv.failure();
				if (t == null) {
					done.complete(null);
				} else {
					done.completeExceptionally(t);
				}
			}
		});
		return done;
	}

	/**
	 * Waits until the task is over ({@code starpu_task_wait}); throws
	 * {@link TaskFailedException} (the cause: what its codelet threw) if it failed. Only a
	 * task submitted with {@code detach(false)} may be waited for.
	 */
	public void waitFor() {
		try {
			Native.taskWait(pointer(), -1);
		} finally {
			task.keepAlive();
		}
	}

	/** {@link #waitFor}, giving up after {@code timeout}: throws {@link TimeoutException} then. */
	public void waitFor(long timeout, TimeUnit unit) {
		try {
			Native.taskWait(pointer(), Math.max(0, unit.toNanos(timeout)));
		} finally {
			task.keepAlive();
		}
	}

	private DataHandle[] array() {
		return handles.toArray(NONE);
	}

	private long pointer() {
		if (task == null) {
			task = NativeObject.own(Native.taskCreate(), Native::taskFree);
		}
		return task.pointer();
	}

	private static long[] pointers(Task[] tasks) {
		long[] p = new long[tasks.length];
		for (int i = 0; i < tasks.length; i++) {
			p[i] = tasks[i].pointer();
		}
		return p;
	}

	private void keepAlive(Task[] tasks) {
		task.keepAlive();
		for (Task t : tasks) {
			t.task.keepAlive();
		}
	}

	private long submit(Invocation inv, Runnable cb) {
		int[] bits = new int[modes.size()];
		for (int i = 0; i < bits.length; i++) {
			DataHandle.AccessMode m = modes.get(i);
			bits[i] = m == null ? 0 : m.bits();
		}
		int flags = (synchronous ? Native.SYNC : 0) | (detach ? 0 : Native.NODETACH) | (tagged ? Native.TAGGED : 0);
		long trs = transaction == null ? 0 : transaction.ref.pointer();
		try {
			return submit(pointer(), codelet, inv, bits, flags, priority, name, cb, tag, context, trs);
		} finally {
			task.keepAlive();
			if (transaction != null) {
				transaction.ref.keepAlive();
			}
		}
	}

	/**
	 * Submits {@code codelet} on the invocation's handles: as the runtime's task
	 * {@code task} (0: a new one nobody else knows, as {@code starpu_task_insert} makes).
	 */
	static long submit(long task, Codelet codelet, Invocation inv, int[] modes, int flags, int priority, String name,
			Runnable callback, long tag, SchedContext context, long transaction) {
		if (codelet == null) {
			throw new NullPointerException("task submission: the codelet is null");
		}
		DataHandle[] hs = inv.buffers();
		long[] addrs = hs.length == 0 ? null : new long[hs.length];
		for (int i = 0; i < hs.length; i++) {
			// A null handle is the runtime's NULL handle: it says what is wrong with it.
			addrs[i] = hs[i] == null ? 0 : DataHandle.nativeOf(hs[i]);
		}
		return Native.submit(task, codelet.nativeId(), inv, addrs, modes, flags, priority, name, callback, tag,
				context == null ? -1 : context.getId(), transaction);
	}
}
