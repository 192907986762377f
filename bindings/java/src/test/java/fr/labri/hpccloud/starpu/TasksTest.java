package fr.labri.hpccloud.starpu;

import fr.labri.hpccloud.starpu.data.DataHandle;
import fr.labri.hpccloud.starpu.data.LongVariableHandle;
import fr.labri.hpccloud.starpu.data.LongVectorHandle;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static fr.labri.hpccloud.starpu.RuntimeFixture.codelet;
import static fr.labri.hpccloud.starpu.data.DataHandle.AccessMode.STARPU_COMMUTE;
import static fr.labri.hpccloud.starpu.data.DataHandle.AccessMode.STARPU_RW;
import static fr.labri.hpccloud.starpu.data.DataHandle.AccessMode.STARPU_W;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Task objects, dependencies, tags, waits, COMMUTE, contexts, transactions, SPMD codelets. */
class TasksTest extends RuntimeFixture {
	static final DataHandle.AccessMode[] NONE = new DataHandle.AccessMode[0];
	static final DataHandle.AccessMode[] VARIABLE = null;

	/** A codelet adding {@code k} to its one buffer (a long variable), in the task's mode. */
	static Codelet add(long k) {
		return codelet("add", VARIABLE, b -> {
			LongVariableHandle x = (LongVariableHandle) b[0];
			x.setValue(x.getValue() + k);
		});
	}

	static Codelet record(List<String> order, String name) {
		return codelet(name, NONE, b -> order.add(name));
	}

	static void await(CountDownLatch l) {
		try {
			l.await();
		} catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}

	@Test
	void declaredDependenciesOrderTasksSubmittedInReverse() {
		List<String> order = Collections.synchronizedList(new ArrayList<>());
		Task a = StarPU.task(record(order, "a"));
		Task b = StarPU.task(record(order, "b")).after(a);
		Task c = StarPU.task(record(order, "c")).after(b);
		c.submit();
		b.submit();
		assertTrue(order.isEmpty(), "tasks started before their dependency was submitted: " + order);
		a.submit();
		StarPU.taskWaitForAll();
		assertEquals(List.of("a", "b", "c"), order);
	}

	@Test
	void aTaskCannotDependOnItselfNorGainDependenciesOnceSubmitted() {
		Task a = StarPU.task(codelet("a", NONE, b -> { }));
		assertThrows(InvalidArgumentException.class, () -> a.after(a));
		a.submit();
		assertThrows(InvalidArgumentException.class, () -> a.after(StarPU.task(codelet("b", NONE, b -> { }))));
	}

	@Test
	void endDependenciesHoldTheSuccessorsOfATask() {
		CountDownLatch release = new CountDownLatch(1);
		AtomicBoolean slowDone = new AtomicBoolean();
		AtomicBoolean sawSlowDone = new AtomicBoolean();
		Task slow = StarPU.task(codelet("slow", NONE, b -> {
			await(release);
			slowDone.set(true);
		}));
		Task quick = StarPU.task(codelet("quick", NONE, b -> { })).detach(false).endAfter(slow);
		Task next = StarPU.task(codelet("next", NONE, b -> sawSlowDone.set(slowDone.get()))).after(quick);
		next.submit();
		quick.submit();
		slow.submit();
		release.countDown();
		quick.waitFor();
		StarPU.taskWaitForAll();
		assertTrue(sawSlowDone.get(), "the successor of quick ran before slow ended");
	}

	@Test
	void tagsChainTasksAndTheApplicationNotifiesThem() {
		List<String> order = Collections.synchronizedList(new ArrayList<>());
		// Tag 8 follows tag 9, which follows tag 7; the application notifies 7.
		StarPU.tagDeclareDeps(8, 9);
		StarPU.tagDeclareDeps(9, 7);
		StarPU.task(record(order, "second")).tag(8).submit();
		StarPU.task(record(order, "first")).tag(9).submit();
		assertTrue(order.isEmpty(), "tasks ran before tag 7 was notified: " + order);
		StarPU.tagNotifyFromApps(7);
		StarPU.tagWait(8, 9);
		assertEquals(List.of("first", "second"), order);
	}

	@Test
	void tasksKeptForWaitingAreWaitedForByObjectOrId() {
		try (LongVariableHandle x = LongVariableHandle.register()) {
			Task t = StarPU.task(add(5)).buffer(x, STARPU_RW).detach(false);
			long id = t.submit();
			assertEquals(id, t.getId());
			StarPU.waitForTasks(new long[] { id });
			t.waitFor();
			assertEquals(5, x.getValue());
			Task detached = StarPU.task(add(1)).buffer(x, STARPU_RW);
			detached.submit();
			assertThrows(InvalidArgumentException.class, detached::waitFor);
			assertThrows(InvalidArgumentException.class, StarPU.task(add(1))::waitFor);
		}
	}

