/* callback_chain: callbacks that submit new tasks.
 *
 *  1. a chain: the callback of task k submits task k+1 (starpu_task_create /
 *     starpu_task_submit), up to CHAIN tasks; all increment one variable.
 *  2. a tree: the callback of each task submits two children with
 *     starpu_task_insert, DEPTH levels deep (2^(DEPTH+1) - 1 tasks); the
 *     level travels in the callback argument, hence the _NFREE flavours of
 *     STARPU_CALLBACK_WITH_ARG / STARPU_CALLBACK_ARG (the plain ones free() it).
 * starpu_task_wait_for_all called by the main thread must cover the tasks
 * submitted from callbacks; the counts and the variable are then exact.
 */
#include "test_common.h"

#define CHAIN 64
#define DEPTH 6

static starpu_data_handle_t chain_handle, tree_handle;
static int chain_callbacks, tree_callbacks, submit_errors;

static void inc_cpu(void *buffers[], void *cl_arg)
{
	(void)cl_arg;
	int *v = (int *)STARPU_VARIABLE_GET_PTR(buffers[0]);
	*v += 1;
}

static struct starpu_codelet inc_cl = {
	.cpu_funcs = { inc_cpu },
	.cpu_funcs_name = { "inc_cpu" },
	.nbuffers = 1,
	.modes = { STARPU_RW },
	.name = "callback_inc",
};

static void chain_next(void *arg)
{
	uintptr_t k = (uintptr_t)arg;
	__atomic_add_fetch(&chain_callbacks, 1, __ATOMIC_SEQ_CST);
	if (k + 1 >= CHAIN)
		return;
	struct starpu_task *t = starpu_task_create();
	t->cl = &inc_cl;
	t->handles[0] = chain_handle;
	t->callback_func = chain_next;
	t->callback_arg = (void *)(k + 1);
	if (starpu_task_submit(t) != 0)
		__atomic_add_fetch(&submit_errors, 1, __ATOMIC_SEQ_CST);
}

static void tree_children(void *arg)
{
	uintptr_t level = (uintptr_t)arg;
	__atomic_add_fetch(&tree_callbacks, 1, __ATOMIC_SEQ_CST);
	if (level >= DEPTH)
		return;
	for (int c = 0; c < 2; c++)
		if (starpu_task_insert(&inc_cl, STARPU_RW, tree_handle,
				       STARPU_CALLBACK_WITH_ARG_NFREE, tree_children, (void *)(level + 1), 0) != 0)
			__atomic_add_fetch(&submit_errors, 1, __ATOMIC_SEQ_CST);
}

int main(void)
{
	int chain_value = 0, tree_value = 0;

	tc_init();
	starpu_variable_data_register(&chain_handle, STARPU_MAIN_RAM, (uintptr_t)&chain_value, sizeof(int));
	starpu_variable_data_register(&tree_handle, STARPU_MAIN_RAM, (uintptr_t)&tree_value, sizeof(int));

	struct starpu_task *t = starpu_task_create();
	t->cl = &inc_cl;
	t->handles[0] = chain_handle;
	t->callback_func = chain_next;
	t->callback_arg = (void *)(uintptr_t)0;
	MUST(starpu_task_submit(t));

	MUST(starpu_task_insert(&inc_cl, STARPU_RW, tree_handle,
				STARPU_CALLBACK, tree_children, STARPU_CALLBACK_ARG_NFREE, (void *)(uintptr_t)0, 0));

	starpu_task_wait_for_all();
	starpu_data_unregister(chain_handle);
	starpu_data_unregister(tree_handle);
	starpu_shutdown();

	int tree_tasks = (1 << (DEPTH + 1)) - 1;
	CHECK(submit_errors == 0, "%d submissions from callbacks failed", submit_errors);
	CHECK(chain_value == CHAIN, "chain variable = %d, expected %d", chain_value, CHAIN);
	CHECK(chain_callbacks == CHAIN, "%d chain callbacks ran, expected %d", chain_callbacks, CHAIN);
	CHECK(tree_value == tree_tasks, "tree variable = %d, expected %d", tree_value, tree_tasks);
	CHECK(tree_callbacks == tree_tasks, "%d tree callbacks ran, expected %d", tree_callbacks, tree_tasks);
	return tc_finish("callback_chain");
}
