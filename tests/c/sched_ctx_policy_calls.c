/* Scheduling-context calls meant for policies and the hypervisor:
 * starpu_sched_ctx_set_priority / starpu_sched_ctx_get_priority.  A worker that belongs
 * to two contexts takes work from the one where its priority is higher first: tasks
 * queued in both while the runtime is paused run in the order the priorities give, and
 * swapping the priorities swaps the order. */
#include "test_common.h"

#define PER_CTX 3

static unsigned order[2 * PER_CTX];
static int norder;

/* Only worker 0 runs these tasks (both contexts hold it alone), so no lock is needed. */
static void record(void *buffers[], void *arg)
{
	(void)buffers;
	order[norder++] = (unsigned)(uintptr_t)arg;
}

static struct starpu_codelet cl = {
	.cpu_funcs = {record},
	.nbuffers = 0,
	.name = "record_ctx",
};

/* Queues PER_CTX tasks in each of `a` and `b` while paused, then lets worker 0 run them. */
static void run_round(unsigned a, unsigned b)
{
	norder = 0;
	starpu_pause();
	for (int i = 0; i < PER_CTX; i++) {
		MUST(starpu_task_insert(&cl, STARPU_SCHED_CTX, a, STARPU_CL_ARGS_NFREE,
					(void *)(uintptr_t)a, (size_t)0, 0));
		MUST(starpu_task_insert(&cl, STARPU_SCHED_CTX, b, STARPU_CL_ARGS_NFREE,
					(void *)(uintptr_t)b, (size_t)0, 0));
	}
	/* Policies that hold tasks until told (graph_test) let them all go before any runs. */
	starpu_do_schedule();
	starpu_resume();
	MUST(starpu_task_wait_for_all());
	CHECK(norder == 2 * PER_CTX, "%d tasks ran", norder);
}

static void check_first(unsigned first, unsigned second)
{
	for (int i = 0; i < norder; i++) {
		unsigned want = i < PER_CTX ? first : second;
		CHECK(order[i] == want, "task %d ran from context %u, expected %u", i, order[i], want);
	}
}

int main(void)
{
	/* Worker 0 is all the test needs, however many the environment asks for. */
	tc_init_ncpus(2);

	int w0[] = {0};
	unsigned low = starpu_sched_ctx_create(w0, 1, "low", STARPU_SCHED_CTX_POLICY_NAME, "eager", 0);
	unsigned high = starpu_sched_ctx_create(w0, 1, "high", STARPU_SCHED_CTX_POLICY_NAME, "eager", 0);
	CHECK(low > 0 && high > 0 && low != high, "contexts %u %u", low, high);

	/* A worker joins a context at priority 0. */
	CHECK(starpu_sched_ctx_get_priority(0, low) == 0, "%u", starpu_sched_ctx_get_priority(0, low));
	CHECK(starpu_sched_ctx_get_priority(0, high) == 0, "%u", starpu_sched_ctx_get_priority(0, high));
	CHECK(starpu_sched_ctx_get_priority(0, 0) == 0, "%u", starpu_sched_ctx_get_priority(0, 0));

	starpu_sched_ctx_set_priority(w0, 1, high, 7);
	starpu_sched_ctx_set_priority(w0, 1, low, 2);
	CHECK(starpu_sched_ctx_get_priority(0, high) == 7, "%u", starpu_sched_ctx_get_priority(0, high));
	CHECK(starpu_sched_ctx_get_priority(0, low) == 2, "%u", starpu_sched_ctx_get_priority(0, low));
	/* nworkers == -1 changes nothing, as in StarPU. */
	starpu_sched_ctx_set_priority(w0, -1, high, 1);
	CHECK(starpu_sched_ctx_get_priority(0, high) == 7, "%u", starpu_sched_ctx_get_priority(0, high));

	run_round(low, high);
	check_first(high, low);

	/* Swapped priorities swap the order. */
	starpu_sched_ctx_set_priority(w0, 1, high, 1);
	starpu_sched_ctx_set_priority(w0, 1, low, 9);
	run_round(low, high);
	check_first(low, high);

	/* Leaving and joining again starts over at 0. */
	starpu_sched_ctx_remove_workers(w0, 1, low);
	starpu_sched_ctx_add_workers(w0, 1, low);
	CHECK(starpu_sched_ctx_get_priority(0, low) == 0, "%u", starpu_sched_ctx_get_priority(0, low));

	starpu_sched_ctx_delete(low);
	starpu_sched_ctx_delete(high);
	starpu_shutdown();
	return tc_failures ? 1 : 0;
}
