/* StarPU's C API, implemented by starpu-rs (a Rust runtime).
 *
 * This header is assembled at build time: this prelude (hand-written), the structs,
 * typedefs, constants and prototypes cbindgen generates from the Rust sources, then the
 * epilogue (hand-written macros, variadic prototypes and inline helpers). */
#ifndef __STARPU_H__
#define __STARPU_H__

#include <stdlib.h>
#include <stdio.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include <errno.h>
#include <assert.h>
#include <time.h>
#include <sys/time.h> /* as starpu_profiling.h: programs call gettimeofday without their own include */
#include <unistd.h>
#include <pthread.h>
#include <sys/types.h>

#include <starpu_config.h>

#ifdef __cplusplus
extern "C"
{
#endif

/* How a task accesses a piece of data (starpu_data.h). */
enum starpu_data_access_mode
{
	STARPU_NONE = 0,
	STARPU_R = (1 << 0),
	STARPU_W = (1 << 1),
	STARPU_RW = (STARPU_R | STARPU_W),
	STARPU_SCRATCH = (1 << 2),
	STARPU_REDUX = (1 << 3),
	STARPU_COMMUTE = (1 << 4),
	STARPU_SSEND = (1 << 5),
	STARPU_LOCALITY = (1 << 6),
	STARPU_MPI_REDUX = (1 << 7),
	STARPU_NOPLAN = (1 << 8),
	STARPU_UNMAP = (1 << 9),
	STARPU_ACCESS_MODE_MAX = (1 << 10)
};

enum starpu_codelet_type
{
	STARPU_SEQ = 0,
	STARPU_SPMD,
	STARPU_FORKJOIN
};

enum starpu_task_status
{
	STARPU_TASK_INIT,
#define STARPU_TASK_INIT 0
#define STARPU_TASK_INVALID STARPU_TASK_INIT
	STARPU_TASK_BLOCKED,
	STARPU_TASK_READY,
	STARPU_TASK_RUNNING,
	STARPU_TASK_FINISHED,
	STARPU_TASK_BLOCKED_ON_TAG,
	STARPU_TASK_BLOCKED_ON_TASK,
	STARPU_TASK_BLOCKED_ON_DATA,
	STARPU_TASK_STOPPED
};

enum starpu_perfmodel_type
{
	STARPU_PERFMODEL_INVALID = 0,
	STARPU_PER_WORKER,
	STARPU_PER_ARCH,
	STARPU_COMMON,
	STARPU_HISTORY_BASED,
	STARPU_REGRESSION_BASED,
	STARPU_NL_REGRESSION_BASED,
	STARPU_MULTIPLE_REGRESSION_BASED
};

/* Performance counters (starpu_perf_monitoring.h). */
enum starpu_perf_counter_scope
{
	starpu_perf_counter_scope_undefined = 0,
	starpu_perf_counter_scope_global = 1,
	starpu_perf_counter_scope_per_worker = 2,
	starpu_perf_counter_scope_per_codelet = 3
};

enum starpu_perf_counter_type
{
	starpu_perf_counter_type_undefined = 0,
	starpu_perf_counter_type_int32 = 1,
	starpu_perf_counter_type_int64 = 2,
	starpu_perf_counter_type_float = 3,
	starpu_perf_counter_type_double = 4
};

/* How urgently data is wanted on a node (starpu_data.h): the levels of StarPU's fetches,
 * prefetches and idle prefetches. */
enum starpu_is_prefetch
{
	STARPU_FETCH = 0,
	STARPU_TASK_PREFETCH = 1,
	STARPU_PREFETCH = 2,
	STARPU_IDLEFETCH = 3,
	STARPU_NFETCH
};

/* Performance knobs (starpu_perf_steering.h). */
enum starpu_perf_knob_scope
{
	starpu_perf_knob_scope_undefined = 0,
	starpu_perf_knob_scope_global = 1,
	starpu_perf_knob_scope_per_worker = 3,
	starpu_perf_knob_scope_per_scheduler = 5
};

enum starpu_perf_knob_type
{
	starpu_perf_knob_type_undefined = 0,
	starpu_perf_knob_type_int32 = 1,
	starpu_perf_knob_type_int64 = 2,
	starpu_perf_knob_type_float = 3,
	starpu_perf_knob_type_double = 4
};

enum starpu_worker_archtype
{
	STARPU_CPU_WORKER = 0,
	STARPU_CUDA_WORKER = 1,
	STARPU_OPENCL_WORKER = 2,
	STARPU_MIC_WORKER = 3, /* StarPU 1.3's, kept so 1.3 programs compile; never present */
	STARPU_MAX_FPGA_WORKER = 4,
	STARPU_MPI_SC_WORKER = 5,
	STARPU_MPI_MS_WORKER = 5, /* StarPU 1.4's name of STARPU_MPI_SC_WORKER */
	STARPU_TCPIP_SC_WORKER = 6,
	STARPU_TCPIP_MS_WORKER = 6, /* StarPU 1.4's name of STARPU_TCPIP_SC_WORKER */
	STARPU_HIP_WORKER = 7,
	STARPU_SYCL_WORKER = 8,
	STARPU_NARCH = 9,
	STARPU_ANY_WORKER = 255
};

enum starpu_data_interface_id
{
	STARPU_UNKNOWN_INTERFACE_ID = -1,
	STARPU_MATRIX_INTERFACE_ID = 0,
	STARPU_BLOCK_INTERFACE_ID = 1,
	STARPU_VECTOR_INTERFACE_ID = 2,
	STARPU_CSR_INTERFACE_ID = 3,
	STARPU_BCSR_INTERFACE_ID = 4,
	STARPU_VARIABLE_INTERFACE_ID = 5,
	STARPU_VOID_INTERFACE_ID = 6,
	STARPU_MULTIFORMAT_INTERFACE_ID = 7,
	STARPU_COO_INTERFACE_ID = 8,
	STARPU_TENSOR_INTERFACE_ID = 9,
	STARPU_NDIM_INTERFACE_ID = 10,
	STARPU_MAX_INTERFACE_ID = 11
};

/* The multiformat interface (StarPU 1.4): one layout per kind of processing unit. This
 * build runs on CPUs only, so the CPU format is the one tasks see and the conversion
 * codelets never run. */
struct starpu_codelet;
struct starpu_multiformat_data_interface_ops
{
	size_t cpu_elemsize;
	size_t opencl_elemsize;
	struct starpu_codelet *cpu_to_opencl_cl;
	struct starpu_codelet *opencl_to_cpu_cl;
	size_t cuda_elemsize;
	struct starpu_codelet *cpu_to_cuda_cl;
	struct starpu_codelet *cuda_to_cpu_cl;
};

struct starpu_multiformat_interface
{
	enum starpu_data_interface_id id;
	void *cpu_ptr;
	void *cuda_ptr;
	void *opencl_ptr;
	uint32_t nx;
	struct starpu_multiformat_data_interface_ops *ops;
};

enum starpu_node_kind
{
	STARPU_UNUSED = 0,
	STARPU_CPU_RAM = 1,
	STARPU_CUDA_RAM = 2,
	STARPU_OPENCL_RAM = 3,
	STARPU_DISK_RAM = 4,
	STARPU_MAX_FPGA_RAM = 5,
	STARPU_HIP_RAM = 6,
	STARPU_MPI_SC_RAM = 7,
	STARPU_MPI_MS_RAM = 7, /* StarPU 1.4's name */
	STARPU_TCPIP_SC_RAM = 8,
	STARPU_TCPIP_MS_RAM = 8, /* StarPU 1.4's name */
	STARPU_SYCL_RAM = 9
};

enum starpu_worker_collection_type
{
	STARPU_WORKER_TREE,
	STARPU_WORKER_LIST
};

/* Structs refer to each other; declare them all first. */
struct starpu_task;
struct starpu_codelet;
struct starpu_perfmodel;
struct starpu_perfmodel_arch;
struct starpu_data_filter;
struct starpu_data_interface_ops;
struct starpu_data_copy_methods;
struct starpu_profiling_task_info;
struct starpu_sched_policy;
struct starpu_driver;
struct starpu_conf;

/* ---- generated part ---- */
