/* shutdown_drains: starpu_shutdown first lets every submitted task end, and while it waits
 * the tasks may still use the API: here a task defers its own end (starpu_task_end_dep_add)
 * until the callback of a task it submits releases it (starpu_task_end_dep_release), and
 * that second task only comes to run after the program already called starpu_shutdown. The
 * value written by both kernels must be there, and the release must find the runtime.
 */
#include "test_common.h"

static int value;

static void second(void *buffers[], void *arg)
{
	(void)buffers, (void)arg;
	__atomic_fetch_add(&value, 10, __ATOMIC_SEQ_CST);
}

static struct starpu_codelet second_cl = {
	.cpu_funcs = {second},
	.nbuffers = 0,
	.name = "second",
};

static void release_first(void *arg)
{
	starpu_task_end_dep_release((struct starpu_task *)arg);
}

static void first(void *buffers[], void *arg)
{
	(void)buffers, (void)arg;
	struct starpu_task *self = starpu_task_get_current();
	starpu_task_end_dep_add(self, 1);
	int ret = starpu_task_insert(&second_cl, STARPU_CALLBACK_WITH_ARG_NFREE, release_first, self, 0);
	if (ret != 0)
		fprintf(stderr, "inserting the second task returned %d\n", ret);
	__atomic_fetch_add(&value, 1, __ATOMIC_SEQ_CST);
}

static struct starpu_codelet first_cl = {
	.cpu_funcs = {first},
	.nbuffers = 0,
	.name = "first",
};

int main(void)
{
	tc_init();
	MUST(starpu_task_insert(&first_cl, 0));
	starpu_shutdown();
	CHECK(value == 11, "value = %d, expected 11: both tasks ran before shutdown returned", value);
	return tc_finish("shutdown_drains");
}
