/* matmul: C = A * B by blocks, with matrix partitioning.
 *
 * Column-major matrices (StarPU's matrix interface: nx contiguous elements
 * per column, ny columns, leading dimension ld):
 *   A: YDIM x ZDIM,  B: ZDIM x XDIM,  C: YDIM x XDIM.
 * B is cut into column slices (starpu_matrix_filter_vertical_block), A into
 * row slices (starpu_matrix_filter_block), C into both with
 * starpu_data_map_filters(C, 2, &vert, &horiz); task (x, y) computes
 * C[x][y] = A[y] * B[x] on the handles from starpu_data_get_sub_data.  The
 * sizes do not divide evenly.  Inputs are small integers, so the result
 * must equal the sequential product exactly.
 */
#include "test_common.h"

#define XDIM 50
#define YDIM 42
#define ZDIM 17
#define NSLICESX 4
#define NSLICESY 5

static void mult_cpu(void *buffers[], void *cl_arg)
{
	(void)cl_arg;
	const double *a = (const double *)STARPU_MATRIX_GET_PTR(buffers[0]);
	const double *b = (const double *)STARPU_MATRIX_GET_PTR(buffers[1]);
	double *c = (double *)STARPU_MATRIX_GET_PTR(buffers[2]);
	unsigned rows = STARPU_MATRIX_GET_NX(buffers[2]);   /* rows of this C block */
	unsigned cols = STARPU_MATRIX_GET_NY(buffers[2]);   /* columns of this C block */
	unsigned inner = STARPU_MATRIX_GET_NY(buffers[0]);  /* columns of A = rows of B */
	unsigned lda = STARPU_MATRIX_GET_LD(buffers[0]);
	unsigned ldb = STARPU_MATRIX_GET_LD(buffers[1]);
	unsigned ldc = STARPU_MATRIX_GET_LD(buffers[2]);
	for (unsigned j = 0; j < cols; j++)
		for (unsigned i = 0; i < rows; i++) {
			double s = 0.0;
			for (unsigned k = 0; k < inner; k++)
				s += a[i + k * lda] * b[k + j * ldb];
			c[i + j * ldc] = s;
		}
}

static struct starpu_codelet mult_cl = {
	.cpu_funcs = { mult_cpu },
	.cpu_funcs_name = { "mult_cpu" },
	.nbuffers = 3,
	.modes = { STARPU_R, STARPU_R, STARPU_W },
	.name = "matmul_block",
};

