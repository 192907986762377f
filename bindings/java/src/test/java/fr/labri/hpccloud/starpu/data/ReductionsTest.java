package fr.labri.hpccloud.starpu.data;

import fr.labri.hpccloud.starpu.Codelet;
import fr.labri.hpccloud.starpu.RuntimeFixture;
import fr.labri.hpccloud.starpu.StarPU;
import fr.labri.hpccloud.starpu.StarPUException;
import fr.labri.hpccloud.starpu.TaskFailedException;
import org.junit.jupiter.api.Test;

import java.util.Collections;
import java.util.HashSet;
import java.util.Set;

import static fr.labri.hpccloud.starpu.data.DataHandle.AccessMode.STARPU_R;
import static fr.labri.hpccloud.starpu.data.DataHandle.AccessMode.STARPU_REDUX;
import static fr.labri.hpccloud.starpu.data.DataHandle.AccessMode.STARPU_RW;
import static fr.labri.hpccloud.starpu.data.DataHandle.AccessMode.STARPU_SCRATCH;
import static fr.labri.hpccloud.starpu.data.DataHandle.AccessMode.STARPU_W;
import static fr.labri.hpccloud.starpu.RuntimeFixture.codelet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** STARPU_REDUX with Java reduction codelets, and STARPU_SCRATCH buffers. */
class ReductionsTest extends RuntimeFixture {
	static final Codelet SUM = codelet(null, new DataHandle.AccessMode[] { STARPU_RW, STARPU_R }, b -> {
		LongVariableHandle dst = (LongVariableHandle) b[0];
		dst.setValue(dst.getValue() + ((LongVariableHandle) b[1]).getValue());
	});
	static final Codelet ZERO = codelet(null, new DataHandle.AccessMode[] { STARPU_W },
			b -> ((LongVariableHandle) b[0]).setValue(0));

	@Test
	void reduxTasksAddToContributionsThatAreFoldedIntoTheData() throws StarPUException {
		LongVariableHandle total = LongVariableHandle.register();
		total.setValue(1000);
		total.setReductionMethods(SUM, ZERO);
		Set<Object> seen = Collections.synchronizedSet(new HashSet<>());
		for (int i = 1; i <= 200; i++) {
			final long add = i;
			StarPU.submitTask(codelet(null, new DataHandle.AccessMode[] { STARPU_REDUX }, b -> {
				// The task works on its worker's contribution, not on the registered variable.
				seen.add(b[0]);
				LongVariableHandle c = (LongVariableHandle) b[0];
				c.setValue(c.getValue() + add);
			}), false, total);
		}
		StarPU.taskWaitForAll();
		total.acquire();
		assertEquals(1000 + 200 * 201 / 2, total.getValue());
		total.release();
		assertTrue(!seen.contains(total), "REDUX tasks were given the registered handle itself");
		// A second group starts from the reduced value.
		for (int i = 0; i < 10; i++) {
			StarPU.submitTask(codelet(null, new DataHandle.AccessMode[] { STARPU_REDUX }, b -> {
				LongVariableHandle c = (LongVariableHandle) b[0];
				c.setValue(c.getValue() + 1);
			}), false, total);
		}
		total.unregister();
		assertEquals(1000 + 200 * 201 / 2 + 10, total.getValue());
	}

	@Test
	void aThrowingReductionCodeletFailsTheWait() throws StarPUException {
		LongVariableHandle total = LongVariableHandle.register();
		Codelet broken = codelet(null, new DataHandle.AccessMode[] { STARPU_RW, STARPU_R }, b -> {
			throw new IllegalStateException("no folding today");
		});
		total.setReductionMethods(broken, ZERO);
		for (int i = 0; i < 8; i++) {
			StarPU.submitTask(codelet(null, new DataHandle.AccessMode[] { STARPU_REDUX }, b -> {
				LongVariableHandle c = (LongVariableHandle) b[0];
				c.setValue(c.getValue() + 1);
			}), false, total);
		}
		StarPU.submitTask(codelet(null, new DataHandle.AccessMode[] { STARPU_R }, b -> {
		}), false, total);
		StarPUException e = assertThrows(StarPUException.class, StarPU::taskWaitForAll);
		assertTrue(e instanceof TaskFailedException && e.getCause() instanceof IllegalStateException, "cause: " + e.getCause());
		assertEquals("no folding today", e.getCause().getMessage());
		total.unregister();
	}

	@Test
	void handlesWithoutViewsRefuseReductionMethods() {
		VectorHandle<String> words = VectorHandle.register(2);
		assertThrows(UnsupportedOperationException.class, () -> words.setReductionMethods(SUM, ZERO));
		words.unregister();
	}

	@Test
	void scratchBuffersAreTheTasksOwnNotTheRegisteredData() throws StarPUException {
		DoubleVectorHandle input = DoubleVectorHandle.register(4);
		DoubleVectorHandle scratch = DoubleVectorHandle.register(4);
		DoubleVectorHandle output = DoubleVectorHandle.register(4);
		for (int i = 0; i < 4; i++) {
			input.setValueAt(i, i + 1);
			scratch.setValueAt(i, -7);
		}
		StarPU.submitTask(codelet(null, new DataHandle.AccessMode[] { STARPU_R, STARPU_SCRATCH, STARPU_W }, b -> {
			DoubleVectorHandle in = (DoubleVectorHandle) b[0];
			DoubleVectorHandle tmp = (DoubleVectorHandle) b[1];
			DoubleVectorHandle out = (DoubleVectorHandle) b[2];
			assertNotSame(scratch, tmp);
			assertEquals(4, tmp.getSize());
			for (int i = 0; i < 4; i++) {
				tmp.setValueAt(i, in.getValueAt(i) * 10);
			}
			for (int i = 0; i < 4; i++) {
				out.setValueAt(i, tmp.getValueAt(3 - i));
			}
		}), true, input, scratch, output);
		output.acquire();
		for (int i = 0; i < 4; i++) {
			assertEquals((4 - i) * 10.0, output.getValueAt(i));
		}
		output.release();
		scratch.acquire();
		for (int i = 0; i < 4; i++) {
			assertEquals(-7.0, scratch.getValueAt(i), "a SCRATCH task wrote the registered data");
		}
		scratch.release();
		input.unregister();
		scratch.unregister();
		output.unregister();
	}

	@Test
	void aScratchVectorOfObjectsIsAFreshVectorOfTheTasksOwn() throws StarPUException {
		VectorHandle<Integer> scratch = VectorHandle.register(3);
		VectorHandle<Integer> out = VectorHandle.register(1);
		for (int i = 0; i < 3; i++) {
			scratch.setValueAt(i, -1);
		}
		StarPU.submitTask(codelet(null, new DataHandle.AccessMode[] { STARPU_SCRATCH, STARPU_W }, b -> {
			@SuppressWarnings("unchecked")
			VectorHandle<Integer> tmp = (VectorHandle<Integer>) b[0];
			@SuppressWarnings("unchecked")
			VectorHandle<Integer> o = (VectorHandle<Integer>) b[1];
			assertNotSame(scratch, tmp);
			assertEquals(3, tmp.getSize());
			int s = 0;
			for (int i = 0; i < 3; i++) {
				tmp.setValueAt(i, i * i);
				s += tmp.getValueAt(i);
			}
			o.setValueAt(0, s);
		}), true, scratch, out);
		assertEquals(5, out.getValueAt(0));
		assertEquals(-1, scratch.getValueAt(2), "a SCRATCH task wrote the registered vector");
		scratch.unregister();
		out.unregister();
	}
}
