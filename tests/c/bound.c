/* The theoretical bound: tasks run between starpu_bound_start and starpu_bound_stop are
 * recorded with their durations; with identical CPU workers the relaxed bound is the total
 * work divided by the number of workers. Profiling gives each task's duration, measured
 * on the same clock readings, so the bound is checked against them exactly; the LP and
 * MPS programs name every kind of task with its count. */
#include "test_common.h"
#include <math.h>

#define NA 12
#define NB 5

static void work(void *buffers[], void *arg)
{
	(void)arg;
	double *v = (double *)STARPU_VARIABLE_GET_PTR(buffers[0]);
	for (int i = 0; i < 2000; i++)
		*v += 1e-3;
}

static struct starpu_codelet cl_a = {
	.cpu_funcs = {work}, .nbuffers = 1, .modes = {STARPU_RW}, .name = "kind_a"};
static struct starpu_codelet cl_b = {
	.cpu_funcs = {work}, .nbuffers = 1, .modes = {STARPU_RW}, .name = "kind_b"};

static double us(const struct timespec *t)
{
	return starpu_timing_timespec_to_us((struct timespec *)t);
}

/* The whole content of a stream written by `print`. */
static char *printed(void (*print)(FILE *))
{
	static char buf[16384];
	FILE *f = tmpfile();
	print(f);
	rewind(f);
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

int main(void)
{
	tc_init();
	int nworkers = (int)starpu_worker_get_count();
	starpu_profiling_status_set(STARPU_PROFILING_ENABLE);
	double values[3] = {0};
	starpu_data_handle_t h[3];
	for (int i = 0; i < 3; i++)
		starpu_variable_data_register(&h[i], STARPU_MAIN_RAM, (uintptr_t)&values[i], sizeof(double));

	/* A task before the recording starts is not counted. */
	MUST(starpu_task_insert(&cl_a, STARPU_RW, h[0], 0));
	MUST(starpu_task_wait_for_all());

	starpu_bound_start(0, 0);
	struct starpu_task *tasks[NA + NB];
	for (int i = 0; i < NA + NB; i++) {
		struct starpu_task *t = starpu_task_create();
		t->cl = i < NA ? &cl_a : &cl_b;
		t->handles[0] = h[i % 3];
		t->detach = 0;
		t->destroy = 0;
		tasks[i] = t;
		MUST(starpu_task_submit(t));
	}
	MUST(starpu_task_wait_for_all());
	starpu_bound_stop();

	double total_us = 0;
	for (int i = 0; i < NA + NB; i++)
		total_us += us(&tasks[i]->profiling_info->end_time) - us(&tasks[i]->profiling_info->start_time);

	double res = -1, ires = -1;
	starpu_bound_compute(&res, &ires, 0);
	double expected_ms = total_us / 1000.0 / nworkers;
	CHECK(res > 0, "bound %f", res);
	CHECK(fabs(res - expected_ms) <= 1e-6 * expected_ms + 1e-9,
	      "bound %.9f ms, expected the work over the workers: %.9f ms", res, expected_ms);

	char *lp = printed(starpu_bound_print_lp);
	CHECK(strstr(lp, "min: tmax;") != NULL, "no objective in the LP:\n%s", lp);
	CHECK(strstr(lp, "kind_a, 12 tasks") != NULL && strstr(lp, "kind_b, 5 tasks") != NULL,
	      "the LP does not count the tasks:\n%s", lp);
	CHECK(strstr(lp, "t0: w0t0n") != NULL && strstr(lp, "= 12;") != NULL && strstr(lp, "= 5;") != NULL,
	      "the LP lacks the task constraints:\n%s", lp);
	char *mps = printed(starpu_bound_print_mps);
	CHECK(strncmp(mps, "NAME", 4) == 0 && strstr(mps, "ENDATA") != NULL, "not an MPS program:\n%s", mps);

	/* A new start forgets what was recorded. */
	starpu_bound_start(0, 0);
	starpu_bound_stop();
	starpu_bound_compute(&res, NULL, 0);
	CHECK(res == 0.0, "bound %f after a new start with no task", res);

	for (int i = 0; i < NA + NB; i++)
		starpu_task_destroy(tasks[i]);
	for (int i = 0; i < 3; i++)
		starpu_data_unregister(h[i]);
	starpu_shutdown();
	return tc_failures ? 1 : 0;
}
