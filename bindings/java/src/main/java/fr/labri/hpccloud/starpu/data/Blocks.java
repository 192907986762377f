package fr.labri.hpccloud.starpu.data;

import fr.labri.hpccloud.starpu.Codelet;
import fr.labri.hpccloud.starpu.StarPU;
import fr.labri.hpccloud.starpu.StarPUException;
import fr.labri.hpccloud.starpu.Task;
import fr.labri.hpccloud.starpu.TaskFailedException;
import fr.labri.hpccloud.starpu.internal.Native;

import java.lang.ref.Cleaner;
import java.util.List;

/**
 * The machinery under {@link DataSet}: blocks (registered vectors of Java objects whose
 * content the task that produces them sets), block tasks, and how a failure travels from
 * block to block.
 *
 * A block is written once, by the task that produces it (or in place by {@code init}), and
 * read by the tasks of later operations; the runtime orders them through the block's
 * handle. When a task's function throws, the task fails and its output block records the
 * exception; tasks reading a failed block pass the failure on without running, and the
 * operation that waits for the data ({@code collect}, {@code getSize}...) throws a
 * {@link StarPUException} whose cause is the original exception.
 */
final class Blocks {
	static final Object[] EMPTY = new Object[0];
	private static final Cleaner CLEANER = Cleaner.create();

	private Blocks() {
	}

	/** A new block holding {@code items[0..size)}; unregistered once unreachable. */
	static <E> VectorHandle<E> block(Object[] items, int size) {
		VectorHandle<E> b = new VectorHandle<E>(Native.registerObjects(0), 0);
		b.replace(items, size);
		long h = b.nativeHandle;
		// No task can still use an unreachable block (a pending task holds its handles), so
		// unregistering it then only waits for nothing; `later` makes it never block.
		CLEANER.register(b, () -> {
			try {
				Native.unregister(h, Native.UNREGISTER_SUBMIT);
			} catch (RuntimeException gone) {
				// The runtime stopped (or the handle went with it): nothing left to free.
			}
		});
		return b;
	}

	/** A block with no content yet: the task producing it sets it. */
	static <E> VectorHandle<E> empty() {
		return block(EMPTY, 0);
	}

	/** What a block task does with its blocks (inputs first, output last). */
	interface Body {
		void run(VectorHandle<?>[] blocks);
	}

	/** A codelet running {@code body}, with failure passing (see the class comment). */
	static final class Op extends Codelet {
		private final String name;
		private final DataHandle.AccessMode[] modes;
		private final Body body;

		Op(String name, DataHandle.AccessMode[] modes, Body body) {
			this.name = name;
			this.modes = modes;
			this.body = body;
		}

		@Override
		public void run(DataHandle[] buffers) {
			VectorHandle<?>[] b = new VectorHandle<?>[buffers.length];
			for (int i = 0; i < b.length; i++) {
				b[i] = (VectorHandle<?>) buffers[i];
			}
			VectorHandle<?> out = b[b.length - 1];
			for (VectorHandle<?> v : b) {
				if (v.failure != null) {
					out.failure = v.failure;
					return;
				}
			}
			try {
				body.run(b);
			} catch (RuntimeException | Error e) {
				out.failure = e;
				throw e;
			}
		}

		@Override
		public DataHandle.AccessMode[] getAccessModes() {
			return modes;
		}

		@Override
		public String getName() {
			return name;
		}
	}

	static final DataHandle.AccessMode[] R_W = { DataHandle.AccessMode.STARPU_R, DataHandle.AccessMode.STARPU_W };
	static final DataHandle.AccessMode[] R_RW = { DataHandle.AccessMode.STARPU_R, DataHandle.AccessMode.STARPU_RW };
	static final DataHandle.AccessMode[] RW = { DataHandle.AccessMode.STARPU_RW };

	static void submit(Codelet cl, DataHandle... handles) throws StarPUException {
		StarPU.submitTask(cl, false, handles);
	}

	/** Submits a task reading {@code inputs} and writing {@code out} (a codelet with variable buffers). */
	static void submitGather(Codelet cl, List<? extends DataHandle> inputs, DataHandle out) throws StarPUException {
		Task t = StarPU.task(cl);
		for (DataHandle in : inputs) {
			t.buffer(in, DataHandle.AccessMode.STARPU_R);
		}
		t.buffer(out, DataHandle.AccessMode.STARPU_W).submit();
	}

	/**
	 * Waits until the application may read {@code b} (its producer is over), and throws if
	 * the operation producing it failed.
	 */
	static void settle(VectorHandle<?> b) throws StarPUException {
		b.acquire(DataHandle.AccessMode.STARPU_R);
		Throwable t = b.failure;
		b.release();
		if (t != null) {
			throw new TaskFailedException("a DataSet operation failed: " + t, t, null);
		}
	}

	/** The number of buckets of a shuffle: a few per worker. */
	static int buckets() throws StarPUException {
		return Math.max(1, 2 * StarPU.workerCount());
	}

	static int bucketOf(Object key, int n) {
		int h = key == null ? 0 : key.hashCode();
		h ^= h >>> 16;
		return (h & Integer.MAX_VALUE) % n;
	}
}
