package fr.labri.hpccloud.starpu.opencl;

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
import fr.labri.hpccloud.starpu.data.DoubleVariableHandle;
import fr.labri.hpccloud.starpu.data.DoubleVectorHandle;
import fr.labri.hpccloud.starpu.data.Filter;
import fr.labri.hpccloud.starpu.data.IntegerVectorHandle;
import fr.labri.hpccloud.starpu.data.LongMatrixHandle;
import fr.labri.hpccloud.starpu.data.LongVectorHandle;
import fr.labri.hpccloud.starpu.data.VectorHandle;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import static fr.labri.hpccloud.starpu.data.DataHandle.AccessMode.STARPU_R;
import static fr.labri.hpccloud.starpu.data.DataHandle.AccessMode.STARPU_RW;
import static fr.labri.hpccloud.starpu.data.DataHandle.AccessMode.STARPU_W;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * OpenCL implementations of Java codelets, on a real OpenCL device: PoCL where there is no
 * GPU (the pom sets STARPU_OPENCL_ON_CPUS=1 for it). Without a device, the tests that need
 * one are skipped with the reason; the refusal of an OpenCL-only codelet runs everywhere.
 */
class OpenCLTest {
	static final String SOURCE = String.join("\n",
			"__kernel void scale(__global float *v, unsigned first, unsigned n, float k) {",
			"    const size_t i = get_global_id(0);",
			"    if (i < n) v[first + i] *= k;",
			"}",
			"__kernel void add(__global long *v, unsigned first, unsigned n, long k) {",
			"    const size_t i = get_global_id(0);",
			"    if (i < n) v[first + i] += k;",
			"}",
			"__kernel void axpy(__global double *y, __global const double *x, unsigned n, double a,",
			"                   __global double *count, int one) {",
			"    const size_t i = get_global_id(0);",
			"    if (i < n) y[i] += a * x[i];",
			"    if (i == 0) *count += one;",
			"}",
			"__kernel void fill(__global long *m, unsigned first, unsigned ld, long base) {",
			"    const size_t x = get_global_id(0), y = get_global_id(1);",
			"    m[first + y * ld + x] = base + 10 * y + x;",
			"}",
			"__kernel void group_sums(__global const int *v, __global int *sums, __local int *tmp) {",
			"    const size_t l = get_local_id(0);",
			"    tmp[l] = v[get_global_id(0)];",
			"    barrier(CLK_LOCAL_MEM_FENCE);",
			"    if (l == 0) {",
			"        int s = 0;",
			"        for (size_t i = 0; i < get_local_size(0); i++) s += tmp[i];",
			"        sums[get_group_id(0)] = s;",
			"    }",
			"}");
	/** Built once per device for the whole class (a PoCL build takes about half a second). */
	static final Program PROGRAM = new Program(SOURCE);

	/** Starts a runtime of one CPU worker and {@code nopencl} OpenCL workers. */
	static void start(int nopencl) {
		RuntimeFixture.startOneCpuAnd("STARPU_NOPENCL", nopencl);
	}

	/** Starts a runtime with one OpenCL worker, or skips the test (with the reason) when there is no device. */
	static void startWithDevice() {
		start(1);
		RuntimeFixture.keepIfItHas(WorkerType.OPENCL, false, "no OpenCL device",
				" (install pocl-opencl-icd; PoCL needs STARPU_OPENCL_ON_CPUS=1)");
	}

	@AfterEach
	void stop() {
		RuntimeFixture.stopRuntime();
	}

	/** An OpenCL-only codelet of {@code modes} running {@code body}. */
	static Codelet opencl(String name, Consumer<OpenCLCall> body, AccessMode... modes) {
		return new OpenCLCodelet() {
			@Override
			public void runOpenCL(OpenCLCall call) {
				body.accept(call);
			}

			@Override
			public AccessMode[] getAccessModes() {
				return modes;
			}

			@Override
			public String getName() {
				return name;
			}
		};
	}

	/** A codelet of one RW buffer with both implementations: {@code cpu} and {@code device}. */
	static Codelet both(Consumer<DataHandle[]> cpu, Consumer<OpenCLCall> device) {
		return new RuntimeFixture.CpuAndDevice(cpu, WorkerType.OPENCL) {
			@Override
			public void runOpenCL(OpenCLCall call) {
				device.accept(call);
			}
		};
	}

	/** v *= k on the device (float vector). */
	static Codelet scale(float k) {
		return opencl("scale", call -> {
			DeviceBuffer v = call.getBuffer(0);
			call.kernel(PROGRAM, "scale").arg(v).arg((int) v.getFirst()).arg((int) v.getCount()).arg(k)
					.launch(v.getCount());
		}, STARPU_RW);
	}

