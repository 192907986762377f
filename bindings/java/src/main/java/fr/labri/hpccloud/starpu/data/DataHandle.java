package fr.labri.hpccloud.starpu.data;

import fr.labri.hpccloud.starpu.Codelet;
import fr.labri.hpccloud.starpu.StarPUException;
import fr.labri.hpccloud.starpu.internal.Native;

import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A piece of data registered with the runtime. Tasks name it in an {@link AccessMode}; the
 * runtime orders the tasks that use it (readers after the writer before them, a writer
 * after every earlier access) and the application waits for them with {@link #acquire}.
 * A handle is registered until {@link #unregister} (or {@link #close}); a partitioned
 * handle is used through its children ({@link #getSubData}) until {@link #unpartition}.
 */
public abstract class DataHandle implements AutoCloseable {
	/** How a task uses a buffer (StarPU's modes, with StarPU's C values). */
	public enum AccessMode {
		STARPU_R(1), STARPU_W(2), STARPU_RW(3), STARPU_REDUX(8), STARPU_SCRATCH(4);

		private final int bits;

		AccessMode(int bits) {
			this.bits = bits;
		}

		/** The mode's value in StarPU's C API. */
		public int bits() {
			return bits;
		}
	}

	protected long nativeHandle;
	private volatile boolean registered;
	private final boolean child;
	private DataHandle[] children;

	protected DataHandle() {
		this(0);
	}

	protected DataHandle(long handle) {
		this(handle, false);
	}

	DataHandle(long handle, boolean child) {
		this.nativeHandle = handle;
		this.child = child;
		this.registered = child && handle != 0;
	}

	@Override
	public String toString() {
		return getClass().getName() + "@" + Long.toString(nativeHandle, 16);
	}

	/**
	 * The codelets {@link AccessMode#STARPU_REDUX} accesses to this handle use: {@code init}
	 * (one buffer, written) sets a worker's private contribution to the neutral element,
	 * {@code redux} (two buffers: read-write, read) folds its second buffer into its first.
	 * Tasks in REDUX mode then each add to their worker's contribution, and the runtime
	 * folds the contributions into the data before its next other use. The buffers these
	 * codelets (and REDUX or SCRATCH tasks) receive are views of memory the runtime lends,
	 * of this handle's class ({@link #lentView}).
	 */
	public void setReductionMethods(Codelet redux, Codelet init) {
		if (redux == null || init == null) {
			throw new IllegalArgumentException("setReductionMethods: both codelets are needed");
		}
		lentView(java.nio.ByteBuffer.allocateDirect(0)); // fails now for a type that has no views
		try {
			Native.setReductionMethods(checked(), this, redux, init);
		} catch (StarPUException e) {
			throw new IllegalStateException(e.getMessage(), e);
		}
	}

	/**
	 * A handle of this one's type over {@code bytes}, memory the runtime lends a task (a
	 * worker's contribution to a reduction, a scratch buffer). It is not registered: it
	 * exists for the codelet call it is given to. Vectors and variables of primitive numbers
	 * have views; other handle types cannot take part in REDUX or SCRATCH accesses.
	 */
	public DataHandle lentView(java.nio.ByteBuffer bytes) {
		throw new UnsupportedOperationException("data handle " + this
				+ ": REDUX and SCRATCH accesses need a vector or a variable of primitive numbers");
	}

	@SuppressWarnings("unchecked")
	protected <T extends DataHandle> T setRegistered() {
		registered = nativeHandle != 0;
		return (T) this;
	}

	/** Whether the handle may still be used (registered, and not a child of an undone partition). */
	public boolean isRegistered() {
		return registered;
	}

	/**
	 * Waits for the tasks using the handle, brings its value home and forgets it. A
	 * partitioned handle is unpartitioned first. Does nothing on a handle already unregistered.
	 */
	public void unregister() {
		if (!registered) {
			return;
		}
		if (child) {
			throw new IllegalStateException("data handle " + this + " is a child of a partition: unpartition its parent instead");
		}
		if (children != null) {
			unpartition();
		}
		try {
			Native.unregister(nativeHandle, false);
		} catch (StarPUException e) {
			throw new IllegalStateException(e.getMessage(), e);
		}
		registered = false;
	}

	/** {@link #unregister}. */
	@Override
	public void close() {
		unregister();
	}

	/** Waits until the application may read the data (tasks writing it before are over). */
	public void acquire() {
		acquire(AccessMode.STARPU_R);
	}

	/** Waits until the application may access the data in {@code mode}; {@link #release} ends it. */
	public void acquire(AccessMode mode) {
		try {
			Native.acquire(checked(), mode.bits());
		} catch (StarPUException e) {
			throw new IllegalStateException(e.getMessage(), e);
		}
	}

	/** Ends the latest {@link #acquire}; tasks waiting for the data may go. */
	public void release() {
		try {
			Native.release(checked());
		} catch (StarPUException e) {
			throw new IllegalStateException(e.getMessage(), e);
		}
	}

	/** Cuts the data into {@code nbParts} nearly equal, contiguous children. */
	public void partition(int nbParts) {
		if (children != null) {
			throw new IllegalStateException("data handle " + this + " is partitioned already");
		}
		try {
			Native.partition(checked(), nbParts);
			long[] c = Native.children(nativeHandle);
			DataHandle[] list = new DataHandle[c.length / 3];
			for (int i = 0; i < list.length; i++) {
				list[i] = newChild(c[3 * i], (int) c[3 * i + 1], (int) c[3 * i + 2]);
			}
			children = list;
		} catch (StarPUException e) {
			throw new IllegalStateException(e.getMessage(), e);
		}
	}

	/** Gathers the children back; they may not be used any more. */
	public void unpartition() {
		if (children == null) {
			throw new IllegalStateException("data handle " + this + " is not partitioned");
		}
		try {
			Native.unpartition(checked());
		} catch (StarPUException e) {
			throw new IllegalStateException(e.getMessage(), e);
		}
		for (DataHandle c : children) {
			c.registered = false;
		}
		children = null;
	}

	public int getNbChildren() {
		DataHandle[] c = children;
		return c == null ? 0 : c.length;
	}

	/** The number of children, or 1 for a handle that is not partitioned (itself). */
	public int getNbHandles() {
		return Math.max(1, getNbChildren());
	}

	public DataHandle getSubData(int index) {
		DataHandle[] c = children;
		if (c == null || index < 0 || index >= c.length) {
			throw new IndexOutOfBoundsException("data handle " + this + " has no child " + index
					+ " (it has " + getNbChildren() + ")");
		}
		return c[index];
	}

	/** The children, or the handle itself when it is not partitioned. */
	public Iterable<DataHandle> getHandles() {
		return () -> new Iterator<DataHandle>() {
			final int n = getNbChildren();
			int pos = 0;

			@Override
			public boolean hasNext() {
				return pos < Math.max(1, n);
			}

			@Override
			public DataHandle next() {
				if (!hasNext()) {
					throw new NoSuchElementException();
				}
				if (n == 0) {
					pos++;
					return DataHandle.this;
				}
				return getSubData(pos++);
			}
		};
	}

	/** A child of this handle over its elements [first, first + length). */
	protected abstract DataHandle newChild(long handle, int first, int length);

	/** The runtime's handle, after checking this one may be used. */
	long checked() {
		if (!registered) {
			throw new IllegalStateException("data handle " + this + " is not registered (unregistered or closed already, or its partition was undone)");
		}
		return nativeHandle;
	}

	/** For task submission: the runtime's handle of {@code h}. */
	public static long nativeOf(DataHandle h) throws StarPUException {
		if (!h.registered) {
			throw new StarPUException("data handle " + h + " is not registered (unregistered or closed already, or its partition was undone)", null, 22);
		}
		return h.nativeHandle;
	}
}
