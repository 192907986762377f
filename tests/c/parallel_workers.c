/* Parallel workers and the context calls they rest on, with OpenMP kernels:
 * - starpu_sched_ctx_exec_parallel_code runs OpenMP code on a context's CPUs (one thread
 *   bound on each, starpu_sched_ctx_get_available_cpuids / _bind_current_thread_to_cpuid)
 *   while the context's workers take no task;
 * - starpu_parallel_worker_init groups the CPU workers per package: tasks run on the
 *   master, and the OpenMP prologue gives possibly-parallel tasks a team bound on every CPU
 *   of the group;
 * - 1.4's starpu_cluster_machine with a partition and a preset, CREATE_FUNC, and errors. */
#define _GNU_SOURCE
#include <sched.h>
#include <omp.h>
#include "test_common.h"

static int ncpu;
static int all_cpus[STARPU_NMAXWORKERS];
static int nall;

static int in_set(int cpu, const int *set, int n)
{
	for (int i = 0; i < n; i++)
		if (set[i] == cpu)
			return 1;
	return 0;
}

/* ---- exec_parallel_code ---- */

static volatile int later_ran;

static void later_cpu(void *descr[], void *arg)
{
	(void) descr; (void) arg;
	later_ran = 1;
}

static struct starpu_codelet later_cl = { .cpu_funcs = { later_cpu }, .nbuffers = 0 };

struct pcode { unsigned ctx; int nthreads; int bad_cpu; int later_seen; };

static void *parallel_code(void *p)
{
	struct pcode *pc = p;
	int *cpuids = NULL, n = 0;
	starpu_sched_ctx_get_available_cpuids(pc->ctx, &cpuids, &n);
	CHECK(n == nall, "%d CPUs available to the parallel code, expected %d", n, nall);
	/* Submitted now, it waits: the context's workers are reserved. */
	MUST(starpu_task_insert(&later_cl, STARPU_SCHED_CTX, 0, 0));
	int count = 0, bad = 0;
	omp_set_num_threads(n);
#pragma omp parallel reduction(+:count, bad)
	{
		int cpu = cpuids[omp_get_thread_num()];
		starpu_sched_ctx_bind_current_thread_to_cpuid(cpu);
		count += 1;
		bad += sched_getcpu() != cpu;
	}
	pc->nthreads = count;
	pc->bad_cpu = bad;
	usleep(20000);
	pc->later_seen = later_ran;
	free(cpuids);
	return pc;
}

static void test_exec_parallel_code(void)
{
	int workers[STARPU_NMAXWORKERS];
	int n = starpu_worker_get_ids_by_type(STARPU_CPU_WORKER, workers, STARPU_NMAXWORKERS);
	unsigned ctx = starpu_sched_ctx_create(workers, n, "all", 0);
	int *cpuids = NULL;
	starpu_sched_ctx_get_available_cpuids(ctx, &cpuids, &nall);
	CHECK(nall == ncpu, "the main thread sees %d CPUs of the context, expected %d", nall, ncpu);
	memcpy(all_cpus, cpuids, sizeof(int) * nall);
	free(cpuids);

	struct pcode pc = { ctx, 0, 0, 0 };
	void *r = starpu_sched_ctx_exec_parallel_code(parallel_code, &pc, ctx);
	CHECK(r == &pc, "exec_parallel_code returns what the function returned");
	CHECK(pc.nthreads == nall, "%d OpenMP threads, expected %d", pc.nthreads, nall);
	CHECK(pc.bad_cpu == 0, "%d threads were not on their CPU", pc.bad_cpu);
	CHECK(!pc.later_seen, "a task ran while the context's workers were reserved");
	starpu_task_wait_for_all();
	CHECK(later_ran, "the task submitted during the parallel code ran afterwards");

	/* Errors: an unknown context gives nothing. */
	cpuids = (int *) 1;
	n = 7;
	starpu_sched_ctx_get_available_cpuids(STARPU_NMAX_SCHED_CTXS + 3, &cpuids, &n);
	CHECK(cpuids == NULL && n == 0, "unknown context: %p, %d", (void *) cpuids, n);
	CHECK(starpu_sched_ctx_exec_parallel_code(parallel_code, &pc, 9) == NULL,
	      "exec_parallel_code on a context that does not exist");
	starpu_sched_ctx_delete(ctx);
}

