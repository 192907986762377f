package fr.labri.hpccloud.starpu.data;

import fr.labri.hpccloud.starpu.InvalidArgumentException;
import fr.labri.hpccloud.starpu.internal.Native;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Native memory of the handles of primitive numbers: direct buffers in native byte order
 * that the runtime registers without copy, and the buffers it gives back for memory it
 * owns (a piece of a partitioned handle, the replica of data registered without a home).
 */
final class Memory {
	private Memory() {
	}

	/** A direct buffer in native byte order for {@code count} elements of {@code width} bytes. */
	static ByteBuffer allocate(int count, int width) {
		if (count < 0) {
			throw new InvalidArgumentException("negative number of elements " + count);
		}
		return ByteBuffer.allocateDirect(Math.max(1, count) * width).order(ByteOrder.nativeOrder());
	}

	/**
	 * Registers {@code buffer} (null: no home buffer, the runtime allocates the data where it
	 * is first needed) as a variable, vector ({@code ny} 1) or matrix ({@code ld} = nx).
	 */
	static long register(ByteBuffer buffer, int kind, int shape, int nx, int ny) {
		if (buffer != null && !buffer.isDirect()) {
			throw new InvalidArgumentException("the runtime shares direct buffers only (ByteBuffer.allocateDirect)");
		}
		if (buffer != null && buffer.order() != ByteOrder.nativeOrder()) {
			throw new InvalidArgumentException("the buffer must be in native byte order (ByteOrder.nativeOrder())");
		}
		return Native.register(buffer, kind, shape, nx, ny);
	}

	/** The main-memory replica of the runtime's handle {@code handle}, null while it has none. */
	static ByteBuffer of(long handle) {
		ByteBuffer b = Native.buffer(handle);
		return b == null ? null : b.order(ByteOrder.nativeOrder());
	}

	/**
	 * The memory of {@code child}, a piece of {@code parent} spanning {@code bytes} bytes: a
	 * slice of the parent's buffer (which the slice keeps alive) when the parent has one,
	 * the runtime's replica otherwise (null while there is none).
	 */
	static ByteBuffer piece(long parent, ByteBuffer parentBytes, long child, long bytes) {
		if (parentBytes == null) {
			return of(child);
		}
		long offset = Native.layout(child)[Native.LAYOUT_ADDRESS] - Native.layout(parent)[Native.LAYOUT_ADDRESS];
		ByteBuffer b = parentBytes.duplicate();
		b.limit(Math.toIntExact(offset + bytes)).position(Math.toIntExact(offset));
		return b.slice().order(ByteOrder.nativeOrder());
	}

	/**
	 * The memory {@code h} reads and writes: {@code own} when it has some, otherwise its
	 * replica while the application holds it acquired.
	 */
	static ByteBuffer current(DataHandle h, ByteBuffer own) {
		if (own != null) {
			return own;
		}
		ByteBuffer r = h.acquiredReplica();
		if (r == null) {
			throw new InvalidArgumentException("data handle " + h
					+ " was registered without a home buffer: its values are readable while acquired only");
		}
		return r;
	}
}
