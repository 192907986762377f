/* Parallel tasks: STARPU_SPMD and STARPU_FORKJOIN codelets on combined workers.
 *
 * Runs under peager and pheft (forced with precedence over STARPU_SCHED), then under
 * the environment's policy. Under the parallel policies, with n CPU workers, an SPMD task
 * runs its kernel n times at once (the ranks wait for each other on a barrier, so the
 * test would hang otherwise), with ranks 0..n-1 each exactly once on distinct workers;
 * a FORKJOIN task runs once with size n; max_parallelism = 1 gives size 1. Under any other
 * policy (and with STARPU_NCPU=1) there is no combined worker and every size is 1.
 * Also: the combined-worker queries, the SPMD sum of a vector, and the parallel-worker
 * calls this build does not have. */
#include "test_common.h"
#include <limits.h>
#include <pthread.h>

#define MAXW 64

static int calls, ranks_seen[MAXW], workers_seen[MAXW], bad_size, last_size;
static int combined_id_seen;
static pthread_barrier_t meet;
static int meet_size;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void record(void *buffers[], void *arg)
{
	(void)buffers;
	int expected = *(int *)arg;
	int size = starpu_combined_worker_get_size();
	int rank = starpu_combined_worker_get_rank();
	int worker = starpu_worker_get_id();
	pthread_mutex_lock(&lock);
	calls++;
	last_size = size;
	if (size != expected)
		bad_size++;
	if (rank >= 0 && rank < MAXW)
		ranks_seen[rank]++;
	if (worker >= 0 && worker < MAXW)
		workers_seen[worker]++;
	combined_id_seen = starpu_combined_worker_get_id();
	pthread_mutex_unlock(&lock);
	/* SPMD ranks meet: only possible if they all run at once. */
	if (size > 1 && size == meet_size && starpu_task_get_current()->cl->type == STARPU_SPMD)
		pthread_barrier_wait(&meet);
}

static struct starpu_codelet spmd_cl = {
	.type = STARPU_SPMD,
	.max_parallelism = INT_MAX,
	.cpu_funcs = {record},
	.nbuffers = 0,
	.name = "spmd",
};

static struct starpu_codelet forkjoin_cl = {
	.type = STARPU_FORKJOIN,
	.max_parallelism = INT_MAX,
	.cpu_funcs = {record},
	.nbuffers = 0,
	.name = "forkjoin",
};

static struct starpu_codelet spmd_one_cl = {
	.type = STARPU_SPMD,
	.max_parallelism = 1,
	.cpu_funcs = {record},
	.nbuffers = 0,
	.name = "spmd_one",
};

static struct starpu_codelet seq_cl = {
	.cpu_funcs = {record},
	.nbuffers = 0,
	.name = "seq",
};

/* Each rank adds its block of the vector to *sum. */
static void block_sum(void *buffers[], void *arg)
{
	long *sum = arg;
	const long *v = (const long *)STARPU_VECTOR_GET_PTR(buffers[0]);
	int n = (int)STARPU_VECTOR_GET_NX(buffers[0]);
	int size = starpu_combined_worker_get_size(), rank = starpu_combined_worker_get_rank();
	int first = n * rank / size, last = n * (rank + 1) / size;
	long s = 0;
	for (int i = first; i < last; i++)
		s += v[i];
	__atomic_add_fetch(sum, s, __ATOMIC_SEQ_CST);
}

static struct starpu_codelet noop_cl = {
	.cpu_funcs = {tc_noop},
	.nbuffers = 0,
	.name = "noop",
};

static struct starpu_codelet sum_cl = {
	.type = STARPU_SPMD,
	.max_parallelism = INT_MAX,
	.cpu_funcs = {block_sum},
	.nbuffers = 1,
	.modes = {STARPU_R},
	.name = "block_sum",
};

static void reset(void)
{
	calls = bad_size = last_size = 0;
	combined_id_seen = -2;
	memset(ranks_seen, 0, sizeof ranks_seen);
	memset(workers_seen, 0, sizeof workers_seen);
}

static void run(struct starpu_codelet *cl, int expected)
{
	struct starpu_task *t = starpu_task_create();
	t->cl = cl;
	t->cl_arg = &expected;
	t->synchronous = 1;
	MUST(starpu_task_submit(t));
}

