/* seq_consistency: implicit data dependencies on and off.
 *
 *  1. on (the default): N writers x = 3x + k on one variable, interleaved
 *     with readers that record the value they see.  Writers are not
 *     commutative, so the final value and every reader's value must be
 *     exactly those of the sequential program (readers run after the
 *     writers before them and before the writers after them).
 *  2. a task held back by a tag (never notified yet) then a second task on
 *     the same handle, then the tag is notified:
 *       - consistency on: the second task waits for the first (x = 10x+1,
 *         then 10x+2: 12);
 *       - consistency off for the handle
 *         (starpu_data_set_sequential_consistency_flag): the second task
 *         runs first, and the main thread can even wait for it (21);
 *       - consistency off for the second task only
 *         (task->sequential_consistency = 0): same, 21.
 */
#include "test_common.h"

#define NWRITERS 200

static void affine_cpu(void *buffers[], void *cl_arg)
{
	uint64_t k;
	starpu_codelet_unpack_args(cl_arg, &k);
	uint64_t *x = (uint64_t *)STARPU_VARIABLE_GET_PTR(buffers[0]);
	*x = *x * 3 + k;
}

static struct starpu_codelet affine_cl = {
	.cpu_funcs = { affine_cpu },
	.nbuffers = 1,
	.modes = { STARPU_RW },
	.name = "affine",
};

static uint64_t observed[NWRITERS];

static void observe_cpu(void *buffers[], void *cl_arg)
{
	int slot;
	starpu_codelet_unpack_args(cl_arg, &slot);
	observed[slot] = *(uint64_t *)STARPU_VARIABLE_GET_PTR(buffers[0]);
}

static struct starpu_codelet observe_cl = {
	.cpu_funcs = { observe_cpu },
	.nbuffers = 1,
	.modes = { STARPU_R },
	.name = "observe",
};

/* x = 10x + digit */
static void digit_cpu(void *buffers[], void *cl_arg)
{
	int *x = (int *)STARPU_VARIABLE_GET_PTR(buffers[0]);
	*x = *x * 10 + *(int *)cl_arg;
}

static struct starpu_codelet digit_cl = {
	.cpu_funcs = { digit_cpu },
	.nbuffers = 1,
	.modes = { STARPU_RW },
	.name = "digit",
};

static int one = 1, two = 2;

/* Part 2, with one of three ways of (not) ordering the second task. */
enum mode { CONSISTENT, HANDLE_OFF, TASK_OFF };

static int held_then_free(enum mode mode, starpu_tag_t hold, starpu_tag_t first_tag)
{
	int x = 0;
	starpu_data_handle_t h;
	starpu_variable_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)&x, sizeof(x));
	if (mode == HANDLE_OFF) {
		starpu_data_set_sequential_consistency_flag(h, 0);
		CHECK(starpu_data_get_sequential_consistency_flag(h) == 0, "flag still %u after setting it to 0",
		      starpu_data_get_sequential_consistency_flag(h));
	} else {
		CHECK(starpu_data_get_sequential_consistency_flag(h) == 1, "flag is %u by default",
		      starpu_data_get_sequential_consistency_flag(h));
	}

	/* first task: waits for tag `hold`, which nobody has notified yet */
	starpu_tag_declare_deps(first_tag, 1, hold);
	struct starpu_task *first = starpu_task_create();
	first->cl = &digit_cl;
	first->handles[0] = h;
	first->cl_arg = &one;
	first->use_tag = 1;
	first->tag_id = first_tag;
	MUST(starpu_task_submit(first));

	if (mode == CONSISTENT) {
		MUST(starpu_task_insert(&digit_cl, STARPU_RW, h, STARPU_CL_ARGS_NFREE, &two, sizeof(two), 0));
	} else {
		/* not ordered after the held task: the main thread can wait for it */
		struct starpu_task *second = starpu_task_create();
		second->cl = &digit_cl;
		second->handles[0] = h;
		second->cl_arg = &two;
		second->detach = 0;
		if (mode == TASK_OFF)
			second->sequential_consistency = 0;
		MUST(starpu_task_submit(second));
		MUST(starpu_task_wait(second));
	}

	starpu_tag_notify_from_apps(hold);
	starpu_task_wait_for_all();
	starpu_data_unregister(h);
	return x;
}

int main(void)
{
	uint64_t x = 1, expect = 1;
	uint64_t expected_obs[NWRITERS];

	tc_init();
	CHECK(starpu_data_get_default_sequential_consistency_flag() == 1, "default flag is %u",
	      starpu_data_get_default_sequential_consistency_flag());

	/* 1. */
	starpu_data_handle_t h;
	starpu_variable_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)&x, sizeof(x));
	for (int i = 0; i < NWRITERS; i++) {
		uint64_t k = (uint64_t)i * 7 + 1;
		MUST(starpu_task_insert(&affine_cl, STARPU_RW, h, STARPU_VALUE, &k, sizeof(k), 0));
		expect = expect * 3 + k;
		MUST(starpu_task_insert(&observe_cl, STARPU_R, h, STARPU_VALUE, &i, sizeof(i), 0));
		expected_obs[i] = expect;
	}
	starpu_task_wait_for_all();
	starpu_data_unregister(h);
	CHECK(x == expect, "final value %llu, expected %llu", (unsigned long long)x, (unsigned long long)expect);
	int bad = 0;
	for (int i = 0; i < NWRITERS; i++)
		if (observed[i] != expected_obs[i] && bad++ < 5)
			CHECK(0, "reader %d saw %llu, expected %llu", i, (unsigned long long)observed[i],
			      (unsigned long long)expected_obs[i]);
	CHECK(bad == 0, "%d readers saw a wrong value", bad);

	/* 2. */
	int r = held_then_free(CONSISTENT, 1001, 1002);
	CHECK(r == 12, "consistency on: x = %d, expected 12 (held task first)", r);
	r = held_then_free(HANDLE_OFF, 2001, 2002);
	CHECK(r == 21, "handle consistency off: x = %d, expected 21 (free task first)", r);
	r = held_then_free(TASK_OFF, 3001, 3002);
	CHECK(r == 21, "task consistency off: x = %d, expected 21 (free task first)", r);

	starpu_shutdown();
	return tc_finish("seq_consistency");
}
