package fr.labri.hpccloud.starpu.data;

import fr.labri.hpccloud.starpu.StarPUException;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.BiFunction;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import java.util.function.Predicate;

import static fr.labri.hpccloud.starpu.data.Blocks.R_RW;
import static fr.labri.hpccloud.starpu.data.Blocks.R_W;
import static fr.labri.hpccloud.starpu.data.Blocks.RW;

/**
 * A distributed-style collection (Spark's RDD, StarPU's {@code DataSet}) cut into blocks.
 * Each operation submits one runtime task per block (a shuffle for the by-key operations:
 * one task per input block, then one per bucket), returns at once, and the tasks run in
 * parallel on all workers, ordered by their data as any tasks are. The calls that give
 * data back to the application ({@link #collect}, {@link #getSize}, {@link #reduce}...)
 * wait for what they need; an exception thrown by a function of an earlier operation is
 * thrown there, as the cause of a {@link StarPUException}.
 */
public class DataSet<T> {
	/** The blocks, once produced; null while {@link #stage} is pending over {@link #source}. */
	List<VectorHandle<T>> blocks;
	/** Element-wise operations not run yet, and the blocks they apply to. */
	Stage stage;
	List<? extends VectorHandle<?>> source;

	public DataSet(int size) {
		this(one(new Object[size], size), (Void) null);
	}

	public DataSet(Collection<T> input) {
		this(one(input.toArray(), input.size()), (Void) null);
	}

	public DataSet(Collection<T> input, int nbParts) {
		this(input);
		if (nbParts > 1) {
			split(nbParts);
		}
	}

	DataSet(List<VectorHandle<T>> blocks, Void internal) {
		this.blocks = blocks;
	}

	DataSet(List<? extends VectorHandle<?>> source, Stage stage) {
		this.source = source;
		this.stage = stage;
	}

	/** A data set of the same kind as this one, pending {@code stage} over {@code source}. */
	DataSet<T> withStage(List<? extends VectorHandle<?>> source, Stage stage) {
		return new DataSet<>(source, stage);
	}

	/** The source blocks and the pending operations, plus {@code next}. */
	List<? extends VectorHandle<?>> sourceBlocks() {
		return stage == null ? blocks : source;
	}

	Stage stageThen(Stage next) {
		return stage == null ? next : stage.then(next);
	}

	/** The blocks, running the pending operations first (one task per block). */
	@SuppressWarnings("unchecked")
	List<VectorHandle<T>> blocks() throws StarPUException {
		if (stage == null) {
			return blocks;
		}
		Stage st = stage;
		Blocks.Op op = new Blocks.Op("DataSet.stage", R_W, b -> {
			VectorHandle<?> in = b[0];
			ArrayList<Object> out = new ArrayList<>(in.getSize());
			Stage.feed(st, in.store.items, in.getSize(), out::add);
			b[1].replace(out.toArray(), out.size());
		});
		List<VectorHandle<T>> result = new ArrayList<>(source.size());
		for (VectorHandle<?> src : source) {
			VectorHandle<T> o = Blocks.empty();
			Blocks.submit(op, src, o);
			result.add(o);
		}
		blocks = result;
		stage = null;
		source = null;
		return blocks;
	}

	private static <E> List<VectorHandle<E>> one(Object[] items, int size) {
		List<VectorHandle<E>> l = new ArrayList<>(1);
		l.add(Blocks.block(items, size));
		return l;
	}

	/** A data set of the same kind as this one over other blocks. */
	DataSet<T> withBlocks(List<VectorHandle<T>> blocks) {
		return new DataSet<>(blocks, (Void) null);
	}

	/** The number of blocks (tasks per operation). */
	public int getNbBlocks() {
		return sourceBlocks().size();
	}

	/** Reads one element per line of {@code input} (UTF-8), as one block. */
	public static <E> DataSet<E> readFile(InputStream input, Function<String, E> toStringFunc) {
		List<E> content = new ArrayList<>();
		try {
			BufferedReader r = new BufferedReader(new InputStreamReader(input, StandardCharsets.UTF_8), 1 << 16);
			for (String line; (line = r.readLine()) != null;) {
				content.add(toStringFunc.apply(line));
			}
		} catch (IOException e) {
			throw new UncheckedIOException(e);
		}
		return new DataSet<E>(content);
	}

