package fr.labri.hpccloud.starpu.data;

import fr.labri.hpccloud.starpu.StarPUException;
import fr.labri.hpccloud.starpu.internal.Native;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A vector of primitive numbers in native memory (a direct buffer) that the runtime and
 * Java share: the runtime registers the buffer itself, without copy, and Java reads and
 * writes it in place. Children of a partition are views of their parent's buffer.
 */
public abstract class ScalarVectorHandle<T> extends DataHandle {
	/** The whole registered buffer (a child shares its root's). */
	protected final ByteBuffer bytes;
	/** Index of this vector's first element in {@link #bytes}, and its length. */
	protected final int first;
	protected final int size;

	protected ScalarVectorHandle(long handle) {
		super(handle);
		throw new UnsupportedOperationException("scalar vectors are made by their register methods");
	}

	ScalarVectorHandle(long handle, ByteBuffer bytes, int first, int size, boolean child) {
		super(handle, child);
		this.bytes = bytes;
		this.first = first;
		this.size = size;
	}

	/** A direct buffer in native byte order for {@code count} elements of {@code width} bytes. */
	static ByteBuffer allocate(int count, int width) {
		if (count < 0) {
			throw new IllegalArgumentException("negative vector size " + count);
		}
		return ByteBuffer.allocateDirect(Math.max(1, count) * width).order(ByteOrder.nativeOrder());
	}

	/** Registers {@code count} elements of {@code kind} held by {@code buffer}. */
	static long register(ByteBuffer buffer, int kind, int count, boolean variable) {
		if (!buffer.isDirect()) {
			throw new IllegalArgumentException("the runtime shares direct buffers only (ByteBuffer.allocateDirect)");
		}
		if (buffer.order() != ByteOrder.nativeOrder()) {
			throw new IllegalArgumentException("the buffer must be in native byte order (ByteOrder.nativeOrder())");
		}
		try {
			return Native.registerBuffer(buffer, kind, count, variable);
		} catch (StarPUException e) {
			throw new IllegalStateException(e.getMessage(), e);
		}
	}

	public int getSize() {
		return size;
	}

	/** Checks {@code index} and returns its position in the shared buffer. */
	protected final int slot(int index) {
		if (index < 0 || index >= size) {
			throw new IndexOutOfBoundsException("index " + index + " of vector " + this + " of " + size + " elements");
		}
		return first + index;
	}
}
