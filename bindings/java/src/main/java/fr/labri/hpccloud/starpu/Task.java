package fr.labri.hpccloud.starpu;

import fr.labri.hpccloud.starpu.data.DataHandle;
import fr.labri.hpccloud.starpu.internal.Invocation;
import fr.labri.hpccloud.starpu.internal.Native;

import java.util.concurrent.CompletableFuture;

/**
 * A task being described: {@code StarPU.task(codelet).handles(a, b).priority(1).submit()}.
 * Options beyond StarPU's Java interface: per-task access modes (for a codelet whose
 * {@link Codelet#getAccessModes} is null), priority, name, completion callback, and
 * {@link #submitAsync} for a {@link CompletableFuture}.
 */
public final class Task {
	private static final DataHandle[] NONE = new DataHandle[0];
	private static final int EINVAL = 22;

	private final Codelet codelet;
	private DataHandle[] handles = NONE;
	private int[] modes;
	private int priority;
	private String name;
	private Runnable callback;
	private boolean synchronous;
	private boolean waitable;

	Task(Codelet codelet) {
		this.codelet = codelet;
	}

	public Task handles(DataHandle... handles) {
		this.handles = handles == null ? NONE : handles;
		return this;
	}

	/** The mode of each buffer, for codelets that let tasks choose. */
	public Task modes(DataHandle.AccessMode... modes) {
		this.modes = new int[modes.length];
		for (int i = 0; i < modes.length; i++) {
			this.modes[i] = modes[i].bits();
		}
		return this;
	}

	/** Mode bits as StarPU's C API numbers them (R=1, W=2, SCRATCH=4, REDUX=8, COMMUTE=16). */
	public Task modeBits(int... bits) {
		this.modes = bits.clone();
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

	public Task synchronous(boolean synchronous) {
		this.synchronous = synchronous;
		return this;
	}

	/** Makes the id {@link #submit} returns usable with {@link StarPU#waitForTasks}. */
	public Task waitable(boolean waitable) {
		this.waitable = waitable;
		return this;
	}

	/** Submits the task; returns its id. */
	public long submit() throws StarPUException {
		return submit(new Invocation(codelet, handles), callback);
	}

	/** Submits the task; the future completes when it is over (exceptionally if the codelet threw). */
	public CompletableFuture<Void> submitAsync() throws StarPUException {
		CompletableFuture<Void> done = new CompletableFuture<>();
		Invocation inv = new Invocation(codelet, handles);
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

	private long submit(Invocation inv, Runnable cb) throws StarPUException {
		if (codelet == null) {
			throw new StarPUException("task submission: the codelet is null", null, EINVAL);
		}
		long[] addrs = handles.length == 0 ? null : new long[handles.length];
		for (int i = 0; i < handles.length; i++) {
			if (handles[i] == null) {
				throw new StarPUException("task submission: buffer " + i + ": data handle is null", null, EINVAL);
			}
			addrs[i] = DataHandle.nativeOf(handles[i]);
		}
		int flags = (synchronous ? Native.SYNC : 0) | (waitable ? Native.WAITABLE : 0);
		long cl;
		try {
			cl = codelet.nativeId();
		} catch (IllegalArgumentException e) {
			throw new StarPUException("task submission: " + e.getMessage(), e, EINVAL);
		}
		return Native.submit(cl, inv, addrs, modes, flags, priority, name, cb);
	}
}