/* ---- parallel workers ---- */

static int master_worker;
static int seen_workers_bad;
static int seen_team[64];
static int seen_badcpu;
static int ntasks_seen;
static starpu_pthread_mutex_t seen_lock = STARPU_PTHREAD_MUTEX_INITIALIZER;

static void team_cpu(void *descr[], void *arg)
{
	(void) descr;
	int i = (int) (uintptr_t) arg;
	int team = 0, bad = 0;
#pragma omp parallel reduction(+:team, bad)
	{
		team += 1;
		bad += !in_set(sched_getcpu(), all_cpus, nall);
	}
	STARPU_PTHREAD_MUTEX_LOCK(&seen_lock);
	seen_team[i] = team;
	seen_badcpu += bad;
	seen_workers_bad += master_worker >= 0 && starpu_worker_get_id() != master_worker;
	ntasks_seen++;
	STARPU_PTHREAD_MUTEX_UNLOCK(&seen_lock);
}

static struct starpu_codelet team_cl = { .cpu_funcs = { team_cpu }, .nbuffers = 0 };

static void test_parallel_worker_per_package(void)
{
	struct starpu_parallel_worker_config *pw =
		starpu_parallel_worker_init(HWLOC_OBJ_PACKAGE, 0);
	CHECK(pw != NULL, "starpu_parallel_worker_init(PACKAGE)");
	if (pw == NULL)
		return;
	MUST(starpu_parallel_worker_print(pw));
	int workers[1];
	starpu_worker_get_ids_by_type(STARPU_CPU_WORKER, workers, 1);
	master_worker = workers[0];
	/* The tasks go to the machine context (the current one now). The last four are not
	 * STARPU_POSSIBLY_PARALLEL: the prologue gives them a team of one. */
	for (int i = 0; i < 12; i++)
		MUST(starpu_task_insert(&team_cl, STARPU_CL_ARGS_NFREE, (void *) (uintptr_t) i, 0,
					STARPU_POSSIBLY_PARALLEL, i < 8,
					STARPU_PROLOGUE_CALLBACK_POP, &starpu_parallel_worker_openmp_prologue,
					0));
	starpu_task_wait_for_all();
	CHECK(ntasks_seen == 12, "%d tasks ran", ntasks_seen);
	CHECK(seen_workers_bad == 0, "%d tasks did not run on the master", seen_workers_bad);
	CHECK(seen_badcpu == 0, "%d OpenMP threads ran outside the group's CPUs", seen_badcpu);
	for (int i = 0; i < 12; i++) {
		int want = i < 8 ? nall : 1;
		CHECK(seen_team[i] == want, "task %d: team of %d, expected %d", i, seen_team[i], want);
	}
	MUST(starpu_parallel_worker_shutdown(pw));
	CHECK(starpu_sched_ctx_get_context() == 0, "current context after shutdown: %d",
	      starpu_sched_ctx_get_context());
}

/* ---- the 1.4 names, partitions, CREATE_FUNC, errors ---- */

static int ncreate, create_bad;
static unsigned create_ctx[2];
/* As StarPU's parallel_workers_func example does, CREATE_FUNC reads the task it runs in
 * (starpu_task_get_current()->sched_ctx: the parallel worker's context) and that
 * context's CPUs. */
