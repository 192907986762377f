package fr.labri.hpccloud.starpu.data;

import fr.labri.hpccloud.starpu.internal.Native;

import java.nio.ByteBuffer;

/**
 * A matrix of {@code long} values in native memory shared with the runtime: {@code ny} rows
 * of {@code nx} elements, row {@code y} starting at element {@code y * ld} (StarPU's matrix
 * interface). The pieces of a partitioned matrix are views of their parent's memory, with
 * its {@code ld}.
 */
public class LongMatrixHandle extends DataHandle {
	/** Null for data registered without a home (see {@link Memory#current}). */
	private final ByteBuffer bytes;
	private final int nx, ny, ld;

	private LongMatrixHandle(long handle, ByteBuffer bytes, int nx, int ny, int ld) {
		super(handle);
		this.bytes = bytes;
		this.nx = nx;
		this.ny = ny;
		this.ld = ld;
	}

	/** Registers a new matrix of {@code nx} x {@code ny} zeros ({@code ld} = nx). */
	public static LongMatrixHandle register(int nx, int ny) {
		ByteBuffer b = Memory.allocate(Math.multiplyExact(nx, ny), 8);
		return new LongMatrixHandle(Memory.register(b, Native.KIND_LONG, Native.SHAPE_MATRIX, nx, ny), b, nx, ny, nx);
	}

	/** Registers a matrix without memory: the runtime allocates it where it is first needed. */
	public static LongMatrixHandle registerLazy(int nx, int ny) {
		return new LongMatrixHandle(Memory.register(null, Native.KIND_LONG, Native.SHAPE_MATRIX, nx, ny), null, nx, ny, nx);
	}

	public int getNx() {
		return nx;
	}

	public int getNy() {
		return ny;
	}

	/** The distance in elements between the starts of two rows. */
	public int getLd() {
		return ld;
	}

	public long getValueAt(int x, int y) {
		return Memory.current(this, bytes).getLong(offset(x, y));
	}

	public void setValueAt(int x, int y, long value) {
		Memory.current(this, bytes).putLong(offset(x, y), value);
	}

	private int offset(int x, int y) {
		if (x < 0 || x >= nx || y < 0 || y >= ny) {
			throw new IndexOutOfBoundsException("(" + x + ", " + y + ") of matrix " + this + " of " + nx + " x " + ny);
		}
		return 8 * (y * ld + x);
	}

	/** Memory the runtime lends a task is packed: ld = nx. */
	@Override
	public DataHandle lentView(ByteBuffer lent) {
		return new LongMatrixHandle(0, lent, nx, ny, nx);
	}

	@Override
	protected DataHandle newChild(long handle) {
		long[] l = Native.layout(handle);
		int x = (int) l[Native.LAYOUT_NX], y = (int) l[Native.LAYOUT_NY], d = (int) l[Native.LAYOUT_LD];
		long span = y == 0 ? 0 : 8L * ((long) (y - 1) * d + x);
		return new LongMatrixHandle(handle, Memory.piece(nativeHandle, bytes, handle, span), x, y, d);
	}
}
