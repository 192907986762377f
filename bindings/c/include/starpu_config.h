/* starpu_config.h: what this StarPU implementation was built with.
 * Programs test these in #if; the sizes are also array bounds in public structs. */
#ifndef __STARPU_CONFIG_H__
#define __STARPU_CONFIG_H__

#include <sys/types.h>

#define STARPU_MAJOR_VERSION 1
#define STARPU_MINOR_VERSION 4
#define STARPU_RELEASE_VERSION 0
/* This project's library (starpu-rs), for programs that use its extensions to StarPU's API
 * (starpu_rs_last_error and friends) and still build against StarPU itself. */
#define STARPU_RS 1

/* Workers this build has: CPUs, OpenCL devices when built with it, CUDA devices when
 * built with it and CUDA's headers were found at build time (no HIP, MPI server/client);
 * STARPU_USE_MPI when built with StarPU-MPI (build.rs writes them). */
#define STARPU_USE_CPU 1
/* @OPENCL@ */
#define STARPU_HAVE_HWLOC 1
#define STARPU_LINUX_SYS 1

#define STARPU_NMAXBUFS 8
#define STARPU_MAXIMPLEMENTATIONS 4
#define STARPU_NMAXWORKERS 64
#define STARPU_MAXCPUS 64
#define STARPU_MAXNODES 4
#define STARPU_MAXNUMANODES 2
#define STARPU_NMAX_SCHED_CTXS 10
#define STARPU_NMAX_COMBINEDWORKERS 64
#define STARPU_MAXCUDADEVS 0

#define STARPU_HAVE_SETENV 1
#define STARPU_HAVE_UNSETENV 1
#define STARPU_HAVE_POSIX_MEMALIGN 1
#define STARPU_HAVE_MEMALIGN 1
#define STARPU_HAVE_MALLOC_H 1
#define STARPU_HAVE_SYNC_FETCH_AND_ADD 1
#define STARPU_HAVE_SYNC_FETCH_AND_OR 1
#define STARPU_HAVE_SYNC_BOOL_COMPARE_AND_SWAP 1
#define STARPU_HAVE_SYNC_VAL_COMPARE_AND_SWAP 1
#define STARPU_HAVE_SYNC_SYNCHRONIZE 1
#define STARPU_HAVE_RINTF 1
#define STARPU_HAVE_NEARBYINTF 1
#define STARPU_HAVE_STRERROR_R 1
#define STARPU_HAVE_CXX11 1

/* Parallel workers (starpu_parallel_worker.h, 1.4's starpu_clusters.h). */
#define STARPU_PARALLEL_WORKER 1
/* Execution traces are recorded without FxT (STARPU_FXT_TRACE=1, starpu_fxt_tool). */
#define STARPU_USE_FXT 1
#define STARPU_FXT_MAX_FILES 64

/* Deliberately not defined, because this build does not have them:
 * STARPU_USE_HIP, STARPU_USE_SYCL, STARPU_USE_MAX_FPGA, STARPU_USE_MPI_SERVER_CLIENT,
 * STARPU_SIMGRID, STARPU_HAVE_GLPK_H (no LP solver: starpu_bound_compute gives 0),
 * STARPU_NON_BLOCKING_DRIVERS (idle workers park after a short spin). */

/* The BLAS StarPU's examples may use, as StarPU's configure finds it (STARPU_HAVE_BLAS,
 * STARPU_OPENBLAS or STARPU_SYSTEM_BLAS, STARPU_HAVE_CBLAS_H): written by build.rs from
 * what the build machine has. Programs link the BLAS themselves (`pkg-config --libs
 * openblas`), as with StarPU. */
/* @STARPU_BLAS@ */

typedef ssize_t starpu_ssize_t;

/* The current function's name, in StarPU's messages (StarPU-MPI's tests print it). */
#ifndef __starpu_func__
#define __starpu_func__ __func__
#endif

#endif /* __STARPU_CONFIG_H__ */
