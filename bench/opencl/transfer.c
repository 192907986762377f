/* Transfer time between main RAM and an OpenCL device, through StarPU's data
 * management: a vector of SIZE bytes is made valid in RAM only (an acquisition in W),
 * then fetched to the device (starpu_data_fetch_on_node, synchronous); then made valid
 * on the device only (an empty OpenCL task in RW) and fetched back to RAM. Each fetch is
 * timed; the median of ITER runs is printed per direction, with the bandwidth.
 *
 *     transfer SIZE ITER   ->   size=SIZE h2d_us=... d2h_us=... h2d_MBps=... d2h_MBps=... */
#include "common.h"
#include <string.h>

static void touch(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
}

static struct starpu_codelet on_device = {
	.opencl_funcs = {touch},
	.nbuffers = 1,
	.modes = {STARPU_RW},
	.name = "touch",
};

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	size_t size = argc > 1 ? strtoull(argv[1], NULL, 0) : 1 << 24;
	int iter = argc > 2 ? atoi(argv[2]) : 20;
	unsigned dev = start();
	char *buf;
	starpu_malloc((void **)&buf, size);
	memset(buf, 1, size);
	starpu_data_handle_t h;
	starpu_vector_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)buf, size, 1);
	double *h2d = calloc(iter, sizeof(double)), *d2h = calloc(iter, sizeof(double));
	for (int i = -2; i < iter; i++) { /* two warm-up rounds */
		starpu_data_acquire(h, STARPU_W);
		starpu_data_release(h);
		double t0 = now_us();
		starpu_data_fetch_on_node(h, dev, 0);
		double t1 = now_us();
		starpu_task_insert(&on_device, STARPU_RW, h, 0);
		starpu_task_wait_for_all();
		double t2 = now_us();
		starpu_data_fetch_on_node(h, STARPU_MAIN_RAM, 0);
		double t3 = now_us();
		if (i >= 0) {
			h2d[i] = t1 - t0;
			d2h[i] = t3 - t2;
		}
	}
	qsort(h2d, iter, sizeof(double), cmp);
	qsort(d2h, iter, sizeof(double), cmp);
	double up = h2d[iter / 2], down = d2h[iter / 2];
	printf("size=%zu h2d_us=%.1f d2h_us=%.1f h2d_MBps=%.0f d2h_MBps=%.0f\n", size, up, down,
	       size / up, size / down);
	starpu_data_unregister(h);
	starpu_free(buf);
	starpu_shutdown();
	return 0;
}
