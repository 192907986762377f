/* incrementer: many tasks on one vector, checked with acquire/release.
 *
 * A 4-int vector; each task adds 1 to elements 0 and 1 (STARPU_RW), so the
 * tasks form a chain through implicit dependencies.  Every ROUND tasks the
 * main thread acquires the vector for reading and checks that exactly the
 * tasks submitted so far have run; once it acquires it for writing and sets
 * element 2, which the next tasks must see.  Tasks are made both with
 * starpu_task_create/starpu_task_submit and with starpu_task_insert.
 */
#include "test_common.h"

#define NTASKS 4000
#define ROUND  500

static int saw_marker_wrong;  /* tasks after the RW acquire check element 2 */

static void inc_cpu(void *buffers[], void *cl_arg)
{
	int *v = (int *)STARPU_VECTOR_GET_PTR(buffers[0]);
	int expect_marker = cl_arg ? *(int *)cl_arg : -1;
	if (expect_marker >= 0 && v[2] != expect_marker)
		saw_marker_wrong = 1;
	v[0] += 1;
	v[1] += 1;
}

static struct starpu_codelet inc_cl = {
	.cpu_funcs = { inc_cpu },
	.cpu_funcs_name = { "inc_cpu" },
	.nbuffers = 1,
	.modes = { STARPU_RW },
	.name = "increment",
};

int main(void)
{
	int v[4] = { 0, 0, 0, 0 };
	int marker = 77;

	tc_init();

	starpu_data_handle_t h;
	starpu_vector_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)v, 4, sizeof(int));

	for (int i = 0; i < NTASKS; i++) {
		int after_marker = i >= NTASKS / 2;
		if (i % 2) {
			struct starpu_task *t = starpu_task_create();
			t->cl = &inc_cl;
			t->handles[0] = h;
			if (after_marker) {
				t->cl_arg = &marker;
				t->cl_arg_size = sizeof(marker);
			}
			MUST(starpu_task_submit(t));
		} else if (after_marker) {
			MUST(starpu_task_insert(&inc_cl, STARPU_RW, h, STARPU_CL_ARGS_NFREE, &marker, sizeof(marker), 0));
		} else {
			MUST(starpu_task_insert(&inc_cl, STARPU_RW, h, 0));
		}

		if ((i + 1) % ROUND == 0) {
			MUST(starpu_data_acquire(h, STARPU_R));
			CHECK(v[0] == i + 1 && v[1] == i + 1, "after %d tasks: v = {%d, %d}, expected {%d, %d}",
			      i + 1, v[0], v[1], i + 1, i + 1);
			starpu_data_release(h);
		}
		if (i + 1 == NTASKS / 2) {
			MUST(starpu_data_acquire(h, STARPU_RW));
			v[2] = marker;
			starpu_data_release(h);
		}
	}

	starpu_task_wait_for_all();
	starpu_data_unregister(h);
	starpu_shutdown();

	CHECK(v[0] == NTASKS && v[1] == NTASKS, "v = {%d, %d}, expected {%d, %d}", v[0], v[1], NTASKS, NTASKS);
	CHECK(v[2] == marker && v[3] == 0, "v[2..3] = {%d, %d}, expected {%d, 0}", v[2], v[3], marker);
	CHECK(!saw_marker_wrong, "a task submitted after the RW acquire did not see its write");
	return tc_finish("incrementer");
}
