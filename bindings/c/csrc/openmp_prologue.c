/* starpu_parallel_worker_openmp_prologue, compiled with -fopenmp: sizes the calling
 * master's OpenMP team to its parallel worker's CPUs and binds one thread on each, so the
 * kernel's "#pragma omp parallel" regions spread over the group. A task that is not
 * possibly parallel gets a team of one. */
#include <starpu.h>
#include <omp.h>

/* Exported as starpu_parallel_worker_openmp_prologue and starpu_openmp_prologue by
 * src/parallel_workers.rs (a C object's symbols do not pass Rust's export list). */

extern int _starpu_parallel_worker_current_cpuids(int **cpuids, int *ncpuids);

void _starpu_c_openmp_prologue(void *arg)
{
	(void) arg;
	int *cpuids = NULL;
	int ncpuids = 0;
	/* Not a CPU worker, or not in a parallel worker: nothing to arrange. */
	if (_starpu_parallel_worker_current_cpuids(&cpuids, &ncpuids) != 0 || ncpuids == 0) {
		free(cpuids);
		return;
	}
	struct starpu_task *task = starpu_task_get_current();
	if (task != NULL && !task->possibly_parallel)
		ncpuids = 1;
	omp_set_num_threads(ncpuids);
#pragma omp parallel num_threads(ncpuids)
	{
		starpu_sched_ctx_bind_current_thread_to_cpuid(cpuids[omp_get_thread_num()]);
	}
	free(cpuids);
}
