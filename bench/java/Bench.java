import fr.labri.hpccloud.starpu.Codelet;
import fr.labri.hpccloud.starpu.StarPU;
import fr.labri.hpccloud.starpu.data.DataHandle;
import fr.labri.hpccloud.starpu.data.DataSet;
import fr.labri.hpccloud.starpu.data.Tuple2;

import java.io.BufferedWriter;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Speed of the Java face against plain Java, in one JVM, after warming the JIT:
 * <ul>
 * <li>tiny tasks: N Java codelets with no data, submitted then waited for
 * ({@code taskWaitForAll}), against N no-op tasks on a ForkJoinPool of as many threads,
 * and against a CompletableFuture chain of N steps on that pool;</li>
 * <li>WordCount over a generated text (fixed seed, Zipf-like over 10,000 words): our
 * DataSet pipeline against a single-threaded HashMap loop and a Java parallel stream.</li>
 * </ul>
 * Prints one line per measurement: the median and best of REPS runs.
 * Usage: Bench [TEXT_MB=50] [TASKS=100000] [REPS=7]
 */
public class Bench {
	static final Pattern SPACE = Pattern.compile(" ");

	public static void main(String[] args) throws Exception {
		double jvmStartMs = ManagementFactory.getRuntimeMXBean().getUptime();
		int mb = args.length > 0 ? Integer.parseInt(args[0]) : 50;
		int tasks = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
		int reps = args.length > 2 ? Integer.parseInt(args[2]) : 7;
		long t0 = System.nanoTime();
		StarPU.init();
		double initMs = (System.nanoTime() - t0) / 1e6;
		int workers = StarPU.workerCount();
		System.out.printf("jvm_start_to_main_ms=%.0f starpu_init_ms=%.1f workers=%d cores=%d%n", jvmStartMs, initMs, workers,
				Runtime.getRuntime().availableProcessors());

		tinyTasks(tasks, reps, workers);
		wordCount(mb, reps, workers);
		StarPU.shutdown();
	}

	// ---------------------------------------------------------------- tiny tasks

	static final AtomicLong SINK = new AtomicLong();

	static final Codelet TINY = new Codelet() {
		@Override
		public void run(DataHandle[] buffers) {
			SINK.getAndIncrement();
		}

		@Override
		public DataHandle.AccessMode[] getAccessModes() {
			return new DataHandle.AccessMode[0];
		}

		@Override
		public String getName() {
			return "tiny";
		}
	};

	static void tinyTasks(int n, int reps, int workers) throws Exception {
		ForkJoinPool pool = new ForkJoinPool(workers);
		Runnable noop = SINK::getAndIncrement;
		Measure starpu = new Measure("tiny_task starpu_java", n);
		Measure fjp = new Measure("tiny_task forkjoinpool(" + workers + ")", n);
		Measure cf = new Measure("tiny_task completablefuture_chain", n);
		for (int r = -2; r < reps; r++) { // two warm-up rounds
			boolean keep = r >= 0;
			long s = System.nanoTime();
			for (int i = 0; i < n; i++) {
				StarPU.submitTask(TINY, false);
			}
			StarPU.taskWaitForAll();
			starpu.add(keep, System.nanoTime() - s);

			s = System.nanoTime();
			for (int i = 0; i < n; i++) {
				pool.execute(noop);
			}
			pool.awaitQuiescence(1, java.util.concurrent.TimeUnit.HOURS);
			fjp.add(keep, System.nanoTime() - s);

			s = System.nanoTime();
			CompletableFuture<Void> c = CompletableFuture.completedFuture(null);
			for (int i = 0; i < n; i++) {
				c = c.thenRunAsync(noop, pool);
			}
			c.join();
			cf.add(keep, System.nanoTime() - s);
		}
		pool.shutdown();
		starpu.print();
		fjp.print();
		cf.print();
	}

	// ---------------------------------------------------------------- WordCount

