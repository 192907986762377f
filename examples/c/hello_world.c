/* hello_world: one task, with an argument for its kernel and a callback run after it. */
#include <starpu.h>

struct greeting {
	int count;
	double scale;
};

static void say_hello(void *buffers[], void *cl_arg)
{
	(void)buffers;
	struct greeting *g = cl_arg;
	printf("hello from worker %d: count=%d scale=%.1f\n", starpu_worker_get_id(), g->count, g->scale);
}

static struct starpu_codelet hello_cl = {
	.cpu_funcs = {say_hello},
	.nbuffers = 0,
	.name = "hello",
};

static void after(void *arg)
{
	printf("callback ran with argument %p\n", arg);
}

int main(void)
{
	int ret = starpu_init(NULL);
	if (ret == -ENODEV)
		return 77;
	STARPU_CHECK_RETURN_VALUE(ret, "starpu_init");

	struct greeting g = {.count = 3, .scale = 2.5};
	struct starpu_task *task = starpu_task_create();
	task->cl = &hello_cl;
	task->cl_arg = &g;
	task->cl_arg_size = sizeof(g);
	task->callback_func = after;
	task->callback_arg = (void *)0x42;
	task->synchronous = 1; /* starpu_task_submit returns once the task ran */
	ret = starpu_task_submit(task);
	STARPU_CHECK_RETURN_VALUE(ret, "starpu_task_submit");

	printf("%u CPU worker(s)\n", starpu_cpu_worker_get_count());
	starpu_shutdown();
	return 0;
}
