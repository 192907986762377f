/* StarPU 1.4 calls meant for policies, tools and careful applications: waiting for the
 * tasks of one scheduling context and closing it after its last one, prefetch / allocation requests and is_on_node with
 * main RAM as the only memory node, deinitialization, the chosen implementation of a
 * task, the asynchronous-copy switches, workers blocked for parallel code, and the FxT
 * calls given no options. Bad handles, nodes, contexts and workers are refused
 * with a message. */
#include "test_common.h"
#include "stderr_capture.h"

static int bad_node;

/* Counts the tasks that ran. */
static int nran;
static void count(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	__atomic_add_fetch(&nran, 1, __ATOMIC_SEQ_CST);
}
static struct starpu_codelet count_cl = {.cpu_funcs = {count}, .nbuffers = 0};

/* Holds its worker until `gate` opens. */
static int gate;
static void hold(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	while (!__atomic_load_n(&gate, __ATOMIC_SEQ_CST))
		starpu_usleep(100);
}
static struct starpu_codelet hold_cl = {.cpu_funcs = {hold}, .nbuffers = 0};

/* What a task sees when it waits for a context. */
static int inner_ret = 1;
static void wait_inside(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	inner_ret = starpu_task_wait_for_all_in_ctx(STARPU_GLOBAL_SCHED_CTX);
}
static struct starpu_codelet wait_inside_cl = {.cpu_funcs = {wait_inside}, .nbuffers = 0};

static void submit_to(struct starpu_codelet *cl, unsigned ctx, int worker)
{
	struct starpu_task *t = starpu_task_create();
	t->cl = cl;
	if (worker >= 0) {
		t->execute_on_a_specific_worker = 1;
		t->workerid = worker;
	}
	MUST(starpu_task_submit_to_ctx(t, ctx));
}

static void context_waits(void)
{
	/* Context on worker 1; the global context keeps worker 0. */
	int w1[] = {1};
	unsigned ctx = starpu_sched_ctx_create(w1, 1, "waited", STARPU_SCHED_CTX_POLICY_NAME, "eager", 0);
	CHECK(ctx > 0 && ctx < STARPU_NMAX_SCHED_CTXS, "ctx %u", ctx);
	starpu_sched_ctx_remove_workers(w1, 1, STARPU_GLOBAL_SCHED_CTX);

	/* A global task holds worker 0 until the context's tasks are waited for: waiting for
	 * the context must not wait for it (or the test hangs). */
	submit_to(&hold_cl, STARPU_GLOBAL_SCHED_CTX, 0);
	for (int i = 0; i < 20; i++)
		submit_to(&count_cl, ctx, -1);
	MUST(starpu_task_wait_for_all_in_ctx(ctx));
	CHECK(__atomic_load_n(&nran, __ATOMIC_SEQ_CST) == 20, "%d of the context's 20 tasks ran", nran);
	for (int i = 0; i < 5; i++)
		submit_to(&count_cl, ctx, -1);
	MUST(starpu_task_wait_for_n_submitted_in_ctx(ctx, 0));
	CHECK(__atomic_load_n(&nran, __ATOMIC_SEQ_CST) == 25, "%d of 25 tasks ran", nran);
	/* The held task is the global context's one task left: "at most 1" is true now. */
	MUST(starpu_task_wait_for_n_submitted_in_ctx(STARPU_GLOBAL_SCHED_CTX, 1));
	__atomic_store_n(&gate, 1, __ATOMIC_SEQ_CST);
	MUST(starpu_task_wait_for_all_in_ctx(STARPU_GLOBAL_SCHED_CTX));

	/* From a task: refused (it would wait for itself). */
	submit_to(&wait_inside_cl, STARPU_GLOBAL_SCHED_CTX, -1);
	MUST(starpu_task_wait_for_all());
	CHECK(inner_ret == -EDEADLK, "wait_for_all_in_ctx inside a task returned %d", inner_ret);

	struct tc_capture c;
	tc_capture_begin(&c);
	int r1 = starpu_task_wait_for_all_in_ctx(7);
	int r2 = starpu_task_wait_for_n_submitted_in_ctx(12345, 0);
	tc_capture_end(&c);
	CHECK(r1 == -EINVAL && r2 == -EINVAL, "missing contexts: %d %d", r1, r2);
	CHECK(strstr(c.text, "[starpu][starpu_task_wait_for_all_in_ctx]") &&
		      strstr(c.text, "scheduling context 7 does not exist"),
	      "message: %s", c.text);
	starpu_sched_ctx_delete(ctx);
}

