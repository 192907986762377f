package fr.labri.hpccloud.starpu.examples;

import fr.labri.hpccloud.starpu.StarPU;
import fr.labri.hpccloud.starpu.data.DataSet;

import java.util.SplittableRandom;

/**
 * Pi by Monte Carlo: SLICES blocks of points drawn in the unit square, each task counting
 * those inside the quarter disc, then a reduction. The draws are seeded per element so
 * the count is the same on every run; checks it against a sequential count and pi.
 * Usage: Pi [SLICES [SLICE_SIZE]].
 */
public class Pi {
	public static void main(String[] args) throws Exception {
		int slices = args.length > 0 ? Integer.parseInt(args[0]) : 16;
		int sliceSize = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
		StarPU.init();
		System.out.println(String.format("PI[slice size=%d #slices=%d] on %d workers", sliceSize, slices, StarPU.workerCount()));
		java.util.List<Integer> seeds = new java.util.ArrayList<>();
		for (int i = 0; i < slices; i++) {
			seeds.add(i);
		}
		long inside = new DataSet<>(seeds, slices).map(seed -> hits(seed, sliceSize)).reduce(Long::sum);
		StarPU.shutdown();
		long n = (long) slices * sliceSize;
		double pi = 4.0 * inside / n;
		System.out.println("pi ~ " + pi);
		long expected = 0;
		for (int i = 0; i < slices; i++) {
			expected += hits(i, sliceSize);
		}
		if (inside != expected || Math.abs(pi - Math.PI) > 0.01) {
			System.err.println("Pi: " + inside + " hits, expected " + expected);
			System.exit(1);
		}
	}

	static long hits(int seed, int n) {
		SplittableRandom r = new SplittableRandom(seed);
		long in = 0;
		for (int i = 0; i < n; i++) {
			double x = r.nextDouble(), y = r.nextDouble();
			if (x * x + y * y <= 1.0) {
				in++;
			}
		}
		return in;
	}
}
