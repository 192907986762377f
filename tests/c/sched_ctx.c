/* Scheduling contexts through the C API: tasks of a context run only on its workers
 * (starpu_task_submit_to_ctx, task->sched_ctx, STARPU_SCHED_CTX in starpu_task_insert,
 * starpu_sched_ctx_set_context), deleting a context hands its tasks to the inheritor,
 * priorities and queries. */
#include "test_common.h"
#include <pthread.h>

#define NTASKS 40

static int ran_on[4 * NTASKS + 64];
static int nran;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void record(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	pthread_mutex_lock(&lock);
	ran_on[nran++] = starpu_worker_get_id();
	pthread_mutex_unlock(&lock);
}

static struct starpu_codelet cl = {
	.cpu_funcs = {record},
	.nbuffers = 0,
	.name = "record",
};

/* How many of the recorded tasks ran on a worker outside `allowed` (a bit mask). */
static int ran_outside(int mask)
{
	int bad = 0;
	for (int i = 0; i < nran; i++)
		if (!(mask & (1 << ran_on[i])))
			bad++;
	return bad;
}

int main(void)
{
	/* Three workers even under STARPU_NCPU=1: the test is about placing tasks on them. */
	struct starpu_conf conf;
	starpu_conf_init(&conf);
	conf.ncpus = 3;
	conf.precedence_over_environment_variables = 1;
	int ret = starpu_init(&conf);
	if (ret == -ENODEV)
		return 77;
	MUST(ret);
	CHECK(starpu_worker_get_count() == 3, "%u workers", starpu_worker_get_count());

	/* Exclusive context on worker 2 (eager); global context keeps 0 and 1. */
	int w2[] = {2};
	unsigned ctx = starpu_sched_ctx_create(w2, 1, "solo", STARPU_SCHED_CTX_POLICY_NAME, "eager",
					       STARPU_SCHED_CTX_POLICY_MIN_PRIO, -2,
					       STARPU_SCHED_CTX_POLICY_MAX_PRIO, 4,
					       STARPU_SCHED_CTX_HIERARCHY_LEVEL, 0,
					       STARPU_SCHED_CTX_AWAKE_WORKERS,
					       STARPU_SCHED_CTX_USER_DATA, (void *)&lock, 0);
	CHECK(ctx > 0 && ctx < STARPU_NMAX_SCHED_CTXS, "ctx %u", ctx);
	starpu_sched_ctx_remove_workers(w2, 1, STARPU_GLOBAL_SCHED_CTX);
	CHECK(starpu_sched_ctx_get_nworkers(ctx) == 1, "%u", starpu_sched_ctx_get_nworkers(ctx));
	CHECK(starpu_sched_ctx_get_nworkers(0) == 2, "%u", starpu_sched_ctx_get_nworkers(0));
	CHECK(starpu_sched_ctx_contains_worker(2, ctx) == 1, "contains 2");
	CHECK(starpu_sched_ctx_contains_worker(0, ctx) == 0, "contains 0");
	CHECK(starpu_sched_ctx_get_min_priority(ctx) == -2, "%d", starpu_sched_ctx_get_min_priority(ctx));
	CHECK(starpu_sched_ctx_get_max_priority(ctx) == 4, "%d", starpu_sched_ctx_get_max_priority(ctx));
	MUST(starpu_sched_ctx_set_max_priority(ctx, 6));
	CHECK(starpu_sched_ctx_get_max_priority(ctx) == 6, "%d", starpu_sched_ctx_get_max_priority(ctx));
	CHECK(starpu_sched_ctx_get_user_data(ctx) == (void *)&lock, "user data");
	int *list = NULL;
	unsigned n = starpu_sched_ctx_get_workers_list(ctx, &list);
	CHECK(n == 1 && list && list[0] == 2, "list %u", n);
	free(list);
	struct starpu_worker_collection *coll = starpu_sched_ctx_get_worker_collection(0);
	struct starpu_sched_ctx_iterator it;
	coll->init_iterator(coll, &it);
	int seen = 0;
	while (coll->has_next(coll, &it))
		seen |= 1 << coll->get_next(coll, &it);
	CHECK(seen == 3, "global collection %#x", seen);

	/* Three ways to submit to the context. */
	for (int i = 0; i < NTASKS; i++) {
		struct starpu_task *t = starpu_task_create();
		t->cl = &cl;
		MUST(starpu_task_submit_to_ctx(t, ctx));
		t = starpu_task_create();
		t->cl = &cl;
		t->sched_ctx = ctx;
		MUST(starpu_task_submit(t));
		MUST(starpu_task_insert(&cl, STARPU_SCHED_CTX, ctx, STARPU_PRIORITY, i % 4, 0));
	}
	/* The thread's current context. */
	CHECK(starpu_sched_ctx_get_context() == STARPU_NMAX_SCHED_CTXS, "%u", starpu_sched_ctx_get_context());
	starpu_sched_ctx_set_context(&ctx);
	CHECK(starpu_sched_ctx_get_context() == ctx, "%u", starpu_sched_ctx_get_context());
	for (int i = 0; i < NTASKS; i++)
		MUST(starpu_task_insert(&cl, 0));
	starpu_sched_ctx_set_context(NULL);
	MUST(starpu_task_wait_for_all());
	CHECK(nran == 4 * NTASKS, "%d tasks ran", nran);
	CHECK(ran_outside(1 << 2) == 0, "%d tasks of the context ran outside it", ran_outside(1 << 2));

	/* Submission fills in the context a task without one goes to, as StarPU does. */
	starpu_sched_ctx_set_context(&ctx);
	struct starpu_task *tc = starpu_task_create();
	tc->cl = &cl;
	tc->detach = 0;
	MUST(starpu_task_submit(tc));
	CHECK(tc->sched_ctx == ctx, "a task without a context: sched_ctx %u, expected the current %u",
	      tc->sched_ctx, ctx);
	MUST(starpu_task_wait(tc));
	starpu_sched_ctx_set_context(NULL);
	tc = starpu_task_create();
	tc->cl = &cl;
	tc->detach = 0;
	MUST(starpu_task_submit(tc));
	CHECK(tc->sched_ctx == 0, "a task without a context: sched_ctx %u, expected 0", tc->sched_ctx);
	MUST(starpu_task_wait(tc));

	/* Global tasks stay on workers 0 and 1. */
	nran = 0;
	for (int i = 0; i < NTASKS; i++)
		MUST(starpu_task_insert(&cl, 0));
	MUST(starpu_task_wait_for_all());
	CHECK(nran == NTASKS && ran_outside(3) == 0, "global: %d ran, %d outside", nran, ran_outside(3));

	/* A context without workers keeps its tasks; deleting it gives them to the inheritor. */
	unsigned empty = starpu_sched_ctx_create(NULL, 0, "empty", STARPU_SCHED_CTX_POLICY_NAME, "ws", 0);
	CHECK(empty < STARPU_NMAX_SCHED_CTXS && empty != ctx, "empty %u", empty);
	starpu_sched_ctx_set_inheritor(empty, ctx);
	CHECK(starpu_sched_ctx_get_inheritor(empty) == ctx, "inheritor");
	nran = 0;
	for (int i = 0; i < NTASKS; i++)
		MUST(starpu_task_insert(&cl, STARPU_SCHED_CTX, empty, 0));
	CHECK(starpu_sched_ctx_get_nready_tasks(empty) == NTASKS, "%d ready",
	      starpu_sched_ctx_get_nready_tasks(empty));
	CHECK(nran == 0, "%d ran in a context without workers", nran);
	starpu_sched_ctx_delete(empty);
	MUST(starpu_task_wait_for_all());
	CHECK(nran == NTASKS && ran_outside(1 << 2) == 0, "inherited: %d ran, %d outside", nran,
	      ran_outside(1 << 2));

	/* Adding a worker: it serves the context too. */
	int w1[] = {1};
	starpu_sched_ctx_add_workers(w1, 1, ctx);
	CHECK(starpu_sched_ctx_get_nworkers(ctx) == 2, "%u", starpu_sched_ctx_get_nworkers(ctx));
	CHECK(starpu_sched_ctx_overlapping_ctxs_on_worker(1) == 1, "overlap");
	nran = 0;
	for (int i = 0; i < NTASKS; i++)
		MUST(starpu_task_insert(&cl, STARPU_SCHED_CTX, ctx, 0));
	MUST(starpu_task_wait_for_all());
	CHECK(nran == NTASKS && ran_outside(6) == 0, "grown: %d ran, %d outside", nran, ran_outside(6));

	/* Errors: an unknown context, an unknown option, a bad worker. */
	struct starpu_task *t = starpu_task_create();
	t->cl = &cl;
	CHECK(starpu_task_submit_to_ctx(t, 7) == -EINVAL, "submit to a missing context");
	starpu_task_destroy(t);
	int bad[] = {9};
	CHECK(starpu_sched_ctx_create(bad, 1, "bad", 0) == STARPU_NMAX_SCHED_CTXS, "bad worker");
	CHECK(starpu_sched_ctx_create(w1, 1, "bad", 12345, 0) == STARPU_NMAX_SCHED_CTXS, "bad key");
	CHECK(starpu_sched_ctx_create(w1, 1, "bad", STARPU_SCHED_CTX_POLICY_NAME, "nope", 0) ==
		      STARPU_NMAX_SCHED_CTXS,
	      "bad policy");

	starpu_sched_ctx_delete(ctx);
	CHECK(starpu_sched_ctx_get_nworkers(ctx) == 0, "deleted");
	starpu_shutdown();
	return tc_failures ? 1 : 0;
}