/* The close callback's calls: how many, with which context and argument. */
static int nclosed;
static unsigned closed_ctx;
static void *closed_arg;
static void on_close(unsigned ctx, void *arg)
{
	nclosed++;
	closed_ctx = ctx;
	closed_arg = arg;
}

static void context_close(void)
{
	static int token;
	int w1[] = {1};
	/* Without an inheritor, finishing the submissions closes nothing. */
	unsigned lone = starpu_sched_ctx_create(w1, 1, "lone", 0);
	starpu_sched_ctx_register_close_callback(lone, on_close, &token);
	submit_to(&count_cl, lone, -1);
	starpu_sched_ctx_finished_submit(lone);
	MUST(starpu_task_wait_for_all());
	CHECK(nclosed == 0, "a context without inheritor was closed");
	starpu_sched_ctx_delete(lone);

	/* With one, its last task closes it: callback, then worker 1 joins the global context. */
	unsigned ctx = starpu_sched_ctx_create(w1, 1, "closing", 0);
	starpu_sched_ctx_remove_workers(w1, 1, STARPU_GLOBAL_SCHED_CTX);
	CHECK(starpu_sched_ctx_contains_worker(1, STARPU_GLOBAL_SCHED_CTX) == 0, "worker 1 still global");
	starpu_sched_ctx_set_inheritor(ctx, STARPU_GLOBAL_SCHED_CTX);
	starpu_sched_ctx_register_close_callback(ctx, on_close, &token);
	/* The context's only worker is held until submissions are finished: the close comes
	 * with the last task's end, which must follow finished_submit (as in StarPU). */
	__atomic_store_n(&gate, 0, __ATOMIC_SEQ_CST);
	submit_to(&hold_cl, ctx, -1);
	for (int i = 0; i < 4; i++)
		submit_to(&count_cl, ctx, -1);
	starpu_sched_ctx_finished_submit(ctx);
	CHECK(nclosed == 0, "closed before its tasks ended");
	__atomic_store_n(&gate, 1, __ATOMIC_SEQ_CST);
	MUST(starpu_task_wait_for_all());
	CHECK(nclosed == 1 && closed_ctx == ctx && closed_arg == &token, "close callback: %d calls, ctx %u", nclosed,
	      closed_ctx);
	CHECK(starpu_sched_ctx_contains_worker(1, STARPU_GLOBAL_SCHED_CTX) == 1, "worker 1 did not join the inheritor");
	starpu_sched_ctx_delete(ctx);

	struct tc_capture c;
	tc_capture_begin(&c);
	starpu_sched_ctx_register_close_callback(8, on_close, NULL);
	tc_capture_end(&c);
	CHECK(strstr(c.text, "[starpu][starpu_sched_ctx_register_close_callback]") != NULL, "message: %s", c.text);
}

/* Worker 1 while parallel code runs on a context made of it. */
static unsigned blocked_during;
static void *parallel_code(void *arg)
{
	(void)arg;
	blocked_during = starpu_worker_is_blocked_in_parallel(1);
	return NULL;
}

