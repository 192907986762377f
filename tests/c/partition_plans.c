/* partition_plans: asynchronous partitioning submitted by the application.
 *
 * A 6 x 6 int matrix (element (x, y) = x + 100 y) with two plans: vertical halves
 * (starpu_matrix_filter_block, along x) and horizontal halves
 * (starpu_matrix_filter_vertical_block, along y).
 *  1. read-write: whole x*2, vertical halves +1 / +2, horizontal halves x*3 / x*5, whole
 *     +7, with starpu_data_partition_submit / starpu_data_unpartition_submit between
 *     views; the operations do not commute, so the values check the order.
 *  2. read-only: both plans active with starpu_data_partition_readonly_submit, reader
 *     tasks on the whole matrix and on every child; with two workers or more, a reader of
 *     the whole matrix and a reader of a child meet (run at the same time).
 *  3. upgrade one read-only plan to read-write, write its children, then
 *     starpu_data_unpartition_readonly_submit: children and parent readable again.
 *  4. starpu_data_unpartition_submit_sequential_consistency_cb: its callback runs once.
 *  5. (1.4) starpu_data_partition_readonly_downgrade_submit and
 *     starpu_data_partition_get_nplans; starpu_data_partition_clean.
 * Builds against StarPU 1.3 too (parts marked 1.4 are left out there).
 */
#include "test_common.h"
#include <sched.h>
#include <time.h>

#define N 6

static void affine_cpu(void *buffers[], void *cl_arg)
{
	int a, b;
	starpu_codelet_unpack_args(cl_arg, &a, &b);
	tc_matrix_affine(buffers[0], a, b);
}

static struct starpu_codelet affine_cl = {
	.cpu_funcs = {affine_cpu},
	.nbuffers = 1,
	.modes = {STARPU_RW},
	.name = "affine",
};

static void affine(starpu_data_handle_t h, int a, int b)
{
	MUST(starpu_task_insert(&affine_cl, STARPU_RW, h, STARPU_VALUE, &a, sizeof(a),
				STARPU_VALUE, &b, sizeof(b), 0));
}

/* Readers check that element (x, y) of their piece, at (x0 + x, y0 + y) in the whole
 * matrix, is factor * (x0 + x + 100 (y0 + y)); mismatches are counted. */
static int mismatches;

static int scaled(int x, int y, int factor)
{
	return factor * (x + 100 * y);
}

static void check_cpu(void *buffers[], void *cl_arg)
{
	int factor, x0, y0;
	starpu_codelet_unpack_args(cl_arg, &factor, &x0, &y0);
	__sync_fetch_and_add(&mismatches, tc_matrix_mismatches(buffers[0], x0, y0, scaled, factor));
}

static struct starpu_codelet check_cl = {
	.cpu_funcs = {check_cpu},
	.nbuffers = 1,
	.modes = {STARPU_R},
	.name = "check",
};

static void check(starpu_data_handle_t h, int factor, int x0, int y0)
{
	MUST(starpu_task_insert(&check_cl, STARPU_R, h, STARPU_VALUE, &factor, sizeof(factor),
				STARPU_VALUE, &x0, sizeof(x0), STARPU_VALUE, &y0, sizeof(y0), 0));
}

/* Two readers that each wait (a deadlock guard of 60 s aside) until the other started. */
static int started[2];
static int met;

static void meet_cpu(void *buffers[], void *cl_arg)
{
	(void)buffers;
	int me;
	starpu_codelet_unpack_args(cl_arg, &me);
	__atomic_store_n(&started[me], 1, __ATOMIC_SEQ_CST);
	time_t limit = time(NULL) + 60;
	while (!__atomic_load_n(&started[1 - me], __ATOMIC_SEQ_CST) && time(NULL) < limit)
		sched_yield();
	if (__atomic_load_n(&started[1 - me], __ATOMIC_SEQ_CST))
		__sync_fetch_and_add(&met, 1);
}

static struct starpu_codelet meet_cl = {
	.cpu_funcs = {meet_cpu},
	.nbuffers = 1,
	.modes = {STARPU_R},
	.name = "meet",
};

static int callbacks;

static void count_cb(void *arg)
{
	__sync_fetch_and_add((int *)arg, 1);
}

int main(void)
{
	int matrix[N * N];
	for (int i = 0; i < N * N; i++)
		matrix[i] = (i % N) + 100 * (i / N);

	tc_init();
	starpu_data_handle_t h, vert[2], horiz[2];
	starpu_matrix_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)matrix, N, N, N, sizeof(int));
	struct starpu_data_filter fv = {.filter_func = starpu_matrix_filter_block, .nchildren = 2};
	struct starpu_data_filter fh = {.filter_func = starpu_matrix_filter_vertical_block, .nchildren = 2};
	starpu_data_partition_plan(h, &fv, vert);
	starpu_data_partition_plan(h, &fh, horiz);
#if STARPU_MAJOR_VERSION > 1 || STARPU_MINOR_VERSION >= 4
	CHECK(starpu_data_partition_get_nplans(h) == 2, "%d plans", starpu_data_partition_get_nplans(h));
