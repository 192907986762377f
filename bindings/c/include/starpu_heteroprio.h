/* starpu_heteroprio.h: the heteroprio policy's configuration calls (StarPU 1.4's
 * schedulers/starpu_heteroprio.h). The functions are declared in starpu.h, generated from
 * the library; this header adds the constants and the older architecture indexes. */
#ifndef __STARPU_SCHEDULER_HETEROPRIO_H__
#define __STARPU_SCHEDULER_HETEROPRIO_H__
#include <starpu.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Buckets, and the priorities a task scheduled by heteroprio may have (0 to 99). */
#define STARPU_HETEROPRIO_MAX_PRIO 100
/* StarPU's prefetch depth; this build's workers take one task at a time. */
#define STARPU_HETEROPRIO_MAX_PREFETCH 2

/* The architecture indexes of StarPU before 1.4, whose calls took an
 * enum starpu_heteroprio_types; since 1.4 they take an enum starpu_worker_archtype, and
 * these names stay as its values (so that C++ programs pass them without a cast). */
#define STARPU_CPU_IDX STARPU_CPU_WORKER
#define STARPU_CUDA_IDX STARPU_CUDA_WORKER
#define STARPU_OPENCL_IDX STARPU_OPENCL_WORKER
#define STARPU_MIC_IDX STARPU_MIC_WORKER
#define STARPU_MPI_MS_IDX STARPU_MPI_MS_WORKER
#define STARPU_NB_TYPES STARPU_NARCH

#ifdef __cplusplus
}
#endif
#endif /* __STARPU_SCHEDULER_HETEROPRIO_H__ */