static void workers(void)
{
	CHECK(starpu_worker_is_blocked_in_parallel(0) == 0, "worker 0 blocked");
	CHECK(starpu_worker_is_slave_somewhere(0) == 0, "worker 0 subordinate");
	CHECK(starpu_sched_ctx_master_get_context(0) == STARPU_NMAX_SCHED_CTXS, "worker 0 is a master");

	int w1[] = {1};
	unsigned ctx = starpu_sched_ctx_create(w1, 1, "parallel", 0);
	starpu_sched_ctx_exec_parallel_code(parallel_code, NULL, ctx);
	CHECK(blocked_during == 1, "worker 1 not blocked during parallel code");
	CHECK(starpu_worker_is_blocked_in_parallel(1) == 0, "worker 1 still blocked after it");
	starpu_sched_ctx_delete(ctx);

	struct tc_capture c;
	tc_capture_begin(&c);
	unsigned b = starpu_worker_is_blocked_in_parallel(99);
	unsigned s = starpu_worker_is_slave_somewhere(-1);
	unsigned m = starpu_sched_ctx_master_get_context(99);
	tc_capture_end(&c);
	CHECK(b == 0 && s == 0 && m == STARPU_NMAX_SCHED_CTXS, "bad workers: %u %u %u", b, s, m);
	CHECK(strstr(c.text, "worker 99 does not exist") && strstr(c.text, "worker -1 does not exist"),
	      "message: %s", c.text);
}

static void write7(void *buffers[], void *arg)
{
	(void)arg;
	*(int *)STARPU_VARIABLE_GET_PTR(buffers[0]) = 7;
}
static struct starpu_codelet write_cl = {.cpu_funcs = {write7}, .nbuffers = 1, .modes = {STARPU_W}};

static void data_requests(void)
{
	int x = 1;
	starpu_data_handle_t h;
	starpu_variable_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)&x, sizeof(x));

	CHECK(starpu_data_prefetch_on_node_prio(h, STARPU_MAIN_RAM, 1, 5) == 0, "prefetch_prio");
	CHECK(starpu_data_idle_prefetch_on_node(h, STARPU_MAIN_RAM, 1) == 0, "idle_prefetch");
	CHECK(starpu_data_idle_prefetch_on_node_prio(h, STARPU_MAIN_RAM, 0, -3) == 0, "idle_prefetch_prio");
	CHECK(starpu_data_request_allocation(h, STARPU_MAIN_RAM) == 0, "request_allocation");
	CHECK(starpu_data_is_on_node(h, STARPU_MAIN_RAM) == 1, "a registered value is not on main RAM");
	starpu_data_advise_as_important(h, 1);
	starpu_memchunk_tidy(STARPU_MAIN_RAM);

	/* Deinitialized: no node holds a value, the buffer stays; a write brings it back. */
	starpu_data_deinitialize(h);
	CHECK(starpu_data_is_on_node(h, STARPU_MAIN_RAM) == 0, "value still there after deinitialize");
	CHECK(starpu_data_test_if_allocated_on_node(h, STARPU_MAIN_RAM) == 1, "buffer gone after deinitialize");
	MUST(starpu_task_insert(&write_cl, STARPU_W, h, 0));
	MUST(starpu_task_wait_for_all());
	CHECK(starpu_data_is_on_node(h, STARPU_MAIN_RAM) == 1, "value not back after a write");
	MUST(starpu_data_acquire(h, STARPU_R));
	CHECK(x == 7, "x = %d", x);
	starpu_data_release(h);

	/* _submit: after the tasks submitted before it. */
	MUST(starpu_task_insert(&write_cl, STARPU_W, h, 0));
	starpu_data_deinitialize_submit(h);
	MUST(starpu_task_wait_for_all());
	CHECK(starpu_data_is_on_node(h, STARPU_MAIN_RAM) == 0, "value still there after deinitialize_submit");

	struct tc_capture c;
	tc_capture_begin(&c);
	int r1 = starpu_data_prefetch_on_node_prio(h, bad_node, 0, 0);
	int r2 = starpu_data_idle_prefetch_on_node(h, bad_node, 0);
	int r3 = starpu_data_idle_prefetch_on_node_prio(NULL, STARPU_MAIN_RAM, 0, 0);
	int r4 = starpu_data_request_allocation(h, bad_node);
	unsigned on = starpu_data_is_on_node(h, bad_node);
	starpu_memchunk_tidy(bad_node);
	starpu_data_advise_as_important(NULL, 1);
	tc_capture_end(&c);
	CHECK(r1 == -EINVAL && r2 == -EINVAL && r3 == -EINVAL && r4 == -EINVAL, "refusals: %d %d %d %d", r1, r2, r3,
	      r4);
	CHECK(on == 0, "is_on_node(bad node) = %u", on);
	char expect[96];
	snprintf(expect, sizeof expect, "[starpu][starpu_memchunk_tidy] memory node %d does not exist",
		 bad_node);
	CHECK(strstr(c.text, expect) != NULL, "no '%s' in: %s", expect, c.text);
	CHECK(strstr(c.text, "[starpu][starpu_data_request_allocation]") &&
		      strstr(c.text, "[starpu][starpu_data_advise_as_important]"),
	      "message: %s", c.text);
	starpu_data_unregister(h);
}

