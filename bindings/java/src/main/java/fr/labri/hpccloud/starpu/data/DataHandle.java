package fr.labri.hpccloud.starpu.data;

import fr.labri.hpccloud.starpu.Codelet;
import fr.labri.hpccloud.starpu.InvalidArgumentException;
import fr.labri.hpccloud.starpu.internal.Native;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A piece of data registered with the runtime. Tasks name it in an {@link AccessMode}; the
 * runtime orders the tasks that use it (readers after the writer before them, a writer
 * after every earlier access) and the application waits for them with {@link #acquire}.
 * A handle is registered until {@link #unregister} (or {@link #close}). Its partitions
 * (children, plans) are the runtime's: every question about them is asked to it.
 * Errors are thrown as the {@link fr.labri.hpccloud.starpu.StarPUException} of their kind.
 */
public abstract class DataHandle implements AutoCloseable {
	/**
	 * How a task uses a buffer: StarPU's modes and flags, with StarPU's C values. A mode
	 * with flags is {@code STARPU_RW.with(STARPU_COMMUTE)}.
	 */
	public static final class AccessMode {
		// BEGIN generated from starpu-core's AccessMode::NAMED (codegen.rs)
		public static final AccessMode STARPU_R = new AccessMode("STARPU_R", 1);
		public static final AccessMode STARPU_W = new AccessMode("STARPU_W", 2);
		public static final AccessMode STARPU_RW = new AccessMode("STARPU_RW", 3);
		public static final AccessMode STARPU_SCRATCH = new AccessMode("STARPU_SCRATCH", 4);
		public static final AccessMode STARPU_REDUX = new AccessMode("STARPU_REDUX", 8);
		public static final AccessMode STARPU_COMMUTE = new AccessMode("STARPU_COMMUTE", 16);
		public static final AccessMode STARPU_SSEND = new AccessMode("STARPU_SSEND", 32);
		public static final AccessMode STARPU_LOCALITY = new AccessMode("STARPU_LOCALITY", 64);
		public static final AccessMode STARPU_MPI_REDUX = new AccessMode("STARPU_MPI_REDUX", 128);
		public static final AccessMode STARPU_NOPLAN = new AccessMode("STARPU_NOPLAN", 256);
		public static final AccessMode STARPU_UNMAP = new AccessMode("STARPU_UNMAP", 512);
		private static final AccessMode[] NAMED = { STARPU_R, STARPU_W, STARPU_RW, STARPU_SCRATCH, STARPU_REDUX, STARPU_COMMUTE, STARPU_SSEND, STARPU_LOCALITY, STARPU_MPI_REDUX, STARPU_NOPLAN, STARPU_UNMAP };
		// END generated

		private final String name;
		private final int bits;

		private AccessMode(String name, int bits) {
			this.name = name;
			this.bits = bits;
		}

		/** The mode's value in StarPU's C API. */
		public int bits() {
			return bits;
		}

		/** This mode with {@code flag} too ({@code STARPU_RW.with(STARPU_COMMUTE)}). */
		public AccessMode with(AccessMode flag) {
			return new AccessMode(name + "|" + flag.name, bits | flag.bits);
		}

		public String name() {
			return name;
		}

		/** Every named mode and flag. */
		public static AccessMode[] values() {
			return NAMED.clone();
		}

		/** The named mode or flag {@code name} ({@code "STARPU_RW"}). */
		public static AccessMode valueOf(String name) {
			for (AccessMode m : NAMED) {
				if (m.name.equals(name)) {
					return m;
				}
			}
			throw new IllegalArgumentException("no access mode " + name);
		}

		@Override
		public boolean equals(Object o) {
			return o instanceof AccessMode && ((AccessMode) o).bits == bits;
		}

		@Override
		public int hashCode() {
			return bits;
		}

		@Override
		public String toString() {
			return name;
		}
	}

	protected long nativeHandle;
	/** This object unregistered its data (the runtime may reuse the handle's value afterwards). */
	private volatile boolean unregistered;
	/** For data registered without a home buffer: its main-memory replica while acquired. */
	private volatile ByteBuffer replica;

	protected DataHandle() {
		this(0);
	}

	protected DataHandle(long handle) {
		this.nativeHandle = handle;
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
			throw new NullPointerException("setReductionMethods: both codelets are needed");
		}
		lentView(ByteBuffer.allocateDirect(0)); // fails now for a type that has no views
		Native.setReductionMethods(checked(), this, redux, init);
	}

	/**
	 * A handle of this one's type over {@code bytes}, memory the runtime lends a task (a
	 * worker's contribution to a reduction, a scratch buffer, the replica of data registered
	 * without a home). It is not registered: it exists for the codelet call it is given to.
	 * Vectors, matrices and variables of primitive numbers have views; other handle types
	 * cannot take part in REDUX or SCRATCH accesses.
	 */
	public DataHandle lentView(ByteBuffer bytes) {
		throw new UnsupportedOperationException("data handle " + this
				+ ": REDUX and SCRATCH accesses need a vector, a matrix or a variable of primitive numbers");
	}

	@SuppressWarnings("unchecked")
	protected <T extends DataHandle> T setRegistered() {
		return (T) this;
	}

	/** Whether the runtime still knows the handle (not unregistered, not a child of an undone partition). */
	public boolean isRegistered() {
		return !unregistered && nativeHandle != 0 && Native.isRegistered(nativeHandle);
	}

	/**
	 * Waits for the tasks using the handle, brings its value home and forgets it. A
	 * partitioned handle is unpartitioned first. Does nothing on a handle already unregistered.
	 */
	public void unregister() {
		unregister(Native.UNREGISTER);
	}

	/** Forgets the handle once the tasks using it are done, without bringing its value home. */
	public void unregisterNoCoherency() {
		unregister(Native.UNREGISTER_NO_COHERENCY);
	}

	/** Forgets the handle once the tasks submitted so far are done; returns at once. */
	public void unregisterSubmit() {
		unregister(Native.UNREGISTER_SUBMIT);
	}

	private void unregister(int how) {
		if (unregistered) {
			return;
		}
		if (getNbChildren() > 0) {
			unpartition();
		}
		Native.unregister(nativeHandle, how);
		unregistered = true;
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
		ByteBuffer r = Native.acquire(checked(), mode.bits());
		if (r != null) {
			replica = r.order(ByteOrder.nativeOrder());
		}
	}

	/** Ends the latest {@link #acquire}; tasks waiting for the data may go. */
	public void release() {
		replica = null;
		Native.release(checked());
	}

	/** Forgets the data's value everywhere: the next task using it must write it. */
	public void invalidate() {
		Native.invalidate(checked());
	}

	/** Whether the runtime orders the tasks using this data by their submission (default: yes). */
	public void setSequentialConsistency(boolean on) {
		Native.setSequentialConsistency(checked(), on);
	}

	/** Cuts the data into {@code nbParts} nearly equal, contiguous children ({@link Filter#vectorBlock}). */
	public void partition(int nbParts) {
		partition(Filter.vectorBlock(nbParts));
	}

	/** Cuts the data with {@code filter}; the children are {@link #getSubData}. */
	public void partition(Filter filter) {
		Native.partition(checked(), filter.kind, filter.parts);
	}

	/** Gathers the children back; they may not be used any more. */
	public void unpartition() {
		Native.unpartition(checked());
	}

	/**
	 * Plans a way to cut the data without cutting it: tasks use the plan's children once it
	 * is submitted ({@link PartitionPlan#partitionSubmit}), or when a task names one.
	 */
	public PartitionPlan partitionPlan(Filter filter) {
		long[] children = Native.partitionPlan(checked(), filter.kind, filter.parts);
		return new PartitionPlan(this, children);
	}

	/** How many partition plans the data has. */
	public int getNbPlans() {
		return Native.nplans(checked());
	}

	/** The number of children of the partition made by {@link #partition}, 0 when not partitioned. */
	public int getNbChildren() {
		return unregistered ? 0 : Native.nchildren(nativeHandle);
	}

	/** The number of children, or 1 for a handle that is not partitioned (itself). */
	public int getNbHandles() {
		return Math.max(1, getNbChildren());
	}

	public DataHandle getSubData(int index) {
		long c = Native.child(checked(), index);
		if (c == 0) {
			throw new IndexOutOfBoundsException("data handle " + this + " has no child " + index
					+ " (it has " + getNbChildren() + ")");
		}
		return newChild(c);
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

	/** A handle of this one's type for the runtime's handle {@code handle}, a piece of this one. */
	protected abstract DataHandle newChild(long handle);

	/**
	 * The data's main-memory replica while acquired, for data registered without a home
	 * buffer; null otherwise.
	 */
	final ByteBuffer acquiredReplica() {
		return replica;
	}

	/** The runtime's handle, after checking this object did not unregister it. */
	final long checked() {
		if (unregistered) {
			throw new InvalidArgumentException("data handle " + this + " is unregistered (or closed) already");
		}
		return nativeHandle;
	}

	/** For task submission: the runtime's handle of {@code h}. */
	public static long nativeOf(DataHandle h) {
		return h.checked();
	}
}
