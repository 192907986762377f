package fr.labri.hpccloud.starpu.data;

/**
 * How {@link DataHandle#partition(Filter)} and {@link DataHandle#partitionPlan} cut data
 * (StarPU's standard filters, applied by the runtime).
 */
public final class Filter {
	/** The filter's code for the native library (Native.FILTER_*). */
	final int kind;
	final int parts;

	private Filter(int kind, int parts) {
		this.kind = kind;
		this.parts = parts;
	}

	/** {@code starpu_vector_filter_block}: {@code n} nearly equal, contiguous pieces of a vector. */
	public static Filter vectorBlock(int n) {
		return new Filter(fr.labri.hpccloud.starpu.internal.Native.FILTER_VECTOR_BLOCK, n);
	}

	/** {@code starpu_matrix_filter_block}: {@code n} blocks of a matrix's columns (x). */
	public static Filter matrixBlock(int n) {
		return new Filter(fr.labri.hpccloud.starpu.internal.Native.FILTER_MATRIX_BLOCK, n);
	}

	/** {@code starpu_matrix_filter_vertical_block}: {@code n} blocks of a matrix's rows (y). */
	public static Filter matrixVerticalBlock(int n) {
		return new Filter(fr.labri.hpccloud.starpu.internal.Native.FILTER_MATRIX_VERTICAL_BLOCK, n);
	}
}
