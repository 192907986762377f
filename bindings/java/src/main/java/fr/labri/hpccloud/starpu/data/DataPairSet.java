package fr.labri.hpccloud.starpu.data;

import fr.labri.hpccloud.starpu.StarPUException;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * A data set of (key, value) pairs, with the by-key operations: each is a shuffle (see
 * {@link DataSet}), so that all the pairs of one key meet in one task.
 */
public class DataPairSet<K, V> extends DataSet<Tuple2<K, V>> {
	public DataPairSet(int size) {
		super(size);
	}

	public DataPairSet(Collection<Tuple2<K, V>> input) {
		super(input);
	}

	public DataPairSet(Map<K, V> input) {
		super(pairs(input));
	}

	public DataPairSet(Collection<Tuple2<K, V>> input, int nbParts) {
		super(input, nbParts);
	}

	DataPairSet(List<VectorHandle<Tuple2<K, V>>> blocks, Void internal) {
		super(blocks, internal);
	}

	private static <K, V> List<Tuple2<K, V>> pairs(Map<K, V> m) {
		List<Tuple2<K, V>> l = new ArrayList<>(m.size());
		for (Map.Entry<K, V> e : m.entrySet()) {
			l.add(new Tuple2<>(e.getKey(), e.getValue()));
		}
		return l;
	}

	DataPairSet(List<? extends VectorHandle<?>> source, Stage stage) {
		super(source, stage);
	}

	@Override
	DataSet<Tuple2<K, V>> withStage(List<? extends VectorHandle<?>> source, Stage stage) {
		return new DataPairSet<>(source, stage);
	}

	@Override
	DataSet<Tuple2<K, V>> withBlocks(List<VectorHandle<Tuple2<K, V>>> blocks) {
		return new DataPairSet<>(blocks, (Void) null);
	}

	@Override
	public DataPairSet<K, V> partition(int nbParts) throws StarPUException {
		super.partition(nbParts);
		return this;
	}

	@Override
	public DataPairSet<K, V> splitByBlocks(int blockSize) throws StarPUException {
		super.splitByBlocks(blockSize);
		return this;
	}

	@Override
	public DataPairSet<K, V> distinct() throws StarPUException {
		return (DataPairSet<K, V>) super.distinct();
	}

	@Override
	public DataPairSet<K, V> union(DataSet<Tuple2<K, V>> other) throws StarPUException {
		return (DataPairSet<K, V>) super.union(other);
	}

	/** Splits pairs into per-bucket maps key -> combined value. */
	@SuppressWarnings("unchecked")
	private static <K, V> Shuffle.Split combine(BiFunction<V, V, V> f) {
		return (feed, p) -> {
			HashMap<K, V>[] maps = new HashMap[p];
			for (int j = 0; j < p; j++) {
				maps[j] = new HashMap<>();
			}
			feed.run(x -> {
				Tuple2<K, V> t = (Tuple2<K, V>) x;
				maps[Blocks.bucketOf(t._1(), p)].merge(t._1(), t._2(), f);
			});
			return maps;
		};
	}

	/** Combines the values of each key with {@code redFunc} (associative and commutative). */
	@SuppressWarnings("unchecked")
	public <U> DataPairSet<K, V> reduceByKey(BiFunction<V, V, V> redFunc) throws StarPUException {
		int p = Blocks.buckets();
		return new DataPairSet<>(Shuffle.<Tuple2<K, V>>run("DataPairSet.reduceByKey", sourceBlocks(), stage, p,
				combine(redFunc), parts -> {
					HashMap<K, V> all = null;
					for (Object o : parts) {
						HashMap<K, V> m = (HashMap<K, V>) o;
						if (all == null) {
							all = m;
						} else {
							for (Map.Entry<K, V> e : m.entrySet()) {
								all.merge(e.getKey(), e.getValue(), redFunc);
							}
						}
					}
					return toPairs(all);
				}), (Void) null);
	}

	private static Object[] toPairs(Map<?, ?> m) {
		if (m == null) {
			return Blocks.EMPTY;
		}
		Object[] out = new Object[m.size()];
		int i = 0;
		for (Map.Entry<?, ?> e : m.entrySet()) {
			out[i++] = new Tuple2<>(e.getKey(), e.getValue());
		}
		return out;
	}

	/** Splits pairs into per-bucket maps key -> list of values. */
	@SuppressWarnings("unchecked")
	private static <K, V> Shuffle.Split group() {
		return (feed, p) -> {
			HashMap<K, List<V>>[] maps = new HashMap[p];
			for (int j = 0; j < p; j++) {
				maps[j] = new HashMap<>();
			}
			feed.run(x -> {
				Tuple2<K, V> t = (Tuple2<K, V>) x;
				maps[Blocks.bucketOf(t._1(), p)].computeIfAbsent(t._1(), k -> new ArrayList<>()).add(t._2());
			});
			return maps;
		};
	}

	/** The set of values of each key (as StarPU's {@code groupByKey}: equal values once). */
	@SuppressWarnings("unchecked")
	public DataPairSet<K, Set<V>> groupByKey() throws StarPUException {
		int p = Blocks.buckets();
		return new DataPairSet<>(Shuffle.<Tuple2<K, Set<V>>>run("DataPairSet.groupByKey", sourceBlocks(), stage, p,
				group(), parts -> {
					HashMap<K, Set<V>> all = new HashMap<>();
					for (Object o : parts) {
						for (Map.Entry<K, List<V>> e : ((HashMap<K, List<V>>) o).entrySet()) {
							all.computeIfAbsent(e.getKey(), k -> new HashSet<>()).addAll(e.getValue());
						}
					}
					return toPairs(all);
				}), (Void) null);
	}

	/**
	 * The inner join on keys: {@code (k, (v, u))} for every pair {@code (k, v)} here and
	 * {@code (k, u)} in {@code other} (every combination, duplicates kept, as Spark does).
	 */
	@SuppressWarnings("unchecked")
	public <U> DataPairSet<K, Tuple2<V, U>> join(DataPairSet<K, U> other) throws StarPUException {
		int p = Blocks.buckets();
		List<VectorHandle<Object>> left = Shuffle.split("DataPairSet.join", sourceBlocks(), stage, p, group());
		List<VectorHandle<Object>> right = Shuffle.split("DataPairSet.join", other.sourceBlocks(), other.stage, p, group());
		int nLeft = left.size();
		List<VectorHandle<Object>> both = new ArrayList<>(left);
		both.addAll(right);
		return new DataPairSet<>(Shuffle.<Tuple2<K, Tuple2<V, U>>>merge("DataPairSet.join", both, p, parts -> {
			HashMap<K, List<V>> l = new HashMap<>();
			for (Object o : parts.subList(0, nLeft)) {
				for (Map.Entry<K, List<V>> e : ((HashMap<K, List<V>>) o).entrySet()) {
					l.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).addAll(e.getValue());
				}
			}
			ArrayList<Object> out = new ArrayList<>();
			for (Object o : parts.subList(nLeft, parts.size())) {
				for (Map.Entry<K, List<U>> e : ((HashMap<K, List<U>>) o).entrySet()) {
					List<V> vs = l.get(e.getKey());
					if (vs == null) {
						continue;
					}
					for (V v : vs) {
						for (U u : e.getValue()) {
							out.add(new Tuple2<>(e.getKey(), new Tuple2<>(v, u)));
						}
					}
				}
			}
			return out.toArray();
		}), (Void) null);
	}
}
