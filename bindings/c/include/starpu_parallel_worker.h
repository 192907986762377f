/* starpu_parallel_worker.h: StarPU's parallel workers (clusters), which need OpenMP
 * runtimes driven inside scheduling contexts. This build does not have them and, like a
 * StarPU configured without them, does not define STARPU_PARALLEL_WORKER, so this header
 * declares nothing. The library still answers the calls: starpu_parallel_worker_init
 * returns NULL, starpu_parallel_worker_shutdown and _print return -ENODEV, each saying
 * so once on stderr. Parallel tasks run on combined workers instead (peager, pheft). */
#ifndef __STARPU_PARALLEL_WORKERS_UTIL_H__
#define __STARPU_PARALLEL_WORKERS_UTIL_H__
#include <starpu.h>
#endif
