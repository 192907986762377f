package fr.labri.hpccloud.starpu;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.util.Map;

/**
 * Each test gets a fresh runtime with two CPU workers and no OpenCL worker, under the
 * default policy (set each time: the environment is the process's, and a test may start
 * its runtime with another).
 */
public abstract class RuntimeFixture {
	@BeforeEach
	void start() throws StarPUException {
		StarPU.init(Map.of("STARPU_NCPU", "2", "STARPU_NOPENCL", "0", "STARPU_SILENT", "1", "STARPU_SCHED", "lws"));
	}

	@AfterEach
	void stop() throws StarPUException {
		if (StarPU.isInitialized()) {
			try {
				StarPU.taskWaitForAll();
			} catch (StarPUException reportedByTheTest) {
				// Failures a test provoked on purpose.
			}
			StarPU.shutdown();
		}
	}
}
