package fr.labri.hpccloud.starpu.opencl;

import fr.labri.hpccloud.starpu.Codelet;
import fr.labri.hpccloud.starpu.WorkerType;
import fr.labri.hpccloud.starpu.data.DataHandle;

import java.util.EnumSet;
import java.util.Set;

/**
 * A codelet with an OpenCL implementation only: its tasks run on OpenCL workers, and
 * their submission throws {@link fr.labri.hpccloud.starpu.NoDeviceException} when the
 * runtime has none. To give it a CPU implementation too, override {@link #run} and return
 * both kinds from {@link #getWhere}.
 */
public abstract class OpenCLCodelet extends Codelet {
	@Override
	public abstract void runOpenCL(OpenCLCall call);

	@Override
	public Set<WorkerType> getWhere() {
		return EnumSet.of(WorkerType.OPENCL);
	}

	/** No CPU implementation (never called while {@link #getWhere} leaves CPU out). */
	@Override
	public void run(DataHandle[] buffers) {
		throw new UnsupportedOperationException("codelet " + getName() + " has no CPU implementation");
	}
}
