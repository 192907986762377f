/* What the OpenCL benchmarks share: a clock, starting StarPU with one OpenCL device
 * (PoCL needs STARPU_OPENCL_ON_CPUS=1, which run.sh sets), and the device's node. The
 * programs use only StarPU's public API, so the same sources build against Debian's
 * StarPU 1.3 and against starpu-rs. */
#include <starpu.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_us(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/* Starts StarPU; exits 77 without an OpenCL worker. Returns the device's memory node. */
static unsigned start(void)
{
	int ret = starpu_init(NULL);
	if (ret != 0) {
		fprintf(stderr, "starpu_init: %d\n", ret);
		exit(ret == -ENODEV ? 77 : 1);
	}
	if (starpu_opencl_worker_get_count() == 0) {
		fprintf(stderr, "no OpenCL worker (STARPU_OPENCL_ON_CPUS=1 for PoCL)\n");
		starpu_shutdown();
		exit(77);
	}
	return starpu_worker_get_memory_node(starpu_worker_get_by_type(STARPU_OPENCL_WORKER, 0));
}
