package fr.labri.hpccloud.starpu.internal;

import fr.labri.hpccloud.starpu.data.DataHandle;
import fr.labri.hpccloud.starpu.data.VectorHandle;

/**
 * What the OpenCL and CUDA implementations of a codelet get for one task on one device
 * worker: the task's handles, and the runtime's call they stand for (checked by the
 * native library at each use: valid during that call only, on the worker's thread).
 */
public abstract class DeviceCall {
	/** The runtime's call this one stands for. */
	private final long call;
	private final DataHandle[] handles;

	protected DeviceCall(long call, Invocation invocation) {
		this.call = call;
		this.handles = invocation.buffers();
	}

	/** The number of buffers of the task. */
	public int getNbBuffers() {
		return handles.length;
	}

	/** The task's handles, in order (their values are on the device: read them there). */
	public DataHandle[] getHandles() {
		return handles.clone();
	}

	/** Checks that buffer {@code index} exists and has a form on a {@code device} device. */
	protected final void checkBuffer(int index, String device) {
		if (index < 0 || index >= handles.length) {
			throw new IndexOutOfBoundsException("buffer " + index + " of a task of " + handles.length + " buffers");
		}
		if (handles[index] instanceof VectorHandle) {
			throw new IllegalArgumentException(
					"buffer " + index + " is a vector of Java objects: it has no " + device + " form");
		}
	}

	/** The address of the runtime's call, for the native methods. */
	public final long pointer() {
		return call;
	}
}
