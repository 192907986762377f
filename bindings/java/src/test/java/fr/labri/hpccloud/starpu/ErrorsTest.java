package fr.labri.hpccloud.starpu;

import fr.labri.hpccloud.starpu.data.DataHandle;
import fr.labri.hpccloud.starpu.data.LongVariableHandle;
import fr.labri.hpccloud.starpu.data.LongVectorHandle;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static fr.labri.hpccloud.starpu.StarPUTest.of;
import static fr.labri.hpccloud.starpu.data.DataHandle.AccessMode.STARPU_R;
import static fr.labri.hpccloud.starpu.data.DataHandle.AccessMode.STARPU_RW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ErrorsTest extends RuntimeFixture {
	static final DataHandle.AccessMode[] NONE = new DataHandle.AccessMode[0];

	@Test
	void anExceptionInACodeletSurfacesAtTaskWaitForAllWithItsCause() throws StarPUException {
		IllegalStateException boom = new IllegalStateException("boom");
		StarPU.submitTask(of("thrower", NONE, b -> {
			throw boom;
		}), false);
		StarPUException e = assertThrows(StarPUException.class, StarPU::taskWaitForAll);
		assertSame(boom, e.getCause());
		assertTrue(e.getMessage().contains("1 task failed"), e.getMessage());
		assertTrue(e.getMessage().contains("boom"), e.getMessage());
		// The runtime keeps running, and the failure was reported once.
		AtomicInteger ran = new AtomicInteger();
		StarPU.submitTask(of("after", NONE, b -> ran.incrementAndGet()), true);
		StarPU.taskWaitForAll();
		assertEquals(1, ran.get());
	}

	@Test
	void aSynchronousSubmissionThrowsTheCodeletsException() {
		ArithmeticException div = new ArithmeticException("/ by zero");
		StarPUException e = assertThrows(StarPUException.class, () -> StarPU.submitTask(of("div", NONE, b -> {
			throw div;
		}), true));
		assertSame(div, e.getCause());
	}

	@Test
	void waitForTasksThrowsTheFirstFailureAmongItsTasks() throws StarPUException {
		RuntimeException first = new RuntimeException("first");
		long ok = StarPU.submitTask_(of("ok", NONE, b -> { }));
		long bad = StarPU.submitTask_(of("bad", NONE, b -> {
			throw first;
		}));
		StarPUException e = assertThrows(StarPUException.class, () -> StarPU.waitForTasks(new long[] { ok, bad }));
		assertSame(first, e.getCause());
	}

	@Test
	void aFailedFutureCarriesTheException() throws Exception {
		UnsupportedOperationException u = new UnsupportedOperationException("no");
		CompletableFuture<Void> f = StarPU.task(of("u", NONE, b -> {
			throw u;
		})).submitAsync();
		ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(30, TimeUnit.SECONDS));
		assertSame(u, e.getCause());
	}

	@Test
	void dependentsOfAFailedTaskStillRun() throws StarPUException {
		try (LongVariableHandle x = LongVariableHandle.register()) {
			StarPU.submitTask(of("fail", new DataHandle.AccessMode[] { STARPU_RW }, b -> {
				throw new RuntimeException("no");
			}), false, x);
			StarPU.submitTask(of("set", new DataHandle.AccessMode[] { STARPU_RW }, b -> ((LongVariableHandle) b[0]).setValue(7)), false, x);
			assertThrows(StarPUException.class, StarPU::taskWaitForAll);
			x.acquire();
			assertEquals(7, x.getValue());
			x.release();
		}
	}

	@Test
	void theWrongNumberOfHandlesIsRefused() throws StarPUException {
		try (LongVariableHandle x = LongVariableHandle.register()) {
			Codelet two = of("two", new DataHandle.AccessMode[] { STARPU_R, STARPU_RW }, b -> { });
			StarPUException e = assertThrows(StarPUException.class, () -> StarPU.submitTask(two, false, x));
			assertTrue(e.getMessage().contains("declares 2 buffer(s) but the task has 1"), e.getMessage());
		}
	}

	@Test
	void aClosedHandleIsRefused() throws StarPUException {
		LongVectorHandle v = LongVectorHandle.register(4);
		v.close();
		assertFalse(v.isRegistered());
		Codelet one = of("one", new DataHandle.AccessMode[] { STARPU_R }, b -> { });
		StarPUException e = assertThrows(StarPUException.class, () -> StarPU.submitTask(one, false, v));
		assertTrue(e.getMessage().contains("not registered"), e.getMessage());
		assertThrows(IllegalStateException.class, v::acquire);
		v.close(); // closing twice is harmless
	}

	@Test
	void aNullHandleIsRefused() {
		Codelet one = of("one", new DataHandle.AccessMode[] { STARPU_R }, b -> { });
		StarPUException e = assertThrows(StarPUException.class, () -> StarPU.submitTask(one, false, (DataHandle) null));
		assertTrue(e.getMessage().contains("null"), e.getMessage());
	}

	@Test
	void acquiringInsideACodeletIsRefusedNotADeadlock() throws StarPUException {
		try (LongVariableHandle x = LongVariableHandle.register(); LongVariableHandle y = LongVariableHandle.register()) {
			StarPU.submitTask(of("acq", new DataHandle.AccessMode[] { STARPU_RW }, b -> y.acquire()), false, x);
			StarPUException e = assertThrows(StarPUException.class, StarPU::taskWaitForAll);
			assertTrue(e.getCause() instanceof IllegalStateException, String.valueOf(e.getCause()));
			assertTrue(e.getCause().getMessage().contains("not allowed from a task"), e.getCause().getMessage());
		}
	}

	@Test
	void callsOutsideInitAreRefusedClearly() throws StarPUException {
		StarPU.shutdown();
		StarPUException e = assertThrows(StarPUException.class,
				() -> StarPU.submitTask(of("x", NONE, b -> { }), false));
		assertTrue(e.getMessage().contains("not running"), e.getMessage());
		assertThrows(StarPUException.class, StarPU::taskWaitForAll);
		assertThrows(IllegalStateException.class, () -> LongVectorHandle.register(3));
		assertThrows(StarPUException.class, StarPU::shutdown);
	}
}
