/* Performance counters: names and ids, counter sets, and listeners (global, per worker,
 * per codelet) called after each task with the counters they enabled. */
#include "test_common.h"

#define NTASKS 20

static void work(void *buffers[], void *arg)
{
	(void)arg;
	int *x = (int *)STARPU_VARIABLE_GET_PTR(buffers[0]);
	*x += 1;
}

static struct starpu_codelet cl = {
	.cpu_funcs = {work}, .nbuffers = 1, .modes = {STARPU_RW}, .name = "counted"};

static int id_g_submitted, id_g_executed, id_w_executed, id_c_executed, id_c_time;
static int64_t last_global_executed, last_global_submitted, last_codelet_executed;
static int64_t per_worker[STARPU_NMAXWORKERS];
static double last_codelet_time = -1;
static int global_calls, codelet_calls;
static void *codelet_context;

static void on_global(struct starpu_perf_counter_listener *l, struct starpu_perf_counter_sample *s, void *ctx)
{
	(void)l;
	(void)ctx;
	global_calls++;
	last_global_executed = starpu_perf_counter_sample_get_int64_value(s, id_g_executed);
	last_global_submitted = starpu_perf_counter_sample_get_int64_value(s, id_g_submitted);
}

static void on_worker(struct starpu_perf_counter_listener *l, struct starpu_perf_counter_sample *s, void *ctx)
{
	(void)l;
	(void)ctx;
	int w = starpu_worker_get_id();
	if (w >= 0)
		per_worker[w] = starpu_perf_counter_sample_get_int64_value(s, id_w_executed);
}

static void on_codelet(struct starpu_perf_counter_listener *l, struct starpu_perf_counter_sample *s, void *ctx)
{
	(void)l;
	codelet_calls++;
	codelet_context = ctx;
	last_codelet_executed = starpu_perf_counter_sample_get_int64_value(s, id_c_executed);
	last_codelet_time = starpu_perf_counter_sample_get_double_value(s, id_c_time);
}

int main(void)
{
	tc_init();
	CHECK(starpu_perf_counter_scope_name_to_id("per_worker") == starpu_perf_counter_scope_per_worker, "scope id");
	CHECK(strcmp(starpu_perf_counter_type_id_to_name(starpu_perf_counter_type_double), "double") == 0, "type name");
	CHECK(starpu_perf_counter_name_to_id(starpu_perf_counter_scope_global, "no.such.counter") == -1, "unknown counter");
	id_g_submitted = starpu_perf_counter_name_to_id(starpu_perf_counter_scope_global, "starpu.task.g.total_submitted");
	id_g_executed = starpu_perf_counter_name_to_id(starpu_perf_counter_scope_global, "starpu.task.g.total_executed");
	id_w_executed = starpu_perf_counter_name_to_id(starpu_perf_counter_scope_per_worker, "starpu.task.w.total_executed");
	id_c_executed = starpu_perf_counter_name_to_id(starpu_perf_counter_scope_per_codelet, "starpu.task.c.total_executed");
	id_c_time = starpu_perf_counter_name_to_id(starpu_perf_counter_scope_per_codelet, "starpu.task.c.cumul_execution_time");
	CHECK(id_g_submitted >= 0 && id_g_executed >= 0 && id_w_executed >= 0 && id_c_executed >= 0 && id_c_time >= 0,
	      "counter ids %d %d %d %d %d", id_g_submitted, id_g_executed, id_w_executed, id_c_executed, id_c_time);
	CHECK(strcmp(starpu_perf_counter_id_to_name(id_c_time), "starpu.task.c.cumul_execution_time") == 0, "id to name");
	CHECK(starpu_perf_counter_get_type_id(id_c_time) == starpu_perf_counter_type_double, "type of a counter");
	int n = starpu_perf_counter_nb(starpu_perf_counter_scope_global);
	CHECK(n > 0 && starpu_perf_counter_nth_to_id(starpu_perf_counter_scope_global, n) == -1, "nth past the end");

	struct starpu_perf_counter_set *gset = starpu_perf_counter_set_alloc(starpu_perf_counter_scope_global);
	starpu_perf_counter_set_enable_id(gset, id_g_submitted);
	starpu_perf_counter_set_enable_id(gset, id_g_executed);
	struct starpu_perf_counter_set *wset = starpu_perf_counter_set_alloc(starpu_perf_counter_scope_per_worker);
	starpu_perf_counter_set_enable_id(wset, id_w_executed);
	struct starpu_perf_counter_set *cset = starpu_perf_counter_set_alloc(starpu_perf_counter_scope_per_codelet);
	starpu_perf_counter_set_enable_id(cset, id_c_executed);
	starpu_perf_counter_set_enable_id(cset, id_c_time);

	struct starpu_perf_counter_listener *gl = starpu_perf_counter_listener_init(gset, on_global, NULL);
	struct starpu_perf_counter_listener *wl = starpu_perf_counter_listener_init(wset, on_worker, NULL);
	struct starpu_perf_counter_listener *cl_l = starpu_perf_counter_listener_init(cset, on_codelet, NULL);
	starpu_perf_counter_set_global_listener(gl);
	starpu_perf_counter_set_all_per_worker_listeners(wl);
	starpu_perf_counter_set_per_codelet_listener(&cl, cl_l);

	int x = 0;
	starpu_data_handle_t h;
	starpu_variable_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)&x, sizeof x);
	for (int i = 0; i < NTASKS; i++)
		MUST(starpu_task_insert(&cl, STARPU_RW, h, 0));
	MUST(starpu_task_wait_for_all());

	CHECK(global_calls == NTASKS, "global listener called %d times, %d tasks ran", global_calls, NTASKS);
	CHECK(last_global_executed == NTASKS, "global total_executed %lld", (long long)last_global_executed);
	CHECK(last_global_submitted == NTASKS, "global total_submitted %lld", (long long)last_global_submitted);
	CHECK(codelet_calls == NTASKS && last_codelet_executed == NTASKS, "codelet listener: %d calls, executed %lld",
	      codelet_calls, (long long)last_codelet_executed);
	CHECK(codelet_context == &cl, "the codelet listener's context is not the codelet");
	CHECK(last_codelet_time >= 0.0, "cumulated execution time %f", last_codelet_time);
	int64_t sum = 0;
	for (unsigned w = 0; w < starpu_worker_get_count(); w++)
		sum += per_worker[w];
	CHECK(sum == NTASKS, "workers executed %lld tasks, %d ran", (long long)sum, NTASKS);

	/* Detached listeners hear nothing more. */
	starpu_perf_counter_unset_global_listener();
	starpu_perf_counter_unset_all_per_worker_listeners();
	starpu_perf_counter_unset_per_codelet_listener(&cl);
	MUST(starpu_task_insert(&cl, STARPU_RW, h, 0));
	MUST(starpu_task_wait_for_all());
	CHECK(global_calls == NTASKS && codelet_calls == NTASKS, "a detached listener was called");

	starpu_perf_counter_listener_exit(gl);
	starpu_perf_counter_listener_exit(wl);
	starpu_perf_counter_listener_exit(cl_l);
	starpu_perf_counter_set_free(gset);
	starpu_perf_counter_set_free(wset);
	starpu_perf_counter_set_free(cset);
	starpu_data_unregister(h);
	CHECK(x == NTASKS + 1, "x = %d", x);
	starpu_shutdown();
	return tc_failures ? 1 : 0;
}
