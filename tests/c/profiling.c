/* Profiling: with starpu_profiling_status_set(STARPU_PROFILING_ENABLE), every task gets a
 * task->profiling_info whose times are ordered (submitted, started, ended, callback), the
 * per-worker information counts the tasks each worker ran, and the summaries name the
 * codelet and the workers. */
#include "test_common.h"
#include "stderr_capture.h"

#define NTASKS 24

static void work(void *buffers[], void *arg)
{
	(void)arg;
	double *v = (double *)STARPU_VARIABLE_GET_PTR(buffers[0]);
	for (int i = 0; i < 1000; i++)
		*v += 1e-3;
}

static struct starpu_codelet cl = {
	.cpu_funcs = {work},
	.nbuffers = 1,
	.modes = {STARPU_RW},
	.name = "prof_kernel",
};

static int callback_saw_info[NTASKS];

static void callback(void *arg)
{
	int i = (int)(intptr_t)arg;
	struct starpu_task *task = starpu_task_get_current();
	(void)task;
	callback_saw_info[i] = 1;
}

int main(void)
{
	CHECK(starpu_profiling_status_get() == STARPU_PROFILING_DISABLE, "profiling on by default");
	tc_init();
	int nworkers = (int)starpu_worker_get_count();
	CHECK(starpu_profiling_status_set(STARPU_PROFILING_ENABLE) == STARPU_PROFILING_DISABLE,
	      "status_set should return the previous status");
	CHECK(starpu_profiling_status_get() == STARPU_PROFILING_ENABLE, "profiling is not on");

	double values[4] = {0};
	starpu_data_handle_t h[4];
	for (int i = 0; i < 4; i++)
		starpu_variable_data_register(&h[i], STARPU_MAIN_RAM, (uintptr_t)&values[i], sizeof(double));

	double t0 = starpu_timing_now();
	struct starpu_task *tasks[NTASKS];
	for (int i = 0; i < NTASKS; i++) {
		struct starpu_task *t = starpu_task_create();
		t->cl = &cl;
		t->handles[0] = h[i % 4];
		t->detach = 0;
		t->destroy = 0;
		t->callback_func = callback;
		t->callback_arg = (void *)(intptr_t)i;
		tasks[i] = t;
		MUST(starpu_task_submit(t));
	}
	MUST(starpu_task_wait_for_all());
	double t1 = starpu_timing_now();
	CHECK(t1 >= t0, "starpu_timing_now went back: %f then %f", t0, t1);

	int per_worker[STARPU_NMAXWORKERS] = {0};
	for (int i = 0; i < NTASKS; i++) {
		struct starpu_profiling_task_info *info = tasks[i]->profiling_info;
		CHECK(info != NULL, "task %d has no profiling_info", i);
		if (!info)
			continue;
		CHECK(callback_saw_info[i], "task %d's callback did not run", i);
		CHECK(starpu_timespec_cmp(&info->submit_time, &info->start_time, <=),
		      "task %d started before it was submitted", i);
		CHECK(starpu_timespec_cmp(&info->start_time, &info->end_time, <=),
		      "task %d ended before it started", i);
		CHECK(starpu_timespec_cmp(&info->end_time, &info->callback_start_time, <=) &&
			      starpu_timespec_cmp(&info->callback_start_time, &info->callback_end_time, <=),
		      "task %d's callback times are out of order", i);
		CHECK(starpu_timing_timespec_delay_us(&info->start_time, &info->end_time) >= 0.0,
		      "negative duration for task %d", i);
		CHECK(info->workerid >= 0 && info->workerid < nworkers, "task %d: workerid %d", i,
		      info->workerid);
		if (info->workerid >= 0 && info->workerid < nworkers)
			per_worker[info->workerid]++;
	}
	/* Tasks on the same data run one after the other, in submission order. */
	for (int i = 4; i < NTASKS; i++) {
		struct starpu_profiling_task_info *a = tasks[i - 4]->profiling_info, *b = tasks[i]->profiling_info;
		if (a && b)
			CHECK(starpu_timespec_cmp(&a->end_time, &b->start_time, <=),
			      "task %d started before task %d (same data) ended", i, i - 4);
	}

	int total = 0;
	for (int w = 0; w < nworkers; w++) {
		struct starpu_profiling_worker_info wi;
		MUST(starpu_profiling_worker_get_info(w, &wi));
		CHECK(wi.executed_tasks == per_worker[w], "worker %d: %d tasks counted, %d ran there", w,
		      wi.executed_tasks, per_worker[w]);
		CHECK(starpu_timespec_cmp(&wi.executing_time, &wi.total_time, <=),
		      "worker %d executed longer than it existed", w);
		total += wi.executed_tasks;
		/* Reading the information restarts the counters. */
		MUST(starpu_profiling_worker_get_info(w, &wi));
		CHECK(wi.executed_tasks == 0, "worker %d: counters not restarted", w);
	}
	CHECK(total == NTASKS, "workers ran %d tasks, %d were submitted", total, NTASKS);
	CHECK(starpu_profiling_worker_get_info(nworkers, NULL) == -EINVAL, "bad worker id accepted");
	CHECK(starpu_bus_get_count() == 0, "buses with one memory node");

	struct tc_capture capture;
	tc_capture_begin(&capture);
	starpu_codelet_display_stats(&cl);
	starpu_profiling_worker_helper_display_summary();
	tc_capture_end(&capture);
	CHECK(strstr(capture.text, "Statistics for codelet prof_kernel") != NULL,
	      "codelet statistics do not name the codelet");
	char line[64];
	snprintf(line, sizeof line, "/ %d (", NTASKS);
	CHECK(strstr(capture.text, line) != NULL, "codelet statistics do not count %d tasks", NTASKS);
	CHECK(strstr(capture.text, "Worker stats:") != NULL, "no worker summary");

	CHECK(starpu_profiling_status_set(STARPU_PROFILING_DISABLE) == STARPU_PROFILING_ENABLE,
	      "status_set should return the previous status");
	struct starpu_task *late = starpu_task_create();
	late->cl = &cl;
	late->handles[0] = h[0];
	late->detach = 0;
	late->destroy = 0;
	MUST(starpu_task_submit(late));
	MUST(starpu_task_wait(late));
	CHECK(late->profiling_info == NULL, "profiling_info allocated while profiling is off");
	starpu_task_destroy(late);

	for (int i = 0; i < NTASKS; i++)
		starpu_task_destroy(tasks[i]);
	for (int i = 0; i < 4; i++)
		starpu_data_unregister(h[i]);
	starpu_shutdown();
	return tc_failures ? 1 : 0;
}
