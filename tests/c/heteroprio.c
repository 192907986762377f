/* The heteroprio policy (STARPU_SCHED=heteroprio), configured the way StarPU's
 * examples/scheduler/heteroprio_test.c does: an init hook (conf.sched_policy_init for the
 * global context, STARPU_SCHED_CTX_POLICY_INIT for a context) gives each architecture its
 * list of buckets, and a task's priority names its bucket. With one CPU worker and the
 * tasks queued while paused, the order the tasks run is the order of the CPU's list.
 * A third context turns the locality-aware mode on from its hook
 * (starpu_heteroprio_set_use_locality): with one memory node, the order is the same, and
 * starpu_heteroprio_print_wgroups shows the one group. */
#include "test_common.h"
#include <starpu_heteroprio.h>
#include <pthread.h>
#include <string.h>

#define NTASKS 6

static int order[64];
static int norder;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int init_calls[3];
static unsigned init_ctx[3];

static void record(void *buffers[], void *arg)
{
	(void)buffers;
	pthread_mutex_lock(&lock);
	order[norder++] = (int)(intptr_t)arg;
	pthread_mutex_unlock(&lock);
}

static struct starpu_codelet cl = {
	.cpu_funcs = {record},
	.nbuffers = 0,
	.name = "record",
};

/* Global context: the CPU takes bucket 2, then 0, then 1. */
static void global_init(unsigned ctx)
{
	init_calls[0]++;
	init_ctx[0] = ctx;
	starpu_heteroprio_set_nb_prios(ctx, STARPU_CPU_IDX, 3);
	starpu_heteroprio_set_mapping(ctx, STARPU_CPU_IDX, 0, 2);
	starpu_heteroprio_set_mapping(ctx, STARPU_CPU_IDX, 1, 0);
	starpu_heteroprio_set_mapping(ctx, STARPU_CPU_IDX, 2, 1);
	/* No CUDA worker here: a faster CUDA holds no task back. */
	starpu_heteroprio_set_faster_arch(ctx, STARPU_CUDA_WORKER, 0);
	starpu_heteroprio_set_arch_slow_factor(ctx, STARPU_CPU_WORKER, 0, 4.0f);
}

/* The context: buckets 1, 2, then 0. */
static void ctx_init(unsigned ctx)
{
	init_calls[1]++;
	init_ctx[1] = ctx;
	starpu_heteroprio_set_nb_prios(ctx, STARPU_CPU_WORKER, 3);
	starpu_heteroprio_set_mapping(ctx, STARPU_CPU_WORKER, 0, 1);
	starpu_heteroprio_set_mapping(ctx, STARPU_CPU_WORKER, 1, 2);
	starpu_heteroprio_set_mapping(ctx, STARPU_CPU_WORKER, 2, 0);
}

/* A context in the locality-aware mode: buckets 2, 1, then 0. */
static void la_init(unsigned ctx)
{
	init_calls[2]++;
	init_ctx[2] = ctx;
	starpu_heteroprio_set_use_locality(ctx, 1);
	starpu_heteroprio_set_nb_prios(ctx, STARPU_CPU_WORKER, 3);
	starpu_heteroprio_set_mapping(ctx, STARPU_CPU_WORKER, 0, 2);
	starpu_heteroprio_set_mapping(ctx, STARPU_CPU_WORKER, 1, 1);
	starpu_heteroprio_set_mapping(ctx, STARPU_CPU_WORKER, 2, 0);
	starpu_heteroprio_map_wgroup_memory_nodes(ctx);
}

static void run(unsigned ctx, const int *prios, int n)
{
	norder = 0;
	starpu_pause();
	for (int i = 0; i < n; i++) {
		struct starpu_task *t = starpu_task_create();
		t->cl = &cl;
		t->cl_arg = (void *)(intptr_t)prios[i];
		t->priority = prios[i];
		t->sched_ctx = ctx;
		MUST(starpu_task_submit(t));
	}
	starpu_resume();
	MUST(starpu_task_wait_for_all());
}

