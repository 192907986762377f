package fr.labri.hpccloud.starpu.data;

import fr.labri.hpccloud.starpu.internal.Native;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;

/**
 * A vector of Java objects. The objects stay in the JVM; the runtime orders the tasks that
 * use the vector (or its parts, after {@link #partition}) exactly as for native data.
 * Children are views of their parent's elements: no copy.
 */
public class VectorHandle<T> extends DataHandle {
	public static boolean enableTrace = false;

	/** The elements, shared by a vector and its children. */
	static final class Store {
		Object[] items;
		int size;

		Store(int size) {
			this.items = new Object[size];
			this.size = size;
		}
	}

	final Store store;
	/** What the operation producing this block threw (DataSet blocks only). */
	volatile Throwable failure;
	private final int first;
	private final int length;

	protected VectorHandle() {
		this(0);
	}

	protected VectorHandle(long handle) {
		super(handle);
		this.store = new Store(0);
		this.first = 0;
		this.length = -1;
	}

	VectorHandle(long handle, int size) {
		super(handle);
		this.store = new Store(size);
		this.first = 0;
		this.length = -1;
	}

	private VectorHandle(long handle, Store store, int first, int length) {
		super(handle);
		this.store = store;
		this.first = first;
		this.length = length;
	}

	/** Registers a vector of {@code size} elements, all null. */
	public static <E> VectorHandle<E> register(int size) {
		return new VectorHandle<E>(Native.registerObjects(size), size);
	}

	public int getSize() {
		return length < 0 ? store.size : length;
	}

	/** Element {@code index}; a null element is an error (it was never set). */
	@SuppressWarnings("unchecked")
	public T getValueAt(int index) {
		Object o = store.items[slot(index)];
		if (o == null) {
			throw new NullPointerException("uninitialized vector " + this + " entry at index " + index);
		}
		return (T) o;
	}

	/** Element {@code index}, null if it was never set. */
	@SuppressWarnings("unchecked")
	T getOrNull(int index) {
		return (T) store.items[slot(index)];
	}

	public void setValueAt(int index, T value) {
		store.items[slot(index)] = value;
	}

	private int slot(int index) {
		if (index < 0 || index >= getSize()) {
			throw new IndexOutOfBoundsException("index " + index + " of vector " + this + " of " + getSize() + " elements");
		}
		return first + index;
	}

	/** Replaces the whole content of an unpartitioned vector (tasks writing a DataSet block do). */
	void replace(Object[] items, int size) {
		if (length >= 0 || getNbChildren() > 0) {
			throw new IllegalStateException("only a whole, unpartitioned vector may be replaced");
		}
		store.items = items;
		store.size = size;
	}

	/**
	 * A SCRATCH buffer of a task: a vector of the same length, all null, the task's own (the
	 * runtime lends the memory of the byte vector that stands for the objects).
	 */
	@Override
	public DataHandle lentView(java.nio.ByteBuffer bytes) {
		return new VectorHandle<T>(0, bytes.capacity());
	}

	/** A vector of Java objects cannot take part in a reduction: its objects live in Java only. */
	@Override
	public void setReductionMethods(fr.labri.hpccloud.starpu.Codelet redux, fr.labri.hpccloud.starpu.Codelet init) {
		throw new UnsupportedOperationException("data handle " + this
				+ ": REDUX accesses need a vector, a matrix or a variable of primitive numbers");
	}

	/**
	 * The runtime cuts the byte vector that stands for the objects; a child's place among
	 * them is its bytes' place in its parent's.
	 */
	@Override
	protected DataHandle newChild(long handle) {
		long[] mine = Native.layout(nativeHandle);
		long[] child = Native.layout(handle);
		int offset = (int) (child[Native.LAYOUT_ADDRESS] - mine[Native.LAYOUT_ADDRESS]);
		return new VectorHandle<T>(handle, store, first + offset, (int) child[Native.LAYOUT_NX]);
	}

	/** The elements, serialized (Java serialization). */
	public byte[] pack() throws IOException {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		try (ObjectOutputStream o = new ObjectOutputStream(out)) {
			int n = getSize();
			o.writeInt(n);
			for (int i = 0; i < n; i++) {
				o.writeObject(getOrNull(i));
			}
		}
		return out.toByteArray();
	}

	/** Reads elements written by {@link #pack} (same size). */
	@SuppressWarnings("unchecked")
	public void unpack(byte[] input) throws IOException, ClassNotFoundException {
		try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(input))) {
			int n = in.readInt();
			if (n != getSize()) {
				throw new IOException("unpack: " + n + " elements for a vector of " + getSize());
			}
			for (int i = 0; i < n; i++) {
				setValueAt(i, (T) in.readObject());
			}
		}
	}
}