/* Two implementations; each records which one it is and what the task says. */
static int ran_impl = -1, said_impl = -1;
static void impl0(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	ran_impl = 0;
	said_impl = (int)starpu_task_get_implementation(starpu_task_get_current());
}
static void impl1(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	ran_impl = 1;
	said_impl = (int)starpu_task_get_implementation(starpu_task_get_current());
}
static struct starpu_codelet two_cl = {.cpu_funcs = {impl0, impl1}, .nbuffers = 0};

static void implementations(void)
{
	struct starpu_task *t = starpu_task_create();
	t->cl = &two_cl;
	t->detach = 0;
	t->destroy = 0;
	CHECK(starpu_task_get_implementation(t) == 0, "before submission");
	struct tc_capture c;
	tc_capture_begin(&c);
	starpu_task_set_implementation(t, 1);
	tc_capture_end(&c);
	CHECK(strstr(c.text, "[starpu][starpu_task_set_implementation]") != NULL, "no message: %s", c.text);

	/* Held back by a tag: the choice is visible before the task runs. */
	t->use_tag = 1;
	t->tag_id = 4242;
	starpu_tag_t dep = 4243;
	starpu_tag_declare_deps_array(4242, 1, &dep);
	MUST(starpu_task_submit(t));
	starpu_task_set_implementation(t, 1);
	CHECK(starpu_task_get_implementation(t) == 1, "%u", starpu_task_get_implementation(t));
	starpu_tag_notify_from_apps(dep);
	MUST(starpu_task_wait(t));
	CHECK(ran_impl == said_impl && ran_impl >= 0, "implementation %d ran, the task said %d", ran_impl, said_impl);
	CHECK((int)starpu_task_get_implementation(t) == ran_impl, "after the end: %u, ran %d",
	      starpu_task_get_implementation(t), ran_impl);
	starpu_task_destroy(t);
}

/* Traces are there (tests/c/fxt_trace.c); bad options are refused with a message. */
static void fxt_null_options(void)
{
	struct tc_capture c;
	tc_capture_begin(&c);
	starpu_fxt_options_init(NULL);
	starpu_fxt_generate_trace(NULL);
	tc_capture_end(&c);
	CHECK(strstr(c.text, "[starpu_fxt_options_init] options is NULL") != NULL &&
	      strstr(c.text, "[starpu_fxt_generate_trace] options is NULL") != NULL,
	      "no message for NULL options: %s", c.text);
}

int main(void)
{
	struct starpu_conf conf;
	starpu_conf_init(&conf);
	conf.ncpus = 2;
	conf.precedence_over_environment_variables = 1;
	conf.disable_asynchronous_copy = 1;
	conf.disable_asynchronous_cuda_copy = 0;
	int ret = starpu_init(&conf);
	if (ret == -ENODEV)
		return 77;
	MUST(ret);
	bad_node = (int)starpu_memory_nodes_get_count();

	CHECK(starpu_asynchronous_copy_disabled() == 1, "copies not disabled");
	CHECK(starpu_asynchronous_cuda_copy_disabled() == 0, "CUDA copies disabled");
	CHECK(starpu_asynchronous_opencl_copy_disabled() == 0, "OpenCL copies disabled");

	context_waits();
	context_close();
	workers();
	data_requests();
	implementations();
	fxt_null_options();

	starpu_shutdown();
	return tc_finish("runtime_queries");
}