static void check_policy(const char *policy)
{
	struct starpu_conf conf;
	starpu_conf_init(&conf);
	const char *ncpu = getenv("STARPU_NCPU");
	if (ncpu)
		conf.ncpus = atoi(ncpu);
	if (policy) {
		conf.sched_policy_name = policy;
		conf.precedence_over_environment_variables = 1;
	}
	int ret = starpu_init(&conf);
	if (ret == -ENODEV)
		exit(77);
	MUST(ret);
	const char *name = policy ? policy : getenv("STARPU_SCHED");
	if (!name)
		name = "lws";
	int parallel = !strcmp(name, "peager") || !strcmp(name, "pheft");
	int n = (int)starpu_worker_get_count();
	int ncomb = (int)starpu_combined_worker_get_count();
	int size = parallel ? n : 1;
	fprintf(stderr, "policy %s: %d workers, %d combined workers\n", name, n, ncomb);

	CHECK(n == (int)starpu_cpu_worker_get_count(), "%s: %d workers", name, n);
	if (!parallel || n == 1)
		CHECK(ncomb == 0, "%s: %d combined workers", name, ncomb);
	else
		CHECK(ncomb >= 1, "%s: no combined worker with %d workers", name, n);

	/* The combined workers' descriptions. */
	int largest = 0;
	for (int id = n; id < n + ncomb; id++) {
		int wsize = 0, *members = NULL;
		CHECK(starpu_worker_is_combined_worker(id), "%d is combined", id);
		MUST(starpu_combined_worker_get_description(id, &wsize, &members));
		CHECK(wsize >= 2 && wsize <= n && members != NULL, "combined %d: size %d", id, wsize);
		for (int i = 0; i < wsize; i++)
			CHECK(members[i] >= 0 && members[i] < n, "member %d of %d: %d", i, id, members[i]);
		if (wsize > largest)
			largest = wsize;
		struct starpu_task *t = starpu_task_create();
		t->cl = &spmd_cl;
		CHECK(starpu_combined_worker_can_execute_task(id, t, 0) == 1, "spmd on %d", id);
		CHECK(starpu_combined_worker_can_execute_task(id, t, 1) == 0, "no impl 1 on %d", id);
		t->cl = &seq_cl;
		CHECK(starpu_combined_worker_can_execute_task(id, t, 0) == 0, "seq on %d", id);
		t->cl = &spmd_one_cl;
		CHECK(starpu_combined_worker_can_execute_task(id, t, 0) == 0, "max 1 on %d", id);
		t->cl = &seq_cl;
		CHECK(starpu_combined_worker_can_execute_task(0, t, 0) == 1, "seq on worker 0");
		t->destroy = 0;
		starpu_task_destroy(t);
	}
	if (parallel && n > 1)
		CHECK(largest == n, "%s: largest combined worker %d of %d", name, largest, n);
	CHECK(!starpu_worker_is_combined_worker(0), "worker 0 is basic");
	CHECK(!starpu_worker_is_combined_worker(n + ncomb), "past the last");
	int dummy;
	CHECK(starpu_combined_worker_get_description(0, &dummy, NULL) == -EINVAL, "0 is basic");

	/* SPMD: every rank once, on distinct workers, all at once. */
	meet_size = size;
	pthread_barrier_init(&meet, NULL, size > 1 ? size : 1);
	for (int round = 0; round < 3; round++) {
		reset();
		run(&spmd_cl, size);
		CHECK(calls == size, "%s spmd: %d calls, expected %d", name, calls, size);
		CHECK(bad_size == 0, "%s spmd: size %d, expected %d", name, last_size, size);
		for (int r = 0; r < size; r++)
			CHECK(ranks_seen[r] == 1, "%s spmd: rank %d seen %d times", name, r, ranks_seen[r]);
		int distinct = 0;
		for (int w = 0; w < MAXW; w++)
			distinct += workers_seen[w] == 1;
		CHECK(distinct == size, "%s spmd: %d distinct workers", name, distinct);
		if (size > 1)
			CHECK(combined_id_seen >= n, "%s spmd: combined id %d", name, combined_id_seen);
	}
	pthread_barrier_destroy(&meet);

	/* FORKJOIN: once, with the whole size, rank 0. */
	reset();
	run(&forkjoin_cl, size);
	CHECK(calls == 1 && bad_size == 0 && ranks_seen[0] == 1,
	      "%s forkjoin: %d calls, size %d", name, calls, last_size);

	/* max_parallelism = 1 and sequential codelets: one worker. */
	reset();
	run(&spmd_one_cl, 1);
	CHECK(calls == 1 && bad_size == 0, "%s max 1: %d calls, size %d", name, calls, last_size);
	reset();
	run(&seq_cl, 1);
	CHECK(calls == 1 && bad_size == 0, "%s seq: %d calls, size %d", name, calls, last_size);
	CHECK(starpu_combined_worker_get_size() == 1 && starpu_combined_worker_get_rank() == 0,
	      "outside kernels");

	/* A sum computed by the ranks together, many tasks at once. */
	enum { N = 1000, NTASKS = 20 };
	static long v[N];
	for (int i = 0; i < N; i++)
		v[i] = i + 1;
	starpu_data_handle_t h;
	starpu_vector_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)v, N, sizeof v[0]);
	long sum = 0;
	for (int i = 0; i < NTASKS; i++)
		MUST(starpu_task_insert(&sum_cl, STARPU_R, h, STARPU_CL_ARGS_NFREE, &sum, sizeof sum, 0));
	for (int i = 0; i < NTASKS; i++)
		MUST(starpu_task_insert(&noop_cl, 0));
	starpu_task_wait_for_all();
	starpu_data_unregister(h);
	CHECK(sum == (long)NTASKS * N * (N + 1) / 2, "%s: sum %ld", name, sum);

	/* Combined workers the application adds. */
	int pair[2] = {0, n > 1 ? 1 : 0};
	int id = starpu_combined_worker_assign_workerid(n > 1 ? 2 : 1, pair);
	CHECK(id >= n, "assigned id %d", id);
	CHECK(starpu_worker_is_combined_worker(id), "assigned %d is combined", id);
	CHECK((int)starpu_combined_worker_get_count() == ncomb + 1, "count after assign");
	int bad[1] = {n + 5};
	CHECK(starpu_combined_worker_assign_workerid(1, bad) == -EINVAL, "bad member");
	CHECK(starpu_combined_worker_assign_workerid(0, pair) == -EINVAL, "no member");

	starpu_shutdown();
}

int main(void)
{
	check_policy("peager");
	check_policy("pheft");
	check_policy(NULL);
	/* Parallel workers: tests/c/parallel_workers.c. */
	return tc_failures ? 1 : 0;
}
