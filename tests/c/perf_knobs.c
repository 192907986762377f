/* Performance knobs (starpu_perf_steering.h): names, ids and scopes; a disabled worker
 * takes no task; priority caps clamp submitted priorities (seen in the order a single
 * worker runs paused tasks); the calibration knob decides whether a model learns. */
#define _GNU_SOURCE
#include "test_common.h"
#include <sched.h>
#include <unistd.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NTASKS 40

static int ran_on[2];
static unsigned nworkers;
static int order[8];
static int norder;

static void count_worker(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	int w = starpu_worker_get_id();
	if (w == 0 || w == 1)
		__atomic_fetch_add(&ran_on[w], 1, __ATOMIC_SEQ_CST);
}

static struct starpu_codelet count_cl = {.cpu_funcs = {count_worker}, .nbuffers = 0};

static void note_order(void *buffers[], void *arg)
{
	(void)buffers;
	order[norder++] = (int)(intptr_t)arg;
}

static struct starpu_codelet order_cl = {.cpu_funcs = {note_order}, .nbuffers = 0};

static int seen_cpu = -1;

static void note_cpu(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	seen_cpu = sched_getcpu();
}

static struct starpu_codelet cpu_cl = {.cpu_funcs = {note_cpu}, .nbuffers = 0};

/* Rebinds worker 0 to each CPU in turn: its next task runs there. */
static void bind_to_pu(void)
{
	int w = starpu_perf_knob_name_to_id(starpu_perf_knob_scope_per_worker,
					    "starpu.worker.w_enable_worker_knob");
	int b = starpu_perf_knob_name_to_id(starpu_perf_knob_scope_per_worker,
					    "starpu.worker.w_bind_to_pu_knob");
	cpu_set_t allowed;
	if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0)
		return;
	if (nworkers > 1)
		starpu_perf_knob_set_per_worker_int32_value(w, 1, 0);
	int tried = 0;
	for (int cpu = 0; cpu < CPU_SETSIZE && tried < 2; cpu++)
	{
		if (!CPU_ISSET(cpu, &allowed))
			continue;
		tried++;
		starpu_perf_knob_set_per_worker_int32_value(b, 0, cpu);
		CHECK(starpu_perf_knob_get_per_worker_int32_value(b, 0) == cpu, "bind knob reads %d, set %d",
		      starpu_perf_knob_get_per_worker_int32_value(b, 0), cpu);
		seen_cpu = -1;
		MUST(starpu_task_insert(&cpu_cl, 0));
		starpu_task_wait_for_all();
		CHECK(seen_cpu == cpu, "worker 0 bound to %d ran its task on %d", cpu, seen_cpu);
	}
	starpu_perf_knob_set_per_worker_int32_value(b, 0, -1);
	CHECK(starpu_perf_knob_get_per_worker_int32_value(b, 0) >= 0, "a negative PU was taken");
	if (nworkers > 1)
		starpu_perf_knob_set_per_worker_int32_value(w, 1, 1);
}

static struct starpu_perfmodel model = {.type = STARPU_HISTORY_BASED, .symbol = "perf_knobs_model"};

static void touch(void *buffers[], void *arg)
{
	(void)arg;
	int *x = (int *)STARPU_VARIABLE_GET_PTR(buffers[0]);
	*x += 1;
}

static struct starpu_codelet model_cl = {
	.cpu_funcs = {touch}, .nbuffers = 1, .modes = {STARPU_RW}, .model = &model};

