/* end_deps: a task's end held by end dependencies, while the data it used is already
 * free for the tasks that wait for it (StarPU releases data when the kernel is done,
 * and the task's termination when its end dependencies are).
 *
 *  1. starpu_task_end_dep_add from inside a task: T1 (RW on x) holds its own end, inserts
 *     T2 (RW on x, which must wait for T1's kernel), and T2's callback releases T1's end.
 *     When starpu_task_wait(T1) returns, x holds T2's result.
 *  2. STARPU_TASK_END_DEPS_ARRAY from inside a task: T1 inserts T2 on x with
 *     STARPU_TASK_END_DEPS_ARRAY {T1}: T2 ends only after T1 has ended (StarPU's
 *     definition); both update x, in order.
 *  3. starpu_task_declare_end_deps on a task whose dependency has already ended (as in
 *     StarPU's tests/main/task_end_dep.c): the end dependency is met at once.
 * Kernels apply x = 3*x + k, so any misordering changes the value.
 */
#include "test_common.h"
#include <unistd.h>

static starpu_data_handle_t hx;
static struct starpu_task *t1;

static void affine(void *buffers[], void *arg)
{
	long *x = (long *)STARPU_VARIABLE_GET_PTR(buffers[0]);
	long k = (long)(uintptr_t)arg;
	usleep(2000);
	*x = 3 * *x + k;
}

static struct starpu_codelet affine_cl = {
	.cpu_funcs = {affine},
	.nbuffers = 1,
	.modes = {STARPU_RW},
	.name = "affine",
};

static void release_t1(void *arg)
{
	starpu_task_end_dep_release((struct starpu_task *)arg);
}

/* Part 1: T1 holds its own end until T2 is done. */
static void parent_holding_end(void *buffers[], void *arg)
{
	affine(buffers, arg);
	struct starpu_task *self = starpu_task_get_current();
	starpu_task_end_dep_add(self, 1);
	int ret = starpu_task_insert(&affine_cl, STARPU_RW, hx, STARPU_CL_ARGS_NFREE, (void *)(uintptr_t)2, (size_t)0,
				     STARPU_CALLBACK_WITH_ARG_NFREE, release_t1, self, 0);
	CHECK(ret == 0, "insert from a task returned %d", ret);
}

static struct starpu_codelet parent1_cl = {
	.cpu_funcs = {parent_holding_end},
	.nbuffers = 1,
	.modes = {STARPU_RW},
	.name = "parent1",
};

/* Part 2: T2 (inserted by T1) ends only once T1 has ended. */
static void parent_with_end_array(void *buffers[], void *arg)
{
	affine(buffers, arg);
	struct starpu_task *self = starpu_task_get_current();
	int ret = starpu_task_insert(&affine_cl, STARPU_RW, hx, STARPU_CL_ARGS_NFREE, (void *)(uintptr_t)5, (size_t)0,
				     STARPU_TASK_END_DEPS_ARRAY, 1, &self, 0);
	CHECK(ret == 0, "insert from a task returned %d", ret);
}

static struct starpu_codelet parent2_cl = {
	.cpu_funcs = {parent_with_end_array},
	.nbuffers = 1,
	.modes = {STARPU_RW},
	.name = "parent2",
};

static struct starpu_task *build(struct starpu_codelet *cl, long k)
{
	struct starpu_task *t = starpu_task_create();
	t->cl = cl;
	t->handles[0] = hx;
	t->cl_arg = (void *)(uintptr_t)k;
	t->detach = 0;
	return t;
}

int main(void)
{
	long x = 1;
	tc_init();
	starpu_variable_data_register(&hx, STARPU_MAIN_RAM, (uintptr_t)&x, sizeof(x));

	/* 1 */
	t1 = build(&parent1_cl, 1);
	MUST(starpu_task_submit(t1));
	MUST(starpu_task_wait(t1));
	MUST(starpu_data_acquire(hx, STARPU_R));
	CHECK(x == 3 * (3 * 1 + 1) + 2, "after waiting for T1, x = %ld, expected %d (T2's result)", x,
	      3 * (3 * 1 + 1) + 2);
	starpu_data_release(hx);

	/* 2 */
	x = 1;
	struct starpu_task *p = build(&parent2_cl, 4);
	MUST(starpu_task_submit(p));
	MUST(starpu_task_wait(p));
	MUST(starpu_task_wait_for_all());
	MUST(starpu_data_acquire(hx, STARPU_R));
	CHECK(x == 3 * (3 * 1 + 4) + 5, "x = %ld, expected %d", x, 3 * (3 * 1 + 4) + 5);
	starpu_data_release(hx);

	/* 3 */
	x = 1;
	struct starpu_task *first = build(&affine_cl, 1);
	first->destroy = 0;
	MUST(starpu_task_submit(first));
	MUST(starpu_task_wait(first));
	struct starpu_task *second = build(&affine_cl, 2);
	starpu_task_declare_end_deps(second, 1, first);
	starpu_task_destroy(first);
	MUST(starpu_task_submit(second));
	MUST(starpu_task_wait(second));
	MUST(starpu_data_acquire(hx, STARPU_R));
	CHECK(x == 3 * (3 * 1 + 1) + 2, "x = %ld, expected %d", x, 3 * (3 * 1 + 1) + 2);
	starpu_data_release(hx);

	starpu_data_unregister(hx);
	starpu_shutdown();
	return tc_finish("end_deps");
}
