package fr.labri.hpccloud.starpu.cuda;

import fr.labri.hpccloud.starpu.Codelet;
import fr.labri.hpccloud.starpu.DeviceCases;
import fr.labri.hpccloud.starpu.InvalidArgumentException;
import fr.labri.hpccloud.starpu.NoDeviceException;
import fr.labri.hpccloud.starpu.RuntimeFixture;
import fr.labri.hpccloud.starpu.StarPU;
import fr.labri.hpccloud.starpu.StarPUException;
import fr.labri.hpccloud.starpu.TaskFailedException;
import fr.labri.hpccloud.starpu.WorkerType;
import fr.labri.hpccloud.starpu.data.DataHandle;
import fr.labri.hpccloud.starpu.data.DataHandle.AccessMode;
import fr.labri.hpccloud.starpu.data.Filter;
import fr.labri.hpccloud.starpu.data.LongMatrixHandle;
import fr.labri.hpccloud.starpu.data.LongVectorHandle;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import static fr.labri.hpccloud.starpu.data.DataHandle.AccessMode.STARPU_RW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * CUDA implementations of Java codelets. Without an NVIDIA GPU and its driver (CI), the
 * tests of the answers there run (no CUDA worker, CUDA-only tasks refused, nothing lost);
 * the GPU tests are skipped with the reason, and scripts/gpu-check.sh runs them on a GPU
 * machine (with STARPU_REQUIRE_GPU=1: there, no CUDA worker fails them instead).
 */
class CudaTest {
	static final String SOURCE = String.join("\n",
			"extern \"C\" __global__ void scale(float *v, unsigned n, float k) {",
			"    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;",
			"    if (i < n) v[i] *= k;",
			"}",
			"extern \"C\" __global__ void add(long long *v, unsigned n, long long k) {",
			"    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;",
			"    if (i < n) v[i] += k;",
			"}",
			"extern \"C\" __global__ void fill(long long *m, unsigned nx, unsigned ny, unsigned ld,",
			"                                 long long base) {",
			"    unsigned x = threadIdx.x, y = blockIdx.x;",
			"    if (x < nx && y < ny) m[y * ld + x] = base + 10 * y + x;",
			"}");
	/** Compiled once per GPU for the whole class. */
	static final Program PROGRAM = new Program(SOURCE);

	static void start(int ncuda) {
		RuntimeFixture.startOneCpuAnd("STARPU_NCUDA", ncuda, "STARPU_NOPENCL", "0");
	}

	/** Starts a runtime with one CUDA worker, or skips the test (with the reason) without a GPU. */
	static void startWithGpu() {
		start(1);
		RuntimeFixture.keepIfItHas(WorkerType.CUDA, System.getenv("STARPU_REQUIRE_GPU") != null,
				"no CUDA worker (no NVIDIA GPU or driver)", ": scripts/gpu-check.sh runs this on a GPU machine");
	}

	@AfterEach
	void stop() {
		RuntimeFixture.stopRuntime();
	}

	/** A CUDA-only codelet of one RW buffer running {@code body}. */
	static Codelet cuda(String name, Consumer<CudaCall> body) {
		return new CudaCodelet() {
			@Override
			public void runCUDA(CudaCall call) {
				body.accept(call);
			}

			@Override
			public AccessMode[] getAccessModes() {
				return new AccessMode[] { STARPU_RW };
			}

			@Override
			public String getName() {
				return name;
			}
		};
	}

	/** A codelet of one RW buffer with both implementations: {@code cpu} and {@code gpu}. */
	static Codelet both(Consumer<DataHandle[]> cpu, Consumer<CudaCall> gpu) {
		return new RuntimeFixture.CpuAndDevice(cpu, WorkerType.CUDA) {
			@Override
			public void runCUDA(CudaCall call) {
				gpu.accept(call);
			}
		};
	}

	/** v += k on the GPU (long vector). */
	static Codelet addOnGpu(long k) {
		return cuda("add", call -> {
			DeviceBuffer v = call.getBuffer(0);
			int n = (int) v.getCount();
			call.kernel(PROGRAM, "add").arg(v).arg(n).arg(k).launch((n + 127) / 128, 128);
		});
	}

	@Test
	void aCudaOnlyCodeletWithoutAGpuIsRefusedAtSubmissionAndTheDataIsKept() {
		start(0);
		assertEquals(0, StarPU.workerCount(WorkerType.CUDA));
		try (LongVectorHandle v = LongVectorHandle.register(3)) {
			v.setValueAt(1, 7);
			NoDeviceException e = assertThrows(NoDeviceException.class,
					() -> StarPU.submitTask(addOnGpu(1), false, v));
			assertTrue(e.getMessage().contains("add") && e.getMessage().contains("0 CUDA"), e.getMessage());
			// A codelet with both implementations runs on the CPU.
			AtomicInteger onCpu = new AtomicInteger();
			StarPU.submitTask(both(b -> {
				onCpu.incrementAndGet();
				LongVectorHandle h = (LongVectorHandle) b[0];
				h.setValueAt(1, h.getValueAt(1) * 6);
			}, call -> {
				throw new AssertionError("there is no CUDA worker");
			}), true, v);
			assertEquals(1, onCpu.get());
			v.acquire();
			assertEquals(42, v.getValueAt(1));
			v.release();
		}
	}

