package fr.labri.hpccloud.starpu.examples;

import fr.labri.hpccloud.starpu.StarPU;
import fr.labri.hpccloud.starpu.data.DataPairSet;
import fr.labri.hpccloud.starpu.data.Tuple2;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * The transitive closure of a small random graph, Spark style: paths grow by one edge per
 * round (a join of the paths with the reversed edges, a union, a distinct) until no new
 * path appears. Checks the result against a breadth-first search from every vertex.
 * Usage: TransitiveClosure [VERTICES [EDGES [SLICES]]].
 */
public class TransitiveClosure {
	public static void main(String[] args) throws Exception {
		int vertices = args.length > 0 ? Integer.parseInt(args[0]) : 60;
		int edges = args.length > 1 ? Integer.parseInt(args[1]) : 80;
		int slices = args.length > 2 ? Integer.parseInt(args[2]) : 4;
		List<Tuple2<Integer, Integer>> graph = graph(42, vertices, edges);
		StarPU.init();
		System.out.println(String.format("TC[#vertices=%d #edges=%d]", vertices, edges));
		DataPairSet<Integer, Integer> tc = new DataPairSet<>(graph, slices);
		// join() matches keys: keep the edges reversed, (y, x) for x -> y.
		DataPairSet<Integer, Integer> reversed = tc.mapToPair(e -> new Tuple2<>(e._2(), e._1()));
		long before;
		long after = tc.getSize();
		int round = 0;
		do {
			before = after;
			// A path (y, z) and an edge (x, y) give the path (x, z).
			DataPairSet<Integer, Integer> longer = tc.join(reversed).mapToPair(t -> new Tuple2<>(t._2()._2(), t._2()._1()));
			tc = tc.union(longer).distinct().partition(slices);
			after = tc.getSize();
			System.out.println("round " + (++round) + ": " + after + " paths");
		} while (after != before);
		Set<Tuple2<Integer, Integer>> got = new HashSet<>();
		tc.collect().forEach(got::add);
		StarPU.shutdown();
		Set<Tuple2<Integer, Integer>> expected = closure(graph, vertices);
		System.out.println("TC has " + got.size() + " edges.");
		if (!got.equals(expected)) {
			System.err.println("TransitiveClosure: " + got.size() + " paths, expected " + expected.size());
			System.exit(1);
		}
	}

	static List<Tuple2<Integer, Integer>> graph(long seed, int vertices, int edges) {
		Random r = new Random(seed);
		Set<Tuple2<Integer, Integer>> s = new HashSet<>();
		while (s.size() < edges) {
			int a = r.nextInt(vertices), b = r.nextInt(vertices);
			if (a != b) {
				s.add(new Tuple2<>(a, b));
			}
		}
		return new ArrayList<>(s);
	}

	/** Every (x, z) with a path of one edge or more from x to z. */
	static Set<Tuple2<Integer, Integer>> closure(List<Tuple2<Integer, Integer>> graph, int vertices) {
		List<List<Integer>> next = new ArrayList<>();
		for (int i = 0; i < vertices; i++) {
			next.add(new ArrayList<>());
		}
		for (Tuple2<Integer, Integer> e : graph) {
			next.get(e._1()).add(e._2());
		}
		Set<Tuple2<Integer, Integer>> out = new HashSet<>();
		for (int x = 0; x < vertices; x++) {
			Set<Integer> seen = new HashSet<>();
			ArrayDeque<Integer> todo = new ArrayDeque<>(next.get(x));
			while (!todo.isEmpty()) {
				int z = todo.pop();
				if (seen.add(z)) {
					out.add(new Tuple2<>(x, z));
					todo.addAll(next.get(z));
				}
			}
		}
		return out;
	}
}
