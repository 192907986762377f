package fr.labri.hpccloud.starpu.data;

import fr.labri.hpccloud.starpu.StarPUException;

import java.util.ArrayList;
import java.util.List;

/**
 * A shuffle as runtime tasks: one task per input block splits its elements into
 * {@code p} buckets (by key hash), then one task per bucket reads that bucket of every
 * input block's split and merges them into one output block. The bucket tasks depend on
 * all the split tasks through the split blocks, like any tasks on their data.
 */
final class Shuffle {
	private Shuffle() {
	}

	/** Pushes a block's elements into a sink. */
	interface Feed {
		void run(Stage.Sink sink);
	}

	/** Splits the elements {@code feed} gives into {@code buckets} partial results. */
	interface Split {
		Object[] apply(Feed feed, int buckets);
	}

	/** Merges one bucket's partial results (one per input block) into the bucket's elements. */
	interface Merge {
		Object[] apply(List<Object> parts);
	}

	/** The splits of {@code inputs}, one block each (its content: one partial result per bucket). */
	static List<VectorHandle<Object>> split(String name, List<? extends VectorHandle<?>> inputs, Stage stage, int p,
			Split split) throws StarPUException {
		Blocks.Op op = new Blocks.Op(name + " (split)", Blocks.R_W, b -> {
			VectorHandle<?> in = b[0];
			// The pending element-wise operations run here, fused with the split.
			Object[] parts = split.apply(sink -> Stage.feed(stage, in.store.items, in.getSize(), sink), p);
			b[1].replace(parts, parts.length);
		});
		List<VectorHandle<Object>> out = new ArrayList<>(inputs.size());
		for (VectorHandle<?> in : inputs) {
			VectorHandle<Object> s = Blocks.empty();
			Blocks.submit(op, in, s);
			out.add(s);
		}
		return out;
	}

	/**
	 * One task per bucket over the given splits: bucket {@code j} of each split, in order
	 * (the splits of several data sets may be given together; {@code merge} sees them in
	 * the order of {@code splits}).
	 */
	static <R> List<VectorHandle<R>> merge(String name, List<VectorHandle<Object>> splits, int p, Merge merge)
			throws StarPUException {
		List<VectorHandle<R>> out = new ArrayList<>(p);
		for (int j = 0; j < p; j++) {
			final int bucket = j;
			Blocks.Op op = new Blocks.Op(name + " (merge)", null, b -> {
				List<Object> parts = new ArrayList<>(b.length - 1);
				for (int i = 0; i < b.length - 1; i++) {
					parts.add(b[i].store.items[bucket]);
				}
				Object[] items = merge.apply(parts);
				b[b.length - 1].replace(items, items.length);
			});
			VectorHandle<R> o = Blocks.empty();
			Blocks.submitGather(op, splits, o);
			out.add(o);
		}
		return out;
	}

	static <R> List<VectorHandle<R>> run(String name, List<? extends VectorHandle<?>> inputs, Stage stage, int p,
			Split split, Merge merge) throws StarPUException {
		return merge(name, split(name, inputs, stage, p, split), p, merge);
	}
}
