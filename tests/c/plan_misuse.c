/* plan_misuse: misused partitioning gets an error and changes nothing (our behaviour:
 * StarPU asserts on most of these). The calls return void, so each check looks at the
 * data afterwards: still whole or still partitioned as before, values intact.
 *
 *  1. a filter cutting more parts than elements: the data stays whole.
 *  2. a standard filter function called on the wrong interface (from C): the child
 *     description is left untouched.
 *  3. submitting a plan twice, unpartitioning a plan that is not active, giving children
 *     of another plan or another handle: refused, the active view unchanged.
 *  4. synchronous partitioning of a handle that has plans: refused.
 *  5. unregistering a plan's child: refused (starpu_data_partition_clean does it).
 *  6. NULL handles and arrays: refused.
 * Errors are printed on stderr; the test checks what the data looks like afterwards.
 */
#include "test_common.h"

static void add_cpu(void *buffers[], void *arg)
{
	(void)arg;
	int n = STARPU_VECTOR_GET_NX(buffers[0]);
	int *v = (int *)STARPU_VECTOR_GET_PTR(buffers[0]);
	for (int i = 0; i < n; i++)
		v[i] += 1;
}

static struct starpu_codelet add_cl = {.cpu_funcs = {add_cpu}, .nbuffers = 1, .modes = {STARPU_RW}};

int main(void)
{
	int v[8] = {0};
	tc_init();
	starpu_data_handle_t h, other;
	starpu_vector_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)v, 8, sizeof(int));
	starpu_vector_data_register(&other, STARPU_MAIN_RAM, (uintptr_t)(v + 4), 4, sizeof(int));

	/* 1 */
	struct starpu_data_filter nine = {.filter_func = starpu_vector_filter_block, .nchildren = 9};
	starpu_data_partition(h, &nine);
	CHECK(starpu_data_get_nb_children(h) == 0, "cut in 9 parts of 8 elements: %d children", starpu_data_get_nb_children(h));

	/* 2 */
	struct starpu_matrix_interface mat = {.id = STARPU_MATRIX_INTERFACE_ID, .nx = 4, .ny = 4, .ld = 4, .elemsize = 4};
	struct starpu_vector_interface out = {.id = 12345};
	struct starpu_data_filter vf = {.filter_func = starpu_vector_filter_block, .nchildren = 2};
	starpu_vector_filter_block(&mat, &out, &vf, 0, 2);
	CHECK(out.id == 12345, "the child of a misapplied filter was written");

	/* 3 */
	starpu_data_handle_t halves[2], quarters[4], bad[2];
	struct starpu_data_filter f2 = {.filter_func = starpu_vector_filter_block, .nchildren = 2};
	struct starpu_data_filter f4 = {.filter_func = starpu_vector_filter_block, .nchildren = 4};
	starpu_data_partition_plan(h, &f2, halves);
	starpu_data_partition_plan(h, &f4, quarters);
	starpu_data_unpartition_submit(h, 2, halves, -1); /* not active */
	starpu_data_partition_submit(h, 2, halves);
	starpu_data_partition_submit(h, 2, halves);   /* twice */
	starpu_data_partition_submit(h, 4, quarters); /* another plan while one is active */
	bad[0] = halves[0];
	bad[1] = quarters[1];
	starpu_data_unpartition_submit(h, 2, bad, -1); /* children of two plans */
	starpu_data_partition_submit(other, 2, halves); /* children of another handle */
	MUST(starpu_task_insert(&add_cl, STARPU_RW, halves[1], 0));
	/* the halves are still the active view: unpartitioning them works */
	starpu_data_unpartition_submit(h, 2, halves, -1);
	starpu_data_acquire(h, STARPU_R);
	for (int i = 0; i < 8; i++)
		CHECK(v[i] == (i >= 4), "v[%d] = %d", i, v[i]);
	starpu_data_release(h);

	/* 4 */
	starpu_data_partition(h, &f2);
	CHECK(starpu_data_get_nb_children(h) == 0, "a handle with plans was partitioned synchronously");

	/* 5 */
	CHECK(starpu_data_partition_get_nplans(h) == 2, "%d plans", starpu_data_partition_get_nplans(h));
	starpu_data_unregister(quarters[0]);
	MUST(starpu_task_insert(&add_cl, STARPU_RW, quarters[0], 0)); /* still usable */

	/* 6 */
	starpu_data_partition_plan(NULL, &f2, halves);
	starpu_data_partition_plan(h, &f2, NULL);
	starpu_data_partition_submit(h, 2, NULL);
	starpu_data_partition_clean(h, 0, halves);
	CHECK(starpu_data_partition_get_nplans(NULL) == 0, "plans of NULL");

	starpu_data_partition_clean(h, 2, halves);
	starpu_data_partition_clean(h, 4, quarters);
	CHECK(starpu_data_partition_get_nplans(h) == 0, "%d plans left", starpu_data_partition_get_nplans(h));
	starpu_data_unregister(other);
	starpu_data_unregister(h);
	starpu_shutdown();
	int want[8] = {1, 1, 0, 0, 1, 1, 1, 1};
	for (int i = 0; i < 8; i++)
		CHECK(v[i] == want[i], "final v[%d] = %d, expected %d", i, v[i], want[i]);
	return tc_failures ? 1 : 0;
}