static void names_and_ids(void)
{
	int g = starpu_perf_knob_scope_name_to_id("global");
	int w = starpu_perf_knob_scope_name_to_id("per_worker");
	int s = starpu_perf_knob_scope_name_to_id("per_scheduler");
	CHECK(g == starpu_perf_knob_scope_global && w == starpu_perf_knob_scope_per_worker &&
		      s == starpu_perf_knob_scope_per_scheduler,
	      "scope ids %d %d %d", g, w, s);
	CHECK(starpu_perf_knob_scope_name_to_id("per_codelet") == -1, "per_codelet is no knob scope");
	CHECK(strcmp(starpu_perf_knob_scope_id_to_name(starpu_perf_knob_scope_per_worker), "per_worker") == 0,
	      "scope name");
	CHECK(starpu_perf_knob_type_name_to_id("int32") == starpu_perf_knob_type_int32, "type id");
	CHECK(starpu_perf_knob_type_name_to_id("double") == starpu_perf_knob_type_double, "type id");
	CHECK(strcmp(starpu_perf_knob_type_id_to_name(starpu_perf_knob_type_int64), "int64") == 0, "type name");
	CHECK(starpu_perf_knob_type_id_to_name(starpu_perf_knob_type_float) != NULL, "float name");

	CHECK(starpu_perf_knob_nb(starpu_perf_knob_scope_global) == 1, "global knobs: %d",
	      starpu_perf_knob_nb(starpu_perf_knob_scope_global));
	CHECK(starpu_perf_knob_nb(starpu_perf_knob_scope_per_worker) == 2, "worker knobs");
	CHECK(starpu_perf_knob_nb(starpu_perf_knob_scope_per_scheduler) == 2, "scheduler knobs");

	const char *names[] = {"starpu.global.g_calibrate_knob", "starpu.worker.w_bind_to_pu_knob",
			       "starpu.worker.w_enable_worker_knob", "starpu.task.s_max_priority_cap_knob",
			       "starpu.task.s_min_priority_cap_knob"};
	int scopes[] = {g, w, w, s, s};
	for (int i = 0; i < 5; i++)
	{
		int id = starpu_perf_knob_name_to_id(scopes[i], names[i]);
		CHECK(id >= 0, "%s has no id", names[i]);
		CHECK(strcmp(starpu_perf_knob_id_to_name(id), names[i]) == 0, "%s: name of its id", names[i]);
		CHECK(starpu_perf_knob_get_type_id(id) == starpu_perf_knob_type_int32, "%s: type", names[i]);
		CHECK(starpu_perf_knob_get_help_string(id) != NULL, "%s: help", names[i]);
		/* a knob is found in its own scope only */
		CHECK(starpu_perf_knob_name_to_id(scopes[i] == g ? w : g, names[i]) == -1, "%s in another scope",
		      names[i]);
	}
	CHECK(starpu_perf_knob_nth_to_id(w, 1) == starpu_perf_knob_name_to_id(w, names[2]), "nth to id");
	CHECK(starpu_perf_knob_nth_to_id(w, 2) == -1, "past the last knob");
	/* StarPU's signal knob is left out: this runtime catches no signal */
	CHECK(starpu_perf_knob_name_to_id(g, "starpu.global.g_enable_catch_signal_knob") == -1,
	      "a knob that would do nothing is listed");
	CHECK(starpu_perf_knob_id_to_name(12345) == NULL, "unknown id");
}

static void enable_worker(void)
{
	int id = starpu_perf_knob_name_to_id(starpu_perf_knob_scope_per_worker,
					     "starpu.worker.w_enable_worker_knob");
	CHECK(starpu_perf_knob_get_per_worker_int32_value(id, 0) == 1, "worker 0 enabled at start");
	CHECK(starpu_perf_knob_get_per_worker_int32_value(id, 1) == 1, "worker 1 enabled at start");

	starpu_perf_knob_set_per_worker_int32_value(id, 1, 0);
	CHECK(starpu_perf_knob_get_per_worker_int32_value(id, 1) == 0, "worker 1 disabled");
	for (int i = 0; i < NTASKS; i++)
		MUST(starpu_task_insert(&count_cl, 0));
	starpu_task_wait_for_all();
	CHECK(ran_on[0] == NTASKS && ran_on[1] == 0, "worker 1 disabled: %d / %d", ran_on[0], ran_on[1]);

	ran_on[0] = ran_on[1] = 0;
	starpu_perf_knob_set_per_worker_int32_value(id, 1, 1);
	starpu_perf_knob_set_per_worker_int32_value(id, 0, 0);
	for (int i = 0; i < NTASKS; i++)
		MUST(starpu_task_insert(&count_cl, 0));
	starpu_task_wait_for_all();
	CHECK(ran_on[0] == 0 && ran_on[1] == NTASKS, "worker 0 disabled: %d / %d", ran_on[0], ran_on[1]);

	/* out of range: refused, the knob keeps its value */
	starpu_perf_knob_set_per_worker_int32_value(id, 0, 7);
	CHECK(starpu_perf_knob_get_per_worker_int32_value(id, 0) == 0, "enable knob took 7");
	starpu_perf_knob_set_per_worker_int32_value(id, 0, 1);
	CHECK(starpu_perf_knob_get_per_worker_int32_value(id, 0) == 1, "worker 0 enabled again");
}

/* Pauses, submits priorities lo then hi on worker 0 alone, resumes: the order they ran. */
static void run_two(int lo, int hi)
{
	norder = 0;
	starpu_pause();
	MUST(starpu_task_insert(&order_cl, STARPU_PRIORITY, lo, STARPU_CL_ARGS_NFREE, (void *)(intptr_t)1,
				(size_t)0, 0));
	MUST(starpu_task_insert(&order_cl, STARPU_PRIORITY, hi, STARPU_CL_ARGS_NFREE, (void *)(intptr_t)2,
				(size_t)0, 0));
	starpu_resume();
	starpu_task_wait_for_all();
}