	/** v += k on the device (long vector). */
	static Codelet addOnDevice(long k) {
		return opencl("add", call -> {
			DeviceBuffer v = call.getBuffer(0);
			call.kernel(PROGRAM, "add").arg(v).arg((int) v.getFirst()).arg((int) v.getCount()).arg(k)
					.launch(v.getCount());
		}, STARPU_RW);
	}

	@Test
	void anOpenCLOnlyCodeletComputesOnTheDeviceAndJavaReadsTheResult() {
		startWithDevice();
		assertEquals(1, StarPU.workerCount(WorkerType.OPENCL));
		assertEquals(1, StarPU.workerCount(WorkerType.CPU));
		AtomicReference<String> device = new AtomicReference<>();
		AtomicInteger worker = new AtomicInteger(-1);
		DeviceCases.scalesAThousandFloatsByThree(opencl("observed", call -> {
			device.set(call.getDeviceId() + ":" + call.getDeviceName());
			worker.set(StarPU.workerId());
			scale(3).runOpenCL(call);
		}, STARPU_RW));
		assertTrue(device.get().startsWith("0:") && device.get().length() > 2, device.get());
		assertEquals(1, worker.get(), "the OpenCL worker comes after the CPU worker");
	}

	@Test
	void cpuAndOpenCLTasksAlternateOnOneVectorInSubmissionOrder() {
		startWithDevice();
		Codelet timesTwo = RuntimeFixture.codelet(null, new AccessMode[] { STARPU_RW }, b -> {
			LongVectorHandle v = (LongVectorHandle) b[0];
			for (int i = 0; i < v.getSize(); i++) {
				v.setValueAt(i, 2 * v.getValueAt(i));
			}
		});
		try (LongVectorHandle v = LongVectorHandle.register(64)) {
			for (int i = 0; i < 64; i++) {
				v.setValueAt(i, i);
			}
			for (int round = 0; round < 4; round++) {
				StarPU.submitTask(addOnDevice(1), false, v);
				StarPU.submitTask(timesTwo, false, v);
			}
			StarPU.taskWaitForAll();
			v.acquire();
			for (int i = 0; i < 64; i++) {
				long x = i;
				for (int round = 0; round < 4; round++) {
					x = (x + 1) * 2;
				}
				assertEquals(x, v.getValueAt(i), "element " + i);
			}
			v.release();
		}
	}

	@Test
	void aCodeletWithBothImplementationsRunsEachTaskOnceOnEitherKind() {
		startWithDevice();
		AtomicInteger onCpu = new AtomicInteger(), onDevice = new AtomicInteger();
		Codelet add = both(DeviceCases.addOne(onCpu), call -> {
			onDevice.incrementAndGet();
			addOnDevice(1).runOpenCL(call);
		});
		DeviceCases.addsFortyTimes(add, null, 40);
		assertEquals(40, onCpu.get() + onDevice.get());
	}

	@Test
	void scalarArgumentsOfEveryWidthReachTheKernel() {
		startWithDevice();
		Codelet axpy = opencl("axpy", call -> {
			DeviceBuffer y = call.getBuffer(0), x = call.getBuffer(1), count = call.getBuffer(2);
			assertEquals(8, y.getElemSize());
			call.kernel(PROGRAM, "axpy").arg(y).arg(x).arg((int) y.getCount()).arg(0.5).arg(count).arg(1)
					.launch(y.getCount());
		}, STARPU_RW, STARPU_R, STARPU_RW);
		try (DoubleVectorHandle y = DoubleVectorHandle.register(10);
				DoubleVectorHandle x = DoubleVectorHandle.register(10);
				DoubleVariableHandle count = DoubleVariableHandle.register()) {
			for (int i = 0; i < 10; i++) {
				y.setValueAt(i, 1);
				x.setValueAt(i, i);
			}
			StarPU.submitTask(axpy, false, y, x, count);
			StarPU.submitTask(axpy, false, y, x, count);
			StarPU.taskWaitForAll();
			y.acquire();
			count.acquire();
			for (int i = 0; i < 10; i++) {
				assertEquals(1 + i, y.getValueAt(i), 0.0, "element " + i);
			}
			assertEquals(2.0, count.getValue(), 0.0);
			count.release();
			y.release();
		}
	}

	/**
	 * m[x, y] = base + 10 y + x on the device, in two dimensions (work groups of 2 x 1),
	 * after checking that m's device layout is {@code expected}: first, nx, ny, ld.
	 */
	static Codelet fill(long base, long... expected) {
		return opencl("fill", call -> {
			DeviceBuffer m = call.getBuffer(0);
			assertArrayEquals(expected, new long[] { m.getFirst(), m.getNx(), m.getNy(), m.getLd() });
			call.kernel(PROGRAM, "fill").arg(m).arg((int) m.getFirst()).arg(m.getLd()).arg(base)
					.launch(new long[] { m.getNx(), m.getNy() }, new long[] { 2, 1 });
		}, STARPU_W);
	}

