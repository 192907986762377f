package fr.labri.hpccloud.starpu.opencl;

import fr.labri.hpccloud.starpu.WorkerType;
import fr.labri.hpccloud.starpu.internal.DeviceCodelet;

/**
 * A codelet with an OpenCL implementation only: its tasks run on OpenCL workers, and
 * their submission throws {@link fr.labri.hpccloud.starpu.NoDeviceException} when the
 * runtime has none. To give it a CPU implementation too, override {@link #run} and return
 * both kinds from {@link #getWhere}.
 */
public abstract class OpenCLCodelet extends DeviceCodelet {
	public OpenCLCodelet() {
		super(WorkerType.OPENCL);
	}

	@Override
	public abstract void runOpenCL(OpenCLCall call);
}