static void priority_caps(void)
{
	int w = starpu_perf_knob_name_to_id(starpu_perf_knob_scope_per_worker,
					    "starpu.worker.w_enable_worker_knob");
	int max = starpu_perf_knob_name_to_id(starpu_perf_knob_scope_per_scheduler,
					      "starpu.task.s_max_priority_cap_knob");
	int min = starpu_perf_knob_name_to_id(starpu_perf_knob_scope_per_scheduler,
					      "starpu.task.s_min_priority_cap_knob");
	/* one worker: the order is the policy's */
	if (nworkers > 1)
		starpu_perf_knob_set_per_worker_int32_value(w, 1, 0);

	CHECK(starpu_perf_knob_get_per_scheduler_int32_value(max, "prio") == starpu_sched_get_max_priority(),
	      "max cap at start: %d", starpu_perf_knob_get_per_scheduler_int32_value(max, "prio"));
	CHECK(starpu_perf_knob_get_per_scheduler_int32_value(min, "prio") == starpu_sched_get_min_priority(),
	      "min cap at start");

	run_two(-3, 3);
	CHECK(norder == 2 && order[0] == 2 && order[1] == 1, "uncapped: the higher priority first (%d %d)",
	      order[0], order[1]);

	starpu_perf_knob_set_per_scheduler_int32_value(max, "prio", 0);
	starpu_perf_knob_set_per_scheduler_int32_value(min, "prio", 0);
	CHECK(starpu_perf_knob_get_per_scheduler_int32_value(max, "prio") == 0, "max cap 0");
	CHECK(starpu_perf_knob_get_per_scheduler_int32_value(min, "prio") == 0, "min cap 0");
	run_two(-3, 3);
	CHECK(norder == 2 && order[0] == 1 && order[1] == 2, "capped to 0: submission order (%d %d)", order[0],
	      order[1]);

	/* a minimum above the maximum is refused */
	starpu_perf_knob_set_per_scheduler_int32_value(min, "prio", 2);
	CHECK(starpu_perf_knob_get_per_scheduler_int32_value(min, "prio") == 0, "min cap above max taken");
	starpu_perf_knob_set_per_scheduler_int32_value(max, "prio", starpu_sched_get_max_priority());
	starpu_perf_knob_set_per_scheduler_int32_value(min, "prio", starpu_sched_get_min_priority());
	run_two(-3, 3);
	CHECK(order[0] == 2 && order[1] == 1, "caps lifted: the higher priority first again");

	if (nworkers > 1)
		starpu_perf_knob_set_per_worker_int32_value(w, 1, 1);
}

static double learned(starpu_data_handle_t h)
{
	struct starpu_task *probe = starpu_task_create();
	probe->cl = &model_cl;
	probe->handles[0] = h;
	struct starpu_perfmodel_arch *arch = starpu_worker_get_perf_archtype(0, 0);
	uint32_t fp = starpu_task_footprint(&model, probe, arch, 0);
	probe->destroy = 0;
	starpu_task_destroy(probe);
	return starpu_perfmodel_history_based_expected_perf(&model, arch, fp);
}

static void calibrate(void)
{
	int id = starpu_perf_knob_name_to_id(starpu_perf_knob_scope_global, "starpu.global.g_calibrate_knob");
	CHECK(starpu_perf_knob_get_global_int32_value(id) == 0, "calibration level at start: %d",
	      starpu_perf_knob_get_global_int32_value(id));
	int x = 0;
	starpu_data_handle_t h;
	starpu_variable_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)&x, sizeof(x));
	for (int i = 0; i < 4; i++)
		MUST(starpu_task_insert(&model_cl, STARPU_RW, h, 0));
	starpu_task_wait_for_all();
	CHECK(isnan(learned(h)), "the model learned while calibration was off");

	starpu_perf_knob_set_global_int32_value(id, 1);
	CHECK(starpu_perf_knob_get_global_int32_value(id) == 1, "calibration level 1");
	for (int i = 0; i < 4; i++)
		MUST(starpu_task_insert(&model_cl, STARPU_RW, h, 0));
	starpu_task_wait_for_all();
	CHECK(!isnan(learned(h)), "the model did not learn with calibration on");

	starpu_perf_knob_set_global_int32_value(id, 5);
	CHECK(starpu_perf_knob_get_global_int32_value(id) == 1, "level 5 accepted");
	starpu_perf_knob_set_global_int32_value(id, 0);
	starpu_data_unregister(h);
	CHECK(x == 8, "x = %d", x);
}

int main(void)
{
	char dir[] = "/tmp/perf_knobs_XXXXXX";
	if (!mkdtemp(dir))
		return 1;
	setenv("STARPU_PERF_MODEL_DIR", dir, 1);
	setenv("STARPU_CALIBRATE_MINIMUM", "1", 1);
	unsetenv("STARPU_CALIBRATE");
	setenv("STARPU_SCHED", "prio", 1);
	tc_init_ncpus(2);
	nworkers = starpu_cpu_worker_get_count();
	names_and_ids();
	/* (STARPU_NCPU may leave one worker: nothing to disable then) */
	if (nworkers >= 2)
		enable_worker();
	priority_caps();
	bind_to_pu();
	calibrate();
	starpu_shutdown();
	return tc_finish("perf_knobs");
}
