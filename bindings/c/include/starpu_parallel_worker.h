/* starpu_parallel_worker.h: StarPU's parallel workers (1.4's "clusters"). The CPU workers
 * are grouped per hwloc object of the level given to starpu_parallel_worker_init; each
 * group is split into parallel workers, each a scheduling context whose tasks run on its
 * first worker (the master) while the others are reserved for the threads of the master's
 * kernel (starpu_parallel_worker_openmp_prologue sizes and binds its OpenMP team). A
 * machine context over the masters becomes the calling thread's current context. */
#ifndef __STARPU_PARALLEL_WORKERS_UTIL_H__
#define __STARPU_PARALLEL_WORKERS_UTIL_H__

#include <starpu.h>

#if defined(STARPU_PARALLEL_WORKER) && defined(STARPU_HAVE_HWLOC) && defined(__has_include)
#if __has_include(<hwloc.h>)
#include <hwloc.h>
#define STARPU_PARALLEL_WORKER_DECLARED 1
#endif
#endif

#ifdef STARPU_PARALLEL_WORKER_DECLARED
#ifdef __cplusplus
extern "C" {
#endif

#define STARPU_PARALLEL_WORKER_MIN_NB (1 << STARPU_MODE_SHIFT)
#define STARPU_PARALLEL_WORKER_MAX_NB (2 << STARPU_MODE_SHIFT)
#define STARPU_PARALLEL_WORKER_NB (3 << STARPU_MODE_SHIFT)
#define STARPU_PARALLEL_WORKER_PREFERE_MIN (4 << STARPU_MODE_SHIFT)
#define STARPU_PARALLEL_WORKER_KEEP_HOMOGENEOUS (5 << STARPU_MODE_SHIFT)
#define STARPU_PARALLEL_WORKER_POLICY_NAME (6 << STARPU_MODE_SHIFT)
#define STARPU_PARALLEL_WORKER_POLICY_STRUCT (7 << STARPU_MODE_SHIFT)
#define STARPU_PARALLEL_WORKER_CREATE_FUNC (8 << STARPU_MODE_SHIFT)
#define STARPU_PARALLEL_WORKER_CREATE_FUNC_ARG (9 << STARPU_MODE_SHIFT)
#define STARPU_PARALLEL_WORKER_TYPE (10 << STARPU_MODE_SHIFT)
#define STARPU_PARALLEL_WORKER_AWAKE_WORKERS (11 << STARPU_MODE_SHIFT)
#define STARPU_PARALLEL_WORKER_PARTITION_ONE (12 << STARPU_MODE_SHIFT)
#define STARPU_PARALLEL_WORKER_NEW (13 << STARPU_MODE_SHIFT)
#define STARPU_PARALLEL_WORKER_NCORES (14 << STARPU_MODE_SHIFT)

/* What runs on each master when its parallel worker is made (unless CREATE_FUNC is
 * given): the OpenMP prologue. GNU_OPENMP_MKL needs MKL, which this build does not use:
 * asking for it makes starpu_parallel_worker_init fail. */
enum starpu_parallel_worker_types
{
	STARPU_PARALLEL_WORKER_OPENMP,
	STARPU_PARALLEL_WORKER_INTEL_OPENMP_MKL,
	STARPU_PARALLEL_WORKER_GNU_OPENMP_MKL
};

/* Opaque: made by starpu_parallel_worker_init, freed by starpu_parallel_worker_shutdown. */
struct starpu_parallel_worker_config;

/* Options: KEY, value..., 0. NULL (with a message) when the options are wrong or there is
 * no CPU worker. */
struct starpu_parallel_worker_config *starpu_parallel_worker_init(hwloc_obj_type_t parallel_worker_level, ...);
/* Deletes the contexts and frees the reserved workers; -1 for NULL. */
int starpu_parallel_worker_shutdown(struct starpu_parallel_worker_config *parallel_workers);
/* One line per parallel worker, with its CPUs, on stdout; -1 for NULL. */
int starpu_parallel_worker_print(struct starpu_parallel_worker_config *parallel_workers);

/* The prologue to give tasks (STARPU_PROLOGUE_CALLBACK_POP) whose kernels use OpenMP:
 * the master's team gets one thread bound on each CPU of its parallel worker (one thread
 * for a task that is not STARPU_POSSIBLY_PARALLEL). */
void starpu_parallel_worker_openmp_prologue(void *);
void starpu_openmp_prologue(void *);
#define starpu_intel_openmp_mkl_prologue starpu_openmp_prologue

#ifdef __cplusplus
}
#endif
#endif /* STARPU_PARALLEL_WORKER_DECLARED */

#include <starpu_clusters.h>

#endif /* __STARPU_PARALLEL_WORKERS_UTIL_H__ */
