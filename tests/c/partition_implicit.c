/* partition_implicit: partition plans switched by the runtime itself.
 *
 * No starpu_data_partition_submit / unpartition_submit here: tasks use the whole data,
 * its children, or grandchildren, and the runtime switches the views in submission order.
 *  1. a 6 x 6 matrix with vertical and horizontal plans: whole x*2, vertical halves +1 /
 *     +2, horizontal halves x*3 / x*5, whole +7 (operations that do not commute, so the
 *     values check the order), then readers of every view.
 *  2. nested plans on a vector of 16: halves, the second half in quarters; writes at
 *     every level in an order that needs gathering and re-cutting the tree.
 *  3. an acquisition of the whole data for reading while read-only views are active.
 * Kernels sleep 1 ms so that a wrong order would overlap tasks and show in the values.
 * Builds against StarPU 1.3 too.
 */
#include "test_common.h"
#include <unistd.h>

#define N 6

static void affine_matrix(void *buffers[], void *cl_arg)
{
	int a, b;
	starpu_codelet_unpack_args(cl_arg, &a, &b);
	usleep(1000);
	tc_matrix_affine(buffers[0], a, b);
}

static void affine_vector(void *buffers[], void *cl_arg)
{
	int a, b;
	starpu_codelet_unpack_args(cl_arg, &a, &b);
	usleep(1000);
	int n = STARPU_VECTOR_GET_NX(buffers[0]);
	int *v = (int *)STARPU_VECTOR_GET_PTR(buffers[0]);
	for (int i = 0; i < n; i++)
		v[i] = v[i] * a + b;
}

static struct starpu_codelet matrix_cl = {
	.cpu_funcs = {affine_matrix}, .nbuffers = 1, .modes = {STARPU_RW}, .name = "affine_matrix",
};
static struct starpu_codelet vector_cl = {
	.cpu_funcs = {affine_vector}, .nbuffers = 1, .modes = {STARPU_RW}, .name = "affine_vector",
};

static void affine(struct starpu_codelet *cl, starpu_data_handle_t h, int a, int b)
{
	MUST(starpu_task_insert(cl, STARPU_RW, h, STARPU_VALUE, &a, sizeof(a),
				STARPU_VALUE, &b, sizeof(b), 0));
}

static int mismatches;

/* Checks that element (x, y) of its piece, at (x0 + x, y0 + y) in the whole matrix, is
 * want(x0 + x, y0 + y) as computed in part 1. */
static int part1(int x, int y, int unused)
{
	(void)unused;
	return ((x + 100 * y) * 2 + (x < 3 ? 1 : 2)) * (y < 3 ? 3 : 5) + 7;
}

static void check_cpu(void *buffers[], void *cl_arg)
{
	int x0, y0;
	starpu_codelet_unpack_args(cl_arg, &x0, &y0);
	__sync_fetch_and_add(&mismatches, tc_matrix_mismatches(buffers[0], x0, y0, part1, 0));
}

static struct starpu_codelet check_cl = {
	.cpu_funcs = {check_cpu}, .nbuffers = 1, .modes = {STARPU_R}, .name = "check",
};

static void check(starpu_data_handle_t h, int x0, int y0)
{
	MUST(starpu_task_insert(&check_cl, STARPU_R, h, STARPU_VALUE, &x0, sizeof(x0),
				STARPU_VALUE, &y0, sizeof(y0), 0));
}

int main(void)
{
	tc_init();

	/* 1. two plans of a matrix */
	int matrix[N * N];
	for (int i = 0; i < N * N; i++)
		matrix[i] = (i % N) + 100 * (i / N);
	starpu_data_handle_t m, vert[2], horiz[2];
	starpu_matrix_data_register(&m, STARPU_MAIN_RAM, (uintptr_t)matrix, N, N, N, sizeof(int));
	struct starpu_data_filter fv = {.filter_func = starpu_matrix_filter_block, .nchildren = 2};
	struct starpu_data_filter fh = {.filter_func = starpu_matrix_filter_vertical_block, .nchildren = 2};
	starpu_data_partition_plan(m, &fv, vert);
	starpu_data_partition_plan(m, &fh, horiz);
	affine(&matrix_cl, m, 2, 0);
	affine(&matrix_cl, vert[0], 1, 1);
	affine(&matrix_cl, vert[1], 1, 2);
	affine(&matrix_cl, horiz[0], 3, 0);
	affine(&matrix_cl, horiz[1], 5, 0);
	affine(&matrix_cl, m, 1, 7);
	check(vert[0], 0, 0);
	check(vert[1], 3, 0);
	check(horiz[0], 0, 0);
	check(horiz[1], 0, 3);
	check(m, 0, 0);

	/* 3. acquiring the whole matrix for reading while read-only views are active */
	starpu_data_acquire(m, STARPU_R);
	for (int i = 0; i < N * N; i++)
		CHECK(matrix[i] == part1(i % N, i / N, 0), "(%d, %d) = %d, expected %d",
		      i % N, i / N, matrix[i], part1(i % N, i / N, 0));
	starpu_data_release(m);
	starpu_task_wait_for_all();
	CHECK(mismatches == 0, "%d elements read wrong", mismatches);
	starpu_data_partition_clean(m, 2, vert);
	starpu_data_partition_clean(m, 2, horiz);
	starpu_data_unregister(m);

	/* 2. nested plans */
	int v[16];
	for (int i = 0; i < 16; i++)
		v[i] = 1;
	starpu_data_handle_t h, halves[2], quarters[4];
	starpu_vector_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)v, 16, sizeof(int));
	struct starpu_data_filter f2 = {.filter_func = starpu_vector_filter_block, .nchildren = 2};
	struct starpu_data_filter f4 = {.filter_func = starpu_vector_filter_block, .nchildren = 4};
	starpu_data_partition_plan(h, &f2, halves);
	starpu_data_partition_plan(halves[1], &f4, quarters);
	affine(&vector_cl, h, 10, 0);          /* 10 everywhere */
	affine(&vector_cl, quarters[2], 1, 5); /* 12, 13: 15 */
	affine(&vector_cl, halves[0], 2, 0);   /* 0..7: 20 */
	affine(&vector_cl, halves[1], 1, 1);   /* 8..15: +1 */
	affine(&vector_cl, quarters[0], 3, 0); /* 8, 9: x3 */
	affine(&vector_cl, h, 1, 100);         /* everything +100 */
	starpu_task_wait_for_all();
	starpu_data_partition_clean(halves[1], 4, quarters);
	starpu_data_partition_clean(h, 2, halves);
	starpu_data_unregister(h);
	for (int i = 0; i < 16; i++) {
		int want = i < 8 ? 120 : (i == 8 || i == 9) ? 133 : (i == 12 || i == 13) ? 116 : 111;
		CHECK(v[i] == want, "v[%d] = %d, expected %d", i, v[i], want);
	}

	starpu_shutdown();
	return tc_failures ? 1 : 0;
}
