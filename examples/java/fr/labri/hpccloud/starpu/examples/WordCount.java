package fr.labri.hpccloud.starpu.examples;

import fr.labri.hpccloud.starpu.StarPU;
import fr.labri.hpccloud.starpu.data.DataPairSet;
import fr.labri.hpccloud.starpu.data.DataSet;
import fr.labri.hpccloud.starpu.data.Tuple2;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The handbook's Spark-style program: lines of a file, cut into blocks of 10, split into
 * words, paired with 1, summed by key. Prints (word,count) pairs and checks them against
 * a plain sequential count. Usage: WordCount FILE [BLOCK].
 */
public class WordCount {
	private static final Pattern SPACE = Pattern.compile(" ");

	public static void main(String[] args) throws Exception {
		if (args.length < 1) {
			System.err.println("usage: WordCount FILE [BLOCK]");
			System.exit(2);
		}
		int block = args.length > 1 ? Integer.parseInt(args[1]) : 10;
		StarPU.init();
		Map<String, Integer> counts = new HashMap<>();
		try (InputStream input = new FileInputStream(args[0])) {
			DataSet<String> lines = DataSet.readFile(input, s -> s).splitByBlocks(block);
			DataSet<String> words = lines.flatMap(s -> Arrays.asList(SPACE.split(s)).iterator()).splitByBlocks(block);
			DataPairSet<String, Integer> ones = words.mapToPair(w -> new Tuple2<>(w, 1));
			for (Tuple2<String, Integer> p : ones.reduceByKey((a, b) -> a + b).collect()) {
				System.out.println("(" + p._1() + "," + p._2() + ")");
				counts.put(p._1(), p._2());
			}
		}
		StarPU.shutdown();
		if (!counts.equals(sequential(args[0]))) {
			System.err.println("WordCount: the counts differ from a sequential count");
			System.exit(1);
		}
	}

	static Map<String, Integer> sequential(String file) throws IOException {
		Map<String, Integer> m = new HashMap<>();
		for (String line : Files.readAllLines(Paths.get(file), StandardCharsets.UTF_8)) {
			for (String w : SPACE.split(line)) {
				m.merge(w, 1, Integer::sum);
			}
		}
		return m;
	}
}
