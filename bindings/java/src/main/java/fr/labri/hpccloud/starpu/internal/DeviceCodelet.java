package fr.labri.hpccloud.starpu.internal;

import fr.labri.hpccloud.starpu.Codelet;
import fr.labri.hpccloud.starpu.WorkerType;
import fr.labri.hpccloud.starpu.data.DataHandle;

import java.util.EnumSet;
import java.util.Set;

/** A codelet of one kind of device worker only (the CUDA and OpenCL codelets). */
public abstract class DeviceCodelet extends Codelet {
	private final WorkerType device;

	protected DeviceCodelet(WorkerType device) {
		this.device = device;
	}

	@Override
	public Set<WorkerType> getWhere() {
		return EnumSet.of(device);
	}

	/** No CPU implementation (never called while {@link #getWhere} leaves CPU out). */
	@Override
	public void run(DataHandle[] buffers) {
		throw new UnsupportedOperationException("codelet " + getName() + " has no CPU implementation");
	}
}
