package fr.labri.hpccloud.starpu.examples;

import fr.labri.hpccloud.starpu.Codelet;
import fr.labri.hpccloud.starpu.StarPU;
import fr.labri.hpccloud.starpu.data.DataHandle;
import fr.labri.hpccloud.starpu.data.VectorHandle;

/**
 * The handbook's first Java program: one task scales a vector of floats by 3.14, the
 * application waits for it by acquiring the vector, and prints it. Checks the values.
 */
public class VectorScal {
	static final float FACTOR = 3.14f;

	static final Codelet SCALE = new Codelet() {
		@Override
		public void run(DataHandle[] buffers) {
			@SuppressWarnings("unchecked")
			VectorHandle<Float> v = (VectorHandle<Float>) buffers[0];
			System.out.println(String.format("scaling array %s with %d elements", v, v.getSize()));
			for (int i = 0; i < v.getSize(); i++) {
				v.setValueAt(i, FACTOR * v.getValueAt(i));
			}
		}

		@Override
		public DataHandle.AccessMode[] getAccessModes() {
			return new DataHandle.AccessMode[] { DataHandle.AccessMode.STARPU_RW };
		}
	};

	public static void main(String[] args) throws Exception {
		int n = args.length == 0 ? 10 : Integer.parseInt(args[0]);
		StarPU.init();
		System.out.println(String.format("VECTOR[#nx=%d]", n));
		VectorHandle<Float> v = VectorHandle.register(n);
		for (int i = 0; i < n; i++) {
			v.setValueAt(i, i + 1.0f);
		}
		StarPU.submitTask(SCALE, false, v);
		v.acquire();
		boolean ok = true;
		for (int i = 0; i < n; i++) {
			System.out.println(String.format("v[%d] = %f", i, v.getValueAt(i)));
			ok &= v.getValueAt(i) == FACTOR * (i + 1.0f);
		}
		v.release();
		v.unregister();
		StarPU.shutdown();
		if (!ok) {
			System.err.println("VectorScal: wrong values");
			System.exit(1);
		}
	}
}