	@Test
	void commuteAccessesRunOneAtATimeInAnyOrder() {
		try (LongVariableHandle x = LongVariableHandle.register()) {
			DataHandle.AccessMode rwc = STARPU_RW.with(STARPU_COMMUTE);
			assertEquals(3 | 16, rwc.bits());
			assertEquals("STARPU_RW|STARPU_COMMUTE", rwc.name());
			for (int i = 1; i <= 100; i++) {
				StarPU.task(add(i)).buffer(x, rwc).submit();
			}
			// A writer after the commuting group sees all of it.
			StarPU.task(codelet("double", new DataHandle.AccessMode[] { STARPU_RW }, b -> {
				LongVariableHandle v = (LongVariableHandle) b[0];
				v.setValue(2 * v.getValue());
			})).handles(x).submit();
			x.acquire();
			assertEquals(2 * 5050, x.getValue());
			x.release();
		}
	}

	@Test
	void aContextsTasksRunOnItsWorkers() {
		SchedContext solo = StarPU.createContext("solo", "eager", 1);
		SchedContext.GLOBAL.removeWorkers(1);
		List<Integer> where = Collections.synchronizedList(new ArrayList<>());
		for (int i = 0; i < 6; i++) {
			StarPU.task(codelet("where", NONE, b -> where.add(StarPU.workerId()))).context(solo).submit();
		}
		StarPU.taskWaitForAll();
		assertEquals(Collections.nCopies(6, 1), where);
		SchedContext.GLOBAL.addWorkers(1);
		solo.delete();
		assertThrows(InvalidArgumentException.class,
				() -> StarPU.task(codelet("late", NONE, b -> { })).context(solo).submit());
	}

	@Test
	void aTransactionRunsTheTasksOfConfirmedEpochsOnly() {
		try (LongVariableHandle x = LongVariableHandle.register()) {
			Transaction trs = StarPU.transactionOpen(() -> true);
			for (int i = 0; i < 3; i++) {
				StarPU.task(add(1)).buffer(x, STARPU_RW).transaction(trs).submit();
			}
			trs.nextEpoch(() -> false);
			StarPU.task(add(10)).buffer(x, STARPU_RW).transaction(trs).submit();
			trs.nextEpoch(() -> true);
			StarPU.task(add(100)).buffer(x, STARPU_RW).transaction(trs).submit();
			trs.close();
			assertThrows(InvalidArgumentException.class, () -> trs.nextEpoch(() -> true));
			StarPU.taskWaitForAll();
			x.acquire();
			assertEquals(103, x.getValue());
			x.release();
		}
	}

	@Test
	void spmdCodeletsRunOnEveryWorkerOfTheirTeam() {
		StarPU.shutdown();
		StarPU.init(Map.of("STARPU_SCHED", "peager"));
		try (LongVectorHandle v = LongVectorHandle.register(5)) {
			Codelet team = new Codelet() {
				@Override
				public void run(DataHandle[] b) {
					LongVectorHandle out = (LongVectorHandle) b[0];
					int s = StarPU.combinedWorkerSize(), r = StarPU.combinedWorkerRank();
					for (int i = r; i < out.getSize(); i += s) {
						out.setValueAt(i, 10L * s + r);
					}
				}

				@Override
				public DataHandle.AccessMode[] getAccessModes() {
					return new DataHandle.AccessMode[] { STARPU_W };
				}

				@Override
				public CodeletType getType() {
					return CodeletType.SPMD;
				}
			};
			StarPU.submitTask(team, true, v);
			v.acquire();
			long[] got = new long[5];
			v.asBuffer().get(got);
			v.release();
			assertTrue(java.util.Arrays.equals(new long[] { 20, 21, 20, 21, 20 }, got), java.util.Arrays.toString(got));
		}
		// Outside kernels: no worker, a team of one.
		assertEquals(-1, StarPU.workerId());
		assertEquals(1, StarPU.combinedWorkerSize());
		assertEquals(0, StarPU.combinedWorkerRank());
	}

	@Test
	void aWaitOnATaskThatEndsInTimeReturns() {
		Task t = StarPU.task(codelet("quick", NONE, b -> { })).detach(false);
		t.submit();
		t.waitFor(30, TimeUnit.SECONDS);
	}
}