	/** The number of elements (waits for the operations producing them). */
	public int getSize() throws StarPUException {
		long n = 0;
		for (VectorHandle<T> b : blocks()) {
			Blocks.settle(b);
			n += b.getSize();
		}
		return Math.toIntExact(n);
	}

	/** {@link #getSize}, as Spark's {@code count}. */
	public long count() throws StarPUException {
		return getSize();
	}

	/** The elements, in order (waits for the operations producing them). */
	public Iterable<T> collect() throws StarPUException {
		List<T> out = new ArrayList<>();
		for (VectorHandle<T> b : blocks()) {
			Blocks.settle(b);
			for (int i = 0, n = b.getSize(); i < n; i++) {
				out.add(b.getOrNull(i));
			}
		}
		return out;
	}

	/** Cuts the elements into {@code nbParts} blocks of nearly equal sizes. */
	public DataSet<T> partition(int nbParts) throws StarPUException {
		split(nbParts);
		return this;
	}

	/** Cuts the elements into blocks of {@code blockSize} elements (the last one may be smaller). */
	public DataSet<T> splitByBlocks(int blockSize) throws StarPUException {
		if (blockSize <= 0) {
			throw new IllegalArgumentException("splitByBlocks: the block size must be positive, not " + blockSize);
		}
		int size = getSize();
		if (size > blockSize) {
			split(size / blockSize + (size % blockSize == 0 ? 0 : 1));
		}
		return this;
	}

	private void split(int nbParts) throws StarPUException {
		if (nbParts <= 0) {
			throw new IllegalArgumentException("partition: the number of parts must be positive, not " + nbParts);
		}
		int size = getSize();
		Object[] all = new Object[size];
		int k = 0;
		for (VectorHandle<T> b : blocks()) {
			int n = b.getSize();
			System.arraycopy(b.store.items, 0, all, k, n);
			k += n;
		}
		List<VectorHandle<T>> parts = new ArrayList<>(nbParts);
		int start = 0;
		for (int i = 0; i < nbParts; i++) {
			int n = size / nbParts + (i < size % nbParts ? 1 : 0);
			parts.add(Blocks.block(Arrays.copyOfRange(all, start, start + n), n));
			start += n;
		}
		blocks = parts;
	}

	/** Sets every element to {@code mapFunc.apply(null)}, in place, one task per block. */
	public DataSet<T> init(Function<Void, T> mapFunc) throws StarPUException {
		Blocks.Op op = new Blocks.Op("DataSet.init", RW, b -> {
			VectorHandle<?> v = b[0];
			for (int i = 0, n = v.getSize(); i < n; i++) {
				v.store.items[i] = mapFunc.apply(null);
			}
		});
		for (VectorHandle<T> b : blocks()) {
			Blocks.submit(op, b);
		}
		return this;
	}

	/** Applies {@code body(input block, output list)} to each block into a new block. */
	<K> List<VectorHandle<K>> perBlock(String name, BlockFunction body) throws StarPUException {
		Stage st = stage;
		Blocks.Op op = new Blocks.Op(name, R_W, b -> {
			VectorHandle<?> in = b[0];
			Object[] items = in.store.items;
			int n = in.getSize();
			if (st != null) {
				ArrayList<Object> staged = new ArrayList<>(n);
				Stage.feed(st, items, n, staged::add);
				items = staged.toArray();
				n = items.length;
			}
			ArrayList<Object> out = new ArrayList<>(n);
			body.apply(items, n, out);
			b[1].replace(out.toArray(), out.size());
		});
		List<? extends VectorHandle<?>> src = sourceBlocks();
		List<VectorHandle<K>> result = new ArrayList<>(src.size());
		for (VectorHandle<?> b : src) {
			VectorHandle<K> o = Blocks.empty();
			Blocks.submit(op, b, o);
			result.add(o);
		}
		return result;
	}

	interface BlockFunction {
		void apply(Object[] items, int size, ArrayList<Object> out);
	}

	@SuppressWarnings("unchecked")
	public <K> DataSet<K> map(Function<T, K> mapFunc) throws StarPUException {
		return new DataSet<>(sourceBlocks(), stageThen(down -> x -> down.accept(mapFunc.apply((T) x))));
	}

	/** A function giving a pair, for {@link #mapToPair}. */
	public interface PairFunction<T, K, V> extends Function<T, Tuple2<K, V>> {
	}

