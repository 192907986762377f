/* An application-defined scheduling policy (struct starpu_sched_policy), written the
 * way StarPU's examples/scheduler shows: one FIFO of tasks in the policy data of its
 * context, guarded by a mutex, workers woken through the context's worker collection.
 * Used for the global context (conf.sched_policy) and for a context
 * (STARPU_SCHED_CTX_POLICY_STRUCT); checks that its push/pop really ran for every task,
 * its hooks were called, and the tasks computed the right values. */
#include "test_common.h"
#include <pthread.h>

#define NTASKS 200

struct fifo_data {
	struct starpu_task_list list;
	pthread_mutex_t mutex;
	int nworkers_added;
};

static int npush, npop, ninit, ndeinit, npre, npost;
static pthread_mutex_t counters = PTHREAD_MUTEX_INITIALIZER;

static void count(int *c)
{
	pthread_mutex_lock(&counters);
	(*c)++;
	pthread_mutex_unlock(&counters);
}

static void fifo_init(unsigned ctx)
{
	struct fifo_data *d = malloc(sizeof(*d));
	starpu_task_list_init(&d->list);
	pthread_mutex_init(&d->mutex, NULL);
	d->nworkers_added = 0;
	starpu_sched_ctx_set_policy_data(ctx, d);
	count(&ninit);
}

static void fifo_deinit(unsigned ctx)
{
	struct fifo_data *d = starpu_sched_ctx_get_policy_data(ctx);
	CHECK(starpu_task_list_empty(&d->list), "tasks left in the policy at deinit");
	pthread_mutex_destroy(&d->mutex);
	free(d);
	count(&ndeinit);
}

static void fifo_add_workers(unsigned ctx, int *workerids, unsigned n)
{
	struct fifo_data *d = starpu_sched_ctx_get_policy_data(ctx);
	(void)workerids;
	pthread_mutex_lock(&d->mutex);
	d->nworkers_added += n;
	pthread_mutex_unlock(&d->mutex);
}

static int fifo_push(struct starpu_task *task)
{
	unsigned ctx = task->sched_ctx;
	struct fifo_data *d = starpu_sched_ctx_get_policy_data(ctx);
	pthread_mutex_lock(&d->mutex);
	starpu_task_list_push_back(&d->list, task);
	starpu_push_task_end(task);
	pthread_mutex_unlock(&d->mutex);
	count(&npush);
	/* Wake one worker of the context. */
	struct starpu_worker_collection *workers = starpu_sched_ctx_get_worker_collection(ctx);
	struct starpu_sched_ctx_iterator it;
	workers->init_iterator(workers, &it);
	while (workers->has_next(workers, &it)) {
		int w = workers->get_next(workers, &it);
		if (starpu_wake_worker_no_relax(w))
			break;
	}
	return 0;
}

static struct starpu_task *fifo_pop(unsigned ctx)
{
	struct fifo_data *d = starpu_sched_ctx_get_policy_data(ctx);
	CHECK(starpu_sched_ctx_contains_worker(starpu_worker_get_id(), ctx), "pop by a foreign worker");
	pthread_mutex_lock(&d->mutex);
	struct starpu_task *t = starpu_task_list_pop_front(&d->list);
	pthread_mutex_unlock(&d->mutex);
	if (t)
		count(&npop);
	return t;
}

static void pre_hook(struct starpu_task *task, unsigned ctx)
{
	(void)task;
	(void)ctx;
	count(&npre);
}

static void post_hook(struct starpu_task *task, unsigned ctx)
{
	(void)task;
	(void)ctx;
	count(&npost);
}

static struct starpu_sched_policy fifo_policy = {
	.init_sched = fifo_init,
	.deinit_sched = fifo_deinit,
	.add_workers = fifo_add_workers,
	.push_task = fifo_push,
	.pop_task = fifo_pop,
	.pre_exec_hook = pre_hook,
	.post_exec_hook = post_hook,
	.policy_name = "app-fifo",
	.policy_description = "one FIFO written by the test",
};

static int out[NTASKS];
static int where[NTASKS];

static void square(void *buffers[], void *arg)
{
	(void)buffers;
	int i;
	starpu_codelet_unpack_args(arg, &i);
	out[i] = i * i;
	where[i] = starpu_worker_get_id();
}

static struct starpu_codelet cl = {
	.cpu_funcs = {square},
	.nbuffers = 0,
	.name = "square",
};

/* Squares, computed in context `ctx`, data dependencies through a handle too. */
static void run(unsigned ctx)
{
	memset(out, -1, sizeof(out));
	for (int i = 0; i < NTASKS; i++)
		MUST(starpu_task_insert(&cl, STARPU_VALUE, &i, sizeof(i), STARPU_SCHED_CTX, ctx, 0));
	MUST(starpu_task_wait_for_all());
	for (int i = 0; i < NTASKS; i++)
		CHECK(out[i] == i * i, "out[%d] = %d", i, out[i]);
}

int main(void)
{
	struct starpu_conf conf;
	starpu_conf_init(&conf);
	conf.ncpus = 2; /* even under STARPU_NCPU=1: the context below needs worker 1 */
	conf.precedence_over_environment_variables = 1;
	conf.sched_policy = &fifo_policy;
	int ret = starpu_init(&conf);
	if (ret == -ENODEV)
		return 77;
	MUST(ret);
	CHECK(ninit == 1, "init_sched called %d times", ninit);
	struct fifo_data *d0 = starpu_sched_ctx_get_policy_data(0);
	CHECK(d0 && d0->nworkers_added == 2, "add_workers told %d workers", d0 ? d0->nworkers_added : -1);
	CHECK(starpu_sched_ctx_get_sched_policy(0) == &fifo_policy, "global policy struct");

	run(0);
	CHECK(npush == NTASKS && npop == NTASKS, "global: %d pushes, %d pops", npush, npop);
	CHECK(npre == NTASKS && npost == NTASKS, "global: %d pre, %d post hooks", npre, npost);

	/* The same policy, another instance, for a context on worker 1. */
	int w1[] = {1};
	unsigned ctx = starpu_sched_ctx_create(w1, 1, "app", STARPU_SCHED_CTX_POLICY_STRUCT, &fifo_policy, 0);
	CHECK(ctx > 0 && ctx < STARPU_NMAX_SCHED_CTXS, "ctx %u", ctx);
	CHECK(ninit == 2, "init_sched called %d times", ninit);
	struct fifo_data *d1 = starpu_sched_ctx_get_policy_data(ctx);
	CHECK(d1 && d1 != d0 && d1->nworkers_added == 1, "context policy data");
	npush = npop = 0;
	run(ctx);
	CHECK(npush == NTASKS && npop == NTASKS, "context: %d pushes, %d pops", npush, npop);
	for (int i = 0; i < NTASKS; i++)
		CHECK(where[i] == 1, "task %d ran on worker %d, outside its context", i, where[i]);
	starpu_sched_ctx_delete(ctx);
	CHECK(ndeinit == 1, "deinit_sched after delete: %d", ndeinit);

	/* A policy without pop_task is refused. */
	struct starpu_sched_policy broken = fifo_policy;
	broken.pop_task = NULL;
	CHECK(starpu_sched_ctx_create(w1, 1, "broken", STARPU_SCHED_CTX_POLICY_STRUCT, &broken, 0) ==
		      STARPU_NMAX_SCHED_CTXS,
	      "policy without pop_task accepted");

	starpu_shutdown();
	CHECK(ndeinit == 2, "deinit_sched at shutdown: %d", ndeinit);
	return tc_failures ? 1 : 0;
}
