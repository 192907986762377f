package fr.labri.hpccloud.starpu;

import fr.labri.hpccloud.starpu.data.DataHandle;
import fr.labri.hpccloud.starpu.data.LongVariableHandle;
import fr.labri.hpccloud.starpu.data.LongVectorHandle;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static fr.labri.hpccloud.starpu.RuntimeFixture.codelet;
import static fr.labri.hpccloud.starpu.data.DataHandle.AccessMode.STARPU_R;
import static fr.labri.hpccloud.starpu.data.DataHandle.AccessMode.STARPU_RW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ErrorsTest extends RuntimeFixture {
	static final DataHandle.AccessMode[] NONE = new DataHandle.AccessMode[0];

	@Test
	void everyKindHasItsOwnExceptionClassAndErrno() {
		for (ErrorKind k : ErrorKind.values()) {
			StarPUException e = StarPUException.of(k.coreName(), "m", null, null);
			assertEquals(k.coreName() + "Exception", e.getClass().getSimpleName());
			assertSame(k, e.getKind());
			assertEquals(k.errno(), e.getErrno());
			assertSame(k, ErrorKind.named(k.coreName()));
		}
		assertEquals(22, ErrorKind.INVALID_ARGUMENT.errno());
		assertEquals("EDEADLK", ErrorKind.DEADLOCK.errnoName());
		assertNull(new StarPUException("mine").getKind());
	}

	@Test
	void anExceptionInACodeletSurfacesAtTaskWaitForAllWithItsCause() throws StarPUException {
		IllegalStateException boom = new IllegalStateException("boom");
		StarPU.submitTask(codelet("thrower", NONE, b -> {
			throw boom;
		}), false);
		TaskFailedException e = assertThrows(TaskFailedException.class, StarPU::taskWaitForAll);
		assertSame(boom, e.getCause());
		assertEquals("thrower", e.getTaskName());
		assertEquals(125, e.getErrno());
		assertTrue(e.getMessage().contains("1 task failed"), e.getMessage());
		assertTrue(e.getMessage().contains("boom"), e.getMessage());
		assertTrue(e.getMessage().contains("thrower"), e.getMessage());
		// The runtime keeps running, and the failure was reported once.
		AtomicInteger ran = new AtomicInteger();
		StarPU.submitTask(codelet("after", NONE, b -> ran.incrementAndGet()), true);
		StarPU.taskWaitForAll();
		assertEquals(1, ran.get());
	}

	@Test
	void aSynchronousSubmissionThrowsTheCodeletsException() {
		ArithmeticException div = new ArithmeticException("/ by zero");
		TaskFailedException e = assertThrows(TaskFailedException.class, () -> StarPU.submitTask(codelet("div", NONE, b -> {
			throw div;
		}), true));
		assertSame(div, e.getCause());
		assertTrue(e.getMessage().contains("div"), e.getMessage());
	}

	@Test
	void waitForTasksThrowsTheFirstFailureAmongItsTasks() throws StarPUException {
		RuntimeException first = new RuntimeException("first");
		long ok = StarPU.submitTask_(codelet("ok", NONE, b -> { }));
		long bad = StarPU.submitTask_(codelet("bad", NONE, b -> {
			throw first;
		}));
		TaskFailedException e = assertThrows(TaskFailedException.class, () -> StarPU.waitForTasks(new long[] { ok, bad }));
		assertSame(first, e.getCause());
		assertEquals("bad", e.getTaskName());
	}

	@Test
	void waitingForATaskObjectThrowsWhatItsCodeletThrew() {
		Error err = new AssertionError("inside");
		Task t = StarPU.task(codelet("checker", NONE, b -> {
			throw err;
		})).name("named-task").detach(false);
		t.submit();
		TaskFailedException e = assertThrows(TaskFailedException.class, t::waitFor);
		assertSame(err, e.getCause());
		assertEquals("named-task", e.getTaskName());
		assertTrue(e.getMessage().contains("named-task"), e.getMessage());
	}

	@Test
	void aFailedFutureCarriesTheException() throws Exception {
		UnsupportedOperationException u = new UnsupportedOperationException("no");
		CompletableFuture<Void> f = StarPU.task(codelet("u", NONE, b -> {
			throw u;
		})).submitAsync();
		ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(30, TimeUnit.SECONDS));
		assertSame(u, e.getCause());
	}

	@Test
	void dependentsOfAFailedTaskStillRun() throws StarPUException {
		try (LongVariableHandle x = LongVariableHandle.register()) {
			StarPU.submitTask(codelet("fail", new DataHandle.AccessMode[] { STARPU_RW }, b -> {
				throw new RuntimeException("no");
			}), false, x);
			StarPU.submitTask(codelet("set", new DataHandle.AccessMode[] { STARPU_RW }, b -> ((LongVariableHandle) b[0]).setValue(7)), false, x);
			assertThrows(TaskFailedException.class, StarPU::taskWaitForAll);
			x.acquire();
			assertEquals(7, x.getValue());
			x.release();
		}
	}

	@Test
	void theWrongNumberOfHandlesIsAnInvalidArgument() throws StarPUException {
		try (LongVariableHandle x = LongVariableHandle.register()) {
			Codelet two = codelet("two", new DataHandle.AccessMode[] { STARPU_R, STARPU_RW }, b -> { });
			InvalidArgumentException e = assertThrows(InvalidArgumentException.class, () -> StarPU.submitTask(two, false, x));
			assertEquals(22, e.getErrno());
			assertTrue(e.getMessage().contains("declares 2 buffer(s) but the task has 1"), e.getMessage());
		}
	}

	@Test
	void aModeOtherThanTheCodeletsIsAnInvalidArgument() {
		try (LongVariableHandle x = LongVariableHandle.register()) {
			Codelet reads = codelet("reads", new DataHandle.AccessMode[] { STARPU_R }, b -> { });
			assertThrows(InvalidArgumentException.class, () -> StarPU.task(reads).buffer(x, STARPU_RW).submit());
		}
	}

	@Test
	void aClosedHandleIsRefused() throws StarPUException {
		LongVectorHandle v = LongVectorHandle.register(4);
		v.close();
		assertFalse(v.isRegistered());
		Codelet one = codelet("one", new DataHandle.AccessMode[] { STARPU_R }, b -> { });
		InvalidArgumentException e = assertThrows(InvalidArgumentException.class, () -> StarPU.submitTask(one, false, v));
		assertTrue(e.getMessage().contains("unregistered"), e.getMessage());
		assertThrows(InvalidArgumentException.class, v::acquire);
		v.close(); // closing twice is harmless
	}

	@Test
	void aNullHandleIsTheRuntimesNullHandle() {
		Codelet one = codelet("one", new DataHandle.AccessMode[] { STARPU_R }, b -> { });
		InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
				() -> StarPU.submitTask(one, false, (DataHandle) null));
		assertTrue(e.getMessage().contains("buffer 0: data handle is NULL"), e.getMessage());
	}

	@Test
	void acquiringInsideACodeletIsADeadlockErrorNotADeadlock() throws StarPUException {
		AtomicReference<RuntimeException> inside = new AtomicReference<>();
		try (LongVariableHandle x = LongVariableHandle.register(); LongVariableHandle y = LongVariableHandle.register()) {
			StarPU.submitTask(codelet("acq", new DataHandle.AccessMode[] { STARPU_RW }, b -> {
				try {
					y.acquire();
				} catch (RuntimeException e) {
					inside.set(e);
					throw e;
				}
			}), false, x);
			TaskFailedException e = assertThrows(TaskFailedException.class, StarPU::taskWaitForAll);
			DeadlockException d = assertInstanceOf(DeadlockException.class, e.getCause());
			assertSame(inside.get(), d);
			assertEquals(35, d.getErrno());
			assertTrue(d.getMessage().contains("not allowed from a task"), d.getMessage());
		}
	}

	@Test
	void anIdNoTaskEverHadIsNotFound() {
		NotFoundException e = assertThrows(NotFoundException.class, () -> StarPU.waitForTasks(new long[] { Long.MAX_VALUE }));
		assertEquals(2, e.getErrno());
	}

	@Test
	void aWaitWithATimeLimitRunsOut() throws Exception {
		CountDownLatch gate = new CountDownLatch(1);
		Task t = StarPU.task(codelet("blocked", NONE, b -> {
			try {
				gate.await();
			} catch (InterruptedException e) {
				Thread.currentThread().interrupt();
			}
		})).detach(false);
		t.submit();
		TimeoutException e = assertThrows(TimeoutException.class, () -> t.waitFor(20, TimeUnit.MILLISECONDS));
		assertEquals(110, e.getErrno());
		gate.countDown();
		t.waitFor(30, TimeUnit.SECONDS);
	}

	@Test
	void callsOutsideInitAreNotInitialized() throws StarPUException {
		StarPU.shutdown();
		NotInitializedException e = assertThrows(NotInitializedException.class,
				() -> StarPU.submitTask(codelet("x", NONE, b -> { }), false));
		assertTrue(e.getMessage().contains("not running"), e.getMessage());
		assertEquals(19, e.getErrno());
		assertThrows(NotInitializedException.class, StarPU::taskWaitForAll);
		assertThrows(NotInitializedException.class, () -> LongVectorHandle.register(3));
		assertThrows(NotInitializedException.class, StarPU::shutdown);
	}
}
