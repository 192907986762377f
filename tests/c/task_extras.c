/* Task calls of StarPU 1.4 beyond submission: starpu_task_finished, starpu_task_dup,
 * starpu_task_set_destroy, starpu_tag_get_task, starpu_create_sync_task,
 * starpu_task_get_current_data_node, starpu_is_paused, starpu_codelet_nop, and the
 * theoretical bound, which this build answers with 0. */
#include "test_common.h"

static int current_node = -2, past_last = -2;

static void add_one(void *buffers[], void *arg)
{
	(void)arg;
	int *x = (int *)STARPU_VARIABLE_GET_PTR(buffers[0]);
	*x += 1;
	current_node = starpu_task_get_current_data_node(0);
	past_last = starpu_task_get_current_data_node(1);
}

static struct starpu_codelet add_cl = {
	.cpu_funcs = {add_one},
	.nbuffers = 1,
	.modes = {STARPU_RW},
	.name = "add_one",
};

static int sync_callback_ran;

static void sync_callback(void *arg)
{
	*(int *)arg = 1;
}

int main(void)
{
	tc_init();
	int x = 0;
	starpu_data_handle_t h;
	starpu_variable_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)&x, sizeof x);

	/* starpu_task_finished before submission, after the end. */
	struct starpu_task *t = starpu_task_create();
	t->cl = &add_cl;
	t->handles[0] = h;
	t->detach = 0;
	t->destroy = 0;
	CHECK(starpu_task_finished(t) == 0, "a task not submitted is not finished");
	MUST(starpu_task_submit(t));
	MUST(starpu_task_wait(t));
	CHECK(starpu_task_finished(t) == 1, "a waited-for task is finished");
	CHECK(current_node == STARPU_MAIN_RAM, "buffer 0 was on node %d", current_node);
	CHECK(past_last == -1, "a buffer past the last one gave node %d", past_last);
	CHECK(starpu_task_get_current_data_node(0) == -1, "a node outside any task");

	/* starpu_task_dup: the same work, submitted on its own. */
	struct starpu_task *d = starpu_task_dup(t);
	CHECK(d != NULL && d != t, "no duplicate");
	CHECK(d->cl == &add_cl && d->handles[0] == h, "the duplicate lost its fields");
	CHECK(starpu_task_finished(d) == 0, "the duplicate was never submitted");
	MUST(starpu_task_submit(d));
	MUST(starpu_task_wait(d));
	CHECK(x == 2, "x = %d after the task and its duplicate, expected 2", x);
	starpu_task_destroy(d);
	starpu_task_destroy(t);

	/* starpu_task_set_destroy on a detached task while it waits: freed at its end. */
	starpu_pause();
	CHECK(starpu_is_paused() == 1, "not paused after starpu_pause");
	struct starpu_task *late = starpu_task_create();
	late->cl = &add_cl;
	late->handles[0] = h;
	late->destroy = 0;
	MUST(starpu_task_submit(late));
	starpu_task_set_destroy(late);
	starpu_resume();
	CHECK(starpu_is_paused() == 0, "still paused after starpu_resume");
	MUST(starpu_task_wait_for_all());
	CHECK(x == 3, "x = %d, expected 3", x);

	/* Tags: the task carrying a tag, and a sync task gathering tags. */
	struct starpu_task *tagged = starpu_task_create();
	tagged->cl = &add_cl;
	tagged->handles[0] = h;
	tagged->use_tag = 1;
	tagged->tag_id = 41;
	tagged->detach = 0;
	tagged->destroy = 0;
	starpu_pause();
	MUST(starpu_task_submit(tagged));
	CHECK(starpu_tag_get_task(41) == tagged, "starpu_tag_get_task(41) is not the task carrying it");
	CHECK(starpu_tag_get_task(4242) == NULL, "a task for a tag nobody carries");
	starpu_tag_t deps[2] = {41, 42};
	starpu_create_sync_task(43, 2, deps, sync_callback, &sync_callback_ran);
	starpu_resume();
	MUST(starpu_task_wait(tagged));
	CHECK(sync_callback_ran == 0, "the sync task ran before tag 42 was done");
	starpu_tag_notify_from_apps(42);
	MUST(starpu_tag_wait(43));
	CHECK(sync_callback_ran == 1, "the sync task's callback did not run");
	starpu_task_destroy(tagged);

	/* starpu_codelet_nop: a task that runs nowhere, yet orders and ends. */
	struct starpu_task *nop = starpu_task_create();
	nop->cl = &starpu_codelet_nop;
	nop->detach = 0;
	MUST(starpu_task_submit(nop));
	MUST(starpu_task_wait(nop));

	/* The theoretical bound is not available: StarPU's answer without an LP solver. */
	double bound = -1.0, integer_bound = -1.0;
	starpu_bound_start(0, 0);
	starpu_bound_stop();
	starpu_bound_compute(&bound, &integer_bound, 1);
	CHECK(bound == 0.0 && integer_bound == 0.0, "bound %f / %f, expected 0", bound, integer_bound);

	starpu_data_unregister(h);
	CHECK(x == 4, "x = %d at the end, expected 4", x);
	starpu_shutdown();
	return tc_failures ? 1 : 0;
}
