/* hello: a task with no data, an argument block and a completion callback.
 *
 *  1. starpu_task_create + codelet set up with starpu_codelet_init, cl_arg /
 *     cl_arg_size, callback_func / callback_arg, synchronous submission:
 *     when starpu_task_submit returns, the kernel has run once on a CPU
 *     worker with a copy of the argument block, and the callback has run
 *     after it with its own argument.
 *  2. the same through starpu_task_insert: STARPU_VALUE arguments unpacked
 *     with starpu_codelet_unpack_args, STARPU_CALLBACK_WITH_ARG_NFREE (the
 *     plain STARPU_CALLBACK_WITH_ARG would free() the argument), then
 *     starpu_task_wait_for_all.
 *  3. a non-detached task waited for with starpu_task_wait.
 */
#include "test_common.h"

struct greeting {
	int number;
	float ratio;
	char word[16];
};

static struct greeting seen;          /* what the kernel of part 1 received */
static int kernel_runs;
static int kernel_worker = -2;
static enum starpu_worker_archtype kernel_arch;
static int callback_runs;
static void *callback_arg_seen;
static int kernel_runs_at_callback;

static void greet_cpu(void *buffers[], void *cl_arg)
{
	(void)buffers;
	memcpy(&seen, cl_arg, sizeof(seen));
	kernel_worker = starpu_worker_get_id();
	kernel_arch = starpu_worker_get_type(kernel_worker);
	__atomic_add_fetch(&kernel_runs, 1, __ATOMIC_SEQ_CST);
}

static void greet_done(void *arg)
{
	callback_arg_seen = arg;
	kernel_runs_at_callback = __atomic_load_n(&kernel_runs, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&callback_runs, 1, __ATOMIC_SEQ_CST);
}

/* Part 2: arguments packed by starpu_task_insert. */
static int packed_number;
static double packed_value;
static int packed_runs;
static int packed_callback_value;

static void packed_cpu(void *buffers[], void *cl_arg)
{
	(void)buffers;
	int n;
	double d;
	starpu_codelet_unpack_args(cl_arg, &n, &d);
	packed_number = n;
	packed_value = d;
	__atomic_add_fetch(&packed_runs, 1, __ATOMIC_SEQ_CST);
}

static void packed_done(void *arg)
{
	packed_callback_value = *(int *)arg;
}

static struct starpu_codelet packed_cl = {
	.cpu_funcs = { packed_cpu },
	.cpu_funcs_name = { "packed_cpu" },
	.nbuffers = 0,
	.name = "hello_packed",
};

/* Part 3 */
static int waited_runs;
static void waited_cpu(void *buffers[], void *cl_arg)
{
	(void)buffers; (void)cl_arg;
	__atomic_add_fetch(&waited_runs, 1, __ATOMIC_SEQ_CST);
}

int main(void)
{
	tc_init();
	CHECK(starpu_worker_get_id() == -1, "main thread has worker id %d", starpu_worker_get_id());
	CHECK(starpu_cpu_worker_get_count() >= 1, "%u CPU workers", starpu_cpu_worker_get_count());

	/* 1. */
	struct starpu_codelet cl;
	starpu_codelet_init(&cl);
	cl.cpu_funcs[0] = greet_cpu;
	cl.cpu_funcs_name[0] = "greet_cpu";
	cl.nbuffers = 0;
	cl.name = "hello";

	struct greeting g = { 7, 0.25f, "bonjour" };
	struct starpu_task *task = starpu_task_create();
	CHECK(task != NULL, "starpu_task_create returned NULL");
	task->cl = &cl;
	task->cl_arg = &g;
	task->cl_arg_size = sizeof(g);
	task->callback_func = greet_done;
	task->callback_arg = (void *)(uintptr_t)0x42;
	task->synchronous = 1;
	MUST(starpu_task_submit(task));

	CHECK(kernel_runs == 1, "kernel ran %d times", kernel_runs);
	CHECK(seen.number == 7 && seen.ratio == 0.25f && strcmp(seen.word, "bonjour") == 0,
	      "kernel saw {%d, %g, \"%.15s\"}, expected {7, 0.25, \"bonjour\"}", seen.number, seen.ratio, seen.word);
	CHECK(kernel_worker >= 0 && kernel_worker < (int)starpu_worker_get_count(),
	      "kernel ran on worker id %d", kernel_worker);
	CHECK(kernel_arch == STARPU_CPU_WORKER, "kernel ran on a worker of type %d", (int)kernel_arch);
	CHECK(callback_runs == 1, "callback ran %d times", callback_runs);
	CHECK(callback_arg_seen == (void *)(uintptr_t)0x42, "callback got %p, expected 0x42", callback_arg_seen);
	CHECK(kernel_runs_at_callback == 1, "callback ran before the kernel (kernel runs then: %d)", kernel_runs_at_callback);

	/* 2. */
	int n = 1234;
	double d = 2.5;
	int cb_value = 99;
	MUST(starpu_task_insert(&packed_cl,
				STARPU_VALUE, &n, sizeof(n),
				STARPU_VALUE, &d, sizeof(d),
				STARPU_CALLBACK_WITH_ARG_NFREE, packed_done, &cb_value,
				STARPU_NAME, "hello_packed",
				0));
	n = -1; d = -1.0;  /* the values were copied at submission */
	starpu_task_wait_for_all();
	CHECK(packed_runs == 1, "packed kernel ran %d times", packed_runs);
	CHECK(packed_number == 1234 && packed_value == 2.5,
	      "unpacked (%d, %g), expected (1234, 2.5)", packed_number, packed_value);
	CHECK(packed_callback_value == 99, "callback of the inserted task saw %d, expected 99", packed_callback_value);

	/* 3. */
	struct starpu_codelet wcl;
	starpu_codelet_init(&wcl);
	wcl.cpu_funcs[0] = waited_cpu;
	wcl.nbuffers = 0;
	wcl.name = "hello_waited";
	struct starpu_task *t = starpu_task_create();
	t->cl = &wcl;
	t->detach = 0;
	MUST(starpu_task_submit(t));
	MUST(starpu_task_wait(t));  /* also frees t (destroy is set by starpu_task_create) */
	CHECK(waited_runs == 1, "waited task ran %d times", waited_runs);

	starpu_shutdown();
	return tc_finish("hello");
}