	static void wordCount(int mb, int reps, int workers) throws Exception {
		Path file = Files.createTempFile("wordcount-", ".txt");
		file.toFile().deleteOnExit();
		long s = System.nanoTime();
		generate(file, mb * 1_000_000L);
		System.out.printf("wordcount_text mb=%d generate_ms=%.0f%n", mb, (System.nanoTime() - s) / 1e6);
		s = System.nanoTime();
		List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
		long words = lines.stream().mapToLong(l -> SPACE.split(l).length).sum();
		System.out.printf("wordcount_read lines=%d words=%d read_ms=%.0f%n", lines.size(), words, (System.nanoTime() - s) / 1e6);

		int blocks = 8 * workers;
		Map<String, Long> reference = sequential(lines);
		Measure seq = new Measure("wordcount sequential_hashmap", words);
		Measure par = new Measure("wordcount parallel_stream", words);
		Measure ours = new Measure("wordcount starpu_dataset(" + blocks + " blocks)", words);
		for (int r = -2; r < reps; r++) {
			boolean keep = r >= 0;
			s = System.nanoTime();
			check(reference, sequential(lines));
			seq.add(keep, System.nanoTime() - s);

			s = System.nanoTime();
			check(reference, parallelStream(lines));
			par.add(keep, System.nanoTime() - s);

			s = System.nanoTime();
			check(reference, dataSet(lines, blocks));
			ours.add(keep, System.nanoTime() - s);
		}
		seq.print();
		par.print();
		ours.print();
	}

	static Map<String, Long> sequential(List<String> lines) {
		HashMap<String, Long> m = new HashMap<>();
		for (String l : lines) {
			for (String w : SPACE.split(l)) {
				m.merge(w, 1L, Long::sum);
			}
		}
		return m;
	}

	static Map<String, Long> parallelStream(List<String> lines) {
		return lines.parallelStream().flatMap(l -> Arrays.stream(SPACE.split(l)))
				.collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
	}

	static Map<String, Long> dataSet(List<String> lines, int blocks) throws Exception {
		Map<String, Long> m = new HashMap<>();
		for (Tuple2<String, Long> p : new DataSet<>(lines, blocks).flatMap(l -> Arrays.asList(SPACE.split(l)).iterator())
				.mapToPair(w -> new Tuple2<>(w, 1L)).reduceByKey(Long::sum).collect()) {
			m.put(p._1(), p._2());
		}
		return m;
	}

	static void check(Map<String, Long> expected, Map<String, Long> got) {
		if (!expected.equals(got)) {
			throw new IllegalStateException("WordCount results differ");
		}
	}

	/** About {@code bytes} of text: lines of 5 to 15 words drawn Zipf-like from 10,000 words. */
	static void generate(Path file, long bytes) throws IOException {
		Random r = new Random(20261123L);
		int nwords = 10_000;
		String[] vocab = new String[nwords];
		for (int i = 0; i < nwords; i++) {
			StringBuilder b = new StringBuilder();
			int len = 2 + r.nextInt(8);
			for (int k = 0; k < len; k++) {
				b.append((char) ('a' + r.nextInt(26)));
			}
			vocab[i] = b.toString() + i;
		}
		// Cumulative Zipf weights (s = 1): word i has weight 1 / (i + 1).
		double[] cdf = new double[nwords];
		double sum = 0;
		for (int i = 0; i < nwords; i++) {
			sum += 1.0 / (i + 1);
			cdf[i] = sum;
		}
		long written = 0;
		try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
			while (written < bytes) {
				StringBuilder line = new StringBuilder();
				int n = 5 + r.nextInt(11);
				for (int k = 0; k < n; k++) {
					int i = Arrays.binarySearch(cdf, r.nextDouble() * sum);
					if (k > 0) {
						line.append(' ');
					}
					line.append(vocab[i < 0 ? -i - 1 : i]);
				}
				line.append('\n');
				w.write(line.toString());
				written += line.length();
			}
		}
	}

	/** Times of the kept runs of one measurement. */
	static final class Measure {
		final String name;
		final long units;
		final List<Long> ns = new ArrayList<>();

		Measure(String name, long units) {
			this.name = name;
			this.units = units;
		}

		void add(boolean keep, long t) {
			if (keep) {
				ns.add(t);
			}
		}

		void print() {
			List<Long> s = new ArrayList<>(ns);
			s.sort(null);
			long med = s.get(s.size() / 2), best = s.get(0);
			System.out.printf("%-44s runs=%d median_ms=%.1f best_ms=%.1f median_us_per_unit=%.4f (units=%d)%n", name,
					s.size(), med / 1e6, best / 1e6, med / 1e3 / units, units);
		}
	}
}
