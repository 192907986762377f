package fr.labri.hpccloud.starpu.cuda;

import fr.labri.hpccloud.starpu.Codelet;
import fr.labri.hpccloud.starpu.WorkerType;
import fr.labri.hpccloud.starpu.data.DataHandle;

import java.util.EnumSet;
import java.util.Set;

/**
 * A codelet with a CUDA implementation only: its tasks run on CUDA workers, and their
 * submission throws {@link fr.labri.hpccloud.starpu.NoDeviceException} when the runtime
 * has none (no NVIDIA GPU or driver). To give it a CPU implementation too, override
 * {@link #run} and return both kinds from {@link #getWhere}.
 */
public abstract class CudaCodelet extends Codelet {
	@Override
	public abstract void runCUDA(CudaCall call);

	@Override
	public Set<WorkerType> getWhere() {
		return EnumSet.of(WorkerType.CUDA);
	}

	/** No CPU implementation (never called while {@link #getWhere} leaves CPU out). */
	@Override
	public void run(DataHandle[] buffers) {
		throw new UnsupportedOperationException("codelet " + getName() + " has no CPU implementation");
	}
}