int main(void)
{
	/* This test is about heteroprio: the environment does not choose another. */
	unsetenv("STARPU_SCHED");
	unsetenv("STARPU_NCPU");
	unsetenv("STARPU_NCPUS");
	struct starpu_conf conf;
	starpu_conf_init(&conf);
	conf.ncpus = 1;
	conf.sched_policy_name = "heteroprio";
	conf.sched_policy_init = global_init;
	int ret = starpu_init(&conf);
	if (ret == -ENODEV)
		return 77;
	MUST(ret);

	CHECK(init_calls[0] == 1 && init_ctx[0] == 0, "global init hook: %d calls, ctx %u",
	      init_calls[0], init_ctx[0]);
	CHECK(starpu_sched_get_min_priority() == 0, "min priority %d",
	      starpu_sched_get_min_priority());
	CHECK(starpu_sched_get_max_priority() == STARPU_HETEROPRIO_MAX_PRIO - 1,
	      "max priority %d", starpu_sched_get_max_priority());

	const int prios[NTASKS] = {0, 1, 2, 1, 0, 2};
	const int want_global[NTASKS] = {2, 2, 0, 0, 1, 1};
	run(STARPU_NMAX_SCHED_CTXS, prios, NTASKS);
	tc_check_priorities("global context", order, norder, want_global, NTASKS);

	/* A bad bucket is reported and changes nothing. */
	starpu_heteroprio_set_mapping(0, STARPU_CPU_WORKER, 0, STARPU_HETEROPRIO_MAX_PRIO);
	run(STARPU_NMAX_SCHED_CTXS, prios, NTASKS);
	tc_check_priorities("global context after a refused call", order, norder, want_global, NTASKS);

	int w0 = 0;
	unsigned ctx = starpu_sched_ctx_create(&w0, 1, "hp", STARPU_SCHED_CTX_POLICY_NAME,
					       "heteroprio", STARPU_SCHED_CTX_POLICY_INIT, ctx_init, 0);
	CHECK(ctx < STARPU_NMAX_SCHED_CTXS, "context creation: %u", ctx);
	CHECK(init_calls[1] == 1 && init_ctx[1] == ctx, "context init hook: %d calls, ctx %u",
	      init_calls[1], init_ctx[1]);
	const int want_ctx[NTASKS] = {1, 1, 2, 2, 0, 0};
	run(ctx, prios, NTASKS);
	tc_check_priorities("context", order, norder, want_ctx, NTASKS);
	starpu_sched_ctx_delete(ctx);

	unsigned la = starpu_sched_ctx_create(&w0, 1, "la", STARPU_SCHED_CTX_POLICY_NAME,
					      "heteroprio", STARPU_SCHED_CTX_POLICY_INIT, la_init, 0);
	CHECK(init_calls[2] == 1 && init_ctx[2] == la, "locality init hook: %d calls, ctx %u",
	      init_calls[2], init_ctx[2]);
	const int want_la[NTASKS] = {2, 2, 1, 1, 0, 0};
	run(la, prios, NTASKS);
	tc_check_priorities("locality-aware context", order, norder, want_la, NTASKS);
	FILE *f = tmpfile();
	CHECK(f != NULL, "tmpfile");
	if (f) {
		char text[4096] = {0};
		starpu_heteroprio_print_wgroups(f, la);
		rewind(f);
		size_t n = fread(text, 1, sizeof(text) - 1, f);
		text[n] = 0;
		fclose(f);
		CHECK(strstr(text, "There are 1 groups") != NULL, "print_wgroups wrote: %s", text);
		CHECK(strstr(text, "Worker 0 => group 0") != NULL, "print_wgroups wrote: %s", text);
	}
	starpu_sched_ctx_delete(la);

	/* The heuristics' names, indexed by their values. */
	CHECK(strcmp(starpu_autoheteroprio_priority_ordering_policy_names[STARPU_HETEROPRIO_URT_DOT_DIFF_4],
		     "STARPU_HETEROPRIO_URT_DOT_DIFF_4") == 0, "ordering policy names");
	CHECK(STARPU_AUTOHETEROPRIO_PRIORITY_ORDERING_POLICY_COUNT ==
	      STARPU_HETEROPRIO_NODS_TIME_RELEASED_DIFF + 1, "ordering policy count");

	/* Configuring a context scheduled by another policy is refused, not a crash. */
	unsigned eager = starpu_sched_ctx_create(&w0, 1, "eager", STARPU_SCHED_CTX_POLICY_NAME,
						 "eager", 0);
	starpu_heteroprio_set_nb_prios(eager, STARPU_CPU_WORKER, 1);
	starpu_sched_ctx_delete(eager);

	starpu_shutdown();
	return tc_finish("heteroprio");
}
