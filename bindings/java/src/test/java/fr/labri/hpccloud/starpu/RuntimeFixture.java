package fr.labri.hpccloud.starpu;

import fr.labri.hpccloud.starpu.data.DataHandle;
import fr.labri.hpccloud.starpu.data.DataHandle.AccessMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Each test gets a fresh runtime with two CPU workers and no OpenCL worker, under the
 * default policy (set each time: the environment is the process's, and a test may start
 * its runtime with another). The static parts serve the tests that start their own runtime
 * (the device tests) and build codelets from lambdas.
 */
public abstract class RuntimeFixture {
	@BeforeEach
	void start() throws StarPUException {
		StarPU.init(Map.of("STARPU_NCPU", "2", "STARPU_NOPENCL", "0", "STARPU_SILENT", "1", "STARPU_SCHED", "lws"));
	}

	@AfterEach
	void stop() throws StarPUException {
		stopRuntime();
	}

	/** Shuts down a runtime a test left running, after its tasks (whose failures it may have provoked). */
	public static void stopRuntime() {
		if (StarPU.isInitialized()) {
			try {
				StarPU.taskWaitForAll();
			} catch (StarPUException reportedByTheTest) {
				// Failures a test provoked on purpose.
			}
			StarPU.shutdown();
		}
	}

	/**
	 * Starts a silent runtime under eager with one CPU worker and {@code count} devices
	 * ({@code countVariable}: STARPU_NCUDA, STARPU_NOPENCL), and {@code more} variables.
	 */
	public static void startOneCpuAnd(String countVariable, int count, String... more) {
		Map<String, String> env = new HashMap<>(Map.of("STARPU_NCPU", "1", countVariable, Integer.toString(count),
				"STARPU_SCHED", "eager", "STARPU_SILENT", "1"));
		for (int i = 0; i < more.length; i += 2) {
			env.put(more[i], more[i + 1]);
		}
		StarPU.init(env);
	}

	/**
	 * Keeps the started runtime if it has a worker of {@code type}; else shuts it down and
	 * skips the test, saying {@code why} and {@code hint}, or fails it where the device is
	 * {@code required}.
	 */
	public static void keepIfItHas(WorkerType type, boolean required, String why, String hint) {
		if (StarPU.workerCount(type) == 0) {
			StarPU.shutdown();
		}
		if (required) {
			assertTrue(StarPU.isInitialized(), why);
		}
		assumeTrue(StarPU.isInitialized(), why + hint);
	}

	/** A CPU codelet of {@code modes} running {@code body}, named {@code name} (null: the default name). */
	public static Codelet codelet(String name, AccessMode[] modes, Consumer<DataHandle[]> body) {
		return new Codelet() {
			@Override
			public void run(DataHandle[] buffers) {
				body.accept(buffers);
			}

			@Override
			public AccessMode[] getAccessModes() {
				return modes;
			}

			@Override
			public String getName() {
				return name == null ? super.getName() : name;
			}
		};
	}

	/**
	 * A codelet of one RW buffer running {@code cpu} on a CPU worker and, on a worker of
	 * {@code device}, the implementation a subclass gives.
	 */
	public abstract static class CpuAndDevice extends Codelet {
		private final Consumer<DataHandle[]> cpu;
		private final WorkerType device;

		protected CpuAndDevice(Consumer<DataHandle[]> cpu, WorkerType device) {
			this.cpu = cpu;
			this.device = device;
		}

		@Override
		public void run(DataHandle[] b) {
			cpu.accept(b);
		}

		@Override
		public Set<WorkerType> getWhere() {
			return EnumSet.of(WorkerType.CPU, device);
		}

		@Override
		public AccessMode[] getAccessModes() {
			return new AccessMode[] { AccessMode.STARPU_RW };
		}
	}
}