#endif
	CHECK(STARPU_MATRIX_GET_NX(starpu_data_get_interface_on_node(vert[1], STARPU_MAIN_RAM)) == 3,
	      "vertical half of %u columns", (unsigned)STARPU_MATRIX_GET_NX(starpu_data_get_interface_on_node(vert[1], STARPU_MAIN_RAM)));

	/* 1. read-write views, in submission order */
	affine(h, 2, 0);
	starpu_data_partition_submit(h, 2, vert);
	affine(vert[0], 1, 1);
	affine(vert[1], 1, 2);
	starpu_data_unpartition_submit(h, 2, vert, STARPU_MAIN_RAM);
	starpu_data_partition_submit(h, 2, horiz);
	affine(horiz[0], 3, 0);
	affine(horiz[1], 5, 0);
	starpu_data_unpartition_submit(h, 2, horiz, -1);
	affine(h, 1, 7);
	starpu_data_acquire(h, STARPU_R);
	for (int i = 0; i < N * N; i++) {
		int x = i % N, y = i / N;
		int want = ((x + 100 * y) * 2 + (x < 3 ? 1 : 2)) * (y < 3 ? 3 : 5) + 7;
		CHECK(matrix[i] == want, "(%d, %d) = %d, expected %d", x, y, matrix[i], want);
	}
	starpu_data_release(h);

	/* 2. read-only views: the whole matrix and every child read */
	starpu_data_acquire(h, STARPU_W);
	for (int i = 0; i < N * N; i++)
		matrix[i] = (i % N) + 100 * (i / N);
	starpu_data_release(h);
	starpu_data_partition_readonly_submit(h, 2, vert);
	starpu_data_partition_readonly_submit(h, 2, horiz);
	check(vert[0], 1, 0, 0);
	check(vert[1], 1, 3, 0);
	check(horiz[0], 1, 0, 0);
	check(horiz[1], 1, 0, 3);
	check(h, 1, 0, 0);
	if (starpu_cpu_worker_get_count() >= 2) {
		int zero = 0, one = 1;
		/* On two different workers, whatever the scheduling policy. */
		MUST(starpu_task_insert(&meet_cl, STARPU_R, h, STARPU_VALUE, &zero, sizeof(zero),
					STARPU_EXECUTE_ON_WORKER, 0, 0));
		MUST(starpu_task_insert(&meet_cl, STARPU_R, horiz[1], STARPU_VALUE, &one, sizeof(one),
					STARPU_EXECUTE_ON_WORKER, 1, 0));
		starpu_task_wait_for_all();
		CHECK(met == 2, "a reader of the whole and a reader of a child ran at once (%d met)", met);
	}

	/* 3. upgrade the horizontal view, write it, then make everything readable again */
	starpu_data_unpartition_submit(h, 2, vert, -1);
	starpu_data_partition_readwrite_upgrade_submit(h, 2, horiz);
	affine(horiz[0], 2, 0);
	affine(horiz[1], 2, 0);
	starpu_data_unpartition_readonly_submit(h, 2, horiz, -1);
	starpu_data_partition_readonly_submit(h, 2, vert);
	check(vert[0], 2, 0, 0);
	check(vert[1], 2, 3, 0);
	check(horiz[1], 2, 0, 3);
	check(h, 2, 0, 0);
	starpu_data_unpartition_submit(h, 2, vert, -1);

	/* 4. the callback of an unpartitioning */
	starpu_data_unpartition_submit_sequential_consistency_cb(h, 2, horiz, -1, 1, count_cb, &callbacks);
	affine(h, 1, 1);
	starpu_task_wait_for_all();
	CHECK(callbacks == 1, "the unpartitioning callback ran %d times", callbacks);
	CHECK(mismatches == 0, "%d elements read wrong", mismatches);

#if STARPU_MAJOR_VERSION > 1 || STARPU_MINOR_VERSION >= 4
	/* 5. fill through the children, then downgrade: everything readable */
	starpu_data_partition_submit(h, 2, vert);
	affine(vert[0], 0, 0);
	affine(vert[1], 0, 0);
	starpu_data_partition_readonly_downgrade_submit(h, 2, vert);
	check(h, 0, 0, 0);
	check(vert[1], 0, 3, 0);
	starpu_data_unpartition_submit(h, 2, vert, -1);
	starpu_task_wait_for_all();
	CHECK(mismatches == 0, "%d elements read wrong after the downgrade", mismatches);
#endif

	starpu_data_partition_clean(h, 2, vert);
	starpu_data_partition_clean(h, 2, horiz);
#if STARPU_MAJOR_VERSION > 1 || STARPU_MINOR_VERSION >= 4
	CHECK(starpu_data_partition_get_nplans(h) == 0, "%d plans left", starpu_data_partition_get_nplans(h));
#endif
	starpu_data_unregister(h);
	starpu_shutdown();
	for (int i = 0; i < N * N; i++) {
		int x = i % N, y = i / N;
#if STARPU_MAJOR_VERSION > 1 || STARPU_MINOR_VERSION >= 4
		int want = 0;
#else
		int want = 2 * (x + 100 * y) + 1;
#endif
		CHECK(matrix[i] == want, "final (%d, %d) = %d, expected %d", x, y, matrix[i], want);
	}
	return tc_failures ? 1 : 0;
}
