/* incrementer: many small tasks on one piece of data. StarPU's implicit dependencies
 * run the read-write tasks one after the other; the application then reads the result
 * with starpu_data_acquire. */
#include <starpu.h>

#define NTASKS 100000

static void increment(void *buffers[], void *cl_arg)
{
	(void)cl_arg;
	unsigned long *x = (unsigned long *)STARPU_VARIABLE_GET_PTR(buffers[0]);
	(*x)++;
}

static struct starpu_codelet increment_cl = {
	.cpu_funcs = {increment},
	.nbuffers = 1,
	.modes = {STARPU_RW},
	.name = "increment",
};

int main(void)
{
	unsigned long x = 0;
	starpu_data_handle_t h;
	int ret = starpu_init(NULL);
	if (ret == -ENODEV)
		return 77;
	STARPU_CHECK_RETURN_VALUE(ret, "starpu_init");
	starpu_variable_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)&x, sizeof(x));

	double t0 = starpu_timing_now();
	for (int i = 0; i < NTASKS; i++) {
		ret = starpu_task_insert(&increment_cl, STARPU_RW, h, 0);
		STARPU_CHECK_RETURN_VALUE(ret, "starpu_task_insert");
	}
	ret = starpu_data_acquire(h, STARPU_R);
	STARPU_CHECK_RETURN_VALUE(ret, "starpu_data_acquire");
	double t1 = starpu_timing_now();
	printf("%d dependent tasks: x = %lu (%.0f ns per task)\n", NTASKS, x, (t1 - t0) * 1000.0 / NTASKS);
	int ok = x == NTASKS;
	starpu_data_release(h);

	starpu_data_unregister(h);
	starpu_shutdown();
	return ok ? 0 : 1;
}