	@Test
	void codeletsSayTheyHaveACudaImplementation() {
		assertEquals(EnumSet.of(WorkerType.CUDA), addOnGpu(1).getWhere());
		assertEquals(4, WorkerType.CUDA.bit());
		Codelet cpuOnly = RuntimeFixture.codelet(null, new AccessMode[0], b -> {
		});
		UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
				() -> cpuOnly.runCUDA(null));
		assertTrue(e.getMessage().contains("no CUDA implementation"), e.getMessage());
		// Programs are made anywhere: NVRTC compiles them at their first launch on a GPU.
		new Program(SOURCE, "-DN=4 --use_fast_math");
		Program.fromPtx(".version 7.0\n");
		assertThrows(NullPointerException.class, () -> new Program(null));
	}

	@Test
	void gpuACudaOnlyCodeletComputesOnTheGpuAndJavaReadsTheResult() {
		startWithGpu();
		AtomicReference<String> device = new AtomicReference<>();
		DeviceCases.scalesAThousandFloatsByThree(cuda("scale", call -> {
			device.set(call.getDeviceId() + ":" + call.getDeviceName());
			DeviceBuffer b = call.getBuffer(0);
			int n = (int) b.getCount();
			call.kernel(PROGRAM, "scale").arg(b).arg(n).arg(3f).launch((n + 255) / 256, 256);
		}));
		assertTrue(device.get().startsWith("0:") && device.get().length() > 2, device.get());
	}

	@Test
	void gpuCpuAndGpuTasksShareOneVector() {
		startWithGpu();
		AtomicInteger onCpu = new AtomicInteger(), onGpu = new AtomicInteger();
		Codelet add = both(DeviceCases.addOne(onCpu), call -> {
			onGpu.incrementAndGet();
			addOnGpu(1).runCUDA(call);
		});
		DeviceCases.addsFortyTimes(add, addOnGpu(100), 140);
		assertEquals(40, onCpu.get() + onGpu.get());
	}

	/** Fills each element (x, y) of a matrix piece with base + 10 y + x on the GPU. */
	static Codelet fill(long base) {
		return cuda("fill", call -> {
			DeviceBuffer b = call.getBuffer(0);
			call.kernel(PROGRAM, "fill").arg(b).arg(b.getNx()).arg(b.getNy()).arg(b.getLd()).arg(base)
					.launch(b.getNy(), b.getNx());
		});
	}

	@Test
	void gpuPiecesOfAMatrixHaveTheirOwnAddressAndTheParentsLd() {
		startWithGpu();
		try (LongMatrixHandle m = LongMatrixHandle.register(4, 3)) {
			// The whole matrix goes to the GPU first: its pieces are then cut there.
			StarPU.submitTask(fill(1000), true, m);
			m.partition(Filter.matrixBlock(2));
			StarPU.submitTask(fill(0), false, m.getSubData(0));
			StarPU.submitTask(fill(100), false, m.getSubData(1));
			StarPU.taskWaitForAll();
			m.unpartition();
			DeviceCases.assertHalvesFilled(m);
		}
	}

	@Test
	void gpuASourceThatDoesNotCompileFailsItsTaskWithNvrtcsLog() {
		startWithGpu();
		Program broken = new Program("extern \"C\" __global__ void f(long long *v) { v[0] = undeclared; }");
		try (LongVectorHandle v = LongVectorHandle.register(1)) {
			TaskFailedException e = assertThrows(TaskFailedException.class, () -> StarPU.submitTask(
					cuda("broken", call -> call.kernel(broken, "f").arg(call.getBuffer(0)).launch(1, 1)), true, v));
			assertTrue(String.valueOf(e.getCause()).contains("undeclared"), String.valueOf(e.getCause()));
			assertInstanceOf(StarPUException.class, e.getCause());
		}
	}

	@Test
	void gpuACallIsValidDuringItsCodeletOnly() {
		startWithGpu();
		AtomicReference<CudaCall> kept = new AtomicReference<>();
		try (LongVectorHandle v = LongVectorHandle.register(1)) {
			StarPU.submitTask(cuda("keep", kept::set), true, v);
		}
		assertThrows(InvalidArgumentException.class, () -> kept.get().getBuffer(0));
	}
}
