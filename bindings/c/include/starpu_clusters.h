/* starpu_clusters.h: StarPU 1.4's name for parallel workers (starpu_cluster_machine,
 * starpu_uncluster_machine, starpu_cluster_print). Not available in this build, see
 * starpu_parallel_worker.h: declared only where STARPU_CLUSTER is defined, which this
 * build does not do. The library answers the calls with NULL / -ENODEV. */
#ifndef __STARPU_CLUSTERS_UTIL_H__
#define __STARPU_CLUSTERS_UTIL_H__
#include <starpu.h>
#endif
