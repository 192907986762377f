/* Per-task cost of an empty OpenCL task: N tasks without data whose codelet has only an
 * OpenCL implementation (which does nothing), submitted with starpu_task_insert, then
 * starpu_task_wait_for_all. Run with STARPU_NCPU=0: the OpenCL worker takes them all.
 *
 *     empty N   ->   ntasks=N ns_per_task=... */
#include "common.h"

static void nothing(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
}

static struct starpu_codelet cl = {
	.opencl_funcs = {nothing},
	.nbuffers = 0,
	.name = "empty_opencl",
};

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 20000;
	start();
	for (int i = 0; i < 100; i++) /* warm-up */
		starpu_task_insert(&cl, 0);
	starpu_task_wait_for_all();
	double t0 = now_us();
	for (int i = 0; i < n; i++)
		if (starpu_task_insert(&cl, 0) != 0)
			return 1;
	starpu_task_wait_for_all();
	double t1 = now_us();
	printf("ntasks=%d ns_per_task=%.0f\n", n, (t1 - t0) * 1000.0 / n);
	starpu_shutdown();
	return 0;
}
