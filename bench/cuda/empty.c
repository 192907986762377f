/* Per-task cost of an empty CUDA task against an empty CPU task: N tasks without data
 * whose codelet has only a CUDA (resp. CPU) implementation that does nothing, submitted
 * with starpu_task_insert, then starpu_task_wait_for_all. Run with STARPU_NCPU=1 and
 * STARPU_NCUDA=1: one worker of each kind.
 *
 *     empty N   ->   cuda ntasks=N ns_per_task=...
 *                    cpu  ntasks=N ns_per_task=... */
#include "common.h"

static void nothing(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
}

static struct starpu_codelet cuda_cl = {
	.cuda_funcs = {nothing},
	.cuda_flags = {STARPU_CUDA_ASYNC},
	.nbuffers = 0,
	.name = "empty_cuda",
};

static struct starpu_codelet cpu_cl = {
	.cpu_funcs = {nothing},
	.nbuffers = 0,
	.name = "empty_cpu",
};

static double per_task_ns(struct starpu_codelet *cl, int n)
{
	for (int i = 0; i < 100; i++) /* warm-up */
		starpu_task_insert(cl, 0);
	starpu_task_wait_for_all();
	double t0 = now_s();
	for (int i = 0; i < n; i++)
		if (starpu_task_insert(cl, 0) != 0)
			exit(1);
	starpu_task_wait_for_all();
	return (now_s() - t0) * 1e9 / n;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 20000;
	start_with_cuda();
	printf("cuda ntasks=%d ns_per_task=%.0f\n", n, per_task_ns(&cuda_cl, n));
	printf("cpu  ntasks=%d ns_per_task=%.0f\n", n, per_task_ns(&cpu_cl, n));
	starpu_shutdown();
	return 0;
}