static void on_create(void *arg)
{
	struct starpu_task *task = starpu_task_get_current();
	int *cpuids = NULL, ncpuids = 0;
	if (task != NULL)
		starpu_sched_ctx_get_available_cpuids(task->sched_ctx, &cpuids, &ncpuids);
	STARPU_PTHREAD_MUTEX_LOCK(&seen_lock);
	ncreate++;
	create_bad += arg != (void *) &ncreate || starpu_worker_get_id() < 0;
	create_bad += task == NULL || task->sched_ctx == 0 ||
		      task->sched_ctx >= STARPU_NMAX_SCHED_CTXS || ncpuids < 1;
	if (task != NULL && ncreate <= 2)
		create_ctx[ncreate - 1] = task->sched_ctx;
	STARPU_PTHREAD_MUTEX_UNLOCK(&seen_lock);
	free(cpuids);
}

static void test_cluster_names(void)
{
	/* StarPU's example: one partition, a preset parallel worker of one core, the rest
	 * (if any) in another. */
	struct starpu_cluster_machine *clusters =
		starpu_cluster_machine(HWLOC_OBJ_SOCKET,
				       STARPU_CLUSTER_POLICY_NAME, "dmdas",
				       STARPU_CLUSTER_CREATE_FUNC, &on_create,
				       STARPU_CLUSTER_CREATE_FUNC_ARG, &ncreate,
				       STARPU_CLUSTER_PARTITION_ONE,
				       STARPU_CLUSTER_NEW,
				       STARPU_CLUSTER_NB, 2,
				       STARPU_CLUSTER_NCORES, 1,
				       0);
	CHECK(clusters != NULL, "starpu_cluster_machine");
	if (clusters == NULL)
		return;
	MUST(starpu_cluster_print(clusters));
	int want = ncpu >= 2 ? 2 : 1;
	CHECK(ncreate == want, "CREATE_FUNC ran %d times, expected one per parallel worker (%d)",
	      ncreate, want);
	CHECK(create_bad == 0, "CREATE_FUNC got another argument, ran outside a worker, or "
			       "saw no current task in a parallel worker's context");
	CHECK(want < 2 || create_ctx[0] != create_ctx[1],
	      "each CREATE_FUNC call runs in its own parallel worker's context (%u, %u)",
	      create_ctx[0], create_ctx[1]);
	ntasks_seen = 0;
	seen_workers_bad = 0;
	master_worker = -1; /* any master */
	for (int i = 0; i < 4; i++)
		MUST(starpu_task_insert(&team_cl, STARPU_CL_ARGS_NFREE, (void *) (uintptr_t) i, 0, 0));
	starpu_task_wait_for_all();
	CHECK(ntasks_seen == 4, "%d tasks ran on the clusters", ntasks_seen);
	MUST(starpu_uncluster_machine(clusters));
	CHECK(starpu_uncluster_machine(NULL) == -1, "uncluster(NULL)");
	CHECK(starpu_cluster_print(NULL) == -1, "cluster_print(NULL)");

	/* Errors give NULL (and a message). */
	CHECK(starpu_parallel_worker_init(HWLOC_OBJ_BRIDGE, 0) == NULL, "a level without CPUs");
	CHECK(starpu_parallel_worker_init(HWLOC_OBJ_PACKAGE, STARPU_PARALLEL_WORKER_NCORES, 2, 0) == NULL,
	      "NCORES without NEW");
	CHECK(starpu_parallel_worker_init(HWLOC_OBJ_PACKAGE, STARPU_PARALLEL_WORKER_TYPE,
					  STARPU_PARALLEL_WORKER_GNU_OPENMP_MKL, 0) == NULL,
	      "GNU_OPENMP_MKL without MKL");
	CHECK(starpu_parallel_worker_init(HWLOC_OBJ_PACKAGE, STARPU_PARALLEL_WORKER_NB, 0, 0) == NULL,
	      "NB 0");
	CHECK(starpu_sched_ctx_get_context() == 0, "failed inits leave the global context current");
}

int main(void)
{
	tc_init_ncpus(-1);
	ncpu = starpu_cpu_worker_get_count();
	test_exec_parallel_code();
	test_parallel_worker_per_package();
	test_cluster_names();
	starpu_shutdown();
	return tc_failures ? 1 : 0;
}
