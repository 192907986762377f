package fr.labri.hpccloud.starpu.data;

import fr.labri.hpccloud.starpu.Codelet;
import fr.labri.hpccloud.starpu.InvalidArgumentException;
import fr.labri.hpccloud.starpu.RuntimeFixture;
import fr.labri.hpccloud.starpu.StarPU;
import org.junit.jupiter.api.Test;

import java.util.List;

import static fr.labri.hpccloud.starpu.data.DataHandle.AccessMode.STARPU_R;
import static fr.labri.hpccloud.starpu.data.DataHandle.AccessMode.STARPU_RW;
import static fr.labri.hpccloud.starpu.data.DataHandle.AccessMode.STARPU_W;
import static fr.labri.hpccloud.starpu.RuntimeFixture.codelet;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Partition plans, matrices, data without a home buffer, invalidation, consistency flags. */
class PartitionsTest extends RuntimeFixture {
	/** Adds {@code k} to every element of a long vector or matrix. */
	static Codelet add(long k) {
		return codelet(null, new DataHandle.AccessMode[] { STARPU_RW }, b -> {
			if (b[0] instanceof LongMatrixHandle) {
				LongMatrixHandle m = (LongMatrixHandle) b[0];
				for (int y = 0; y < m.getNy(); y++) {
					for (int x = 0; x < m.getNx(); x++) {
						m.setValueAt(x, y, m.getValueAt(x, y) + k);
					}
				}
			} else {
				LongVectorHandle v = (LongVectorHandle) b[0];
				for (int i = 0; i < v.getSize(); i++) {
					v.setValueAt(i, v.getValueAt(i) + k);
				}
			}
		});
	}

	static long[] values(LongVectorHandle v) {
		v.acquire(STARPU_R);
		long[] out = new long[v.getSize()];
		v.asBuffer().get(out);
		v.release();
		return out;
	}

	@Test
	void aPlanSwitchesBetweenTheWholeDataAndItsPiecesInTaskOrder() {
		try (LongVectorHandle v = LongVectorHandle.register(6)) {
			PartitionPlan halves = v.partitionPlan(Filter.vectorBlock(2));
			PartitionPlan thirds = v.partitionPlan(Filter.vectorBlock(3));
			assertEquals(2, v.getNbPlans());
			assertEquals(0, v.getNbChildren(), "a plan does not partition the data by itself");
			StarPU.submitTask(add(1), false, v);
			halves.partitionSubmit();
			StarPU.submitTask(add(10), false, halves.getChild(1));
			halves.unpartitionSubmit();
			// A task on a piece of the other plan switches to it by itself.
			StarPU.submitTask(add(100), false, thirds.getChild(0));
			StarPU.submitTask(add(1000), false, v);
			assertArrayEquals(new long[] { 1101, 1101, 1001, 1011, 1011, 1011 }, values(v));
			assertEquals(3, thirds.getNbChildren());
			assertEquals(2, ((LongVectorHandle) thirds.getChild(2)).getSize());
			halves.clean();
			thirds.clean();
			assertEquals(0, v.getNbPlans());
		}
	}

	@Test
	void readOnlyPlansLetTheWholeAndThePiecesBeReadTogether() {
		try (LongVectorHandle v = LongVectorHandle.register(4); LongVariableHandle sum = LongVariableHandle.register()) {
			for (int i = 0; i < 4; i++) {
				v.setValueAt(i, i + 1);
			}
			PartitionPlan p = v.partitionPlan(Filter.vectorBlock(2));
			p.partitionReadonlySubmit();
			Codelet total = codelet(null, new DataHandle.AccessMode[] { STARPU_R, STARPU_R, STARPU_W }, b -> {
				long s = 0;
				for (int k = 0; k < 2; k++) {
					LongVectorHandle h = (LongVectorHandle) b[k];
					for (int i = 0; i < h.getSize(); i++) {
						s += h.getValueAt(i);
					}
				}
				((LongVariableHandle) b[2]).setValue(s);
			});
			StarPU.submitTask(total, true, p.getChild(0), v, sum);
			assertEquals(3 + 10, sum.getValue());
			p.partitionReadwriteUpgradeSubmit();
			StarPU.submitTask(add(5), false, p.getChild(1));
			p.unpartitionSubmit();
			assertArrayEquals(new long[] { 1, 2, 8, 9 }, values(v));
			p.clean();
		}
	}

