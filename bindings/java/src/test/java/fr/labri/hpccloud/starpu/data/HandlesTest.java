package fr.labri.hpccloud.starpu.data;

import fr.labri.hpccloud.starpu.Codelet;
import fr.labri.hpccloud.starpu.RuntimeFixture;
import fr.labri.hpccloud.starpu.StarPU;
import fr.labri.hpccloud.starpu.StarPUException;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;

import static fr.labri.hpccloud.starpu.data.DataHandle.AccessMode.STARPU_R;
import static fr.labri.hpccloud.starpu.data.DataHandle.AccessMode.STARPU_RW;
import static fr.labri.hpccloud.starpu.data.DataHandle.AccessMode.STARPU_W;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class HandlesTest extends RuntimeFixture {
	@Test
	void aWrappedDirectBufferIsSharedWithoutCopy() throws StarPUException {
		ByteBuffer mine = ByteBuffer.allocateDirect(8 * 5).order(ByteOrder.nativeOrder());
		DoubleBuffer view = mine.asDoubleBuffer();
		for (int i = 0; i < 5; i++) {
			view.put(i, i);
		}
		try (DoubleVectorHandle v = DoubleVectorHandle.wrap(mine, 5)) {
			StarPU.submitTask(codelet(null, new DataHandle.AccessMode[] { STARPU_RW }, b -> {
				DoubleVectorHandle d = (DoubleVectorHandle) b[0];
				for (int i = 0; i < d.getSize(); i++) {
					d.setValueAt(i, d.getValueAt(i) * 2.5);
				}
			}), true, v);
			// The application's own buffer holds the result: the runtime wrote in place.
			assertArrayEquals(new double[] { 0, 2.5, 5, 7.5, 10 }, new double[] { view.get(0), view.get(1), view.get(2), view.get(3), view.get(4) });
		}
	}

	@Test
	void partitionsGiveViewsThatTasksUseSeparately() throws StarPUException {
		try (IntegerVectorHandle v = IntegerVectorHandle.register(10)) {
			for (int i = 0; i < 10; i++) {
				v.setValueAt(i, i);
			}
			v.partition(3);
			assertEquals(3, v.getNbChildren());
			int[] sizes = new int[3];
			for (int c = 0; c < 3; c++) {
				sizes[c] = ((IntegerVectorHandle) v.getSubData(c)).getSize();
			}
			assertArrayEquals(new int[] { 4, 3, 3 }, sizes);
			Codelet plusChild = codelet(null, new DataHandle.AccessMode[] { STARPU_RW }, b -> {
				IntegerVectorHandle p = (IntegerVectorHandle) b[0];
				for (int i = 0; i < p.getSize(); i++) {
					p.setValueAt(i, p.getValueAt(i) * 10);
				}
			});
			for (DataHandle child : v.getHandles()) {
				StarPU.submitTask(plusChild, false, child);
			}
			v.unpartition();
			assertThrows(IndexOutOfBoundsException.class, () -> v.getSubData(0));
			v.acquire();
			int[] got = new int[10];
			v.asBuffer().get(got);
			assertArrayEquals(new int[] { 0, 10, 20, 30, 40, 50, 60, 70, 80, 90 }, got);
			v.release();
		}
	}

	@Test
	void objectVectorsCarryJavaObjectsBetweenTasks() throws StarPUException {
		VectorHandle<String> in = VectorHandle.register(3);
		VectorHandle<Integer> out = VectorHandle.register(3);
		in.setValueAt(0, "a");
		in.setValueAt(1, "bb");
		in.setValueAt(2, "ccc");
		in.partition(3);
		out.partition(3);
		StarPU.mapCodelet(codelet(null, new DataHandle.AccessMode[] { STARPU_R, STARPU_W }, b -> {
			@SuppressWarnings("unchecked")
			VectorHandle<String> i = (VectorHandle<String>) b[0];
			@SuppressWarnings("unchecked")
			VectorHandle<Integer> o = (VectorHandle<Integer>) b[1];
			o.setValueAt(0, i.getValueAt(0).length());
		}), true, in, out);
		out.unpartition();
		assertEquals(java.util.List.of(1, 2, 3), java.util.List.of(out.getValueAt(0), out.getValueAt(1), out.getValueAt(2)));
		in.unregister();
		out.unregister();
		assertThrows(NullPointerException.class, () -> VectorHandle.<String>register(1).getValueAt(0));
	}

	@Test
	void reduceCodeletGathersItsInput() throws StarPUException {
		try (LongVectorHandle v = LongVectorHandle.register(6); LongVariableHandle sum = LongVariableHandle.register()) {
			for (int i = 0; i < 6; i++) {
				v.setValueAt(i, i + 1);
			}
			v.partition(2);
			StarPU.reduceCodelet(codelet(null, new DataHandle.AccessMode[] { STARPU_R, STARPU_RW }, b -> {
				LongVectorHandle in = (LongVectorHandle) b[0];
				long s = 0;
				for (int i = 0; i < in.getSize(); i++) {
					s += in.getValueAt(i);
				}
				((LongVariableHandle) b[1]).setValue(s);
			}), true, v, sum);
			assertEquals(0, v.getNbChildren());
			assertEquals(21, sum.getValue());
		}
	}

	@Test
	void packAndUnpackRoundTrip() throws Exception {
		VectorHandle<Integer> a = VectorHandle.register(3);
		VectorHandle<Integer> b = VectorHandle.register(3);
		for (int i = 0; i < 3; i++) {
			a.setValueAt(i, 7 * i);
		}
		b.unpack(a.pack());
		assertEquals(14, b.getValueAt(2));
		a.unregister();
		b.unregister();
	}

	@Test
	void indicesOutsideTheVectorAreRefused() throws StarPUException {
		try (FloatVectorHandle f = FloatVectorHandle.register(2)) {
			assertThrows(IndexOutOfBoundsException.class, () -> f.getValueAt(2));
			assertThrows(IndexOutOfBoundsException.class, () -> f.setValueAt(-1, 0f));
		}
	}
}