	@Test
	void piecesOfAMatrixOnTheDeviceLieInTheirParentsBufferWithItsLd() {
		startWithDevice();
		try (LongMatrixHandle m = LongMatrixHandle.register(4, 3)) {
			// The whole matrix goes to the device first: its pieces are then cut there.
			StarPU.submitTask(fill(1000, 0, 4, 3, 4), true, m);
			m.partition(Filter.matrixBlock(2));
			StarPU.submitTask(fill(0, 0, 2, 3, 4), false, m.getSubData(0));
			StarPU.submitTask(fill(100, 2, 2, 3, 4), false, m.getSubData(1));
			StarPU.taskWaitForAll();
			m.unpartition();
			DeviceCases.assertHalvesFilled(m);
		}
	}

	@Test
	void workGroupsShareTheirLocalMemory() {
		startWithDevice();
		Codelet groupSums = opencl("group_sums", call -> {
			DeviceBuffer v = call.getBuffer(0), sums = call.getBuffer(1);
			call.kernel(PROGRAM, "group_sums").arg(v).arg(sums).argLocal(4 * 4)
					.launch(new long[] { v.getCount() }, new long[] { 4 });
		}, STARPU_R, STARPU_W);
		try (IntegerVectorHandle v = IntegerVectorHandle.register(16);
				IntegerVectorHandle sums = IntegerVectorHandle.register(4)) {
			for (int i = 0; i < 16; i++) {
				v.setValueAt(i, i + 1);
			}
			StarPU.submitTask(groupSums, true, v, sums);
			sums.acquire();
			assertArrayEquals(new int[] { 10, 26, 42, 58 },
					new int[] { sums.getValueAt(0), sums.getValueAt(1), sums.getValueAt(2), sums.getValueAt(3) });
			sums.release();
		}
	}

	/** Submits {@code cl} on {@code v} synchronously; returns its failure. */
	static TaskFailedException failure(Codelet cl, DataHandle v) {
		return assertThrows(TaskFailedException.class, () -> StarPU.submitTask(cl, true, v));
	}

	@Test
	void aProgramThatDoesNotBuildFailsItsTaskWithTheCompilersLogAndNothingElse() {
		startWithDevice();
		Program broken = new Program("__kernel void f(__global long *v) { v[0] = undeclared; }");
		try (LongVectorHandle v = LongVectorHandle.register(3)) {
			v.setValueAt(0, 7);
			TaskFailedException e = failure(opencl("broken", call -> call.kernel(broken, "f").arg(call.getBuffer(0))
					.launch(1), STARPU_RW), v);
			assertTrue(e.getMessage().contains("broken"), e.getMessage());
			StarPUException cause = assertInstanceOf(StarPUException.class, e.getCause());
			assertTrue(cause.getMessage().contains("building an OpenCL program"), cause.getMessage());
			assertTrue(cause.getMessage().contains("undeclared"), "the compiler's log: " + cause.getMessage());
			// The data keeps its value, and the runtime goes on.
			StarPU.submitTask(addOnDevice(5), true, v);
			v.acquire();
			assertEquals(12, v.getValueAt(0));
			v.release();
		}
	}

	@Test
	void anUnknownKernelOrAnArgumentOfTheWrongSizeFailsTheLaunch() {
		startWithDevice();
		try (LongVectorHandle v = LongVectorHandle.register(3)) {
			TaskFailedException e = failure(opencl("unknown", call -> call.kernel(PROGRAM, "nope").launch(1), STARPU_RW),
					v);
			assertTrue(e.getCause().getMessage().contains("clCreateKernel(nope)"), e.getCause().getMessage());
			// `first` is an unsigned: a long does not fit.
			e = failure(opencl("wrong_size", call -> call.kernel(PROGRAM, "add").arg(call.getBuffer(0)).arg(0L).arg(3)
					.arg(1L).launch(3), STARPU_RW), v);
			assertTrue(e.getCause().getMessage().contains("clSetKernelArg(1)"), e.getCause().getMessage());
			e = failure(opencl("no_dims", call -> call.kernel(PROGRAM, "add").launch(), STARPU_RW), v);
			assertInstanceOf(InvalidArgumentException.class, e.getCause());
		}
	}