	@SuppressWarnings("unchecked")
	public <U, V> DataPairSet<U, V> mapToPair(PairFunction<T, U, V> toPair) throws StarPUException {
		return new DataPairSet<>(sourceBlocks(), stageThen(down -> x -> down.accept(toPair.apply((T) x))));
	}

	@SuppressWarnings("unchecked")
	public <K> DataSet<K> flatMap(Function<T, Iterator<K>> flatMapFunc) throws StarPUException {
		return new DataSet<>(sourceBlocks(), stageThen(down -> x -> {
			for (Iterator<K> it = flatMapFunc.apply((T) x); it.hasNext();) {
				down.accept(it.next());
			}
		}));
	}

	/** The elements for which {@code keep} is true. */
	@SuppressWarnings("unchecked")
	public DataSet<T> filter(Predicate<T> keep) throws StarPUException {
		return withStage(sourceBlocks(), stageThen(down -> x -> {
			if (keep.test((T) x)) {
				down.accept(x);
			}
		}));
	}

	/**
	 * Folds every element into an accumulator: {@code acc = redFunc(element, acc)} from
	 * {@code initialValue}, block after block (one task per block, in order: the function
	 * need not be associative).
	 */
	@SuppressWarnings("unchecked")
	public <K> K reduce(BiFunction<T, K, K> redFunc, K initialValue) throws StarPUException {
		VectorHandle<K> acc = Blocks.block(new Object[] { initialValue }, 1);
		Blocks.Op op = new Blocks.Op("DataSet.reduce", R_RW, b -> {
			VectorHandle<?> in = b[0];
			Object[] a = b[1].store.items;
			K k = (K) a[0];
			for (int i = 0, n = in.getSize(); i < n; i++) {
				k = redFunc.apply((T) in.store.items[i], k);
			}
			a[0] = k;
		});
		for (VectorHandle<T> b : blocks()) {
			Blocks.submit(op, b, acc);
		}
		Blocks.settle(acc);
		return acc.getOrNull(0);
	}

	/**
	 * Combines all elements with an associative function (Spark's {@code reduce}): one
	 * task per block in parallel, then the partial results. Throws
	 * {@link NoSuchElementException} on an empty data set.
	 */
	@SuppressWarnings("unchecked")
	public T reduce(BinaryOperator<T> f) throws StarPUException {
		List<VectorHandle<Object>> partial = perBlock("DataSet.reduce", (items, n, out) -> {
			if (n == 0) {
				return;
			}
			T acc = (T) items[0];
			for (int i = 1; i < n; i++) {
				acc = f.apply(acc, (T) items[i]);
			}
			out.add(acc);
		});
		T acc = null;
		boolean any = false;
		for (VectorHandle<Object> p : partial) {
			Blocks.settle(p);
			if (p.getSize() > 0) {
				T v = (T) p.getOrNull(0);
				acc = any ? f.apply(acc, v) : v;
				any = true;
			}
		}
		if (!any) {
			throw new NoSuchElementException("reduce of an empty DataSet");
		}
		return acc;
	}

	/** The elements of both data sets (copied block by block). */
	public DataSet<T> union(DataSet<T> other) throws StarPUException {
		List<VectorHandle<T>> all = new ArrayList<>(this.<T>perBlock("DataSet.union", DataSet::copy));
		all.addAll(other.<T>perBlock("DataSet.union", DataSet::copy));
		return withBlocks(all);
	}

	private static void copy(Object[] items, int n, ArrayList<Object> out) {
		out.addAll(Arrays.asList(items).subList(0, n));
	}

	/** Each element once (a shuffle by hash: a bucket of the result holds equal elements). */
	public DataSet<T> distinct() throws StarPUException {
		int p = Blocks.buckets();
		List<VectorHandle<T>> result = Shuffle.run("DataSet.distinct", sourceBlocks(), stage, p, (feed, buckets) -> {
			@SuppressWarnings("unchecked")
			HashSet<Object>[] sets = new HashSet[buckets];
			for (int j = 0; j < buckets; j++) {
				sets[j] = new HashSet<>();
			}
			feed.run(x -> sets[Blocks.bucketOf(x, buckets)].add(x));
			return sets;
		}, parts -> {
			HashSet<Object> all = new HashSet<>();
			for (Object s : parts) {
				all.addAll((HashSet<?>) s);
			}
			return all.toArray();
		});
		return withBlocks(result);
	}
}
