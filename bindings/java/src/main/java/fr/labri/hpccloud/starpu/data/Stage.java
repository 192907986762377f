package fr.labri.hpccloud.starpu.data;

/**
 * A chain of element-wise operations (map, flatMap, filter, mapToPair) not run yet: they
 * run fused, one task per block, when a later operation needs their result, so that a
 * pipeline such as {@code flatMap(...).mapToPair(...).reduceByKey(...)} reads each block
 * once and builds no intermediate block (as Spark runs the narrow operations of a stage).
 */
interface Stage {
	/** Where the elements of a stage go. */
	interface Sink {
		void accept(Object element);
	}

	/** The sink that applies this stage's operations and passes the results to {@code down}. */
	Sink wrap(Sink down);

	/** This stage, then {@code next}. */
	default Stage then(Stage next) {
		return down -> wrap(next.wrap(down));
	}

	/** Pushes {@code items[0..n)} through {@code stage} (none: as they are) into {@code out}. */
	static void feed(Stage stage, Object[] items, int n, Sink out) {
		Sink s = stage == null ? out : stage.wrap(out);
		for (int i = 0; i < n; i++) {
			s.accept(items[i]);
		}
	}
}