int main(void)
{
	double *A = malloc(YDIM * ZDIM * sizeof(double));
	double *B = malloc(ZDIM * XDIM * sizeof(double));
	double *C = malloc(YDIM * XDIM * sizeof(double));
	for (unsigned k = 0; k < ZDIM; k++)
		for (unsigned i = 0; i < YDIM; i++)
			A[i + k * YDIM] = (double)((int)((i * 7 + k * 3) % 7) - 3);
	for (unsigned j = 0; j < XDIM; j++)
		for (unsigned k = 0; k < ZDIM; k++)
			B[k + j * ZDIM] = (double)((int)((j * 5 + k * 11) % 5) - 2);
	for (unsigned p = 0; p < YDIM * XDIM; p++)
		C[p] = -12345.0;  /* STARPU_W must overwrite every element */

	tc_init();

	starpu_data_handle_t ha, hb, hc;
	starpu_matrix_data_register(&ha, STARPU_MAIN_RAM, (uintptr_t)A, YDIM, YDIM, ZDIM, sizeof(double));
	starpu_matrix_data_register(&hb, STARPU_MAIN_RAM, (uintptr_t)B, ZDIM, ZDIM, XDIM, sizeof(double));
	starpu_matrix_data_register(&hc, STARPU_MAIN_RAM, (uintptr_t)C, YDIM, YDIM, XDIM, sizeof(double));
	CHECK(starpu_matrix_get_nx(hc) == YDIM && starpu_matrix_get_ny(hc) == XDIM,
	      "C is %ux%u, expected %ux%u", (unsigned)starpu_matrix_get_nx(hc), (unsigned)starpu_matrix_get_ny(hc),
	      YDIM, XDIM);

	struct starpu_data_filter vert = {
		.filter_func = starpu_matrix_filter_vertical_block,
		.nchildren = NSLICESX,
	};
	struct starpu_data_filter horiz = {
		.filter_func = starpu_matrix_filter_block,
		.nchildren = NSLICESY,
	};
	starpu_data_partition(hb, &vert);
	starpu_data_partition(ha, &horiz);
	starpu_data_map_filters(hc, 2, &vert, &horiz);

	CHECK(starpu_data_get_nb_children(ha) == NSLICESY, "A has %d children", starpu_data_get_nb_children(ha));
	CHECK(starpu_data_get_nb_children(hb) == NSLICESX, "B has %d children", starpu_data_get_nb_children(hb));
	CHECK(starpu_data_get_nb_children(hc) == NSLICESX, "C has %d children", starpu_data_get_nb_children(hc));

	/* the pieces tile the matrices exactly */
	unsigned cols = 0;
	for (unsigned x = 0; x < NSLICESX; x++) {
		starpu_data_handle_t col = starpu_data_get_sub_data(hc, 1, x);
		CHECK(starpu_data_get_nb_children(col) == NSLICESY, "C column slice %u has %d children", x,
		      starpu_data_get_nb_children(col));
		unsigned w = starpu_matrix_get_ny(col);
		CHECK(w == starpu_matrix_get_ny(starpu_data_get_sub_data(hb, 1, x)),
		      "C slice %u is %u columns wide, B slice %u is %u", x, w, x,
		      (unsigned)starpu_matrix_get_ny(starpu_data_get_sub_data(hb, 1, x)));
		unsigned rows = 0;
		for (unsigned y = 0; y < NSLICESY; y++) {
			starpu_data_handle_t blk = starpu_data_get_sub_data(hc, 2, x, y);
			CHECK(blk == starpu_data_get_sub_data(col, 1, y), "get_sub_data(C, 2, %u, %u) differs from nested", x, y);
			CHECK(starpu_matrix_get_ny(blk) == w, "block (%u,%u) has %u columns, expected %u", x, y,
			      (unsigned)starpu_matrix_get_ny(blk), w);
			rows += starpu_matrix_get_nx(blk);
		}
		CHECK(rows == YDIM, "C column slice %u: blocks have %u rows in all, expected %u", x, rows, YDIM);
		cols += w;
	}
	CHECK(cols == XDIM, "C slices have %u columns in all, expected %u", cols, XDIM);

	for (unsigned x = 0; x < NSLICESX; x++)
		for (unsigned y = 0; y < NSLICESY; y++) {
			struct starpu_task *task = starpu_task_create();
			task->cl = &mult_cl;
			task->handles[0] = starpu_data_get_sub_data(ha, 1, y);
			task->handles[1] = starpu_data_get_sub_data(hb, 1, x);
			task->handles[2] = starpu_data_get_sub_data(hc, 2, x, y);
			MUST(starpu_task_submit(task));
		}
	starpu_task_wait_for_all();

	starpu_data_unpartition(ha, STARPU_MAIN_RAM);
	starpu_data_unpartition(hb, STARPU_MAIN_RAM);
	starpu_data_unpartition(hc, STARPU_MAIN_RAM);
	CHECK(starpu_data_get_nb_children(hc) == 0, "C still has %d children after unpartition",
	      starpu_data_get_nb_children(hc));
	starpu_data_unregister(ha);
	starpu_data_unregister(hb);
	starpu_data_unregister(hc);
	starpu_shutdown();

	unsigned bad = 0;
	for (unsigned j = 0; j < XDIM; j++)
		for (unsigned i = 0; i < YDIM; i++) {
			double s = 0.0;
			for (unsigned k = 0; k < ZDIM; k++)
				s += A[i + k * YDIM] * B[k + j * ZDIM];
			if (C[i + j * YDIM] != s && bad++ < 5)
				CHECK(0, "C(%u,%u) = %g, expected %g", i, j, C[i + j * YDIM], s);
		}
	CHECK(bad == 0, "%u of %u elements of C wrong", bad, XDIM * YDIM);
	free(A); free(B); free(C);
	return tc_finish("matmul");
}
