package fr.labri.hpccloud.starpu;

import fr.labri.hpccloud.starpu.data.DataHandle;
import fr.labri.hpccloud.starpu.data.FloatVectorHandle;
import fr.labri.hpccloud.starpu.data.LongMatrixHandle;
import fr.labri.hpccloud.starpu.data.LongVectorHandle;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What the CUDA and OpenCL tests share: cases each runs with its device's codelets. */
public final class DeviceCases {
	private DeviceCases() {
	}

	/** Runs {@code scale} (x 3 on one float vector) over 0, 1, ... 999 and checks, in Java, each value tripled. */
	public static void scalesAThousandFloatsByThree(Codelet scale) {
		try (FloatVectorHandle v = FloatVectorHandle.register(1000)) {
			for (int i = 0; i < 1000; i++) {
				v.setValueAt(i, i);
			}
			StarPU.submitTask(scale, true, v);
			v.acquire();
			for (int i = 0; i < 1000; i++) {
				assertEquals(3f * i, v.getValueAt(i), "element " + i);
			}
			v.release();
		}
	}

	/** A CPU implementation adding 1 to each element of a long vector, counting its runs in {@code runs}. */
	public static Consumer<DataHandle[]> addOne(AtomicInteger runs) {
		return b -> {
			runs.incrementAndGet();
			LongVectorHandle v = (LongVectorHandle) b[0];
			for (int i = 0; i < v.getSize(); i++) {
				v.setValueAt(i, v.getValueAt(i) + 1);
			}
		};
	}

	/**
	 * Submits 40 tasks of {@code add} (one RW long vector), then {@code last} if not null, on
	 * a vector of 16 zeros, and checks that each element is then {@code want}.
	 */
	public static void addsFortyTimes(Codelet add, Codelet last, long want) {
		try (LongVectorHandle v = LongVectorHandle.register(16)) {
			for (int t = 0; t < 40; t++) {
				StarPU.submitTask(add, false, v);
			}
			if (last != null) {
				StarPU.submitTask(last, false, v);
			}
			StarPU.taskWaitForAll();
			v.acquire();
			for (int i = 0; i < 16; i++) {
				assertEquals(want, v.getValueAt(i));
			}
			v.release();
		}
	}

	/**
	 * Checks the 4 x 3 matrix whose two column halves a device filled with 10 y + x (x in
	 * the half), plus 0 and 100.
	 */
	public static void assertHalvesFilled(LongMatrixHandle m) {
		for (int y = 0; y < 3; y++) {
			for (int x = 0; x < 4; x++) {
				assertEquals(100 * (x / 2) + 10 * y + x % 2, m.getValueAt(x, y), "(" + x + ", " + y + ")");
			}
		}
	}
}
