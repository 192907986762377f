package fr.labri.hpccloud.starpu;

import fr.labri.hpccloud.starpu.data.DataHandle;
import fr.labri.hpccloud.starpu.data.IntegerVariableHandle;
import fr.labri.hpccloud.starpu.data.LongVariableHandle;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static fr.labri.hpccloud.starpu.data.DataHandle.AccessMode.STARPU_R;
import static fr.labri.hpccloud.starpu.data.DataHandle.AccessMode.STARPU_RW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StarPUTest extends RuntimeFixture {
	@Test
	void aSynchronousTaskSeesItsHandles() throws StarPUException {
		IntegerVariableHandle a = IntegerVariableHandle.register();
		IntegerVariableHandle b = IntegerVariableHandle.register();
		a.setValue(423);
		b.setValue(324);
		List<Integer> seen = Collections.synchronizedList(new ArrayList<>());
		StarPU.submitTask(codelet("read two", new DataHandle.AccessMode[] { STARPU_R, STARPU_R }, bufs -> {
			for (DataHandle h : bufs) {
				seen.add(((IntegerVariableHandle) h).getValue());
			}
		}), true, a, b);
		assertEquals(List.of(423, 324), seen);
		a.unregister();
		b.unregister();
	}

	@Test
	void taskWaitForAllWaitsForEveryTask() throws StarPUException {
		AtomicInteger ran = new AtomicInteger();
		for (int i = 0; i < 100; i++) {
			StarPU.submitTask(codelet("count", new DataHandle.AccessMode[0], bufs -> ran.incrementAndGet()), false);
		}
		StarPU.taskWaitForAll();
		assertEquals(100, ran.get());
	}

	@Test
	void tasksOnOneHandleRunInSubmissionOrder() throws StarPUException {
		try (LongVariableHandle x = LongVariableHandle.register()) {
			x.setValue(1);
			for (int i = 0; i < 20; i++) {
				long k = i;
				// x = 3x + k: the result depends on the order.
				StarPU.submitTask(codelet("affine", new DataHandle.AccessMode[] { STARPU_RW },
						bufs -> ((LongVariableHandle) bufs[0]).setValue(3 * ((LongVariableHandle) bufs[0]).getValue() + k)), false, x);
			}
			x.acquire();
			long expected = 1;
			for (int i = 0; i < 20; i++) {
				expected = 3 * expected + i;
			}
			assertEquals(expected, x.getValue());
			x.release();
		}
	}

	@Test
	void codeletsRunOnTheRuntimeWorkersInParallel() throws StarPUException {
		assertEquals(2, StarPU.workerCount());
		CountDownLatch both = new CountDownLatch(2);
		Set<String> threads = ConcurrentHashMap.newKeySet();
		AtomicInteger met = new AtomicInteger();
		for (int i = 0; i < 2; i++) {
			StarPU.submitTask(codelet("meet", new DataHandle.AccessMode[0], bufs -> {
				threads.add(Thread.currentThread().getName());
				both.countDown();
				try {
					if (both.await(30, TimeUnit.SECONDS)) {
						met.incrementAndGet();
					}
				} catch (InterruptedException e) {
					Thread.currentThread().interrupt();
				}
			}), false);
		}
		StarPU.taskWaitForAll();
		assertEquals(2, met.get(), "the two tasks ran at the same time");
		assertEquals(2, threads.size());
		assertTrue(threads.stream().allMatch(t -> t.startsWith("starpu-cpu-")), threads.toString());
	}

	@Test
	void waitForTasksWaitsForTheTasksNamed() throws StarPUException {
		try (LongVariableHandle x = LongVariableHandle.register()) {
			long[] ids = new long[10];
			for (int i = 0; i < ids.length; i++) {
				ids[i] = StarPU.submitTask_(codelet("inc", new DataHandle.AccessMode[] { STARPU_RW },
						bufs -> ((LongVariableHandle) bufs[0]).setValue(((LongVariableHandle) bufs[0]).getValue() + 1)), x);
			}
			StarPU.waitForTasks(ids);
			x.acquire();
			assertEquals(10, x.getValue());
			x.release();
		}
	}

	@Test
	void futuresCompleteWhenTheTaskIsOver() throws Exception {
		AtomicInteger ran = new AtomicInteger();
		StarPU.task(codelet("f", new DataHandle.AccessMode[0], b -> ran.incrementAndGet())).submitAsync().get(30, TimeUnit.SECONDS);
		assertEquals(1, ran.get());
	}

	@Test
	void prioritiesNamesAndCallbacksAreAccepted() throws StarPUException {
		AtomicInteger calls = new AtomicInteger();
		StarPU.task(codelet("p", new DataHandle.AccessMode[0], b -> { })).priority(3).name("named").callback(calls::incrementAndGet)
				.synchronous(true).submit();
		assertEquals(1, calls.get());
	}
}
