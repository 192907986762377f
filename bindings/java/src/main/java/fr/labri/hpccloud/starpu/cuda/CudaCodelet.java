package fr.labri.hpccloud.starpu.cuda;

import fr.labri.hpccloud.starpu.WorkerType;
import fr.labri.hpccloud.starpu.internal.DeviceCodelet;

/**
 * A codelet with a CUDA implementation only: its tasks run on CUDA workers, and their
 * submission throws {@link fr.labri.hpccloud.starpu.NoDeviceException} when the runtime
 * has none (no NVIDIA GPU or driver). To give it a CPU implementation too, override
 * {@link #run} and return both kinds from {@link #getWhere}.
 */
public abstract class CudaCodelet extends DeviceCodelet {
	public CudaCodelet() {
		super(WorkerType.CUDA);
	}

	@Override
	public abstract void runCUDA(CudaCall call);
}
