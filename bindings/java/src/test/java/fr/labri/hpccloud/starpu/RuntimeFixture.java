package fr.labri.hpccloud.starpu;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.util.Map;

/** Each test gets a fresh runtime with two CPU workers. */
public abstract class RuntimeFixture {
	@BeforeEach
	void start() throws StarPUException {
		StarPU.init(Map.of("STARPU_NCPU", "2", "STARPU_SILENT", "1"));
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