	@Test
	void anExceptionInRunOpenCLFailsTheTaskWithItAsTheCause() {
		startWithDevice();
		IllegalStateException boom = new IllegalStateException("boom");
		try (LongVectorHandle v = LongVectorHandle.register(3)) {
			TaskFailedException e = failure(opencl("thrower", call -> {
				throw boom;
			}, STARPU_RW), v);
			assertSame(boom, e.getCause());
			assertEquals("thrower", e.getTaskName());
		}
	}

	@Test
	void aCallIsValidDuringItsCodeletOnlyAndBuffersStayWithTheirCall() {
		startWithDevice();
		AtomicReference<OpenCLCall> kept = new AtomicReference<>();
		AtomicReference<Throwable> fromAnotherThread = new AtomicReference<>();
		try (LongVectorHandle v = LongVectorHandle.register(3); LongVectorHandle w = LongVectorHandle.register(3)) {
			StarPU.submitTask(opencl("keeper", call -> {
				kept.set(call);
				Thread t = new Thread(() -> {
					try {
						call.getBuffer(0);
					} catch (Throwable x) {
						fromAnotherThread.set(x);
					}
				});
				t.start();
				try {
					t.join();
				} catch (InterruptedException x) {
					throw new IllegalStateException(x);
				}
			}, STARPU_RW), true, v);
			assertInstanceOf(InvalidArgumentException.class, fromAnotherThread.get());
			InvalidArgumentException e = assertThrows(InvalidArgumentException.class, () -> kept.get().getBuffer(0));
			assertTrue(e.getMessage().contains("over"), e.getMessage());
			assertThrows(InvalidArgumentException.class, () -> kept.get().getDeviceId());
			// A buffer of one call given to the kernel of another.
			DeviceBuffer[] first = new DeviceBuffer[1];
			StarPU.submitTask(opencl("first", call -> first[0] = call.getBuffer(0), STARPU_RW), true, v);
			TaskFailedException f = failure(
					opencl("second", call -> call.kernel(PROGRAM, "add").arg(first[0]), STARPU_RW), w);
			assertInstanceOf(IllegalArgumentException.class, f.getCause());
			f = failure(opencl("outside", call -> call.getBuffer(1), STARPU_RW), w);
			assertInstanceOf(IndexOutOfBoundsException.class, f.getCause());
		}
	}

	@Test
	void aVectorOfJavaObjectsHasNoDeviceForm() {
		startWithDevice();
		try (VectorHandle<String> v = VectorHandle.register(2)) {
			TaskFailedException e = failure(opencl("objects", call -> call.getBuffer(0), STARPU_RW), v);
			assertInstanceOf(IllegalArgumentException.class, e.getCause());
			assertTrue(e.getCause().getMessage().contains("Java objects"), e.getCause().getMessage());
		}
	}

	@Test
	void aProgramFileIsFoundWithTheHeaderBesideIt(@TempDir Path dir) throws IOException {
		Files.writeString(dir.resolve("inc.h"), "#define INCREMENT 40\n");
		Files.writeString(dir.resolve("inc.cl"), String.join("\n", "#include \"inc.h\"",
				"__kernel void inc(__global long *v, unsigned first) { v[first] += INCREMENT; }"));
		InvalidArgumentException missing = assertThrows(InvalidArgumentException.class,
				() -> Program.fromFile(dir.resolve("missing.cl").toString()));
		assertTrue(missing.getMessage().contains("missing.cl"), missing.getMessage());
		Program p = Program.fromFile(dir.resolve("inc.cl").toString());
		startWithDevice();
		try (LongVectorHandle v = LongVectorHandle.register(1)) {
			v.setValueAt(0, 2);
			StarPU.submitTask(opencl("inc", call -> {
				DeviceBuffer b = call.getBuffer(0);
				call.kernel(p, "inc").arg(b).arg((int) b.getFirst()).launch(1);
			}, STARPU_RW), true, v);
			v.acquire();
			assertEquals(42, v.getValueAt(0));
			v.release();
		}
	}

	@Test
	void anOpenCLOnlyCodeletWithoutADeviceIsRefusedAtSubmission() {
		start(0);
		assertEquals(0, StarPU.workerCount(WorkerType.OPENCL));
		try (LongVectorHandle v = LongVectorHandle.register(3)) {
			NoDeviceException e = assertThrows(NoDeviceException.class,
					() -> StarPU.submitTask(addOnDevice(1), false, v));
			assertTrue(e.getMessage().contains("add"), e.getMessage());
			// A codelet with both implementations runs on the CPU.
			AtomicInteger onCpu = new AtomicInteger();
			StarPU.submitTask(both(b -> onCpu.incrementAndGet(), call -> {
				throw new AssertionError("there is no OpenCL worker");
			}), true, v);
			assertEquals(1, onCpu.get());
		}
	}
}
