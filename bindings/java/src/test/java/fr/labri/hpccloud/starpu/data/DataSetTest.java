package fr.labri.hpccloud.starpu.data;

import fr.labri.hpccloud.starpu.RuntimeFixture;
import fr.labri.hpccloud.starpu.StarPUException;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DataSetTest extends RuntimeFixture {
	static List<Integer> range(int n) {
		return IntStream.range(0, n).boxed().collect(Collectors.toList());
	}

	static <T> List<T> list(Iterable<T> it) {
		List<T> l = new ArrayList<>();
		it.forEach(l::add);
		return l;
	}

	@Test
	void narrowOperationsKeepOrderAcrossBlocks() throws StarPUException {
		DataSet<Integer> d = new DataSet<>(range(1000), 7);
		assertEquals(7, d.getNbBlocks());
		DataSet<Integer> squares = d.map(x -> x * x).filter(x -> x % 2 == 0);
		List<Integer> expected = range(1000).stream().map(x -> x * x).filter(x -> x % 2 == 0).collect(Collectors.toList());
		assertEquals(expected, list(squares.collect()));
		assertEquals(500, squares.getSize());
		assertEquals(500L, squares.count());
		DataSet<Integer> twice = d.flatMap(x -> Arrays.asList(x, -x).iterator());
		assertEquals(2000, twice.getSize());
		assertEquals(0, (int) twice.reduce(Integer::sum));
	}

	@Test
	void reduceFoldsBlockAfterBlock() throws StarPUException {
		DataSet<Integer> d = new DataSet<>(range(100), 4);
		// Not associative: the blocks must be folded in order.
		String digits = d.reduce((Integer x, String acc) -> acc + (x % 10), "");
		assertEquals(range(100).stream().map(x -> String.valueOf(x % 10)).collect(Collectors.joining()), digits);
	}

	@Test
	void initSetsEveryElement() throws StarPUException {
		DataSet<Integer> d = new DataSet<Integer>(10).partition(3).init(v -> 5);
		assertEquals(50, (int) d.reduce((Integer x, Integer acc) -> x + acc, 0));
	}

	@Test
	void splitByBlocksMakesBlocksOfTheGivenSize() throws StarPUException {
		DataSet<Integer> d = new DataSet<>(range(95)).splitByBlocks(10);
		assertEquals(10, d.getNbBlocks());
		assertEquals(range(95), list(d.collect()));
	}

	@Test
	void unionAndDistinct() throws StarPUException {
		DataSet<Integer> a = new DataSet<>(range(50), 3);
		DataSet<Integer> b = new DataSet<>(range(80), 2);
		DataSet<Integer> u = a.union(b);
		assertEquals(130, u.getSize());
		assertEquals(new HashSet<>(range(80)), new HashSet<>(list(u.distinct().collect())));
		assertEquals(80, u.distinct().getSize());
	}

	@Test
	void byKeyOperationsMatchASequentialComputation() throws StarPUException {
		List<Tuple2<String, Integer>> pairs = new ArrayList<>();
		Map<String, Integer> sums = new HashMap<>();
		Map<String, Set<Integer>> groups = new HashMap<>();
		for (int i = 0; i < 500; i++) {
			String k = "k" + (i * 7 % 23);
			pairs.add(new Tuple2<>(k, i % 5));
			sums.merge(k, i % 5, Integer::sum);
			groups.computeIfAbsent(k, x -> new HashSet<>()).add(i % 5);
		}
		DataPairSet<String, Integer> d = new DataPairSet<>(pairs, 6);
		Map<String, Integer> got = new HashMap<>();
		for (Tuple2<String, Integer> t : d.reduceByKey(Integer::sum).collect()) {
			assertEquals(null, got.put(t._1(), t._2()), "one pair per key");
		}
		assertEquals(sums, got);
		Map<String, Set<Integer>> g = new HashMap<>();
		for (Tuple2<String, Set<Integer>> t : d.groupByKey().collect()) {
			g.put(t._1(), t._2());
		}
		assertEquals(groups, g);
	}

	@Test
	void joinPairsEveryMatchingValue() throws StarPUException {
		DataPairSet<Integer, String> left = new DataPairSet<>(List.of(new Tuple2<>(1, "a"), new Tuple2<>(2, "b"), new Tuple2<>(1, "c")), 2);
		DataPairSet<Integer, Integer> right = new DataPairSet<>(Map.of(1, 10, 3, 30));
		List<String> got = new ArrayList<>();
		for (Tuple2<Integer, Tuple2<String, Integer>> t : left.join(right).collect()) {
			got.add(t._1() + ":" + t._2()._1() + ":" + t._2()._2());
		}
		Collections.sort(got);
		assertEquals(List.of("1:a:10", "1:c:10"), got);
	}

	@Test
	void wordCountFromAStream() throws StarPUException {
		String text = "the cat sat\non the mat\nthe end\n";
		DataSet<String> lines = DataSet.readFile(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), s -> s).splitByBlocks(1);
		DataPairSet<String, Integer> counts = lines.flatMap(s -> Arrays.asList(s.split(" ")).iterator())
				.mapToPair(w -> new Tuple2<>(w, 1)).reduceByKey(Integer::sum);
		Map<String, Integer> got = new HashMap<>();
		counts.collect().forEach(t -> got.put(t._1(), t._2()));
		assertEquals(Map.of("the", 3, "cat", 1, "sat", 1, "on", 1, "mat", 1, "end", 1), got);
	}

	@Test
	void blocksRunInParallelOnTheWorkers() throws StarPUException {
		CountDownLatch both = new CountDownLatch(2);
		DataSet<Boolean> met = new DataSet<>(range(2), 2).map(x -> {
			both.countDown();
			try {
				return both.await(30, TimeUnit.SECONDS);
			} catch (InterruptedException e) {
				throw new IllegalStateException(e);
			}
		});
		assertEquals(List.of(true, true), list(met.collect()));
	}

	@Test
	void anExceptionInAFunctionSurfacesWhereTheDataIsWaitedFor() throws StarPUException {
		IllegalArgumentException bad = new IllegalArgumentException("bad element");
		DataSet<Integer> d = new DataSet<>(range(100), 4).map(x -> {
			if (x == 42) {
				throw bad;
			}
			return x;
		});
		// Later operations pass the failure on instead of running on missing data.
		DataSet<Integer> later = d.map(x -> x + 1);
		StarPUException e = assertThrows(StarPUException.class, later::collect);
		assertSame(bad, e.getCause());
		StarPUException e2 = assertThrows(StarPUException.class, d::getSize);
		assertSame(bad, e2.getCause());
		assertTrue(e.getMessage().contains("bad element"), e.getMessage());
	}
}