	@Test
	void aSecondActivePlanIsRefused() {
		try (LongVectorHandle v = LongVectorHandle.register(4)) {
			PartitionPlan a = v.partitionPlan(Filter.vectorBlock(2));
			PartitionPlan b = v.partitionPlan(Filter.vectorBlock(4));
			a.partitionSubmit();
			assertThrows(InvalidArgumentException.class, b::partitionSubmit);
			a.clean();
			b.clean();
		}
	}

	@Test
	void matricesArePartitionedIntoBlocksWithTheirParentsLd() {
		try (LongMatrixHandle m = LongMatrixHandle.register(4, 3)) {
			for (int y = 0; y < 3; y++) {
				for (int x = 0; x < 4; x++) {
					m.setValueAt(x, y, 10 * y + x);
				}
			}
			m.partition(Filter.matrixBlock(2));
			assertEquals(2, m.getNbChildren());
			LongMatrixHandle right = (LongMatrixHandle) m.getSubData(1);
			assertEquals(2, right.getNx());
			assertEquals(3, right.getNy());
			assertEquals(4, right.getLd());
			assertEquals(12, right.getValueAt(0, 1));
			StarPU.submitTask(add(100), false, right);
			m.unpartition();
			assertFalse(right.isRegistered(), "a piece of an undone partition is not registered");
			m.partition(Filter.matrixVerticalBlock(3));
			LongMatrixHandle last = (LongMatrixHandle) m.getSubData(2);
			assertEquals(4, last.getNx());
			assertEquals(1, last.getNy());
			m.unpartition();
			m.acquire();
			assertEquals(1, m.getValueAt(1, 0));
			assertEquals(102, m.getValueAt(2, 0));
			assertEquals(122, m.getValueAt(2, 2));
			assertEquals(21, m.getValueAt(1, 2));
			m.release();
		}
	}

	@Test
	void dataWithoutAHomeIsReadableWhileAcquired() {
		LongVectorHandle lazy = LongVectorHandle.registerLazy(3);
		assertThrows(InvalidArgumentException.class, () -> lazy.getValueAt(0));
		StarPU.submitTask(codelet(null, new DataHandle.AccessMode[] { STARPU_W }, b -> {
			LongVectorHandle v = (LongVectorHandle) b[0];
			for (int i = 0; i < v.getSize(); i++) {
				v.setValueAt(i, 7 * i);
			}
		}), false, lazy);
		StarPU.submitTask(add(1), false, lazy);
		assertArrayEquals(new long[] { 1, 8, 15 }, values(lazy));
		assertThrows(InvalidArgumentException.class, () -> lazy.getValueAt(0));
		LongVariableHandle one = LongVariableHandle.registerLazy();
		StarPU.submitTask(codelet(null, new DataHandle.AccessMode[] { STARPU_W }, b -> ((LongVariableHandle) b[0]).setValue(42)),
				false, one);
		one.acquire();
		assertEquals(42, one.getValue());
		one.release();
		one.unregister();
		lazy.unregister();
	}

	@Test
	void invalidationAndUnregistrationWithoutCoherency() {
		LongVectorHandle v = LongVectorHandle.register(2);
		v.setValueAt(0, 5);
		v.invalidate();
		// The next task must write it; the value it writes is the data's.
		StarPU.submitTask(codelet(null, new DataHandle.AccessMode[] { STARPU_W }, b -> ((LongVectorHandle) b[0]).setValueAt(1, 9)),
				false, v);
		assertEquals(9, values(v)[1]);
		v.unregisterNoCoherency();
		assertFalse(v.isRegistered());
	}

	@Test
	void withoutSequentialConsistencyTasksAreNotOrderedByTheirData() {
		try (LongVariableHandle x = LongVariableHandle.register()) {
			x.setSequentialConsistency(false);
			// Only the declared dependency orders them now.
			List<Long> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
			fr.labri.hpccloud.starpu.Task first = StarPU.task(codelet(null, new DataHandle.AccessMode[] { STARPU_RW },
					b -> ((LongVariableHandle) b[0]).setValue(3))).handles(x);
			fr.labri.hpccloud.starpu.Task second = StarPU.task(codelet(null, new DataHandle.AccessMode[] { STARPU_R },
					b -> seen.add(((LongVariableHandle) b[0]).getValue()))).handles(x).after(first);
			second.submit();
			first.submit();
			StarPU.taskWaitForAll();
			assertEquals(List.of(3L), seen);
			assertTrue(x.isRegistered());
			assertThrows(InvalidArgumentException.class, () -> x.partitionPlan(Filter.vectorBlock(2)));
		}
	}
}
