/* starpu_clusters.h: StarPU 1.4's deprecated names of parallel workers
 * (starpu_parallel_worker.h): starpu_cluster_machine, starpu_uncluster_machine,
 * starpu_cluster_print and the STARPU_CLUSTER_* options, same values and meaning. */
#ifndef __STARPU_CLUSTERS_UTIL_H__
#define __STARPU_CLUSTERS_UTIL_H__

#include <starpu_parallel_worker.h>

#ifdef STARPU_PARALLEL_WORKER_DECLARED
#ifdef __cplusplus
extern "C" {
#endif

#define STARPU_CLUSTER STARPU_PARALLEL_WORKER
#define STARPU_CLUSTER_MIN_NB STARPU_PARALLEL_WORKER_MIN_NB
#define STARPU_CLUSTER_MAX_NB STARPU_PARALLEL_WORKER_MAX_NB
#define STARPU_CLUSTER_NB STARPU_PARALLEL_WORKER_NB
#define STARPU_CLUSTER_PREFERE_MIN STARPU_PARALLEL_WORKER_PREFERE_MIN
#define STARPU_CLUSTER_KEEP_HOMOGENEOUS STARPU_PARALLEL_WORKER_KEEP_HOMOGENEOUS
#define STARPU_CLUSTER_POLICY_NAME STARPU_PARALLEL_WORKER_POLICY_NAME
#define STARPU_CLUSTER_POLICY_STRUCT STARPU_PARALLEL_WORKER_POLICY_STRUCT
#define STARPU_CLUSTER_CREATE_FUNC STARPU_PARALLEL_WORKER_CREATE_FUNC
#define STARPU_CLUSTER_CREATE_FUNC_ARG STARPU_PARALLEL_WORKER_CREATE_FUNC_ARG
#define STARPU_CLUSTER_TYPE STARPU_PARALLEL_WORKER_TYPE
#define STARPU_CLUSTER_AWAKE_WORKERS STARPU_PARALLEL_WORKER_AWAKE_WORKERS
#define STARPU_CLUSTER_PARTITION_ONE STARPU_PARALLEL_WORKER_PARTITION_ONE
#define STARPU_CLUSTER_NEW STARPU_PARALLEL_WORKER_NEW
#define STARPU_CLUSTER_NCORES STARPU_PARALLEL_WORKER_NCORES
#define STARPU_CLUSTER_OPENMP STARPU_PARALLEL_WORKER_OPENMP
#define STARPU_CLUSTER_INTEL_OPENMP_MKL STARPU_PARALLEL_WORKER_INTEL_OPENMP_MKL
#define STARPU_CLUSTER_GNU_OPENMP_MKL STARPU_PARALLEL_WORKER_GNU_OPENMP_MKL
#define starpu_cluster_types starpu_parallel_worker_types

/* The same configuration as starpu_parallel_worker_init's, under the old type name. */
struct starpu_cluster_machine;
struct starpu_cluster_machine *starpu_cluster_machine(hwloc_obj_type_t cluster_level, ...);
int starpu_uncluster_machine(struct starpu_cluster_machine *clusters);
int starpu_cluster_print(struct starpu_cluster_machine *clusters);

#ifdef __cplusplus
}
#endif
#endif /* STARPU_PARALLEL_WORKER_DECLARED */

#endif /* __STARPU_CLUSTERS_UTIL_H__ */
