/* What the CUDA benchmarks share: a clock, and starting StarPU with at least one CUDA
 * worker (they exit 77 without one). They use StarPU's public API only (and CUDA's own
 * libraries), so the same sources build against StarPU 1.4 built with CUDA. */
#ifndef BENCH_CUDA_COMMON_H
#define BENCH_CUDA_COMMON_H
#include <starpu.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef STARPU_USE_CUDA
#error "these benchmarks need a libstarpu built with CUDA's headers (STARPU_USE_CUDA)"
#endif

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void start_with_cuda(void)
{
	int ret = starpu_init(NULL);
	if (ret != 0) {
		fprintf(stderr, "starpu_init: %d\n", ret);
		exit(ret == -ENODEV ? 77 : 1);
	}
	if (starpu_cuda_worker_get_count() == 0) {
		fprintf(stderr, "no CUDA worker\n");
		starpu_shutdown();
		exit(77);
	}
}
#endif
