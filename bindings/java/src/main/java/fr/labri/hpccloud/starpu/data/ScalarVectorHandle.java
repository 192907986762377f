package fr.labri.hpccloud.starpu.data;

import fr.labri.hpccloud.starpu.internal.Native;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A vector of primitive numbers in native memory (a direct buffer) that the runtime and
 * Java share: the runtime registers the buffer itself, without copy, and Java reads and
 * writes it in place. Children of a partition are views of their parent's memory.
 */
public abstract class ScalarVectorHandle<T> extends DataHandle {
	/** This vector's memory; null for data registered without a home (see {@link Memory#current}). */
	private final ByteBuffer bytes;
	private final int size;
	/** The size of an element in bytes. */
	private final int width;

	protected ScalarVectorHandle(long handle) {
		super(handle);
		throw new UnsupportedOperationException("scalar vectors are made by their register methods");
	}

	ScalarVectorHandle(long handle, ByteBuffer bytes, int size, int width) {
		super(handle);
		this.bytes = bytes;
		this.size = size;
		this.width = width;
	}

	/** Registers {@code size} elements of {@code kind} held by {@code buffer} (null: no home). */
	static long register(ByteBuffer buffer, int kind, int size) {
		return Memory.register(buffer, kind, Native.SHAPE_VECTOR, size, 1);
	}

	public int getSize() {
		return size;
	}

	/** The vector's memory (for data registered without a home: while acquired). */
	protected final ByteBuffer bytes() {
		return Memory.current(this, bytes);
	}

	/** The vector's values, as a view in native byte order (no copy), for a typed buffer. */
	protected final ByteBuffer view() {
		ByteBuffer b = bytes().duplicate().order(ByteOrder.nativeOrder());
		b.limit(size * width);
		return b;
	}

	/** The byte offset of element {@code index}, checked. */
	protected final int offset(int index) {
		if (index < 0 || index >= size) {
			throw new IndexOutOfBoundsException("index " + index + " of vector " + this + " of " + size + " elements");
		}
		return index * width;
	}

	/** A vector of this type over {@code bytes} ({@code size} elements). */
	abstract ScalarVectorHandle<T> over(long handle, ByteBuffer bytes, int size);

	@Override
	public DataHandle lentView(ByteBuffer lent) {
		return over(0, lent, lent.capacity() / width);
	}

	@Override
	protected DataHandle newChild(long handle) {
		int n = (int) Native.layout(handle)[Native.LAYOUT_NX];
		return over(handle, Memory.piece(nativeHandle, bytes, handle, (long) n * width), n);
	}
}
