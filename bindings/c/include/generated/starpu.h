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
#ifndef STARPU_GENERATED_H
#define STARPU_GENERATED_H

/* Generated by cbindgen from bindings/c/src: do not edit. */

/**
 * `STARPU_MAXOPENCLDEVS`: entries of `struct starpu_opencl_program`.
 */
#define STARPU_MAXOPENCLDEVS 8

/**
 * `STARPU_MAIN_RAM`: memory node 0.
 */
#define STARPU_MAIN_RAM 0

#define STARPU_NOWHERE (1 << 0)

#define STARPU_CPU (1 << 1)

#define STARPU_CUDA (1 << 3)

#define STARPU_OPENCL (1 << 6)

#define STARPU_MAX_FPGA (1 << 8)

#define STARPU_MPI_SC (1 << 9)

#define STARPU_TCPIP_SC (1 << 10)

/**
 * StarPU 1.4's names of `STARPU_MPI_SC` / `STARPU_TCPIP_SC` (master renamed them).
 */
#define STARPU_MPI_MS STARPU_MPI_SC

#define STARPU_TCPIP_MS STARPU_TCPIP_SC

/**
 * StarPU 1.3's Xeon Phi bit, kept so 1.3 programs compile; no worker has it.
 */
#define STARPU_MIC (1 << 7)

#define STARPU_HIP (1 << 11)

#define STARPU_SYCL (1 << 12)

#define STARPU_CODELET_SIMGRID_EXECUTE (1 << 0)

#define STARPU_CODELET_SIMGRID_EXECUTE_AND_INJECT (1 << 1)

#define STARPU_CODELET_NOPLANS (1 << 2)

#define STARPU_CUDA_ASYNC (1 << 0)

#define STARPU_HIP_ASYNC (1 << 0)

#define STARPU_OPENCL_ASYNC (1 << 0)

#define STARPU_SYCL_ASYNC (1 << 0)

/**
 * `codelet.nbuffers` value: each task gives its own number of buffers.
 */
#define STARPU_VARIABLE_NBUFFERS -1

#define STARPU_SPECIFIC_NODE_LOCAL -1

#define STARPU_SPECIFIC_NODE_CPU -2

#define STARPU_SPECIFIC_NODE_SLOW -3

#define STARPU_SPECIFIC_NODE_FAST -4

#define STARPU_SPECIFIC_NODE_LOCAL_OR_CPU -5

#define STARPU_SPECIFIC_NODE_NONE -6

/**
 * `starpu_data_acquire_on_node` node values: no node (ordering only).
 */
#define STARPU_ACQUIRE_NO_NODE -1

#define STARPU_ACQUIRE_NO_NODE_LOCK_ALL -2

#define STARPU_MALLOC_PINNED (1 << 1)

#define STARPU_MALLOC_COUNT (1 << 2)

#define STARPU_MALLOC_NORECLAIM (1 << 3)

#define STARPU_MEMORY_WAIT (1 << 4)

#define STARPU_MEMORY_OVERFLOW (1 << 5)

#define STARPU_MALLOC_SIMULATION_FOLDED (1 << 6)

#define STARPU_MALLOC_SIMULATION_UNIQUE (1 << 7)

/**
 * `STARPU_DEFAULT_PRIO`.
 */
#define STARPU_DEFAULT_PRIO 0

#define STARPU_MODE_SHIFT 17

#define STARPU_VALUE (1 << STARPU_MODE_SHIFT)

#define STARPU_CALLBACK (2 << STARPU_MODE_SHIFT)

#define STARPU_CALLBACK_WITH_ARG (3 << STARPU_MODE_SHIFT)

#define STARPU_CALLBACK_ARG (4 << STARPU_MODE_SHIFT)

#define STARPU_PRIORITY (5 << STARPU_MODE_SHIFT)

#define STARPU_EXECUTE_ON_NODE (6 << STARPU_MODE_SHIFT)

#define STARPU_EXECUTE_ON_DATA (7 << STARPU_MODE_SHIFT)

#define STARPU_DATA_ARRAY (8 << STARPU_MODE_SHIFT)

#define STARPU_DATA_MODE_ARRAY (9 << STARPU_MODE_SHIFT)

#define STARPU_TAG (10 << STARPU_MODE_SHIFT)

#define STARPU_HYPERVISOR_TAG (11 << STARPU_MODE_SHIFT)

#define STARPU_FLOPS (12 << STARPU_MODE_SHIFT)

#define STARPU_SCHED_CTX (13 << STARPU_MODE_SHIFT)

#define STARPU_PROLOGUE_CALLBACK (14 << STARPU_MODE_SHIFT)

#define STARPU_PROLOGUE_CALLBACK_ARG (15 << STARPU_MODE_SHIFT)

#define STARPU_PROLOGUE_CALLBACK_POP (16 << STARPU_MODE_SHIFT)

#define STARPU_PROLOGUE_CALLBACK_POP_ARG (17 << STARPU_MODE_SHIFT)

#define STARPU_EXECUTE_ON_WORKER (18 << STARPU_MODE_SHIFT)

#define STARPU_EXECUTE_WHERE (19 << STARPU_MODE_SHIFT)

#define STARPU_TAG_ONLY (20 << STARPU_MODE_SHIFT)

#define STARPU_POSSIBLY_PARALLEL (21 << STARPU_MODE_SHIFT)

#define STARPU_WORKER_ORDER (22 << STARPU_MODE_SHIFT)

#define STARPU_NODE_SELECTION_POLICY (23 << STARPU_MODE_SHIFT)

#define STARPU_NAME (24 << STARPU_MODE_SHIFT)

#define STARPU_CL_ARGS (25 << STARPU_MODE_SHIFT)

#define STARPU_CL_ARGS_NFREE (26 << STARPU_MODE_SHIFT)

#define STARPU_TASK_DEPS_ARRAY (27 << STARPU_MODE_SHIFT)

#define STARPU_TASK_COLOR (28 << STARPU_MODE_SHIFT)

#define STARPU_HANDLES_SEQUENTIAL_CONSISTENCY (29 << STARPU_MODE_SHIFT)

#define STARPU_TASK_SYNCHRONOUS (30 << STARPU_MODE_SHIFT)

#define STARPU_TASK_END_DEPS_ARRAY (31 << STARPU_MODE_SHIFT)

#define STARPU_TASK_END_DEP (32 << STARPU_MODE_SHIFT)

#define STARPU_TASK_WORKERIDS (33 << STARPU_MODE_SHIFT)

#define STARPU_SEQUENTIAL_CONSISTENCY (34 << STARPU_MODE_SHIFT)

#define STARPU_TASK_PROFILING_INFO (35 << STARPU_MODE_SHIFT)

#define STARPU_TASK_NO_SUBMITORDER (36 << STARPU_MODE_SHIFT)

#define STARPU_CALLBACK_ARG_NFREE (37 << STARPU_MODE_SHIFT)

#define STARPU_CALLBACK_WITH_ARG_NFREE (38 << STARPU_MODE_SHIFT)

#define STARPU_PROLOGUE_CALLBACK_ARG_NFREE (39 << STARPU_MODE_SHIFT)

#define STARPU_PROLOGUE_CALLBACK_POP_ARG_NFREE (40 << STARPU_MODE_SHIFT)

#define STARPU_TASK_SCHED_DATA (41 << STARPU_MODE_SHIFT)

#define STARPU_EPILOGUE_CALLBACK (42 << STARPU_MODE_SHIFT)

#define STARPU_EPILOGUE_CALLBACK_ARG (43 << STARPU_MODE_SHIFT)

#define STARPU_TASK_FILE (44 << STARPU_MODE_SHIFT)

#define STARPU_TASK_LINE (45 << STARPU_MODE_SHIFT)

#define STARPU_TRANSACTION (46 << STARPU_MODE_SHIFT)

#define STARPU_SOON_CALLBACK (47 << STARPU_MODE_SHIFT)

#define STARPU_SOON_CALLBACK_ARG (48 << STARPU_MODE_SHIFT)

#define STARPU_SOON_CALLBACK_ARG_NFREE (49 << STARPU_MODE_SHIFT)

#define STARPU_RECURSIVE_TASK_FUNC (50 << STARPU_MODE_SHIFT)

#define STARPU_RECURSIVE_TASK_FUNC_ARG (51 << STARPU_MODE_SHIFT)

#define STARPU_RECURSIVE_TASK_GEN_DAG_FUNC (52 << STARPU_MODE_SHIFT)

#define STARPU_RECURSIVE_TASK_GEN_DAG_FUNC_ARG (53 << STARPU_MODE_SHIFT)

#define STARPU_RECURSIVE_TASK_PARENT (54 << STARPU_MODE_SHIFT)

#define STARPU_SHIFTED_MODE_MAX (55 << STARPU_MODE_SHIFT)

#define STARPU_PROFILING_DISABLE 0

#define STARPU_PROFILING_ENABLE 1

/**
 * What to do with the decoded task.
 */
#define _STARPU_INSERT_SUBMIT 0

#define _STARPU_INSERT_BUILD 1

#define _STARPU_INSERT_SET 2

#define STARPU_SCHED_SIMPLE_DECIDE_MASK 3

#define STARPU_SCHED_SIMPLE_DECIDE_WORKERS 1

#define STARPU_SCHED_SIMPLE_DECIDE_MEMNODES 2

#define STARPU_SCHED_SIMPLE_DECIDE_ARCHS 3

#define STARPU_SCHED_SIMPLE_PERFMODEL (1 << 2)

#define STARPU_SCHED_SIMPLE_IMPL (1 << 3)

#define STARPU_SCHED_SIMPLE_FIFO_ABOVE (1 << 4)

#define STARPU_SCHED_SIMPLE_FIFO_ABOVE_PRIO (1 << 5)

#define STARPU_SCHED_SIMPLE_FIFOS_BELOW (1 << 6)

#define STARPU_SCHED_SIMPLE_FIFOS_BELOW_PRIO (1 << 7)

#define STARPU_SCHED_SIMPLE_FIFOS_BELOW_READY (1 << 8)

#define STARPU_SCHED_SIMPLE_FIFOS_BELOW_EXP (1 << 9)

#define STARPU_SCHED_SIMPLE_WS_BELOW (1 << 10)

#define STARPU_SCHED_SIMPLE_COMBINED_WORKERS (1 << 11)

#define STARPU_SCHED_SIMPLE_PRE_DECISION (1 << 12)

#define STARPU_SCHED_CTX_POLICY_NAME (1 << 16)

#define STARPU_SCHED_CTX_POLICY_STRUCT (2 << 16)

#define STARPU_SCHED_CTX_POLICY_MIN_PRIO (3 << 16)

#define STARPU_SCHED_CTX_POLICY_MAX_PRIO (4 << 16)

#define STARPU_SCHED_CTX_HIERARCHY_LEVEL (5 << 16)

#define STARPU_SCHED_CTX_NESTED (6 << 16)

#define STARPU_SCHED_CTX_AWAKE_WORKERS (7 << 16)

#define STARPU_SCHED_CTX_POLICY_INIT (8 << 16)

#define STARPU_SCHED_CTX_USER_DATA (9 << 16)

#define STARPU_SCHED_CTX_CUDA_NSMS (10 << 16)

#define STARPU_SCHED_CTX_SUB_CTXS (11 << 16)

/**
 * The global context's id.
 */
#define STARPU_GLOBAL_SCHED_CTX 0

#define OrderingPolicy_COUNT 28

struct AccessMode;

/**
 * What went wrong, in the categories every face maps to its own error types.
 */
struct ErrorKind;

/**
 * `enum starpu_perf_knob_scope`.
 */
struct KnobScope;

/**
 * `enum starpu_perf_knob_type`. Every knob listed is an int32; the other types exist in
 * StarPU's enum and name lookups.
 */
struct KnobType;

/**
 * How urgent a request is (`enum starpu_is_prefetch`).
 */
struct Level;

/**
 * One of StarPU's `enum starpu_autoheteroprio_priority_ordering_policy` values.
 */
struct OrderingPolicy;

/**
 * StarPU's `enum starpu_perf_counter_scope`.
 */
struct Scope;

/**
 * StarPU's `enum starpu_perf_counter_type`.
 */
struct ValueType;

/**
 * The kinds of workers (StarPU's `enum starpu_worker_archtype`).
 */
struct WorkerKind;

/**
 * The data behind a handle is the core's; C only ever holds its address.
 */
struct _starpu_data_state;

struct _starpu_task_bundle;

/**
 * What C holds: `starpu_arbiter_t` points to one.
 */
struct starpu_arbiter;

/**
 * `struct starpu_perf_counter_listener`: a set and the callback to call with samples.
 */
struct starpu_perf_counter_listener;

/**
 * `struct starpu_perf_counter_sample`: the values a callback may read.
 */
struct starpu_perf_counter_sample;

/**
 * `struct starpu_perf_counter_set`: counters of one scope, each enabled or not.
 */
struct starpu_perf_counter_set;

/**
 * `struct starpu_perfmodel_history_entry`: StarPU's history records; this library keeps
 * its history in the core, so programs only see the type.
 */
struct starpu_perfmodel_history_entry;

/**
 * `struct starpu_perfmodel_history_table`: opaque in StarPU too.
 */
struct starpu_perfmodel_history_table;

/**
 * What C holds: `struct starpu_transaction *` points to one, from `_open` to `_close`.
 */
struct starpu_transaction;

/**
 * `struct starpu_codelet_pack_arg_data`: state of an incremental pack or unpack.
 */
struct starpu_codelet_pack_arg_data {
  char *arg_buffer;
  size_t arg_buffer_size;
  size_t current_offset;
  int nargs;
};

typedef struct _starpu_data_state *starpu_data_handle_t;

typedef void (*starpu_cpu_func_t)(void**, void*);

typedef void (*starpu_cuda_func_t)(void**, void*);

typedef void (*starpu_opencl_func_t)(void**, void*);

typedef void (*starpu_hip_func_t)(void**, void*);

typedef void (*starpu_sycl_func_t)(void**, void*);

typedef void (*starpu_max_fpga_func_t)(void**, void*);

/**
 * `struct starpu_perfmodel_device`.
 */
struct starpu_perfmodel_device {
  int type;
  int devid;
  int ncores;
};

/**
 * `struct starpu_perfmodel_arch` (a set of devices).
 */
struct starpu_perfmodel_arch {
  int ndevices;
  struct starpu_perfmodel_device *devices;
};

/**
 * `struct starpu_perfmodel`.
 */
struct starpu_perfmodel {
  enum starpu_perfmodel_type type;
  double (*cost_function)(struct starpu_task*, unsigned int);
  double (*arch_cost_function)(struct starpu_task*, struct starpu_perfmodel_arch*, unsigned int);
  double (*worker_cost_function)(struct starpu_task*, unsigned int, unsigned int);
  size_t (*size_base)(struct starpu_task*, unsigned int);
  uint32_t (*footprint)(struct starpu_task*);
  const char *symbol;
  const char *path;
  unsigned int is_loaded;
  unsigned int benchmarking;
  unsigned int is_init;
  void (*parameters)(struct starpu_task*, double*);
  const char **parameters_names;
  unsigned int nparameters;
  unsigned int **combinations;
  unsigned int ncombinations;
  void *state;
  void *footprint_per_level;
  void *recursive_graphs;
  int is_recorded_recursive;
};

typedef void (*starpu_callback_func_t)(void*);

/**
 * `struct starpu_codelet`.
 */
struct starpu_codelet {
  uint32_t where;
  int (*can_execute)(unsigned int workerid, struct starpu_task *task, unsigned int nimpl);
  enum starpu_codelet_type type;
  int max_parallelism;
  starpu_cpu_func_t cpu_func;
  starpu_cuda_func_t cuda_func;
  starpu_opencl_func_t opencl_func;
  starpu_cpu_func_t cpu_funcs[STARPU_MAXIMPLEMENTATIONS];
  starpu_cuda_func_t cuda_funcs[STARPU_MAXIMPLEMENTATIONS];
  char cuda_flags[STARPU_MAXIMPLEMENTATIONS];
  starpu_opencl_func_t opencl_funcs[STARPU_MAXIMPLEMENTATIONS];
  char opencl_flags[STARPU_MAXIMPLEMENTATIONS];
  starpu_hip_func_t hip_funcs[STARPU_MAXIMPLEMENTATIONS];
  char hip_flags[STARPU_MAXIMPLEMENTATIONS];
  starpu_sycl_func_t sycl_funcs[STARPU_MAXIMPLEMENTATIONS];
  char sycl_flags[STARPU_MAXIMPLEMENTATIONS];
  starpu_max_fpga_func_t max_fpga_funcs[STARPU_MAXIMPLEMENTATIONS];
  const char *cpu_funcs_name[STARPU_MAXIMPLEMENTATIONS];
  int (*recursive_task_func)(struct starpu_task*, void*);
  void (*recursive_task_gen_dag_func)(struct starpu_task*, void*);
  int nbuffers;
  enum starpu_data_access_mode modes[STARPU_NMAXBUFS];
  enum starpu_data_access_mode *dyn_modes;
  unsigned int specific_nodes;
  int nodes[STARPU_NMAXBUFS];
  int *dyn_nodes;
  struct starpu_perfmodel *model;
  struct starpu_perfmodel *energy_model;
  unsigned long *per_worker_stats;
  const char *name;
  unsigned int color;
  starpu_callback_func_t callback_func;
  int flags;
  void *perf_counter_sample;
  void *perf_counter_values;
  int checked;
};

typedef uint64_t starpu_tag_t;

typedef struct _starpu_task_bundle *starpu_task_bundle_t;

/**
 * `struct starpu_profiling_task_info`.
 */
struct starpu_profiling_task_info {
  struct timespec submit_time;
  struct timespec push_start_time;
  struct timespec push_end_time;
  struct timespec pop_start_time;
  struct timespec pop_end_time;
  struct timespec acquire_data_start_time;
  struct timespec acquire_data_end_time;
  struct timespec start_time;
  struct timespec end_time;
  struct timespec release_data_start_time;
  struct timespec release_data_end_time;
  struct timespec callback_start_time;
  struct timespec callback_end_time;
  int workerid;
  uint64_t used_cycles;
  uint64_t stall_cycles;
  double energy_consumed;
};

/**
 * `struct starpu_task`.
 */
struct starpu_task {
  const char *name;
  const char *file;
  int line;
  struct starpu_codelet *cl;
  void *cl_ret;
  int cl_ret_size;
  int32_t where;
  int nbuffers;
  starpu_data_handle_t *dyn_handles;
  void **dyn_interfaces;
  enum starpu_data_access_mode *dyn_modes;
  int *dyn_nodes;
  starpu_data_handle_t handles[STARPU_NMAXBUFS];
  void *interfaces[STARPU_NMAXBUFS];
  enum starpu_data_access_mode modes[STARPU_NMAXBUFS];
  int nodes[STARPU_NMAXBUFS];
  unsigned char *handles_sequential_consistency;
  void *cl_arg;
  size_t cl_arg_size;
  starpu_callback_func_t callback_func;
  void *callback_arg;
  starpu_callback_func_t epilogue_callback_func;
  void *epilogue_callback_arg;
  starpu_callback_func_t prologue_callback_func;
  void *prologue_callback_arg;
  starpu_callback_func_t prologue_callback_pop_func;
  void *prologue_callback_pop_arg;
  starpu_callback_func_t soon_callback_func;
  void *soon_callback_arg;
  starpu_tag_t tag_id;
  unsigned int cl_arg_free;
  unsigned int callback_arg_free;
  unsigned int epilogue_callback_arg_free;
  unsigned int prologue_callback_arg_free;
  unsigned int prologue_callback_pop_arg_free;
  unsigned int soon_callback_arg_free;
  unsigned int use_tag;
  unsigned int sequential_consistency;
  unsigned int synchronous;
  unsigned int execute_on_a_specific_worker;
  unsigned int detach;
  unsigned int destroy;
  unsigned int regenerate;
  unsigned int no_submitorder;
  unsigned int failed;
  unsigned char mf_skip;
  unsigned char scheduled;
  unsigned char prefetched;
  unsigned int workerid;
  unsigned int workerorder;
  uint32_t *workerids;
  unsigned int workerids_len;
  int priority;
  enum starpu_task_status status;
  int magic;
  unsigned int type;
  unsigned int color;
  unsigned int sched_ctx;
  int hypervisor_tag;
  unsigned int possibly_parallel;
  starpu_task_bundle_t bundle;
  struct starpu_profiling_task_info *profiling_info;
  double flops;
  double predicted;
  double predicted_transfer;
  double predicted_start;
  struct starpu_task *prev;
  struct starpu_task *next;
  void *starpu_private;
  void *omp_task;
  unsigned int nb_termination_call_required;
  void *sched_data;
  long iterations[2];
  void *transaction;
  void *trs_epoch;
  int (*recursive_task_func)(struct starpu_task*, void*);
  void *recursive_task_func_arg;
  void (*recursive_task_gen_dag_func)(struct starpu_task*, void*);
  void *recursive_task_gen_dag_func_arg;
  struct starpu_task *recursive_task_parent;
};

/**
 * `struct starpu_sched_policy`: a scheduling policy written by the application.
 */
struct starpu_sched_policy {
  void (*init_sched)(unsigned int);
  void (*deinit_sched)(unsigned int);
  int (*push_task)(struct starpu_task*);
  double (*simulate_push_task)(struct starpu_task*);
  void (*push_task_notify)(struct starpu_task*, int, int, unsigned int);
  struct starpu_task *(*pop_task)(unsigned int);
  void (*submit_hook)(struct starpu_task*);
  void (*pre_exec_hook)(struct starpu_task*, unsigned int);
  void (*post_exec_hook)(struct starpu_task*, unsigned int);
  void (*do_schedule)(unsigned int);
  void (*add_workers)(unsigned int, int*, unsigned int);
  void (*remove_workers)(unsigned int, int*, unsigned int);
  int prefetches;
  const char *policy_name;
  const char *policy_description;
  enum starpu_worker_collection_type worker_type;
};

/**
 * What the variadic walker read from `starpu_sched_ctx_create`'s options.
 */
struct _starpu_sched_ctx_options {
  const char *policy_name;
  struct starpu_sched_policy *policy;
  int min_prio;
  int min_prio_set;
  int max_prio;
  int max_prio_set;
  unsigned int hierarchy_level;
  unsigned int nested;
  int awake_workers;
  void (*init_sched)(unsigned int);
  void *user_data;
  int *sub_ctxs;
  int nsub_ctxs;
  int nsms;
  /**
   * A key the walker did not know (0: none).
   */
  int bad_key;
};

/**
 * One value of an argument record.
 */
union _starpu_insert_value {
  void *p;
  int64_t i;
  uint64_t u;
  double d;
};

/**
 * One `starpu_task_insert` argument: its key and up to two values.
 */
struct _starpu_insert_arg {
  int key;
  union _starpu_insert_value a;
  union _starpu_insert_value b;
};

typedef struct starpu_arbiter *starpu_arbiter_t;

typedef intptr_t starpu_ssize_t;

typedef int (*starpu_copy_func_t)(void*, unsigned int, void*, unsigned int);

/**
 * `struct starpu_data_copy_methods`: how a custom interface copies between nodes.
 */
struct starpu_data_copy_methods {
  int (*can_copy)(void*, unsigned int, void*, unsigned int, unsigned int);
  starpu_copy_func_t ram_to_ram;
  starpu_copy_func_t ram_to_cuda;
  starpu_copy_func_t ram_to_hip;
  starpu_copy_func_t ram_to_opencl;
  starpu_copy_func_t ram_to_max_fpga;
  starpu_copy_func_t cuda_to_ram;
  starpu_copy_func_t cuda_to_cuda;
  starpu_copy_func_t hip_to_ram;
  starpu_copy_func_t hip_to_hip;
  starpu_copy_func_t opencl_to_ram;
  starpu_copy_func_t opencl_to_opencl;
  starpu_copy_func_t max_fpga_to_ram;
  void *ram_to_cuda_async;
  void *cuda_to_ram_async;
  void *cuda_to_cuda_async;
  void *ram_to_hip_async;
  void *hip_to_ram_async;
  void *hip_to_hip_async;
  void *ram_to_opencl_async;
  void *opencl_to_ram_async;
  void *opencl_to_opencl_async;
  void *ram_to_max_fpga_async;
  void *max_fpga_to_ram_async;
  int (*any_to_any)(void*, unsigned int, void*, unsigned int, void*);
};

/**
 * `struct starpu_data_interface_ops`: what an interface is. The built-in ones are exported
 * as `starpu_interface_*_ops`; `interfaceid` and `interface_size` identify them.
 */
struct starpu_data_interface_ops {
  void (*register_data_handle)(starpu_data_handle_t, int, void*);
  void (*unregister_data_handle)(starpu_data_handle_t);
  starpu_ssize_t (*allocate_data_on_node)(void*, unsigned int);
  void (*free_data_on_node)(void*, unsigned int);
  void (*cache_data_on_node)(void*, void*, unsigned int);
  void (*reuse_data_on_node)(void*, const void*, unsigned int);
  int (*map_data)(void*, unsigned int, void*, unsigned int);
  int (*unmap_data)(void*, unsigned int, void*, unsigned int);
  int (*update_map)(void*, unsigned int, void*, unsigned int);
  void (*init)(void*);
  const struct starpu_data_copy_methods *copy_methods;
  void *(*handle_to_pointer)(starpu_data_handle_t, unsigned int);
  void *(*to_pointer)(void*, unsigned int);
  int (*pointer_is_inside)(void*, unsigned int, void*);
  size_t (*get_size)(starpu_data_handle_t);
  size_t (*get_alloc_size)(starpu_data_handle_t);
  size_t (*get_max_size)(starpu_data_handle_t);
  uint32_t (*footprint)(starpu_data_handle_t);
  uint32_t (*alloc_footprint)(starpu_data_handle_t);
  int (*compare)(void*, void*);
  int (*alloc_compare)(void*, void*);
  void (*display)(starpu_data_handle_t, FILE*);
  starpu_ssize_t (*describe)(void*, char*, size_t);
  enum starpu_data_interface_id interfaceid;
  size_t interface_size;
  char is_multiformat;
  char dontcache;
  void *(*get_mf_ops)(void*);
  int (*pack_data)(starpu_data_handle_t, unsigned int, void**, starpu_ssize_t*);
  int (*peek_data)(starpu_data_handle_t, unsigned int, void*, size_t);
  int (*unpack_data)(starpu_data_handle_t, unsigned int, void*, size_t);
  int (*pack_meta)(void*, void**, starpu_ssize_t*);
  int (*unpack_meta)(void**, void*, starpu_ssize_t*);
  int (*free_meta)(void*);
  const char *name;
};

/**
 * `struct starpu_data_filter`.
 */
struct starpu_data_filter {
  void (*filter_func)(void *father_interface,
                      void *child_interface,
                      struct starpu_data_filter *f,
                      unsigned int id,
                      unsigned int nparts);
  unsigned int nchildren;
  unsigned int (*get_nchildren)(struct starpu_data_filter*, starpu_data_handle_t);
  struct starpu_data_interface_ops *(*get_child_ops)(struct starpu_data_filter*, unsigned int);
  unsigned int filter_arg;
  void *filter_arg_ptr;
};

/**
 * `struct starpu_bitmap` (StarPU 1.4: a plain struct, embedded in the components).
 */
struct starpu_bitmap {
  /**
   * One word: `STARPU_NMAXWORKERS` is 64 here.
   */
  unsigned long bits[1];
  int cardinal;
};

/**
 * `struct starpu_profiling_bus_info`.
 */
struct starpu_profiling_bus_info {
  struct timespec start_time;
  struct timespec total_time;
  long long transferred_bytes;
  int transfer_count;
};

/**
 * `struct starpu_driver`'s id.
 */
union starpu_driver_id {
  unsigned int cpu_id;
  unsigned int cuda_id;
  void *opencl_id;
};

/**
 * `struct starpu_driver`: a driver the application runs itself.
 */
struct starpu_driver {
  enum starpu_worker_archtype type;
  union starpu_driver_id id;
};

/**
 * `struct starpu_conf`: what `starpu_init` is asked for.
 */
struct starpu_conf {
  int magic;
  int will_use_mpi;
  const char *sched_policy_name;
  struct starpu_sched_policy *sched_policy;
  void (*sched_policy_callback)(unsigned int);
  void (*sched_policy_init)(unsigned int);
  int precedence_over_environment_variables;
  int ncpus;
  int reserve_ncpus;
  int ncuda;
  int nopencl;
  int nmax_fpga;
  int nmpi_sc;
  int ntcpip_sc;
  int nhip;
  int nsycl;
  /**
   * StarPU 1.3 and 1.4 names of devices this build does not drive (master renamed
   * `*_ms` to `*_sc`), kept so programs of every era compile; like the `_sc` fields,
   * they ask for workers this build does not have.
   */
  int nmic;
  int nmpi_ms;
  int ntcpip_ms;
  unsigned int use_explicit_workers_mpi_ms_deviceid;
  unsigned int workers_mpi_ms_deviceid[STARPU_NMAXWORKERS];
  int disable_asynchronous_mpi_ms_copy;
  int disable_asynchronous_tcpip_ms_copy;
  unsigned int use_explicit_workers_bindid;
  unsigned int workers_bindid[STARPU_NMAXWORKERS];
  unsigned int use_explicit_workers_cuda_gpuid;
  unsigned int workers_cuda_gpuid[STARPU_NMAXWORKERS];
  unsigned int use_explicit_workers_opencl_gpuid;
  unsigned int workers_opencl_gpuid[STARPU_NMAXWORKERS];
  unsigned int use_explicit_workers_hip_gpuid;
  unsigned int workers_hip_gpuid[STARPU_NMAXWORKERS];
  unsigned int use_explicit_workers_sycl_gpuid;
  unsigned int workers_sycl_gpuid[STARPU_NMAXWORKERS];
  unsigned int use_explicit_workers_max_fpga_deviceid;
  unsigned int workers_max_fpga_deviceid[STARPU_NMAXWORKERS];
  unsigned int use_explicit_workers_mpi_sc_deviceid;
  unsigned int workers_mpi_sc_deviceid[STARPU_NMAXWORKERS];
  int bus_calibrate;
  int calibrate;
  int single_combined_worker;
  int disable_asynchronous_copy;
  int disable_asynchronous_cuda_copy;
  int disable_asynchronous_opencl_copy;
  int disable_asynchronous_hip_copy;
  int disable_asynchronous_sycl_copy;
  int disable_asynchronous_max_fpga_copy;
  int disable_asynchronous_mpi_sc_copy;
  int disable_asynchronous_tcpip_sc_copy;
  int enable_map;
  unsigned int *cuda_opengl_interoperability;
  unsigned int n_cuda_opengl_interoperability;
  struct starpu_driver *not_launched_drivers;
  unsigned int n_not_launched_drivers;
  uint64_t trace_buffer_size;
  int global_sched_ctx_min_priority;
  int global_sched_ctx_max_priority;
  int catch_signals;
  void (*callback_worker_going_to_sleep)(unsigned int);
  void (*callback_worker_waking_up)(unsigned int);
  int start_perf_counter_collection;
  int cuda_only_fast_alloc_other_memnodes;
  int data_locality_enforce;
  int max_fpga_load;
  unsigned int driver_spinning_backoff_min;
  unsigned int driver_spinning_backoff_max;
};

/**
 * `struct starpu_fxt_mpi_offset` (StarPU 1.4's layout).
 */
struct starpu_fxt_mpi_offset {
  uint64_t local_time_start;
  int64_t offset_start;
  uint64_t local_time_end;
  int64_t offset_end;
  int nb_barriers;
};

/**
 * `struct starpu_fxt_codelet_event` (StarPU 1.4's layout).
 */
struct starpu_fxt_codelet_event {
  char symbol[2048];
  int workerid;
  char perfmodel_archname[256];
  uint32_t hash;
  uintptr_t size;
  float time;
};

/**
 * `struct starpu_fxt_options`, StarPU 1.4's layout, so that `starpu_fxt_tool`-like
 * programs fill it as they do for StarPU. The paths are `malloc`ed strings, freed by
 * `starpu_fxt_options_shutdown`. Not filled here: `worker_archtypes`,
 * `dumped_codelets` (the plot tool reads `distrib.data` instead), and the MPI merge
 * fields (one input file is read).
 */
struct starpu_fxt_options {
  uint32_t per_task_colour;
  uint32_t no_events;
  uint32_t no_counter;
  uint32_t no_bus;
  uint32_t no_flops;
  uint32_t ninputfiles;
  uint32_t no_smooth;
  uint32_t no_acquire;
  uint32_t memory_states;
  uint32_t internal;
  uint32_t label_deps;
  uint32_t use_task_color;
  char *filenames[STARPU_FXT_MAX_FILES];
  char *out_paje_path;
  char *distrib_time_path;
  char *activity_path;
  char *sched_tasks_path;
  char *dag_path;
  char *tasks_path;
  char *data_path;
  char *papi_path;
  char *comms_path;
  char *number_events_path;
  char *anim_path;
  char *states_path;
  char *dir;
  char worker_names[STARPU_NMAXWORKERS][256];
  int nworkers;
  struct starpu_perfmodel_arch worker_archtypes[STARPU_NMAXWORKERS];
  char *file_prefix;
  struct starpu_fxt_mpi_offset file_offset;
  int file_rank;
  struct starpu_fxt_codelet_event **dumped_codelets;
  long dumped_codelets_count;
};

/**
 * `starpu_malloc_hook`: allocates `dim` bytes on `dst_node` into `*A`; 0 or `-ENOMEM`.
 */
typedef int (*starpu_malloc_hook)(unsigned int dst_node, void **a, size_t dim, int flags);

/**
 * `starpu_free_hook`: frees what the malloc hook gave.
 */
typedef int (*starpu_free_hook)(unsigned int dst_node, void *a, size_t dim, int flags);

/**
 * A listener's C callback.
 */
typedef void (*PerfCounterCallback)(struct starpu_perf_counter_listener *listener,
                                    struct starpu_perf_counter_sample *sample,
                                    void *context);

/**
 * `struct starpu_perfmodel_history_list`.
 */
struct starpu_perfmodel_history_list {
  struct starpu_perfmodel_history_list *next;
  struct starpu_perfmodel_history_entry *entry;
};

/**
 * `struct starpu_perfmodel_regression_model`: StarPU's layout; the fitted values of this
 * library are in the core (and in the model files), not here.
 */
struct starpu_perfmodel_regression_model {
  double sumlny;
  double sumlnx;
  double sumlnx2;
  unsigned long minx;
  unsigned long maxx;
  double sumlnxlny;
  double alpha;
  double beta;
  unsigned int valid;
  double a;
  double b;
  double c;
  unsigned int nl_valid;
  unsigned int nsample;
  double *coeff;
  unsigned int ncoeff;
  unsigned int multi_valid;
};

/**
 * `struct starpu_perfmodel_per_arch` (StarPU 1.4's layout): programs set `cost_function`
 * (and `size_base`) for one architecture and implementation.
 */
struct starpu_perfmodel_per_arch {
  double (*cost_function)(struct starpu_task*, struct starpu_perfmodel_arch*, unsigned int);
  size_t (*size_base)(struct starpu_task*, struct starpu_perfmodel_arch*, unsigned int);
  struct starpu_perfmodel_history_table *history;
  struct starpu_perfmodel_history_list *list;
  struct starpu_perfmodel_regression_model regression;
  char debug_path[256];
};

/**
 * `struct starpu_profiling_worker_info`: a worker's activity since its information was
 * last read.
 */
struct starpu_profiling_worker_info {
  struct timespec start_time;
  struct timespec total_time;
  struct timespec executing_time;
  struct timespec sleeping_time;
  int executed_tasks;
  uint64_t used_cycles;
  uint64_t stall_cycles;
  double energy_consumed;
  double flops;
};

/**
 * `struct starpu_sched_tree`, field for field as StarPU 1.4's.
 */
struct starpu_sched_tree {
  struct starpu_sched_component *root;
  struct starpu_bitmap workers;
  unsigned int sched_ctx_id;
  pthread_mutex_t lock;
};

typedef struct starpu_sched_component Comp;

/**
 * `struct starpu_sched_component`, field for field as StarPU 1.4's.
 */
struct starpu_sched_component {
  struct starpu_sched_tree *tree;
  struct starpu_bitmap workers;
  struct starpu_bitmap workers_in_ctx;
  void *data;
  char *name;
  unsigned int nchildren;
  struct starpu_sched_component **children;
  unsigned int nparents;
  struct starpu_sched_component **parents;
  void (*add_child)(Comp*, Comp*);
  void (*remove_child)(Comp*, Comp*);
  void (*add_parent)(Comp*, Comp*);
  void (*remove_parent)(Comp*, Comp*);
  int (*push_task)(Comp*, struct starpu_task*);
  struct starpu_task *(*pull_task)(Comp*, Comp*);
  int (*can_push)(Comp*, Comp*);
  int (*can_pull)(Comp*);
  int (*notify)(Comp*, int, void*);
  double (*estimated_load)(Comp*);
  double (*estimated_end)(Comp*);
  void (*deinit_data)(Comp*);
  void (*notify_change_workers)(Comp*);
  int properties;
  /**
   * StarPU's `hwloc_obj_t obj` (a pointer); unused here.
   */
  void *obj;
};

/**
 * `struct starpu_sched_component_fifo_data`: parameters of the fifo component.
 */
struct starpu_sched_component_fifo_data {
  unsigned int ntasks_threshold;
  double exp_len_threshold;
  int ready;
  int exp;
};

/**
 * `typedef struct starpu_sched_component *(*starpu_sched_component_create_t)(struct
 * starpu_sched_tree *tree, void *data)`.
 */
typedef struct starpu_sched_component *(*starpu_sched_component_create_t)(struct starpu_sched_tree*,
                                                                          void*);

/**
 * `struct starpu_sched_component_prio_data`: parameters of the prio component.
 */
struct starpu_sched_component_prio_data {
  unsigned int ntasks_threshold;
  double exp_len_threshold;
  int ready;
  int exp;
};

/**
 * `struct starpu_sched_ctx_iterator` (StarPU 1.4 layout).
 */
struct starpu_sched_ctx_iterator {
  int cursor;
  void *value;
  void *possible_value;
  char visited[STARPU_NMAXWORKERS];
  int possibly_parallel;
};

/**
 * `struct starpu_worker_collection` (StarPU 1.4 layout): a list of the context's
 * workers, refreshed when its members change.
 */
struct starpu_worker_collection {
  int *workerids;
  void *collection_private;
  unsigned int nworkers;
  void *unblocked_workers;
  unsigned int nunblocked_workers;
  void *masters;
  unsigned int nmasters;
  char present[STARPU_NMAXWORKERS];
  char is_unblocked[STARPU_NMAXWORKERS];
  char is_master[STARPU_NMAXWORKERS];
  enum starpu_worker_collection_type type;
  unsigned int (*has_next)(struct starpu_worker_collection*, struct starpu_sched_ctx_iterator*);
  int (*get_next)(struct starpu_worker_collection*, struct starpu_sched_ctx_iterator*);
  int (*add)(struct starpu_worker_collection*, int);
  int (*remove)(struct starpu_worker_collection*, int);
  void (*init)(struct starpu_worker_collection*);
  void (*deinit)(struct starpu_worker_collection*);
  void (*init_iterator)(struct starpu_worker_collection*, struct starpu_sched_ctx_iterator*);
  void (*init_iterator_for_parallel_tasks)(struct starpu_worker_collection*,
                                           struct starpu_sched_ctx_iterator*,
                                           struct starpu_task*);
};

struct starpu_vector_interface {
  int32_t id;
  uintptr_t ptr;
  uintptr_t dev_handle;
  size_t offset;
  uint32_t nx;
  size_t elemsize;
  /**
   * Index of the first element, for vectors cut out of a bigger one.
   */
  uint32_t slice_base;
  /**
   * Bytes actually allocated (may exceed `nx * elemsize`).
   */
  size_t allocsize;
};

struct starpu_variable_interface {
  int32_t id;
  uintptr_t ptr;
  uintptr_t dev_handle;
  size_t offset;
  size_t elemsize;
};

struct starpu_matrix_interface {
  int32_t id;
  uintptr_t ptr;
  uintptr_t dev_handle;
  size_t offset;
  uint32_t nx;
  uint32_t ny;
  uint32_t ld;
  size_t elemsize;
  size_t allocsize;
};

struct starpu_block_interface {
  int32_t id;
  uintptr_t ptr;
  uintptr_t dev_handle;
  size_t offset;
  uint32_t nx;
  uint32_t ny;
  uint32_t nz;
  uint32_t ldy;
  uint32_t ldz;
  size_t elemsize;
};

struct starpu_tensor_interface {
  int32_t id;
  uintptr_t ptr;
  uintptr_t dev_handle;
  size_t offset;
  uint32_t nx;
  uint32_t ny;
  uint32_t nz;
  uint32_t nt;
  uint32_t ldy;
  uint32_t ldz;
  uint32_t ldt;
  size_t elemsize;
};

struct starpu_ndim_interface {
  int32_t id;
  uintptr_t ptr;
  uintptr_t dev_handle;
  size_t offset;
  size_t allocsize;
  uint32_t *nn;
  uint32_t *ldn;
  size_t ndim;
  size_t elemsize;
};

struct starpu_csr_interface {
  int32_t id;
  uint32_t nnz;
  uint32_t nrow;
  uintptr_t nzval;
  uint32_t *colind;
  uint32_t *rowptr;
  uint32_t firstentry;
  size_t elemsize;
};

struct starpu_bcsr_interface {
  int32_t id;
  uint32_t nnz;
  uint32_t nrow;
  uintptr_t nzval;
  uint32_t *colind;
  uint32_t *rowptr;
  uint32_t firstentry;
  uint32_t r;
  uint32_t c;
  size_t elemsize;
};

struct starpu_coo_interface {
  int32_t id;
  uint32_t *columns;
  uint32_t *rows;
  uintptr_t values;
  uint32_t nx;
  uint32_t ny;
  uint32_t n_values;
  size_t elemsize;
};

struct starpu_void_interface {
  int32_t id;
};

/**
 * `struct starpu_data_descr`: a handle with its access mode.
 */
struct starpu_data_descr {
  starpu_data_handle_t handle;
  enum starpu_data_access_mode mode;
};

/**
 * `struct starpu_task_list`.
 */
struct starpu_task_list {
  struct starpu_task *head;
  struct starpu_task *tail;
};











































/**
 * `starpu_codelet_nop`: a codelet that runs nowhere (`STARPU_NOWHERE`), for tasks that
 * only carry dependencies or tags. The application may change it, as in StarPU.
 */
extern struct starpu_codelet starpu_codelet_nop;

/**
 * `starpu_interface_variable_ops`: identifies the STARPU_VARIABLE_INTERFACE interface.
 */
extern struct starpu_data_interface_ops starpu_interface_variable_ops;

/**
 * `starpu_interface_vector_ops`: identifies the STARPU_VECTOR_INTERFACE interface.
 */
extern struct starpu_data_interface_ops starpu_interface_vector_ops;

/**
 * `starpu_interface_matrix_ops`: identifies the STARPU_MATRIX_INTERFACE interface.
 */
extern struct starpu_data_interface_ops starpu_interface_matrix_ops;

/**
 * `starpu_interface_block_ops`: identifies the STARPU_BLOCK_INTERFACE interface.
 */
extern struct starpu_data_interface_ops starpu_interface_block_ops;

/**
 * `starpu_interface_tensor_ops`: identifies the STARPU_TENSOR_INTERFACE interface.
 */
extern struct starpu_data_interface_ops starpu_interface_tensor_ops;

/**
 * `starpu_interface_ndim_ops`: identifies the STARPU_NDIM_INTERFACE interface.
 */
extern struct starpu_data_interface_ops starpu_interface_ndim_ops;

/**
 * `starpu_interface_csr_ops`: identifies the STARPU_CSR_INTERFACE interface.
 */
extern struct starpu_data_interface_ops starpu_interface_csr_ops;

/**
 * `starpu_interface_bcsr_ops`: identifies the STARPU_BCSR_INTERFACE interface.
 */
extern struct starpu_data_interface_ops starpu_interface_bcsr_ops;

/**
 * `starpu_interface_coo_ops`: identifies the STARPU_COO_INTERFACE interface.
 */
extern struct starpu_data_interface_ops starpu_interface_coo_ops;

/**
 * `starpu_interface_void_ops`: identifies the STARPU_VOID_INTERFACE interface.
 */
extern struct starpu_data_interface_ops starpu_interface_void_ops;

/**
 * `starpu_perfmodel_nop`: a model for codelets that do (almost) nothing, 1 ns
 * everywhere (a `STARPU_PER_ARCH` model, as StarPU's).
 */
extern struct starpu_perfmodel starpu_perfmodel_nop;

/**
 * `starpu_worker_list`: a collection iterated in the order workers were added.
 */
extern struct starpu_worker_collection starpu_worker_list;

/**
 * `starpu_worker_tree`: a collection iterated in topology order.
 */
extern struct starpu_worker_collection starpu_worker_tree;

extern void _starpu_c_opencl_set_kernel_args(void);

/**
 * Copies the next argument, whatever its size, into `ptr` (for `starpu_codelet_unpack_args`).
 *
 * # Safety
 * `ptr` has room for the packed argument.
 */
void _starpu_codelet_unpack_arg_any(struct starpu_codelet_pack_arg_data *state, void *ptr);

/**
 * Walks `depth` levels of children (the C walker of `starpu_data_get_sub_data`).
 *
 * # Safety
 * `path` holds `depth` indices.
 */
starpu_data_handle_t _starpu_data_get_sub_data_path(starpu_data_handle_t root,
                                                    unsigned int depth,
                                                    const unsigned int *path);

/**
 * Reports a key the walker does not know; the rest of the list cannot be read.
 */
int _starpu_insert_unknown_key(int key);

/**
 * The body of `starpu_sched_ctx_create` once its options are read (called by the
 * variadic walker). `nworkers == -1` or a NULL array with it means every worker.
 *
 * # Safety
 * `workerids` holds `nworkers` ids; `name` is NULL or a C string; `o` is valid.
 */
unsigned int _starpu_sched_ctx_create_with(const int *workerids,
                                           int nworkers,
                                           const char *name,
                                           const struct _starpu_sched_ctx_options *o);

/**
 * Builds (and with `_STARPU_INSERT_SUBMIT` submits) a task from argument records.
 * On error nothing is submitted and a task this call created is freed.
 *
 * # Safety
 * `args` holds `nargs` records; their pointers are what the C caller passed.
 */
int _starpu_task_insert_args(int action,
                             struct starpu_task *task,
                             struct starpu_codelet *cl,
                             const struct _starpu_insert_arg *args,
                             int nargs,
                             struct starpu_task **out);

/**
 * `starpu_arbiter_create`.
 */
starpu_arbiter_t starpu_arbiter_create(void);

/**
 * `starpu_arbiter_destroy`: StarPU requires the arbiter's data to be unregistered
 * first; if some are not, they keep the arbitration (the core shares it) and this says so.
 *
 * # Safety
 * `arbiter` is null or a value returned by `starpu_arbiter_create`, not destroyed.
 */
void starpu_arbiter_destroy(starpu_arbiter_t arbiter);

/**
 * `starpu_asynchronous_copy_disabled`: 1 when every asynchronous copy is disabled.
 */
int starpu_asynchronous_copy_disabled(void);

/**
 * `starpu_asynchronous_cuda_copy_disabled`: 1 when copies to and from CUDA devices are
 * synchronous.
 */
int starpu_asynchronous_cuda_copy_disabled(void);

/**
 * `starpu_asynchronous_opencl_copy_disabled`: 1 when copies to and from OpenCL devices
 * are synchronous.
 */
int starpu_asynchronous_opencl_copy_disabled(void);

/**
 * `starpu_bcsr_data_register`.
 *
 * # Safety
 * The arrays hold `nnz` blocks / indices and `nrow + 1` row pointers on `home`.
 */
void starpu_bcsr_data_register(starpu_data_handle_t *out,
                               int home,
                               uint32_t nnz,
                               uint32_t nrow,
                               uintptr_t nzval,
                               uint32_t *colind,
                               uint32_t *rowptr,
                               uint32_t firstentry,
                               uint32_t r,
                               uint32_t c,
                               size_t elemsize);

/**
 * `starpu_bcsr_filter_canonical_block_get_nchildren`: one child per stored block.
 */
unsigned int starpu_bcsr_filter_canonical_block_get_nchildren(struct starpu_data_filter *f,
                                                              starpu_data_handle_t h);

/**
 * `starpu_bitmap_cardinal`: bits set.
 */
int starpu_bitmap_cardinal(struct starpu_bitmap *b);

/**
 * `starpu_bitmap_first`: the first bit set, -1 if none.
 */
int starpu_bitmap_first(struct starpu_bitmap *b);

/**
 * `starpu_bitmap_get`: whether bit `e` is set.
 */
int starpu_bitmap_get(struct starpu_bitmap *b, int e);

/**
 * `starpu_bitmap_next`: the first bit set after `e`, -1 if none.
 */
int starpu_bitmap_next(struct starpu_bitmap *b, int e);

/**
 * `starpu_bitmap_set`.
 */
void starpu_bitmap_set(struct starpu_bitmap *b, int e);

/**
 * `starpu_bitmap_unset`.
 */
void starpu_bitmap_unset(struct starpu_bitmap *b, int e);

/**
 * `starpu_block_data_register`.
 *
 * # Safety
 * `out` is writable; `ptr` holds the block on `home`.
 */
void starpu_block_data_register(starpu_data_handle_t *out,
                                int home,
                                uintptr_t ptr,
                                uint32_t ldy,
                                uint32_t ldz,
                                uint32_t nx,
                                uint32_t ny,
                                uint32_t nz,
                                size_t elemsize);

/**
 * `starpu_bound_compute`: the bound in ms in `*res` (0 without a runtime, without tasks,
 * or with dependencies); `*integer_res` (asked with `integer`) is 0: the integer program
 * is not solved.
 *
 * # Safety
 * `res` and `integer_res` are NULL or point to doubles.
 */
void starpu_bound_compute(double *res, double *integer_res, int integer);

/**
 * `starpu_bound_print`: the bound and the spread of each kind of task over the workers
 * that reaches it, as StarPU prints them.
 *
 * # Safety
 * `output` is NULL or an open stream.
 */
void starpu_bound_print(FILE *output, int integer);

/**
 * `starpu_bound_print_dot`: the recorded task graph. Dependencies are not recorded, so
 * there is none: StarPU's answer without them ("Not supported").
 *
 * # Safety
 * `output` is NULL or an open stream.
 */
void starpu_bound_print_dot(FILE *output);

/**
 * `starpu_bound_print_lp`: the linear program in LP format.
 *
 * # Safety
 * `output` is NULL or an open stream.
 */
void starpu_bound_print_lp(FILE *output);

/**
 * `starpu_bound_print_mps`: the linear program in MPS format.
 *
 * # Safety
 * `output` is NULL or an open stream.
 */
void starpu_bound_print_mps(FILE *output);

/**
 * `starpu_bound_start`: records the tasks that run from now on (forgetting earlier ones);
 * `deps`: dependencies too (not recorded by this build, which says so once).
 */
void starpu_bound_start(int deps, int _prio);

/**
 * `starpu_bound_stop`: stops recording.
 */
void starpu_bound_stop(void);

/**
 * `starpu_bus_get_count`: one bus per ordered pair of distinct memory nodes (none with
 * main memory alone).
 */
int starpu_bus_get_count(void);

/**
 * `starpu_bus_get_direct`: 1 when the bus copies without going through main RAM.
 */
int starpu_bus_get_direct(int busid);

/**
 * `starpu_bus_get_dst`: the destination node of bus `busid`, -1 if none.
 */
int starpu_bus_get_dst(int busid);

/**
 * `starpu_bus_get_id`: the bus from `src` to `dst`, -1 if none.
 */
int starpu_bus_get_id(int src, int dst);

/**
 * `starpu_bus_get_ngpus`: how many GPUs share the bus (StarPU's NUMA hint): 1 for a bus
 * to or from a device, 0 otherwise.
 */
int starpu_bus_get_ngpus(int busid);

/**
 * `starpu_bus_get_profiling_info`: the bytes and transfers that went over bus `busid`
 * and the time they took.
 *
 * # Safety
 * `bus_info` is NULL or writable.
 */
int starpu_bus_get_profiling_info(int busid, struct starpu_profiling_bus_info *bus_info);

/**
 * `starpu_bus_get_src`: the source node of bus `busid`, -1 if none.
 */
int starpu_bus_get_src(int busid);

/**
 * `starpu_bus_print_affinity`: StarPU prints which NUMA node is closest to each GPU;
 * with one NUMA node every device has the same affinity.
 *
 * # Safety
 * `f` is a valid `FILE *`.
 */
void starpu_bus_print_affinity(FILE *f);

/**
 * `starpu_bus_print_bandwidth`: the bandwidth (MB/s) and latency (µs) tables.
 *
 * # Safety
 * `f` is a valid `FILE *`.
 */
void starpu_bus_print_bandwidth(FILE *f);

/**
 * `starpu_bus_print_filenames`: where the bus model files are.
 *
 * # Safety
 * `f` is a valid `FILE *`.
 */
void starpu_bus_print_filenames(FILE *f);

/**
 * `starpu_bus_set_direct`: StarPU's topology detection may mark GPU-GPU buses direct;
 * here the drivers tell which copies are direct, so the call changes nothing.
 */
void starpu_bus_set_direct(int _busid, int _direct);

/**
 * `starpu_bus_set_ngpus`: accepted; it changes nothing here (see `starpu_bus_set_direct`).
 */
void starpu_bus_set_ngpus(int _busid, int _ngpus);

/**
 * `starpu_check_on_node`: checks that `ptr` may hold `size` bytes on `node`.
 */
void starpu_check_on_node(int node, uintptr_t ptr, size_t size);

/**
 * `starpu_codelet_display_stats`: how many of the codelet's tasks each worker ran (counted
 * while profiling or `STARPU_WORKER_STATS` is on), on stderr.
 *
 * # Safety
 * `cl` is NULL or a live codelet.
 */
void starpu_codelet_display_stats(struct starpu_codelet *cl);

/**
 * `starpu_codelet_dup_arg`: the next argument in a fresh `malloc`ed copy.
 *
 * # Safety
 * `ptr` and `size` are writable.
 */
void starpu_codelet_dup_arg(struct starpu_codelet_pack_arg_data *state, void **ptr, size_t *size);

/**
 * `starpu_codelet_init`: an all-zero codelet.
 *
 * # Safety
 * `cl` points to writable memory for a codelet.
 */
void starpu_codelet_init(struct starpu_codelet *cl);

/**
 * `starpu_codelet_pack_arg`: appends `arg_size` bytes at `ptr`.
 *
 * # Safety
 * `state` was initialised by `starpu_codelet_pack_arg_init`; `ptr` holds `arg_size` bytes.
 */
void starpu_codelet_pack_arg(struct starpu_codelet_pack_arg_data *state,
                             const void *ptr,
                             size_t arg_size);

/**
 * `starpu_codelet_pack_arg_fini`: the packed buffer (`malloc`ed, for `cl_arg`).
 *
 * # Safety
 * `state` was initialised by `starpu_codelet_pack_arg_init`.
 */
void starpu_codelet_pack_arg_fini(struct starpu_codelet_pack_arg_data *state,
                                  void **cl_arg,
                                  size_t *cl_arg_size);

/**
 * `starpu_codelet_pack_arg_init`.
 *
 * # Safety
 * `state` points to writable memory for the state.
 */
void starpu_codelet_pack_arg_init(struct starpu_codelet_pack_arg_data *state);

/**
 * `starpu_codelet_pick_arg`: a pointer to the next argument inside the packed buffer.
 *
 * # Safety
 * `ptr` and `size` are writable.
 */
void starpu_codelet_pick_arg(struct starpu_codelet_pack_arg_data *state, void **ptr, size_t *size);

/**
 * `starpu_codelet_unpack_arg`: copies the next argument (of `size` bytes) into `ptr`.
 *
 * # Safety
 * `ptr` has room for `size` bytes.
 */
void starpu_codelet_unpack_arg(struct starpu_codelet_pack_arg_data *state, void *ptr, size_t size);

/**
 * `starpu_codelet_unpack_arg_fini`.
 *
 * # Safety
 * `state` is an unpack state.
 */
void starpu_codelet_unpack_arg_fini(struct starpu_codelet_pack_arg_data *state);

/**
 * `starpu_codelet_unpack_arg_init`: starts reading a packed buffer (`cl_arg_size` may be
 * `(size_t)-1` when unknown).
 *
 * # Safety
 * `cl_arg` is a packed argument buffer.
 */
void starpu_codelet_unpack_arg_init(struct starpu_codelet_pack_arg_data *state,
                                    void *cl_arg,
                                    size_t cl_arg_size);

/**
 * `starpu_codelet_unpack_discard_arg`: skips the next argument.
 *
 * # Safety
 * `state` is an unpack state.
 */
void starpu_codelet_unpack_discard_arg(struct starpu_codelet_pack_arg_data *state);

/**
 * `starpu_combined_worker_assign_workerid`: adds a combined worker made of the
 * `nworkers` workers of `workerid_array`; returns its id, or `-EINVAL`.
 *
 * # Safety
 * `workerid_array` holds `nworkers` ints.
 */
int starpu_combined_worker_assign_workerid(int nworkers, int *workerid_array);

/**
 * `starpu_combined_worker_can_execute_task`: whether worker `workerid` (basic or
 * combined) may run implementation `nimpl` of `task`. A combined worker runs only
 * parallel codelets (`STARPU_SPMD`, `STARPU_FORKJOIN`) whose `max_parallelism` allows
 * its size; both ask the codelet's `can_execute`, with `workerid`.
 *
 * # Safety
 * `task` is a valid task or NULL.
 */
int starpu_combined_worker_can_execute_task(unsigned int workerid,
                                            struct starpu_task *task,
                                            unsigned int nimpl);

/**
 * `starpu_combined_worker_get_count`: the combined workers (those the parallel policies
 * `peager` and `pheft` built, and those the application added).
 */
unsigned int starpu_combined_worker_get_count(void);

/**
 * `starpu_combined_worker_get_description`: the size and members of combined worker
 * `workerid`. Returns 0, or `-EINVAL` if it is not one.
 *
 * # Safety
 * `worker_size` and `combined_workerid` are writable or NULL.
 */
int starpu_combined_worker_get_description(int workerid, int *worker_size, int **combined_workerid);

/**
 * `starpu_combined_worker_get_id`: the combined worker running the calling kernel, the
 * calling worker's id when it runs it alone, -1 outside workers.
 */
int starpu_combined_worker_get_id(void);

/**
 * `starpu_combined_worker_get_rank`: the caller's rank among them (0 to size - 1).
 */
int starpu_combined_worker_get_rank(void);

/**
 * `starpu_combined_worker_get_size`: how many workers run the calling kernel together
 * (1 for a sequential task, or outside kernels).
 */
int starpu_combined_worker_get_size(void);

/**
 * `starpu_conf_init`: a configuration where everything is "as the environment says".
 *
 * # Safety
 * `conf` points to writable memory for a `struct starpu_conf`.
 */
int starpu_conf_init(struct starpu_conf *conf);

/**
 * `starpu_conf_noworker`: no worker of any kind (the application adds what it wants).
 *
 * # Safety
 * `conf` was initialised by `starpu_conf_init`.
 */
int starpu_conf_noworker(struct starpu_conf *conf);

/**
 * `starpu_coo_data_register`.
 *
 * # Safety
 * The arrays hold `n_values` entries on `home`.
 */
void starpu_coo_data_register(starpu_data_handle_t *out,
                              int home,
                              uint32_t nx,
                              uint32_t ny,
                              uint32_t n_values,
                              uint32_t *columns,
                              uint32_t *rows,
                              uintptr_t values,
                              size_t elemsize);

/**
 * `starpu_cpu_worker_get_count`.
 */
unsigned int starpu_cpu_worker_get_count(void);

/**
 * `starpu_create_sync_task`: submits an empty task carrying tag `sync_tag`, which
 * waits for the `ndeps` tags of `deps` and then runs `callback(callback_arg)`.
 *
 * # Safety
 * `deps` holds `ndeps` tags.
 */
void starpu_create_sync_task(starpu_tag_t sync_tag,
                             unsigned int ndeps,
                             starpu_tag_t *deps,
                             starpu_callback_func_t callback,
                             void *callback_arg);

/**
 * `starpu_csr_data_register`.
 *
 * # Safety
 * The arrays hold `nnz` values / indices and `nrow + 1` row pointers on `home`.
 */
void starpu_csr_data_register(starpu_data_handle_t *out,
                              int home,
                              uint32_t nnz,
                              uint32_t nrow,
                              uintptr_t nzval,
                              uint32_t *colind,
                              uint32_t *rowptr,
                              uint32_t firstentry,
                              size_t elemsize);

/**
 * `starpu_cublas_init`: creates the cuBLAS handle of every CUDA worker, on its stream
 * (nothing to do without CUDA workers).
 */
void starpu_cublas_init(void);

/**
 * `starpu_cublas_set_stream`: each CUDA worker's handle is bound to its stream when it
 * is created; nothing is left to do.
 */
void starpu_cublas_set_stream(void);

/**
 * `starpu_cublas_shutdown`: the handles go when their workers stop (at
 * `starpu_shutdown`).
 */
void starpu_cublas_shutdown(void);

/**
 * `starpu_cuda_worker_get_count`.
 */
unsigned int starpu_cuda_worker_get_count(void);

/**
 * `starpu_cusolver_get_local_handle`: only meaningful inside a kernel running on an accelerator; none exists here.
 */
void *starpu_cusolver_get_local_handle(void);

/**
 * `starpu_cusolver_init`: creates the cuSOLVER dense handle of every CUDA worker.
 */
void starpu_cusolver_init(void);

/**
 * `starpu_cusolver_shutdown`: the handles go when their workers stop.
 */
void starpu_cusolver_shutdown(void);

/**
 * `starpu_cusparse_init`: prepares an accelerator library on each device of its kind; this build has
 * none, so there is nothing to prepare.
 */
void starpu_cusparse_init(void);

/**
 * `starpu_cusparse_shutdown`: prepares an accelerator library on each device of its kind; this build has
 * none, so there is nothing to prepare.
 */
void starpu_cusparse_shutdown(void);

/**
 * `starpu_data_acquire`: blocks until the application may access the data in `mode`.
 * `-EDEADLK` from a task or a callback.
 */
int starpu_data_acquire(starpu_data_handle_t h, unsigned int m);

/**
 * `starpu_data_acquire_cb`: `callback(arg)` runs once the data may be accessed.
 */
int starpu_data_acquire_cb(starpu_data_handle_t h,
                           unsigned int m,
                           void (*callback)(void*),
                           void *arg);

/**
 * `starpu_data_acquire_cb_sequential_consistency`.
 */
int starpu_data_acquire_cb_sequential_consistency(starpu_data_handle_t h,
                                                  unsigned int m,
                                                  void (*callback)(void*),
                                                  void *arg,
                                                  int sequential_consistency);

/**
 * `starpu_data_acquire_on_node`.
 */
int starpu_data_acquire_on_node(starpu_data_handle_t h, int node, unsigned int m);

/**
 * `starpu_data_acquire_on_node_cb`.
 */
int starpu_data_acquire_on_node_cb(starpu_data_handle_t h,
                                   int node,
                                   unsigned int m,
                                   void (*callback)(void*),
                                   void *arg);

/**
 * `starpu_data_advise_as_important`: asks the memory manager to keep the data rather
 * than evict it. Eviction here takes the least recently used data first, which data in
 * use is not; the advice is accepted and the handle checked.
 */
void starpu_data_advise_as_important(starpu_data_handle_t h, unsigned int _is_important);

/**
 * `starpu_data_assign_arbiter`: the commuting accesses to `h` are arbitrated by
 * `arbiter` (before any task uses `h` in commute mode).
 *
 * # Safety
 * `arbiter` is null or a value returned by `starpu_arbiter_create`, not destroyed.
 */
void starpu_data_assign_arbiter(starpu_data_handle_t h, starpu_arbiter_t arbiter);

/**
 * `starpu_data_cpy`: copies `src` into `dst` with a task; `callback(arg)` once done.
 */
int starpu_data_cpy(starpu_data_handle_t dst,
                    starpu_data_handle_t src,
                    int asynchronous,
                    void (*callback)(void*),
                    void *arg);

/**
 * `starpu_data_deinitialize`: waits for the tasks using `h`, then forgets its value on
 * every node and keeps the buffers: the handle is as if registered without data.
 */
void starpu_data_deinitialize(starpu_data_handle_t h);

/**
 * `starpu_data_deinitialize_submit`: deinitializes `h` once the tasks submitted so far
 * are done, without waiting.
 */
void starpu_data_deinitialize_submit(starpu_data_handle_t h);

/**
 * `starpu_data_display_memory_stats`: the data registered, their sizes and the nodes
 * holding them, on stderr.
 */
void starpu_data_display_memory_stats(void);

/**
 * `starpu_data_evict_from_node`: 0 if the buffer of `h` on `node` was freed, -1 if it
 * could not be (see the core's `evict_from_node`).
 */
int starpu_data_evict_from_node(starpu_data_handle_t h, unsigned int node);

/**
 * `starpu_data_expected_transfer_time`: µs to bring `h` to `memory_node` for an access in
 * `mode` (0 for a write-only access, or when the data is there or on its way).
 */
double starpu_data_expected_transfer_time(starpu_data_handle_t h,
                                          unsigned int memory_node,
                                          unsigned int mode);

/**
 * `starpu_data_fetch_on_node`: brings the value to `node` (waits unless `async`).
 */
int starpu_data_fetch_on_node(starpu_data_handle_t h, unsigned int node, unsigned int asynchronous);

/**
 * `starpu_data_get_alloc_size`.
 */
size_t starpu_data_get_alloc_size(starpu_data_handle_t h);

/**
 * `starpu_data_get_child`.
 */
starpu_data_handle_t starpu_data_get_child(starpu_data_handle_t h, unsigned int i);

/**
 * `starpu_data_get_coordinates_array`: fills up to `dimensions` coordinates, returns how
 * many the data has.
 *
 * # Safety
 * `dims` has room for `dimensions` ints.
 */
unsigned int starpu_data_get_coordinates_array(starpu_data_handle_t h,
                                               unsigned int dimensions,
                                               int *dims);

/**
 * `starpu_data_get_default_sequential_consistency_flag`.
 */
unsigned int starpu_data_get_default_sequential_consistency_flag(void);

/**
 * `starpu_data_get_home_node`: -1 for data registered without home.
 */
int starpu_data_get_home_node(starpu_data_handle_t h);

/**
 * `starpu_data_get_interface_id`.
 */
int starpu_data_get_interface_id(starpu_data_handle_t h);

/**
 * `starpu_data_get_interface_on_node`: the interface description on `node`.
 */
void *starpu_data_get_interface_on_node(starpu_data_handle_t h, unsigned int node);

/**
 * `starpu_data_get_local_ptr`: the buffer on this thread's memory node.
 */
void *starpu_data_get_local_ptr(starpu_data_handle_t h);

/**
 * `starpu_data_get_nb_children`.
 */
int starpu_data_get_nb_children(starpu_data_handle_t h);

/**
 * `starpu_data_get_sequential_consistency_flag`.
 */
unsigned int starpu_data_get_sequential_consistency_flag(starpu_data_handle_t h);

/**
 * `starpu_data_get_size`: bytes of data.
 */
size_t starpu_data_get_size(starpu_data_handle_t h);

/**
 * `starpu_data_get_user_data`.
 */
void *starpu_data_get_user_data(starpu_data_handle_t h);

/**
 * `starpu_data_handle_to_pointer`: the data's buffer on `node`, NULL if none there.
 */
void *starpu_data_handle_to_pointer(starpu_data_handle_t h, unsigned int node);

/**
 * `starpu_data_idle_prefetch_on_node`: a prefetch started only when the node has
 * nothing else to do.
 */
int starpu_data_idle_prefetch_on_node(starpu_data_handle_t h,
                                      unsigned int node,
                                      unsigned int asynchronous);

/**
 * `starpu_data_idle_prefetch_on_node_prio`.
 */
int starpu_data_idle_prefetch_on_node_prio(starpu_data_handle_t h,
                                           unsigned int node,
                                           unsigned int asynchronous,
                                           int prio);

/**
 * `starpu_data_interface_get_next_id`: a new interface id for an application's interface.
 */
int starpu_data_interface_get_next_id(void);

/**
 * `starpu_data_invalidate`.
 */
void starpu_data_invalidate(starpu_data_handle_t h);

/**
 * `starpu_data_invalidate_submit`.
 */
void starpu_data_invalidate_submit(starpu_data_handle_t h);

/**
 * `starpu_data_is_on_node`: 1 when `node` holds the current value or a transfer is
 * bringing it there, else 0; 0 for a bad handle or node.
 */
unsigned int starpu_data_is_on_node(starpu_data_handle_t h, unsigned int node);

/**
 * `starpu_data_lookup`: the handle registered with home buffer `ptr`, NULL if none.
 */
starpu_data_handle_t starpu_data_lookup(const void *ptr);

/**
 * `starpu_data_map_filters_array`.
 *
 * # Safety
 * `filters` holds `nfilters` filters.
 */
void starpu_data_map_filters_array(starpu_data_handle_t root,
                                   int nfilters,
                                   struct starpu_data_filter *filters);

/**
 * `starpu_data_map_filters_parray`: partitions recursively, one filter per level.
 *
 * # Safety
 * `filters` holds `nfilters` filter pointers.
 */
void starpu_data_map_filters_parray(starpu_data_handle_t root,
                                    int nfilters,
                                    struct starpu_data_filter **filters);

/**
 * `starpu_data_partition`: cuts `h` with filter `f` once the tasks using it are done.
 *
 * # Safety
 * `f` points to a filter.
 */
void starpu_data_partition(starpu_data_handle_t h, struct starpu_data_filter *f);

/**
 * `starpu_data_partition_clean`: forgets a plan (gathering it if active); its children
 * are unregistered once the tasks using them are done.
 *
 * # Safety
 * `children` holds `nparts` handles.
 */
void starpu_data_partition_clean(starpu_data_handle_t h,
                                 unsigned int nparts,
                                 starpu_data_handle_t *children_);

/**
 * `starpu_data_partition_clean_node`: `starpu_data_partition_clean`, gathering on
 * `gathering_node`.
 *
 * # Safety
 * `children` holds `nparts` handles.
 */
void starpu_data_partition_clean_node(starpu_data_handle_t h,
                                      unsigned int nparts,
                                      starpu_data_handle_t *children_,
                                      int gathering_node);

/**
 * `starpu_data_partition_get_nplans`: how many plans are made on `h`.
 */
int starpu_data_partition_get_nplans(starpu_data_handle_t h);

/**
 * `starpu_data_partition_not_automatic`: tasks using `h` no longer switch its views by
 * themselves; the application submits the switches.
 */
void starpu_data_partition_not_automatic(starpu_data_handle_t h);

/**
 * `starpu_data_partition_plan`: plans a way to cut `h`; its children are written to
 * `children` (as many as the filter makes).
 *
 * # Safety
 * `f` points to a filter; `children` has room for the children.
 */
void starpu_data_partition_plan(starpu_data_handle_t h,
                                struct starpu_data_filter *f,
                                starpu_data_handle_t *children);

/**
 * `starpu_data_partition_readonly_downgrade_submit`: the read-write view of `h` becomes
 * read-only, `h` readable again.
 *
 * # Safety
 * `children` holds `nparts` handles.
 */
void starpu_data_partition_readonly_downgrade_submit(starpu_data_handle_t h,
                                                     unsigned int nparts,
                                                     starpu_data_handle_t *children_);

/**
 * `starpu_data_partition_readonly_submit`: adds a read-only view of `h`.
 *
 * # Safety
 * `children` holds `nparts` handles.
 */
void starpu_data_partition_readonly_submit(starpu_data_handle_t h,
                                           unsigned int nparts,
                                           starpu_data_handle_t *children_);

/**
 * `starpu_data_partition_readonly_submit_sequential_consistency`.
 *
 * # Safety
 * `children` holds `nparts` handles.
 */
void starpu_data_partition_readonly_submit_sequential_consistency(starpu_data_handle_t h,
                                                                  unsigned int nparts,
                                                                  starpu_data_handle_t *children_,
                                                                  int sequential_consistency);

/**
 * `starpu_data_partition_readwrite_upgrade_submit`: the only read-only view of `h`
 * becomes read-write.
 *
 * # Safety
 * `children` holds `nparts` handles.
 */
void starpu_data_partition_readwrite_upgrade_submit(starpu_data_handle_t h,
                                                    unsigned int nparts,
                                                    starpu_data_handle_t *children_);

/**
 * `starpu_data_partition_submit`: switches `h` to its children, read-write.
 *
 * # Safety
 * `children` holds `nparts` handles.
 */
void starpu_data_partition_submit(starpu_data_handle_t h,
                                  unsigned int nparts,
                                  starpu_data_handle_t *children_);

/**
 * `starpu_data_partition_submit_sequential_consistency`: `starpu_data_partition_submit`,
 * the parent's access ordered with other tasks only if `sequential_consistency`.
 *
 * # Safety
 * `children` holds `nparts` handles.
 */
void starpu_data_partition_submit_sequential_consistency(starpu_data_handle_t h,
                                                         unsigned int nparts,
                                                         starpu_data_handle_t *children_,
                                                         int sequential_consistency);

/**
 * `starpu_data_prefetch_on_node`.
 */
int starpu_data_prefetch_on_node(starpu_data_handle_t h,
                                 unsigned int node,
                                 unsigned int asynchronous);

/**
 * `starpu_data_prefetch_on_node_prio`: a prefetch ordered by `prio` among the node's
 * prefetches.
 */
int starpu_data_prefetch_on_node_prio(starpu_data_handle_t h,
                                      unsigned int node,
                                      unsigned int asynchronous,
                                      int prio);

/**
 * `starpu_data_ptr_register`: the application set the buffers of `h` on `node` (the
 * `starpu_*_ptr_register` helpers call it before filling the description).
 */
void starpu_data_ptr_register(starpu_data_handle_t h, unsigned int node);

/**
 * `starpu_data_query_status`: `starpu_data_query_status2` without `is_loading`.
 *
 * # Safety
 * Each pointer is NULL or writable.
 */
void starpu_data_query_status(starpu_data_handle_t h,
                              int memory_node,
                              int *is_allocated,
                              int *is_valid,
                              int *is_requested);

/**
 * `starpu_data_query_status2`: whether `node` has a buffer, the value, a transfer
 * bringing it, a request for it (NULL pointers are skipped).
 *
 * # Safety
 * Each pointer is NULL or writable.
 */
void starpu_data_query_status2(starpu_data_handle_t h,
                               int memory_node,
                               int *is_allocated,
                               int *is_valid,
                               int *is_loading,
                               int *is_requested);

/**
 * `starpu_data_register`: registers a description of a built-in interface (`ops` is one
 * of the `starpu_interface_*_ops`) or of an interface the application defines with its
 * own ops table (see custom_interface.rs).
 *
 * # Safety
 * `data_interface` points to a description of the type `ops` names.
 */
void starpu_data_register(starpu_data_handle_t *out,
                          int home,
                          void *data_interface,
                          struct starpu_data_interface_ops *ops);

/**
 * `starpu_data_register_ops`: gives an application's ops table its id ahead of use.
 *
 * # Safety
 * `ops` is NULL or points to an ops table.
 */
void starpu_data_register_ops(struct starpu_data_interface_ops *ops);

/**
 * `starpu_data_register_same`: new data like `src` (same interface and shape), allocated
 * by the runtime when first used.
 *
 * # Safety
 * `dst` points to writable memory for a handle.
 */
void starpu_data_register_same(starpu_data_handle_t *dst, starpu_data_handle_t src);

/**
 * `starpu_data_release`: ends the application's access.
 */
void starpu_data_release(starpu_data_handle_t h);

/**
 * `starpu_data_release_on_node`.
 */
void starpu_data_release_on_node(starpu_data_handle_t h, int node);

/**
 * `starpu_data_request_allocation`: room for the data on `node`, without its value.
 */
int starpu_data_request_allocation(starpu_data_handle_t h, unsigned int node);

/**
 * `starpu_data_set_coordinates_array`.
 *
 * # Safety
 * `dims` holds `dimensions` ints.
 */
void starpu_data_set_coordinates_array(starpu_data_handle_t h, unsigned int dimensions, int *dims);

/**
 * `starpu_data_set_default_sequential_consistency_flag`: for handles registered later.
 */
void starpu_data_set_default_sequential_consistency_flag(unsigned int flag);

/**
 * `starpu_data_set_name`.
 *
 * # Safety
 * `name` is NULL or a NUL-terminated string.
 */
void starpu_data_set_name(starpu_data_handle_t h, const char *name);

/**
 * `starpu_data_set_reduction_methods`: `redux_cl` folds buffer 1 into buffer 0 (RW, R),
 * `init_cl` sets buffer 0 to the neutral element (W).
 */
void starpu_data_set_reduction_methods(starpu_data_handle_t h,
                                       struct starpu_codelet *redux_cl,
                                       struct starpu_codelet *init_cl);

/**
 * `starpu_data_set_reduction_methods_with_args`: the same, each codelet called with its
 * own `cl_arg`.
 */
void starpu_data_set_reduction_methods_with_args(starpu_data_handle_t h,
                                                 struct starpu_codelet *redux_cl,
                                                 void *redux_cl_arg,
                                                 struct starpu_codelet *init_cl,
                                                 void *init_cl_arg);

/**
 * `starpu_data_set_reduction_scratch`: the reduction codelet gets `scratch` as a third
 * buffer, in SCRATCH mode (a per-worker work area shaped like it).
 */
void starpu_data_set_reduction_scratch(starpu_data_handle_t h, starpu_data_handle_t scratch);

/**
 * `starpu_data_set_sequential_consistency_flag`.
 */
void starpu_data_set_sequential_consistency_flag(starpu_data_handle_t h, unsigned int flag);

/**
 * `starpu_data_set_user_data`.
 */
void starpu_data_set_user_data(starpu_data_handle_t h, void *user_data);

/**
 * `starpu_data_set_wt_mask`: the nodes each write is copied through to (bit `n` for
 * memory node `n`): after a task writes the data, the value goes to those nodes too.
 */
void starpu_data_set_wt_mask(starpu_data_handle_t h, uint32_t wt_mask);

/**
 * `starpu_data_test_if_allocated_on_node`.
 */
unsigned int starpu_data_test_if_allocated_on_node(starpu_data_handle_t h, unsigned int node);

/**
 * `starpu_data_unpartition`: gathers the children back into `h` on `gathering_node`.
 */
void starpu_data_unpartition(starpu_data_handle_t h, unsigned int gathering_node);

/**
 * `starpu_data_unpartition_readonly_submit`: gathers the children into `h`, both staying
 * readable.
 *
 * # Safety
 * `children` holds `nparts` handles.
 */
void starpu_data_unpartition_readonly_submit(starpu_data_handle_t h,
                                             unsigned int nparts,
                                             starpu_data_handle_t *children_,
                                             int gathering_node);

/**
 * `starpu_data_unpartition_submit`: gathers the children back into `h`.
 *
 * # Safety
 * `children` holds `nparts` handles.
 */
void starpu_data_unpartition_submit(starpu_data_handle_t h,
                                    unsigned int nparts,
                                    starpu_data_handle_t *children_,
                                    int gathering_node);

/**
 * `starpu_data_unpartition_submit_r`: gathers every active view of `h` and below.
 */
void starpu_data_unpartition_submit_r(starpu_data_handle_t h, int gathering_node);

/**
 * `starpu_data_unpartition_submit_sequential_consistency`.
 *
 * # Safety
 * `children` holds `nparts` handles.
 */
void starpu_data_unpartition_submit_sequential_consistency(starpu_data_handle_t h,
                                                           unsigned int nparts,
                                                           starpu_data_handle_t *children_,
                                                           int gathering_node,
                                                           int sequential_consistency);

/**
 * `starpu_data_unpartition_submit_sequential_consistency_cb`: the unpartitioning, then
 * `callback_func(callback_arg)` once it is done.
 *
 * # Safety
 * `children` holds `nparts` handles; the callback may be called from any thread.
 */
void starpu_data_unpartition_submit_sequential_consistency_cb(starpu_data_handle_t h,
                                                              unsigned int nparts,
                                                              starpu_data_handle_t *children_,
                                                              int gathering_node,
                                                              int sequential_consistency,
                                                              void (*callback_func)(void*),
                                                              void *callback_arg);

/**
 * `starpu_data_unregister`: waits for the tasks using the data, brings it home.
 */
void starpu_data_unregister(starpu_data_handle_t h);

/**
 * `starpu_data_unregister_no_coherency`: same, without bringing the value home.
 */
void starpu_data_unregister_no_coherency(starpu_data_handle_t h);

/**
 * `starpu_data_unregister_submit`: unregisters once submitted tasks are done, at once.
 */
void starpu_data_unregister_submit(starpu_data_handle_t h);

/**
 * `starpu_data_wont_use`: the value goes home when the bus is idle and its device copies
 * are evicted first.
 */
void starpu_data_wont_use(starpu_data_handle_t h);

/**
 * `starpu_display_stats`: the worker and bus summaries.
 */
void starpu_display_stats(void);

/**
 * `starpu_do_schedule`: tells the scheduling policies that the tasks submitted so far are
 * all there is for now, so one that holds tasks back (`graph_test`, or an application's
 * policy with a `do_schedule` function) lets them go.
 */
void starpu_do_schedule(void);

/**
 * `starpu_execute_on_each_worker`: runs `func(arg)` once on each worker whose kind is in
 * `where_`, on that worker's thread, and returns when all have.
 */
void starpu_execute_on_each_worker(void (*func)(void*), void *arg, uint32_t where_);

/**
 * `starpu_execute_on_each_worker_ex`: `starpu_execute_on_each_worker`; `name` would name
 * the tasks StarPU makes for it in traces, and this library runs `func` without tasks.
 */
void starpu_execute_on_each_worker_ex(void (*func)(void*),
                                      void *arg,
                                      uint32_t where_,
                                      const char *_name);

/**
 * `starpu_filter_nparts_compute_chunk_size_and_offset`: part `id` of `n` elements cut in
 * `nparts`: its size, and its offset in bytes given the elements' `elemsize` and the
 * distance `ld` (in elements) between consecutive ones along the cut dimension.
 *
 * # Safety
 * `chunk_size` and `offset` are NULL or writable.
 */
void starpu_filter_nparts_compute_chunk_size_and_offset(unsigned int n,
                                                        unsigned int nparts,
                                                        size_t elemsize,
                                                        unsigned int id,
                                                        unsigned int ld,
                                                        unsigned int *chunk_size,
                                                        size_t *offset);

/**
 * `starpu_free` (StarPU 1.3): frees a buffer from `starpu_malloc`.
 *
 * # Safety
 * `a` is NULL or came from `starpu_malloc*`.
 */
int starpu_free(void *a);

/**
 * `starpu_free_flags`.
 *
 * # Safety
 * `a` is NULL or came from `starpu_malloc*`.
 */
int starpu_free_flags(void *a, size_t dim, int flags);

/**
 * `starpu_free_noflag`.
 *
 * # Safety
 * `a` is NULL or came from `starpu_malloc*`.
 */
int starpu_free_noflag(void *a, size_t dim);

/**
 * `starpu_free_on_node`.
 */
void starpu_free_on_node(unsigned int node, uintptr_t addr, size_t size);

/**
 * `starpu_free_on_node_flags`.
 */
void starpu_free_on_node_flags(unsigned int node, uintptr_t addr, size_t size, int flags);

/**
 * `starpu_fxt_autostart_profiling`: whether `starpu_init` starts recording (1, the
 * default) or waits for `starpu_fxt_start_profiling` (0). Call it before `starpu_init`.
 */
void starpu_fxt_autostart_profiling(int autostart);

/**
 * `starpu_fxt_generate_trace`: writes the views of the trace file `filenames[0]`.
 * Traces of several processes (StarPU-MPI) are not merged: a second file is reported.
 *
 * # Safety
 * `options` is NULL or set up by `starpu_fxt_options_init` and filled as StarPU's.
 */
void starpu_fxt_generate_trace(struct starpu_fxt_options *options);

/**
 * `starpu_fxt_is_enabled`: whether `STARPU_FXT_TRACE` asks for a trace.
 */
int starpu_fxt_is_enabled(void);

/**
 * `starpu_fxt_options_init`: every flag off, the default file names.
 *
 * # Safety
 * `options` is NULL or points to a writable `struct starpu_fxt_options`.
 */
void starpu_fxt_options_init(struct starpu_fxt_options *options);

/**
 * `starpu_fxt_options_shutdown`: frees the paths `starpu_fxt_options_init` made.
 *
 * # Safety
 * `options` is NULL or was set up by `starpu_fxt_options_init`; the paths in it are
 * NULL or `malloc`ed.
 */
void starpu_fxt_options_shutdown(struct starpu_fxt_options *options);

/**
 * `starpu_fxt_start_profiling`: starts (or resumes) recording.
 */
void starpu_fxt_start_profiling(void);

/**
 * `starpu_fxt_stop_profiling`: stops recording; the trace so far is written at shutdown.
 */
void starpu_fxt_stop_profiling(void);

/**
 * `starpu_fxt_trace_user_event`: a user event with `code` in the trace.
 */
void starpu_fxt_trace_user_event(unsigned long code);

/**
 * `starpu_fxt_trace_user_event_string`: a user event with text `s` in the trace.
 *
 * # Safety
 * `s` is NULL or a NUL-terminated string.
 */
void starpu_fxt_trace_user_event_string(const char *s);

/**
 * `starpu_fxt_trace_user_meta_string`: as `_user_event_string`, recorded even while
 * recording is paused.
 *
 * # Safety
 * `s` is NULL or a NUL-terminated string.
 */
void starpu_fxt_trace_user_meta_string(const char *s);

/**
 * `starpu_fxt_write_data_trace`: StarPU's per-codelet data-use plot of a trace is not
 * made here (the same facts are in `tasks.rec` and `data.rec`); says so once.
 */
void starpu_fxt_write_data_trace(char *_filename_in);

/**
 * `starpu_fxt_write_data_trace_in_dir`: see `starpu_fxt_write_data_trace`.
 */
void starpu_fxt_write_data_trace_in_dir(char *_filename_in, char *_dir);

/**
 * `starpu_get_version`: the StarPU API version this library implements (the
 * `STARPU_*_VERSION` macros of starpu_config.h).
 *
 * # Safety
 * Each pointer is NULL or points to an int.
 */
void starpu_get_version(int *major, int *minor, int *release);

/**
 * `starpu_getenv`: the environment variable, NULL when unset.
 *
 * # Safety
 * `name` is a NUL-terminated string.
 */
char *starpu_getenv(const char *name);

/**
 * `starpu_hash_crc32c_be`.
 */
uint32_t starpu_hash_crc32c_be(uint32_t input, uint32_t inputcrc);

/**
 * `starpu_hash_crc32c_be_n`.
 *
 * # Safety
 * `input` is valid for `n` bytes.
 */
uint32_t starpu_hash_crc32c_be_n(const void *input, size_t n, uint32_t inputcrc);

/**
 * `starpu_hash_crc32c_string`.
 *
 * # Safety
 * `s` is NULL or a NUL-terminated string.
 */
uint32_t starpu_hash_crc32c_string(const char *s, uint32_t inputcrc);

/**
 * `starpu_heteroprio_map_wgroup_memory_nodes`: one worker group per memory node, and
 * their access orders made again (locality-aware mode only).
 */
void starpu_heteroprio_map_wgroup_memory_nodes(unsigned int sched_ctx_id);

/**
 * `starpu_heteroprio_print_wgroups`: the locality-aware mode's groups and access orders,
 * written on `stream`.
 *
 * # Safety
 * `stream` is a C stream open for writing, or null (nothing is written).
 */
void starpu_heteroprio_print_wgroups(FILE *stream, unsigned int sched_ctx_id);

/**
 * `starpu_heteroprio_set_arch_slow_factor`: how much slower `arch` is than the fastest
 * for the tasks of `bucket_id`.
 */
void starpu_heteroprio_set_arch_slow_factor(unsigned int sched_ctx_id,
                                            enum starpu_worker_archtype arch,
                                            unsigned int bucket_id,
                                            float slow_factor);

/**
 * `starpu_heteroprio_set_faster_arch`: `arch` runs the tasks of `bucket_id` fastest.
 */
void starpu_heteroprio_set_faster_arch(unsigned int sched_ctx_id,
                                       enum starpu_worker_archtype arch,
                                       unsigned int bucket_id);

/**
 * `starpu_heteroprio_set_mapping`: level `source_prio` of `arch` takes from bucket
 * `dest_bucket_id`.
 */
void starpu_heteroprio_set_mapping(unsigned int sched_ctx_id,
                                   enum starpu_worker_archtype arch,
                                   unsigned int source_prio,
                                   unsigned int dest_bucket_id);

/**
 * `starpu_heteroprio_set_nb_prios`: architecture `arch` has `max_prio` priority levels.
 */
void starpu_heteroprio_set_nb_prios(unsigned int sched_ctx_id,
                                    enum starpu_worker_archtype arch,
                                    unsigned int max_prio);

/**
 * `starpu_heteroprio_set_use_locality`: turns heteroprio's locality-aware mode on (1) or
 * off (0), from the init hook (refused once tasks are queued).
 */
void starpu_heteroprio_set_use_locality(unsigned int sched_ctx_id, unsigned int use_locality);

/**
 * `starpu_hip_get_local_stream`: only meaningful inside a kernel running on an accelerator; none exists here.
 */
void *starpu_hip_get_local_stream(void);

/**
 * `starpu_hip_worker_get_count`: this build has no such workers.
 */
unsigned int starpu_hip_worker_get_count(void);

/**
 * `starpu_hipblas_get_local_handle`: only meaningful inside a kernel running on an accelerator; none exists here.
 */
void *starpu_hipblas_get_local_handle(void);

/**
 * `starpu_hipblas_init`: prepares an accelerator library on each device of its kind; this build has
 * none, so there is nothing to prepare.
 */
void starpu_hipblas_init(void);

/**
 * `starpu_hipblas_shutdown`: prepares an accelerator library on each device of its kind; this build has
 * none, so there is nothing to prepare.
 */
void starpu_hipblas_shutdown(void);

/**
 * `starpu_hipsolver_init`: prepares an accelerator library on each device of its kind; this build has
 * none, so there is nothing to prepare.
 */
void starpu_hipsolver_init(void);

/**
 * `starpu_hipsolver_shutdown`: prepares an accelerator library on each device of its kind; this build has
 * none, so there is nothing to prepare.
 */
void starpu_hipsolver_shutdown(void);

/**
 * `starpu_init`: starts the runtime (or counts one more user of a running one).
 * Returns 0, `-ENODEV` without any worker, `-EINVAL` for a bad configuration.
 *
 * # Safety
 * `conf` is NULL or an initialised configuration.
 */
int starpu_init(struct starpu_conf *conf);

/**
 * `starpu_initialize`: `starpu_init` for programs that pass their command line.
 *
 * # Safety
 * As `starpu_init`.
 */
int starpu_initialize(struct starpu_conf *conf, int *_argc, char ***_argv);

/**
 * `starpu_interface_copy`: copies `size` bytes.
 *
 * # Safety
 * `src + src_offset` and `dst + dst_offset` are valid for `size` bytes on their nodes.
 */
int starpu_interface_copy(uintptr_t src,
                          size_t src_offset,
                          unsigned int src_node,
                          uintptr_t dst,
                          size_t dst_offset,
                          unsigned int dst_node,
                          size_t size,
                          void *async_data);

/**
 * `starpu_interface_copy2d`: `numblocks` blocks of `blocksize` bytes, `ld_src` / `ld_dst`
 * bytes apart.
 *
 * # Safety
 * Both regions are valid for that layout.
 */
int starpu_interface_copy2d(uintptr_t src,
                            size_t src_offset,
                            unsigned int src_node,
                            uintptr_t dst,
                            size_t dst_offset,
                            unsigned int dst_node,
                            size_t blocksize,
                            size_t numblocks,
                            size_t ld_src,
                            size_t ld_dst,
                            void *async_data);

/**
 * `starpu_interface_copy3d`: `numblocks2` groups, `ld2_*` bytes apart, of the 2D copy.
 *
 * # Safety
 * Both regions are valid for that layout.
 */
int starpu_interface_copy3d(uintptr_t src,
                            size_t src_offset,
                            unsigned int src_node,
                            uintptr_t dst,
                            size_t dst_offset,
                            unsigned int dst_node,
                            size_t blocksize,
                            size_t numblocks1,
                            size_t ld1_src,
                            size_t ld1_dst,
                            size_t numblocks2,
                            size_t ld2_src,
                            size_t ld2_dst,
                            void *async_data);

/**
 * `starpu_interface_copy4d`: `numblocks3` groups, `ld3_*` bytes apart, of the 3D copy.
 *
 * # Safety
 * Both regions are valid for that layout.
 */
int starpu_interface_copy4d(uintptr_t src,
                            size_t src_offset,
                            unsigned int src_node,
                            uintptr_t dst,
                            size_t dst_offset,
                            unsigned int dst_node,
                            size_t blocksize,
                            size_t numblocks1,
                            size_t ld1_src,
                            size_t ld1_dst,
                            size_t numblocks2,
                            size_t ld2_src,
                            size_t ld2_dst,
                            size_t numblocks3,
                            size_t ld3_src,
                            size_t ld3_dst,
                            void *async_data);

/**
 * `starpu_interface_data_copy`: records a copy for traces; this build records none.
 */
void starpu_interface_data_copy(unsigned int src_node, unsigned int dst_node, size_t size);

/**
 * `starpu_interface_end_driver_copy_async`.
 */
void starpu_interface_end_driver_copy_async(unsigned int _src_node,
                                            unsigned int _dst_node,
                                            double _start);

/**
 * `starpu_interface_map`: makes `src` readable from `dst_node` without a copy: main
 * memory to main memory is the same address; device memory is not mappable here
 * (`*ret` = `-ENOSYS`, the runtime then copies, as StarPU does).
 *
 * # Safety
 * `ret` is NULL or writable.
 */
uintptr_t starpu_interface_map(uintptr_t src,
                               size_t src_offset,
                               unsigned int src_node,
                               unsigned int dst_node,
                               size_t _size,
                               int *ret);

/**
 * `starpu_interface_start_driver_copy_async`: tracing bracket of an asynchronous copy.
 *
 * # Safety
 * `start` is NULL or writable.
 */
void starpu_interface_start_driver_copy_async(unsigned int _src_node,
                                              unsigned int _dst_node,
                                              double *start);

/**
 * `starpu_interface_unmap`: nothing to undo for main memory.
 */
int starpu_interface_unmap(uintptr_t _src,
                           size_t _src_offset,
                           unsigned int src_node,
                           uintptr_t _dst,
                           unsigned int dst_node,
                           size_t _size);

/**
 * `starpu_interface_update_map`: a mapping of main memory is always up to date.
 */
int starpu_interface_update_map(uintptr_t _src,
                                size_t _src_offset,
                                unsigned int src_node,
                                uintptr_t _dst,
                                size_t _dst_offset,
                                unsigned int dst_node,
                                size_t _size);

/**
 * `starpu_is_initialized`.
 */
int starpu_is_initialized(void);

/**
 * `starpu_is_paused`: 1 while workers are paused (`starpu_pause` not yet matched by
 * `starpu_resume`), 0 otherwise or without a runtime.
 */
int starpu_is_paused(void);

/**
 * `starpu_iteration_pop`.
 */
void starpu_iteration_pop(void);

/**
 * `starpu_iteration_push`: the tasks this thread submits next belong to `iteration`
 * (recorded in traces: `Iteration:` in `tasks.rec`).
 */
void starpu_iteration_push(unsigned long iteration);

/**
 * `starpu_malloc`: allocates `dim` bytes suitable for data transfers (page-locked while
 * a runtime with CUDA workers runs).
 *
 * # Safety
 * `a` is writable.
 */
int starpu_malloc(void **a, size_t dim);

/**
 * `starpu_malloc_flags`: pinning and accounting flags matter only with accelerators.
 *
 * # Safety
 * `a` is writable.
 */
int starpu_malloc_flags(void **a, size_t dim, int flags);

/**
 * `starpu_malloc_on_node`: 0 on failure.
 */
uintptr_t starpu_malloc_on_node(unsigned int node, size_t size);

/**
 * `starpu_malloc_on_node_flags`.
 */
uintptr_t starpu_malloc_on_node_flags(unsigned int node, size_t size, int flags);

/**
 * `starpu_malloc_set_hooks`: from now on `starpu_malloc*` (and `starpu_malloc_on_node*`
 * for main RAM) allocate with `malloc_hook` and `starpu_free*` free with `free_hook`; NULL
 * goes back to the library's allocator. As in StarPU, set them before allocating, since a
 * buffer must be freed by the allocator that made it. Buffers the runtime allocates for
 * data handles keep the library's allocator (see README, "Not there yet").
 */
void starpu_malloc_set_hooks(starpu_malloc_hook malloc_hook, starpu_free_hook free_hook);

/**
 * `starpu_matrix_data_register`: `ny` columns of `nx` elements, `ld` elements apart.
 *
 * # Safety
 * `out` is writable; `ptr` holds the matrix on `home`.
 */
void starpu_matrix_data_register(starpu_data_handle_t *out,
                                 int home,
                                 uintptr_t ptr,
                                 uint32_t ld,
                                 uint32_t nx,
                                 uint32_t ny,
                                 size_t elemsize);

/**
 * `starpu_matrix_data_register_allocsize`.
 *
 * # Safety
 * As `starpu_matrix_data_register`.
 */
void starpu_matrix_data_register_allocsize(starpu_data_handle_t *out,
                                           int home,
                                           uintptr_t ptr,
                                           uint32_t ld,
                                           uint32_t nx,
                                           uint32_t ny,
                                           size_t elemsize,
                                           size_t allocsize);

/**
 * `starpu_max_fpga_worker_get_count`: this build has no such workers.
 */
unsigned int starpu_max_fpga_worker_get_count(void);

/**
 * `starpu_memchunk_tidy`: frees the buffers `memory_node` keeps for reuse, and writes
 * back data until `STARPU_TARGET_CLEAN_BUFFERS`% of its buffers are clean when fewer
 * than `STARPU_MINIMUM_CLEAN_BUFFERS`% are.
 */
void starpu_memchunk_tidy(unsigned int memory_node);

/**
 * `starpu_memory_node_get_name`: "NUMA 0", "OpenCL 0"...
 *
 * # Safety
 * `name` has room for `size` bytes.
 */
int starpu_memory_node_get_name(unsigned int node, char *name, size_t size);

/**
 * `starpu_memory_nodes_get_count`.
 */
unsigned int starpu_memory_nodes_get_count(void);

/**
 * `starpu_memory_nodes_get_numa_count`.
 */
unsigned int starpu_memory_nodes_get_numa_count(void);

/**
 * `starpu_memory_pin`: page-locks memory of the application so that CUDA transfers
 * from and to it run asynchronously (nothing to do without a CUDA device).
 */
int starpu_memory_pin(void *addr, size_t size);

/**
 * `starpu_memory_unpin`.
 */
int starpu_memory_unpin(void *addr, size_t size);

/**
 * `starpu_mpi_ms_worker_get_count` (StarPU 1.4's name of the MPI server-client workers,
 * "master-slave"): this build has no such workers.
 */
unsigned int starpu_mpi_ms_worker_get_count(void);

/**
 * `starpu_mpi_sc_worker_get_count`: this build has no such workers.
 */
unsigned int starpu_mpi_sc_worker_get_count(void);

/**
 * `starpu_multiformat_data_register`: `nobjects` objects in the CPU format at `ptr`,
 * with `format_ops` giving each format's element size and conversion codelets, which
 * the core runs when a task needs the other format (`starpu_core::task::multiformat`).
 *
 * # Safety
 * `out` is writable; `ptr` holds `nobjects * cpu_elemsize` bytes on `home`;
 * `format_ops` lives as long as the handle.
 */
void starpu_multiformat_data_register(starpu_data_handle_t *out,
                                      int home,
                                      void *ptr,
                                      uint32_t nobjects,
                                      struct starpu_multiformat_data_interface_ops *format_ops);

/**
 * `starpu_ndim_data_register`: `nn[i]` elements along dimension `i`, `ldn[i]` apart.
 *
 * # Safety
 * `ldn` and `nn` hold `ndim` entries; `ptr` holds the array on `home`.
 */
void starpu_ndim_data_register(starpu_data_handle_t *out,
                               int home,
                               uintptr_t ptr,
                               uint32_t *ldn,
                               uint32_t *nn,
                               size_t ndim,
                               size_t elemsize);

/**
 * `starpu_ndim_get_local_ldi`: distance between consecutive elements along dimension `i`.
 */
uint32_t starpu_ndim_get_local_ldi(starpu_data_handle_t h, size_t i);

/**
 * `starpu_ndim_get_ni`: elements along dimension `i`.
 */
uint32_t starpu_ndim_get_ni(starpu_data_handle_t h, size_t i);

/**
 * `starpu_node_get_kind`.
 */
unsigned int starpu_node_get_kind(unsigned int node);

/**
 * `starpu_node_needs_offset`: whether buffers on `node` are handles plus an offset
 * (OpenCL); main memory buffers are plain pointers.
 */
int starpu_node_needs_offset(unsigned int node);

/**
 * `starpu_opencl_worker_get_count`.
 */
unsigned int starpu_opencl_worker_get_count(void);

/**
 * `starpu_pause`: workers take no new task until `starpu_resume`.
 */
void starpu_pause(void);

/**
 * `starpu_perf_counter_collection_start`: counting starts (it also starts when a set is
 * allocated, or with `conf.start_perf_counter_collection`).
 */
void starpu_perf_counter_collection_start(void);

/**
 * `starpu_perf_counter_collection_stop`: counting stops; listeners hear nothing more.
 */
void starpu_perf_counter_collection_stop(void);

/**
 * `starpu_perf_counter_get_help_string`: NULL for an unknown id.
 */
const char *starpu_perf_counter_get_help_string(int id);

/**
 * `starpu_perf_counter_get_type_id`: -1 for an unknown id.
 */
int starpu_perf_counter_get_type_id(int id);

/**
 * `starpu_perf_counter_id_to_name`: NULL for an unknown id.
 */
const char *starpu_perf_counter_id_to_name(int id);

/**
 * `starpu_perf_counter_list_all_avail`: the counters of every scope, on stdout.
 */
void starpu_perf_counter_list_all_avail(void);

/**
 * `starpu_perf_counter_list_avail`: the counters of `scope`, on stdout, as StarPU lists
 * them.
 */
void starpu_perf_counter_list_avail(int scope);

/**
 * `starpu_perf_counter_listener_exit`: frees a listener (detach it first).
 *
 * # Safety
 * `listener` is NULL or from `starpu_perf_counter_listener_init`, attached nowhere.
 */
void starpu_perf_counter_listener_exit(struct starpu_perf_counter_listener *listener);

/**
 * `starpu_perf_counter_listener_init`: a listener of the counters of `set`, calling
 * `callback(listener, sample, context)`.
 *
 * # Safety
 * `set` is a live set that outlives the listener.
 */
struct starpu_perf_counter_listener *starpu_perf_counter_listener_init(struct starpu_perf_counter_set *set,
                                                                       PerfCounterCallback callback,
                                                                       void *user_arg);

/**
 * `starpu_perf_counter_name_to_id`: -1 for an unknown counter.
 *
 * # Safety
 * `name` is NULL or a C string.
 */
int starpu_perf_counter_name_to_id(int scope, const char *name);

/**
 * `starpu_perf_counter_nb`: how many counters `scope` has.
 */
int starpu_perf_counter_nb(int scope);

/**
 * `starpu_perf_counter_nth_to_id`: -1 past the last counter of `scope`.
 */
int starpu_perf_counter_nth_to_id(int scope, int nth);

/**
 * `starpu_perf_counter_scope_id_to_name`: NULL for an unknown scope.
 */
const char *starpu_perf_counter_scope_id_to_name(int scope);

/**
 * `starpu_perf_counter_scope_name_to_id`: -1 for an unknown name.
 *
 * # Safety
 * `name` is NULL or a C string.
 */
int starpu_perf_counter_scope_name_to_id(const char *name);

/**
 * `starpu_perf_counter_set_all_per_worker_listeners`.
 *
 * # Safety
 * `listener` is NULL or a live listener.
 */
void starpu_perf_counter_set_all_per_worker_listeners(struct starpu_perf_counter_listener *listener);

/**
 * `starpu_perf_counter_set_alloc`: an empty set of counters of `scope` (NULL for an
 * unknown scope). Counting starts now if it had not (see `starpu_core::counters`).
 */
struct starpu_perf_counter_set *starpu_perf_counter_set_alloc(int scope);

/**
 * `starpu_perf_counter_set_disable_id`.
 *
 * # Safety
 * `set` is NULL or a live set.
 */
void starpu_perf_counter_set_disable_id(struct starpu_perf_counter_set *set, int id);

/**
 * `starpu_perf_counter_set_enable_id`.
 *
 * # Safety
 * `set` is NULL or a live set.
 */
void starpu_perf_counter_set_enable_id(struct starpu_perf_counter_set *set, int id);

/**
 * `starpu_perf_counter_set_free`.
 *
 * # Safety
 * `set` is NULL or from `starpu_perf_counter_set_alloc`, not freed, and no listener
 * attached still uses it.
 */
void starpu_perf_counter_set_free(struct starpu_perf_counter_set *set);

/**
 * `starpu_perf_counter_set_global_listener`.
 *
 * # Safety
 * `listener` is NULL or a live listener.
 */
void starpu_perf_counter_set_global_listener(struct starpu_perf_counter_listener *listener);

/**
 * `starpu_perf_counter_set_per_codelet_listener`: listens to the tasks of `cl` (codelets
 * are told apart by name, as in StarPU's summaries).
 *
 * # Safety
 * `cl` is NULL or a live codelet; `listener` is NULL or a live listener.
 */
void starpu_perf_counter_set_per_codelet_listener(struct starpu_codelet *cl,
                                                  struct starpu_perf_counter_listener *listener);

/**
 * `starpu_perf_counter_set_per_worker_listener`.
 *
 * # Safety
 * `listener` is NULL or a live listener.
 */
void starpu_perf_counter_set_per_worker_listener(unsigned int workerid,
                                                 struct starpu_perf_counter_listener *listener);

/**
 * `starpu_perf_counter_type_id_to_name`: NULL for an unknown type.
 */
const char *starpu_perf_counter_type_id_to_name(int ty);

/**
 * `starpu_perf_counter_type_name_to_id`: -1 for an unknown name.
 *
 * # Safety
 * `name` is NULL or a C string.
 */
int starpu_perf_counter_type_name_to_id(const char *name);

/**
 * `starpu_perf_counter_unset_all_per_worker_listeners`.
 */
void starpu_perf_counter_unset_all_per_worker_listeners(void);

/**
 * `starpu_perf_counter_unset_global_listener`.
 */
void starpu_perf_counter_unset_global_listener(void);

/**
 * `starpu_perf_counter_unset_per_codelet_listener`.
 *
 * # Safety
 * `cl` is NULL or a live codelet.
 */
void starpu_perf_counter_unset_per_codelet_listener(struct starpu_codelet *cl);

/**
 * `starpu_perf_counter_unset_per_worker_listener`.
 */
void starpu_perf_counter_unset_per_worker_listener(unsigned int workerid);

/**
 * `starpu_perf_knob_get_global_int32_value` (0, reported, for a wrong id).
 */
int32_t starpu_perf_knob_get_global_int32_value(int id);

/**
 * `starpu_perf_knob_get_help_string`: NULL for an unknown id.
 */
const char *starpu_perf_knob_get_help_string(int id);

/**
 * `starpu_perf_knob_get_per_scheduler_int32_value`.
 *
 * # Safety
 * `policy` is NULL or a C string.
 */
int32_t starpu_perf_knob_get_per_scheduler_int32_value(int id, const char *policy);

/**
 * `starpu_perf_knob_get_per_worker_int32_value`.
 */
int32_t starpu_perf_knob_get_per_worker_int32_value(int id, unsigned int worker);

/**
 * `starpu_perf_knob_get_type_id`: -1 for an unknown id.
 */
int starpu_perf_knob_get_type_id(int id);

/**
 * `starpu_perf_knob_id_to_name`: NULL for an unknown id.
 */
const char *starpu_perf_knob_id_to_name(int id);

/**
 * `starpu_perf_knob_list_all_avail`: the knobs of every scope on stdout (StarPU ignores
 * the argument too).
 */
void starpu_perf_knob_list_all_avail(int _scope);

/**
 * `starpu_perf_knob_list_avail`: the knobs of `scope` on stdout, as StarPU lists them.
 */
void starpu_perf_knob_list_avail(int scope);

/**
 * `starpu_perf_knob_name_to_id`: -1 for an unknown knob.
 *
 * # Safety
 * `name` is NULL or a C string.
 */
int starpu_perf_knob_name_to_id(int scope, const char *name);

/**
 * `starpu_perf_knob_nb`: how many knobs `scope` has (0 for an unknown scope).
 */
int starpu_perf_knob_nb(int scope);

/**
 * `starpu_perf_knob_nth_to_id`: -1 past the last knob of `scope`.
 */
int starpu_perf_knob_nth_to_id(int scope, int nth);

/**
 * `starpu_perf_knob_scope_id_to_name`: NULL for an unknown scope.
 */
const char *starpu_perf_knob_scope_id_to_name(int scope);

/**
 * `starpu_perf_knob_scope_name_to_id`: -1 for an unknown name.
 *
 * # Safety
 * `name` is NULL or a C string.
 */
int starpu_perf_knob_scope_name_to_id(const char *name);

/**
 * `starpu_perf_knob_set_global_int32_value`.
 */
void starpu_perf_knob_set_global_int32_value(int id, int32_t value);

/**
 * `starpu_perf_knob_set_per_scheduler_int32_value`.
 *
 * # Safety
 * `policy` is NULL or a C string.
 */
void starpu_perf_knob_set_per_scheduler_int32_value(int id, const char *policy, int32_t value);

/**
 * `starpu_perf_knob_set_per_worker_int32_value`.
 */
void starpu_perf_knob_set_per_worker_int32_value(int id, unsigned int worker, int32_t value);

/**
 * `starpu_perf_knob_type_id_to_name`: NULL for an unknown type.
 */
const char *starpu_perf_knob_type_id_to_name(int ty);

/**
 * `starpu_perf_knob_type_name_to_id`: -1 for an unknown name.
 *
 * # Safety
 * `name` is NULL or a C string.
 */
int starpu_perf_knob_type_name_to_id(const char *name);

/**
 * `starpu_perfmodel_arch_comb_fetch`: architecture combination `comb`, NULL when there
 * is no such combination.
 */
struct starpu_perfmodel_arch *starpu_perfmodel_arch_comb_fetch(int comb);

/**
 * `starpu_perfmodel_dump_xml`: writes `model` (what it learned so far, read from its file
 * first if needed) on `output` in StarPU's XML form (the core's `perfmodel::xml`).
 *
 * # Safety
 * `output` is NULL or an open C stream; `model` NULL or a valid model.
 */
void starpu_perfmodel_dump_xml(FILE *output, struct starpu_perfmodel *model);

/**
 * `starpu_perfmodel_get_arch_name`: `cpu0_impl0 (Comb0)` into `archname`.
 *
 * # Safety
 * `arch` is NULL or valid; `archname` has room for `maxlen` bytes.
 */
void starpu_perfmodel_get_arch_name(struct starpu_perfmodel_arch *arch,
                                    char *archname,
                                    size_t maxlen,
                                    unsigned int nimpl);

/**
 * `starpu_perfmodel_get_archtype_name`: "cpu", "cuda", "opencl".
 */
const char *starpu_perfmodel_get_archtype_name(unsigned int archtype);

/**
 * `starpu_perfmodel_get_model_per_arch`: the record of `model` for `arch` and `impl`.
 *
 * # Safety
 * `model` is NULL or a model that stays at its address; `arch` is NULL (the CPU) or a
 * valid architecture.
 */
struct starpu_perfmodel_per_arch *starpu_perfmodel_get_model_per_arch(struct starpu_perfmodel *model,
                                                                      struct starpu_perfmodel_arch *arch,
                                                                      unsigned int imp);

/**
 * `starpu_perfmodel_get_narch_combs`: how many distinct worker architectures the
 * running runtime has (0 when it is not running).
 */
int starpu_perfmodel_get_narch_combs(void);

/**
 * `starpu_perfmodel_history_based_expected_perf`: the calibrated mean for `footprint`
 * on `arch` (implementation 0), NaN when not calibrated.
 *
 * # Safety
 * `model` is a valid model; `arch` NULL or valid.
 */
double starpu_perfmodel_history_based_expected_perf(struct starpu_perfmodel *model,
                                                    struct starpu_perfmodel_arch *arch,
                                                    uint32_t footprint);

/**
 * `starpu_perfmodel_init`: prepares `model` (reads its file for learning models).
 *
 * # Safety
 * `model` is NULL or a valid model.
 */
int starpu_perfmodel_init(struct starpu_perfmodel *model);

/**
 * `starpu_perfmodel_load_symbol`: reads the model file of `symbol` into `model`
 * (trying `a.b` then `a`, as StarPU). 0 when loaded, 1 when there is no such file.
 *
 * # Safety
 * `symbol` is a C string, `model` a valid model.
 */
int starpu_perfmodel_load_symbol(const char *symbol, struct starpu_perfmodel *model);

/**
 * `starpu_perfmodel_unload_model`: forgets what `model` learned (saving new samples
 * first when calibrating, so nothing measured is lost).
 *
 * # Safety
 * `model` is NULL or a valid model.
 */
int starpu_perfmodel_unload_model(struct starpu_perfmodel *model);

/**
 * `starpu_perfmodel_update_history`: adds a measurement (microseconds) of `task` on
 * `arch`, as if a worker had measured it; the model is saved at shutdown.
 *
 * # Safety
 * `model`, `task` and `arch` are valid (arch NULL: the CPU architecture).
 */
void starpu_perfmodel_update_history(struct starpu_perfmodel *model,
                                     struct starpu_task *task,
                                     struct starpu_perfmodel_arch *arch,
                                     unsigned int _cpuid,
                                     unsigned int nimpl,
                                     double measured);

/**
 * `starpu_profiling_bus_helper_display_summary`: the data transfers between memory
 * nodes, on stderr, in StarPU's words.
 */
void starpu_profiling_bus_helper_display_summary(void);

/**
 * `starpu_profiling_init`: restarts the workers' counters, and turns profiling on when
 * `STARPU_PROFILING` is a positive number.
 */
void starpu_profiling_init(void);

/**
 * `starpu_profiling_set_id`: names FxT trace files, which this build does not write;
 * accepted and ignored.
 */
void starpu_profiling_set_id(int _new_id);

/**
 * `starpu_profiling_status_get`.
 */
int starpu_profiling_status_get(void);

/**
 * `starpu_profiling_status_set`: turns profiling on (`STARPU_PROFILING_ENABLE`) or off;
 * returns the previous status. Turning it on restarts the workers' counters.
 */
int starpu_profiling_status_set(int status);

/**
 * `starpu_profiling_worker_get_info`: worker `workerid`'s activity since the previous
 * call (or since profiling was turned on), then restarts its counters; with a NULL
 * `worker_info` only restarts them. 0, or `-EINVAL` for a worker that does not exist.
 *
 * # Safety
 * `worker_info` is NULL or points to writable memory for the struct.
 */
int starpu_profiling_worker_get_info(int workerid,
                                     struct starpu_profiling_worker_info *worker_info);

/**
 * `starpu_profiling_worker_helper_display_summary`: each worker's tasks and times on
 * stderr, since its counters were last read (this restarts them, as in StarPU), in
 * StarPU's words.
 */
void starpu_profiling_worker_helper_display_summary(void);

/**
 * `starpu_push_task_end`: the policy finished pushing `task`. The core accounts for
 * pushed tasks itself; nothing is left to do.
 */
int starpu_push_task_end(struct starpu_task *_task);

/**
 * `starpu_reset_scheduler`: asks each context's policy to forget what it learned from
 * the tasks scheduled so far (StarPU calls the policy's optional reset method; its
 * graph-based policy drops its task graph). The policies here keep no such state beyond
 * their queues and performance models, which StarPU does not reset either: nothing to do.
 */
void starpu_reset_scheduler(void);

/**
 * `starpu_resume`.
 */
void starpu_resume(void);

/**
 * `starpu_rs_clear_last_error`: forgets this thread's last error.
 */
void starpu_rs_clear_last_error(void);

/**
 * `starpu_rs_last_error`: the last error of this thread, "function: cause", or NULL if
 * none. The string stays valid until this thread's next failing call or
 * `starpu_rs_clear_last_error`.
 */
const char *starpu_rs_last_error(void);

/**
 * `starpu_rs_last_error_code`: the (negative) code the last failing call returned on this
 * thread, or 0 if none.
 */
int starpu_rs_last_error_code(void);

/**
 * `starpu_rs_last_error_kind`: the stable name of the last error's kind
 * (`"InvalidArgument"`, `"Deadlock"`, ...; the same names Python and Java use), or NULL.
 */
const char *starpu_rs_last_error_kind(void);

/**
 * `starpu_save_history_based_model`: writes `model`'s file now.
 *
 * # Safety
 * `model` is NULL or a valid model.
 */
void starpu_save_history_based_model(struct starpu_perfmodel *model);

/**
 * `starpu_sched_component_add_child`: appends `child` to `component`'s children.
 */
void starpu_sched_component_add_child(struct starpu_sched_component *component,
                                      struct starpu_sched_component *child);

/**
 * `starpu_sched_component_can_execute_task`: some worker below `c` may run `task`.
 */
int starpu_sched_component_can_execute_task(struct starpu_sched_component *c,
                                            struct starpu_task *task);

/**
 * `starpu_sched_component_can_pull`: tells the children, until one will pull.
 */
int starpu_sched_component_can_pull(struct starpu_sched_component *c);

/**
 * `starpu_sched_component_can_pull_all`: tells every child.
 */
int starpu_sched_component_can_pull_all(struct starpu_sched_component *c);

/**
 * `starpu_sched_component_can_push`: asks the parents of `c` to push to it.
 */
int starpu_sched_component_can_push(struct starpu_sched_component *c,
                                    struct starpu_sched_component *_to);

/**
 * `starpu_sched_component_connect`: `child` below `parent`.
 */
void starpu_sched_component_connect(struct starpu_sched_component *parent,
                                    struct starpu_sched_component *child);

/**
 * `starpu_sched_component_create`: a component with StarPU's defaults (`pull_task` from
 * the parents, `can_push` to the parents, `can_pull` to the children); the application
 * sets `push_task` and its other functions.
 */
struct starpu_sched_component *starpu_sched_component_create(struct starpu_sched_tree *tree,
                                                             const char *name);

/**
 * `starpu_sched_component_destroy`: `deinit_data`, then the component itself.
 */
void starpu_sched_component_destroy(struct starpu_sched_component *c);

/**
 * `starpu_sched_component_destroy_rec`: `c` and every component below it.
 */
void starpu_sched_component_destroy_rec(struct starpu_sched_component *c);

/**
 * `starpu_sched_component_eager_create`: pushes to the first child able to run a task.
 */
struct starpu_sched_component *starpu_sched_component_eager_create(struct starpu_sched_tree *tree,
                                                                   void *_arg);

/**
 * `starpu_sched_component_estimated_end_min`: the earliest of the children's ends (no
 * component predicts here: 0 without children).
 */
double starpu_sched_component_estimated_end_min(struct starpu_sched_component *c);

/**
 * `starpu_sched_component_estimated_load`: the sum of the children's loads.
 */
double starpu_sched_component_estimated_load(struct starpu_sched_component *c);

/**
 * `starpu_sched_component_fifo_create`: a FIFO queue (bounded by
 * `params->ntasks_threshold` when not 0).
 */
struct starpu_sched_component *starpu_sched_component_fifo_create(struct starpu_sched_tree *tree,
                                                                  struct starpu_sched_component_fifo_data *params);

/**
 * `starpu_sched_component_initialize_simple_scheduler`: builds the tree of context
 * `sched_ctx_id` with the component `create_decision_component(tree, data)` makes as
 * its decision, laid out by `flags` (`STARPU_SCHED_SIMPLE_*`), and makes it the
 * context's policy data, as StarPU does.
 */
void starpu_sched_component_initialize_simple_scheduler(starpu_sched_component_create_t create_decision_component,
                                                        void *data,
                                                        unsigned int flags,
                                                        unsigned int sched_ctx_id);

/**
 * `starpu_sched_component_is_combined_worker`: no combined-worker components here.
 */
int starpu_sched_component_is_combined_worker(struct starpu_sched_component *_c);

/**
 * `starpu_sched_component_is_eager`.
 */
int starpu_sched_component_is_eager(struct starpu_sched_component *c);

/**
 * `starpu_sched_component_is_fifo`.
 */
int starpu_sched_component_is_fifo(struct starpu_sched_component *c);

/**
 * `starpu_sched_component_is_prio`.
 */
int starpu_sched_component_is_prio(struct starpu_sched_component *c);

/**
 * `starpu_sched_component_is_random`.
 */
int starpu_sched_component_is_random(struct starpu_sched_component *c);

/**
 * `starpu_sched_component_is_simple_worker`: every worker component is one here.
 */
int starpu_sched_component_is_simple_worker(struct starpu_sched_component *c);

/**
 * `starpu_sched_component_is_work_stealing`.
 */
int starpu_sched_component_is_work_stealing(struct starpu_sched_component *c);

/**
 * `starpu_sched_component_is_worker`.
 */
int starpu_sched_component_is_worker(struct starpu_sched_component *c);

/**
 * `starpu_sched_component_parents_pull_task`: the first task a parent gives.
 */
struct starpu_task *starpu_sched_component_parents_pull_task(struct starpu_sched_component *c,
                                                             struct starpu_sched_component *_to);

/**
 * `starpu_sched_component_prio_create`: a queue by priority (FIFO among equals).
 */
struct starpu_sched_component *starpu_sched_component_prio_create(struct starpu_sched_tree *tree,
                                                                  struct starpu_sched_component_prio_data *params);

/**
 * `starpu_sched_component_pull_task`: `from->pull_task(from, to)`.
 */
struct starpu_task *starpu_sched_component_pull_task(struct starpu_sched_component *from,
                                                     struct starpu_sched_component *to);

/**
 * `starpu_sched_component_pump_downstream`: `pump_to` into each child.
 */
struct starpu_task *starpu_sched_component_pump_downstream(struct starpu_sched_component *c,
                                                           int *success);

/**
 * `starpu_sched_component_pump_to`: moves the tasks `c` gives for `to` into `to`;
 * returns the task `to` refused (NULL if none), `*success` = 1 if any moved.
 */
struct starpu_task *starpu_sched_component_pump_to(struct starpu_sched_component *c,
                                                   struct starpu_sched_component *to,
                                                   int *success);

/**
 * `starpu_sched_component_push_task`: `to->push_task(to, task)`.
 */
int starpu_sched_component_push_task(struct starpu_sched_component *_from,
                                     struct starpu_sched_component *to,
                                     struct starpu_task *task);

/**
 * `starpu_sched_component_random_create`: pushes to a child drawn at random.
 */
struct starpu_sched_component *starpu_sched_component_random_create(struct starpu_sched_tree *tree,
                                                                    void *_arg);

/**
 * `starpu_sched_component_send_can_push_to_parents`.
 */
int starpu_sched_component_send_can_push_to_parents(struct starpu_sched_component *c);

/**
 * `starpu_sched_component_work_stealing_create`: one queue per child; idle children
 * steal.
 */
struct starpu_sched_component *starpu_sched_component_work_stealing_create(struct starpu_sched_tree *tree,
                                                                           void *_arg);

/**
 * `starpu_sched_component_worker_get`: the component of `workerid` in context
 * `sched_ctx` (made on first use; it belongs to that context's tree).
 */
struct starpu_sched_component *starpu_sched_component_worker_get(unsigned int sched_ctx,
                                                                 int workerid);

/**
 * `starpu_sched_component_worker_get_workerid`: the worker of a worker component, -1
 * for another component.
 */
int starpu_sched_component_worker_get_workerid(struct starpu_sched_component *c);

/**
 * `starpu_sched_component_worker_new`: as `starpu_sched_component_worker_get`.
 */
struct starpu_sched_component *starpu_sched_component_worker_new(unsigned int sched_ctx,
                                                                 int workerid);

/**
 * `starpu_sched_component_worker_post_exec_hook`: as the pre-exec hook.
 */
void starpu_sched_component_worker_post_exec_hook(struct starpu_task *_task,
                                                  unsigned int _sched_ctx_id);

/**
 * `starpu_sched_component_worker_pre_exec_hook`: StarPU updates the predictions of
 * the worker component; no component here predicts, so there is nothing to update.
 */
void starpu_sched_component_worker_pre_exec_hook(struct starpu_task *_task,
                                                 unsigned int _sched_ctx_id);

/**
 * `starpu_sched_ctx_add_workers`.
 *
 * # Safety
 * `workerids` holds `nworkers` ids.
 */
void starpu_sched_ctx_add_workers(int *workerids, unsigned int nworkers, unsigned int ctx);

/**
 * `starpu_sched_ctx_bind_current_thread_to_cpuid`: binds the calling thread to logical
 * CPU `cpuid` (a bad one is reported and the binding left as it was).
 */
void starpu_sched_ctx_bind_current_thread_to_cpuid(unsigned int cpuid);

/**
 * `starpu_sched_ctx_contains_type_of_worker`: CPU workers only in this build.
 */
unsigned int starpu_sched_ctx_contains_type_of_worker(enum starpu_worker_archtype arch,
                                                      unsigned int ctx);

/**
 * `starpu_sched_ctx_contains_worker`.
 */
unsigned int starpu_sched_ctx_contains_worker(int workerid, unsigned int ctx);

/**
 * `starpu_sched_ctx_create_inside_interval`: a context over `min_ncpus`..`max_ncpus`
 * CPU workers (the most available); GPUs are not in this build.
 *
 * # Safety
 * `policy_name` and `name` are NULL or C strings.
 */
unsigned int starpu_sched_ctx_create_inside_interval(const char *policy_name,
                                                     const char *name,
                                                     int min_ncpus,
                                                     int max_ncpus,
                                                     int _min_ngpus,
                                                     int _max_ngpus,
                                                     unsigned int _allow_overlap);

/**
 * `starpu_sched_ctx_create_worker_collection`: the context's collection (one list per
 * context here, whatever the type asked).
 */
struct starpu_worker_collection *starpu_sched_ctx_create_worker_collection(unsigned int ctx,
                                                                           enum starpu_worker_collection_type _type);

/**
 * `starpu_sched_ctx_delete`: its workers go to the inheritor (if set), its tasks to
 * the inheritor or the global context.
 */
void starpu_sched_ctx_delete(unsigned int ctx);

/**
 * `starpu_sched_ctx_delete_worker_collection`: the collection lives with the library.
 */
void starpu_sched_ctx_delete_worker_collection(unsigned int _ctx);

/**
 * `starpu_sched_ctx_display_workers`: one line per worker of the context.
 *
 * # Safety
 * `f` is a valid `FILE *`.
 */
void starpu_sched_ctx_display_workers(unsigned int ctx, FILE *f);

/**
 * `starpu_sched_ctx_exec_parallel_code`: runs `func(param)` while context `ctx`'s
 * workers are reserved (each finishes its task and takes no other meanwhile), and returns
 * what it returns; NULL (reported) for an unknown context or a NULL function.
 *
 * # Safety
 * `func` is callable with `param`.
 */
void *starpu_sched_ctx_exec_parallel_code(void *(*func)(void*), void *param, unsigned int ctx);

/**
 * `starpu_sched_ctx_finished_submit`: the application submits no more tasks to `ctx`.
 * When its last task ends, a context with an inheritor is closed: its close callback
 * runs, then its workers join the inheritor.
 */
void starpu_sched_ctx_finished_submit(unsigned int ctx);

/**
 * `starpu_sched_ctx_get_available_cpuids`: the CPUs of context `ctx` the calling thread
 * may use (see `Runtime::available_cpuids`), in a malloc'ed array the caller frees. An
 * unknown context gives none (NULL, 0) and a message.
 *
 * # Safety
 * `cpuids` and `ncpuids` are valid for writing.
 */
void starpu_sched_ctx_get_available_cpuids(unsigned int ctx, int **cpuids, int *ncpuids);

/**
 * `starpu_sched_ctx_get_context`: the thread's context, `STARPU_NMAX_SCHED_CTXS` if
 * none was set.
 */
unsigned int starpu_sched_ctx_get_context(void);

/**
 * `starpu_sched_ctx_get_ctx_for_task`: the context the task was submitted to.
 *
 * # Safety
 * `task` is NULL or a task.
 */
unsigned int starpu_sched_ctx_get_ctx_for_task(struct starpu_task *task);

/**
 * `starpu_sched_ctx_get_hierarchy_level`: what `STARPU_SCHED_CTX_HIERARCHY_LEVEL` said
 * (no hierarchical scheduling here).
 */
unsigned int starpu_sched_ctx_get_hierarchy_level(unsigned int ctx);

/**
 * `starpu_sched_ctx_get_inheritor`: `STARPU_NMAX_SCHED_CTXS` when none is set.
 */
unsigned int starpu_sched_ctx_get_inheritor(unsigned int ctx);

/**
 * `starpu_sched_ctx_get_max_priority`.
 */
int starpu_sched_ctx_get_max_priority(unsigned int ctx);

/**
 * `starpu_sched_ctx_get_min_priority`.
 */
int starpu_sched_ctx_get_min_priority(unsigned int ctx);

/**
 * `starpu_sched_ctx_get_nready_tasks`: tasks queued in the context's policy.
 */
int starpu_sched_ctx_get_nready_tasks(unsigned int ctx);

/**
 * `starpu_sched_ctx_get_nshared_workers`: workers in both contexts.
 */
unsigned int starpu_sched_ctx_get_nshared_workers(unsigned int ctx, unsigned int ctx2);

/**
 * `starpu_sched_ctx_get_nworkers`.
 */
unsigned int starpu_sched_ctx_get_nworkers(unsigned int ctx);

/**
 * `starpu_sched_ctx_get_policy_data`.
 */
void *starpu_sched_ctx_get_policy_data(unsigned int ctx);

/**
 * `starpu_sched_ctx_get_priority`: worker `workerid`'s priority in context `ctx` (0 until
 * set). For a worker that is not in the context the error is reported and 0 returned.
 */
unsigned int starpu_sched_ctx_get_priority(int workerid, unsigned int ctx);

/**
 * `starpu_sched_ctx_get_sched_policy`: the application's policy struct of `ctx`, NULL
 * for a built-in policy (they have no C struct here).
 */
struct starpu_sched_policy *starpu_sched_ctx_get_sched_policy(unsigned int ctx);

/**
 * `starpu_sched_ctx_get_user_data`.
 */
void *starpu_sched_ctx_get_user_data(unsigned int ctx);

/**
 * `starpu_sched_ctx_get_worker_collection`: the context's workers, for policies to
 * iterate (`init_iterator`, `has_next`, `get_next`).
 */
struct starpu_worker_collection *starpu_sched_ctx_get_worker_collection(unsigned int ctx);

/**
 * `starpu_sched_ctx_get_workers_list`: a `malloc`ed array of the context's workers
 * (freed by the caller), and their number.
 *
 * # Safety
 * `workerids` is a valid pointer.
 */
unsigned int starpu_sched_ctx_get_workers_list(unsigned int ctx, int **workerids);

/**
 * `starpu_sched_ctx_get_workers_list_raw`: the collection's own array (not to be freed).
 *
 * # Safety
 * `workerids` is a valid pointer.
 */
unsigned int starpu_sched_ctx_get_workers_list_raw(unsigned int ctx, int **workerids);

/**
 * `starpu_sched_ctx_master_get_context` (StarPU 1.4's name): the master-only context
 * whose master is worker `masterid` (the parallel worker it runs tasks for), else
 * `STARPU_NMAX_SCHED_CTXS`.
 */
unsigned int starpu_sched_ctx_master_get_context(int masterid);

/**
 * `starpu_sched_ctx_max_priority_is_set`.
 */
int starpu_sched_ctx_max_priority_is_set(unsigned int ctx);

/**
 * `starpu_sched_ctx_min_priority_is_set`: bounds always exist here (the policy's or
 * the ones given).
 */
int starpu_sched_ctx_min_priority_is_set(unsigned int ctx);

/**
 * `starpu_sched_ctx_overlapping_ctxs_on_worker`: whether the worker is in more than one
 * context.
 */
unsigned int starpu_sched_ctx_overlapping_ctxs_on_worker(int workerid);

/**
 * `starpu_sched_ctx_register_close_callback`: `close_callback(ctx, args)` runs when the
 * context is closed: after `starpu_sched_ctx_finished_submit`, once its last task has
 * ended, if it has an inheritor (its workers then join the inheritor). A NULL callback
 * removes the previous one.
 *
 * # Safety
 * `close_callback` is NULL or a function that may be called from any thread with `args`.
 */
void starpu_sched_ctx_register_close_callback(unsigned int ctx,
                                              void (*close_callback)(unsigned int, void*),
                                              void *args);

/**
 * `starpu_sched_ctx_remove_workers`.
 *
 * # Safety
 * `workerids` holds `nworkers` ids.
 */
void starpu_sched_ctx_remove_workers(int *workerids, unsigned int nworkers, unsigned int ctx);

/**
 * `starpu_sched_ctx_set_context`: the context this thread's tasks go to when they name
 * none (NULL: back to the global context).
 *
 * # Safety
 * `ctx` is NULL or points to a context id.
 */
void starpu_sched_ctx_set_context(unsigned int *ctx);

/**
 * `starpu_sched_ctx_set_inheritor`.
 */
void starpu_sched_ctx_set_inheritor(unsigned int ctx, unsigned int inheritor);

/**
 * `starpu_sched_ctx_set_max_priority`.
 */
int starpu_sched_ctx_set_max_priority(unsigned int ctx, int prio);

/**
 * `starpu_sched_ctx_set_min_priority`.
 */
int starpu_sched_ctx_set_min_priority(unsigned int ctx, int prio);

/**
 * `starpu_sched_ctx_set_policy_data`: the policy's private data for `ctx`.
 */
void starpu_sched_ctx_set_policy_data(unsigned int ctx, void *data);

/**
 * `starpu_sched_ctx_set_priority`: each of the `nworkers` workers of `workerids` looks
 * for work in context `ctx` before its contexts of lower priority. `nworkers == -1` does
 * nothing, as in StarPU; ids of combined workers are passed over.
 *
 * # Safety
 * `workerids` holds `nworkers` ids.
 */
void starpu_sched_ctx_set_priority(int *workerids,
                                   int nworkers,
                                   unsigned int ctx,
                                   unsigned int priority);

/**
 * `starpu_sched_ctx_set_user_data`.
 */
void starpu_sched_ctx_set_user_data(unsigned int ctx, void *data);

/**
 * `starpu_sched_ctx_stop_task_submission`: tasks of contexts without workers wait in
 * their context's queue here, there is no list to stop.
 */
void starpu_sched_ctx_stop_task_submission(void);

/**
 * `starpu_sched_ctx_worker_get_id`: the calling worker's id if it belongs to `ctx`,
 * else -1.
 */
unsigned int starpu_sched_ctx_worker_get_id(unsigned int ctx);

/**
 * `starpu_sched_ctx_worker_shares_tasks_lists`: a hint for StarPU's own queues; the
 * core's policies know whether they share queues.
 */
void starpu_sched_ctx_worker_shares_tasks_lists(int _workerid, int _ctx);

/**
 * `starpu_sched_get_max_priority`.
 */
int starpu_sched_get_max_priority(void);

/**
 * `starpu_sched_get_min_priority`.
 */
int starpu_sched_get_min_priority(void);

/**
 * `starpu_sched_set_max_priority`: the global context's.
 */
int starpu_sched_set_max_priority(int prio);

/**
 * `starpu_sched_set_min_priority`: the global context's.
 */
int starpu_sched_set_min_priority(int prio);

/**
 * `starpu_sched_tree_add_workers`: the policy's `add_workers`.
 */
void starpu_sched_tree_add_workers(unsigned int sched_ctx_id,
                                   int *workerids,
                                   unsigned int nworkers);

/**
 * `starpu_sched_tree_create`: an empty tree for context `sched_ctx_id`.
 */
struct starpu_sched_tree *starpu_sched_tree_create(unsigned int sched_ctx_id);

/**
 * `starpu_sched_tree_destroy`: the tree and every component in it.
 */
void starpu_sched_tree_destroy(struct starpu_sched_tree *tree);

/**
 * `starpu_sched_tree_get`: the tree of context `sched_ctx_id` (NULL if none).
 */
struct starpu_sched_tree *starpu_sched_tree_get(unsigned int sched_ctx_id);

/**
 * `starpu_sched_tree_pop_task`: the policy's `pop_task`: the calling worker's
 * component gives a task (its own, else its parents').
 */
struct starpu_task *starpu_sched_tree_pop_task(unsigned int sched_ctx);

/**
 * `starpu_sched_tree_push_task`: the policy's `push_task`: into the root of the task's
 * context's tree. A task the root refuses waits in the tree and is handed out last.
 */
int starpu_sched_tree_push_task(struct starpu_task *task);

/**
 * `starpu_sched_tree_remove_workers`: the policy's `remove_workers`.
 */
void starpu_sched_tree_remove_workers(unsigned int sched_ctx_id,
                                      int *workerids,
                                      unsigned int nworkers);

/**
 * `starpu_sched_tree_update_workers`: each component's workers, from the leaves.
 */
void starpu_sched_tree_update_workers(struct starpu_sched_tree *t);

/**
 * `starpu_sched_tree_update_workers_in_ctx`: as `starpu_sched_tree_update_workers`.
 */
void starpu_sched_tree_update_workers_in_ctx(struct starpu_sched_tree *t);

/**
 * `starpu_shutdown`: waits for the tasks, stops the workers.
 */
void starpu_shutdown(void);

/**
 * `starpu_sleep`: seconds.
 */
void starpu_sleep(float nb_sec);

/**
 * `starpu_sycl_worker_get_count`: this build has no such workers.
 */
unsigned int starpu_sycl_worker_get_count(void);

/**
 * `starpu_syclblas_init`: prepares an accelerator library on each device of its kind; this build has
 * none, so there is nothing to prepare.
 */
void starpu_syclblas_init(void);

/**
 * `starpu_syclblas_shutdown`: prepares an accelerator library on each device of its kind; this build has
 * none, so there is nothing to prepare.
 */
void starpu_syclblas_shutdown(void);

/**
 * `starpu_tag_declare_deps_array`: tag `id` waits for the tags in `array`.
 *
 * # Safety
 * `array` holds `ndeps` tags.
 */
void starpu_tag_declare_deps_array(starpu_tag_t id, unsigned int ndeps, starpu_tag_t *array);

/**
 * `starpu_tag_get_task`: the last task submitted with tag `id`, NULL when there is none
 * (or it was released since).
 */
struct starpu_task *starpu_tag_get_task(starpu_tag_t id);

/**
 * `starpu_tag_notify_from_apps`: marks tag `id` done, releasing what waits for it.
 */
void starpu_tag_notify_from_apps(starpu_tag_t id);

/**
 * `starpu_tag_remove`.
 */
void starpu_tag_remove(starpu_tag_t id);

/**
 * `starpu_tag_restart`: the tag may be waited for again.
 */
void starpu_tag_restart(starpu_tag_t id);

/**
 * `starpu_tag_wait`.
 */
int starpu_tag_wait(starpu_tag_t id);

/**
 * `starpu_tag_wait_array`.
 *
 * # Safety
 * `ids` holds `ntags` tags.
 */
int starpu_tag_wait_array(unsigned int ntags, starpu_tag_t *ids);

/**
 * `starpu_task_clean`: releases what the task owns and forgets its submissions, so the
 * structure can be reused.
 *
 * # Safety
 * `task` is NULL or a live task not currently submitted.
 */
void starpu_task_clean(struct starpu_task *task);

/**
 * `starpu_task_create`: a task with defaults and `destroy` set, released after it ends.
 */
struct starpu_task *starpu_task_create(void);

/**
 * `starpu_task_declare_deps_array`: `task` starts only after `tasks` ended. Call it
 * before submitting `task`; the dependencies may be submitted before or after.
 *
 * # Safety
 * `tasks` holds `ndeps` live task pointers.
 */
void starpu_task_declare_deps_array(struct starpu_task *task,
                                    unsigned int ndeps,
                                    struct starpu_task **tasks);

/**
 * `starpu_task_declare_end_deps_array`: `task` does not end before `tasks` have.
 *
 * # Safety
 * `tasks` holds `ndeps` live task pointers.
 */
void starpu_task_declare_end_deps_array(struct starpu_task *task,
                                        unsigned int ndeps,
                                        struct starpu_task **tasks);

/**
 * `starpu_task_destroy`: ends the application's ownership of a task made by
 * `starpu_task_create`. On a task still running, the release happens when it ends (as
 * StarPU does for detached tasks); destroying a task twice is reported and ignored.
 *
 * # Safety
 * `task` is NULL or a task made by `starpu_task_create` (or initialised by
 * `starpu_task_init`, whose job is then freed).
 */
void starpu_task_destroy(struct starpu_task *task);

/**
 * `starpu_task_dup`: a new task (as from `starpu_task_create`) with every field of
 * `task`, never submitted. What StarPU frees with a task is copied so that each task
 * frees its own: the arrays `starpu_task_insert` allocated, and `cl_arg` when
 * `cl_arg_free` is set. Callback arguments with a `*_arg_free` flag stay the original's
 * to free (their size is unknown): the copy's flags are cleared. Profiling information
 * is not copied.
 *
 * # Safety
 * `task` is NULL or a live task.
 */
struct starpu_task *starpu_task_dup(struct starpu_task *task);

/**
 * `starpu_task_end_dep_add`: `task` ends only after `nb_deps` more `end_dep_release` calls.
 *
 * # Safety
 * `task` is a live task.
 */
void starpu_task_end_dep_add(struct starpu_task *task, int nb_deps);

/**
 * `starpu_task_end_dep_release`.
 *
 * # Safety
 * `task` is a live task.
 */
void starpu_task_end_dep_release(struct starpu_task *task);

/**
 * `starpu_task_expected_data_transfer_time`: 0, this build has one memory node (see
 * the core's `expected_transfer_time`).
 *
 * # Safety
 * `task` is NULL or a valid task.
 */
double starpu_task_expected_data_transfer_time(unsigned int memory_node, struct starpu_task *task);

/**
 * `starpu_task_expected_length`: microseconds `task` should take on `arch` with
 * implementation `nimpl`; 0 without a model, NaN when the model is not calibrated.
 *
 * # Safety
 * `task` is a valid task; `arch` NULL or valid.
 */
double starpu_task_expected_length(struct starpu_task *task,
                                   struct starpu_perfmodel_arch *arch,
                                   unsigned int nimpl);

/**
 * `starpu_task_finished`: 1 once the task's current submission has ended (callbacks
 * run, successors released), 0 before or if it was never submitted.
 *
 * # Safety
 * `task` is NULL or a live task.
 */
int starpu_task_finished(struct starpu_task *task);

/**
 * `starpu_task_footprint`: the key `task`'s timings are filed under in `model`.
 *
 * # Safety
 * `task` is a valid task; `model` and `arch` NULL or valid.
 */
uint32_t starpu_task_footprint(struct starpu_perfmodel *model,
                               struct starpu_task *task,
                               struct starpu_perfmodel_arch *_arch,
                               unsigned int nimpl);

/**
 * `starpu_task_get_current`: the task whose kernel runs on this thread.
 */
struct starpu_task *starpu_task_get_current(void);

/**
 * `starpu_task_get_current_data_node`: the memory node where buffer `i` of the task
 * running on this thread is, -1 outside a task or past its buffers.
 */
int starpu_task_get_current_data_node(unsigned int i);

/**
 * `starpu_task_get_implementation`: the implementation of the codelet chosen for the
 * task's current submission (by the policy, or by the worker that ran it); 0 before one
 * was chosen or when `task` was never submitted.
 *
 * # Safety
 * `task` is NULL or a live task.
 */
unsigned int starpu_task_get_implementation(struct starpu_task *task);

/**
 * `starpu_task_get_name`.
 *
 * # Safety
 * `task` is NULL or a live task.
 */
const char *starpu_task_get_name(struct starpu_task *task);

/**
 * `starpu_task_init`: defaults for a task the application allocated.
 *
 * # Safety
 * `task` points to writable memory for a task.
 */
void starpu_task_init(struct starpu_task *task);

/**
 * `starpu_task_nready`.
 */
int starpu_task_nready(void);

/**
 * `starpu_task_nsubmitted`.
 */
int starpu_task_nsubmitted(void);

/**
 * `starpu_task_set_destroy`: the task is freed once it ends, as if `destroy` had been set
 * before submission; a detached task that has ended already is freed now.
 *
 * # Safety
 * `task` is NULL or a task made by `starpu_task_create`, not freed yet.
 */
void starpu_task_set_destroy(struct starpu_task *task);

/**
 * `starpu_task_set_implementation`: for scheduling policies, the implementation the
 * worker will run (if it may run it; otherwise the worker picks). Refused, with a message,
 * for a task that is not submitted.
 *
 * # Safety
 * `task` is NULL or a live task.
 */
void starpu_task_set_implementation(struct starpu_task *task, unsigned int nimpl);

/**
 * `starpu_task_submit`.
 *
 * # Safety
 * `task` is NULL or a live task.
 */
int starpu_task_submit(struct starpu_task *task);

/**
 * `starpu_task_submit_to_ctx`: submits `task` to context `ctx`.
 *
 * # Safety
 * As `starpu_task_submit`.
 */
int starpu_task_submit_to_ctx(struct starpu_task *task, unsigned int ctx);

/**
 * `starpu_task_wait`: waits for a non-detached task, then destroys it if `destroy` is set.
 *
 * # Safety
 * `task` is NULL or a task.
 */
int starpu_task_wait(struct starpu_task *task);

/**
 * `starpu_task_wait_array`.
 *
 * # Safety
 * `tasks` holds `nb_tasks` live task pointers.
 */
int starpu_task_wait_array(struct starpu_task **tasks, unsigned int nb_tasks);

/**
 * `starpu_task_wait_for_all`.
 */
int starpu_task_wait_for_all(void);

/**
 * `starpu_task_wait_for_all_in_ctx`: waits until every task submitted to context `ctx`
 * has terminated. `-EINVAL` for a context that does not exist, `-EDEADLK` from a task or
 * a callback.
 */
int starpu_task_wait_for_all_in_ctx(unsigned int ctx);

/**
 * `starpu_task_wait_for_n_submitted`.
 */
int starpu_task_wait_for_n_submitted(unsigned int n);

/**
 * `starpu_task_wait_for_n_submitted_in_ctx`: waits until at most `n` tasks submitted to
 * context `ctx` remain.
 */
int starpu_task_wait_for_n_submitted_in_ctx(unsigned int ctx, unsigned int n);

/**
 * `starpu_task_wait_for_no_ready`: waits until no task waits for a worker.
 */
int starpu_task_wait_for_no_ready(void);

/**
 * `starpu_tcpip_ms_worker_get_count` (StarPU 1.4's name): this build has no such workers.
 */
unsigned int starpu_tcpip_ms_worker_get_count(void);

/**
 * `starpu_tcpip_sc_worker_get_count`: this build has no such workers.
 */
unsigned int starpu_tcpip_sc_worker_get_count(void);

/**
 * `starpu_tensor_data_register`.
 *
 * # Safety
 * `out` is writable; `ptr` holds the tensor on `home`.
 */
void starpu_tensor_data_register(starpu_data_handle_t *out,
                                 int home,
                                 uintptr_t ptr,
                                 uint32_t ldy,
                                 uint32_t ldz,
                                 uint32_t ldt,
                                 uint32_t nx,
                                 uint32_t ny,
                                 uint32_t nz,
                                 uint32_t nt,
                                 size_t elemsize);

/**
 * `starpu_timing_now`: microseconds on the monotonic clock the profiling times use.
 */
double starpu_timing_now(void);

/**
 * `starpu_timing_timespec_delay_us`.
 *
 * # Safety
 * Both pointers are valid timespecs.
 */
double starpu_timing_timespec_delay_us(const struct timespec *start, const struct timespec *end);

/**
 * `starpu_timing_timespec_to_us`.
 *
 * # Safety
 * `ts` is a valid timespec.
 */
double starpu_timing_timespec_to_us(const struct timespec *ts);

/**
 * `starpu_topology_print`: the workers and where they are bound.
 *
 * # Safety
 * `output` is a valid `FILE *`.
 */
void starpu_topology_print(FILE *output);

/**
 * `starpu_trace_user_event` (recent StarPU's name for `starpu_fxt_trace_user_event`).
 */
void starpu_trace_user_event(unsigned long code);

/**
 * `starpu_transaction_close`: the pointer is freed (tasks already submitted keep the
 * transaction alive in the core).
 *
 * # Safety
 * `p_trs` is NULL or an open transaction; it is not used afterwards.
 */
void starpu_transaction_close(struct starpu_transaction *p_trs);

/**
 * `starpu_transaction_next_epoch`.
 *
 * # Safety
 * `p_trs` is NULL or an open transaction.
 */
void starpu_transaction_next_epoch(struct starpu_transaction *p_trs, void *do_start_arg);

/**
 * `starpu_transaction_open`: NULL when the transaction cannot start.
 *
 * # Safety
 * `do_start_func`, if set, may be called with `do_start_arg` from a worker.
 */
struct starpu_transaction *starpu_transaction_open(int (*do_start_func)(void*, void*),
                                                   void *do_start_arg);

/**
 * `starpu_transfer_bandwidth`: MB/s from `src_node` to `dst_node` (NaN when unknown).
 */
double starpu_transfer_bandwidth(unsigned int src_node, unsigned int dst_node);

/**
 * `starpu_transfer_latency`: µs from `src_node` to `dst_node`.
 */
double starpu_transfer_latency(unsigned int src_node, unsigned int dst_node);

/**
 * `starpu_transfer_predict`: µs to move `size` bytes from `src_node` to `dst_node`.
 */
double starpu_transfer_predict(unsigned int src_node, unsigned int dst_node, size_t size);

/**
 * `starpu_usleep`: microseconds.
 */
void starpu_usleep(float nb_micro_sec);

/**
 * `starpu_variable_data_register`.
 *
 * # Safety
 * `out` is writable; `ptr` holds `size` bytes on `home`.
 */
void starpu_variable_data_register(starpu_data_handle_t *out, int home, uintptr_t ptr, size_t size);

/**
 * `starpu_vector_data_register`.
 *
 * # Safety
 * `out` is writable; `ptr` holds `nx * elemsize` bytes on `home`.
 */
void starpu_vector_data_register(starpu_data_handle_t *out,
                                 int home,
                                 uintptr_t ptr,
                                 uint32_t nx,
                                 size_t elemsize);

/**
 * `starpu_vector_data_register_allocsize`.
 *
 * # Safety
 * As `starpu_vector_data_register`, with `allocsize` bytes at `ptr`.
 */
void starpu_vector_data_register_allocsize(starpu_data_handle_t *out,
                                           int home,
                                           uintptr_t ptr,
                                           uint32_t nx,
                                           size_t elemsize,
                                           size_t allocsize);

/**
 * `starpu_void_data_register`.
 *
 * # Safety
 * `out` is writable.
 */
void starpu_void_data_register(starpu_data_handle_t *out);

/**
 * `starpu_wait_initialized`: init is synchronous here, so there is nothing to wait for.
 */
void starpu_wait_initialized(void);

/**
 * `starpu_wake_worker_locked`.
 */
int starpu_wake_worker_locked(int workerid);

/**
 * `starpu_wake_worker_no_relax`: wakes `workerid` if it sleeps; 1 if it did.
 */
int starpu_wake_worker_no_relax(int workerid);

/**
 * `starpu_wake_worker_relax`.
 */
int starpu_wake_worker_relax(int workerid);

/**
 * `starpu_wake_worker_relax_light`.
 */
int starpu_wake_worker_relax_light(int workerid);

/**
 * `starpu_worker_can_execute_task`: 1 if `workerid` may run implementation `nimpl` of
 * the submitted `task`.
 *
 * # Safety
 * `task` is a submitted task.
 */
int starpu_worker_can_execute_task(unsigned int workerid,
                                   struct starpu_task *task,
                                   unsigned int nimpl);

/**
 * `starpu_worker_can_execute_task_first_impl`: 1 if some implementation fits; `nimpl`
 * gets the first.
 *
 * # Safety
 * As `starpu_worker_can_execute_task_impl`.
 */
int starpu_worker_can_execute_task_first_impl(unsigned int workerid,
                                              struct starpu_task *task,
                                              unsigned int *nimpl);

/**
 * `starpu_worker_can_execute_task_impl`: 1 if some implementation fits; `impl_mask`
 * gets one bit per implementation that does.
 *
 * # Safety
 * `task` is a submitted task; `impl_mask` is NULL or valid.
 */
int starpu_worker_can_execute_task_impl(unsigned int workerid,
                                        struct starpu_task *task,
                                        unsigned int *impl_mask);

/**
 * `starpu_worker_display_names`: one line per worker of `type`.
 *
 * # Safety
 * `output` is a valid `FILE *`.
 */
void starpu_worker_display_names(FILE *output, unsigned int kind);

/**
 * `starpu_worker_get_bindid`: the logical CPU the worker is bound to (-1 when unbound).
 */
int starpu_worker_get_bindid(int id);

/**
 * `starpu_worker_get_by_devid`: the worker of device `devid` of `kind` (CPU workers
 * have the device id of their rank).
 */
int starpu_worker_get_by_devid(unsigned int kind, int devid);

/**
 * `starpu_worker_get_by_type`: the `num`-th worker of that type, -1 if none.
 */
int starpu_worker_get_by_type(unsigned int kind, int num);

/**
 * `starpu_worker_get_count`.
 */
unsigned int starpu_worker_get_count(void);

/**
 * `starpu_worker_get_count_by_type`: -EINVAL for an unknown type.
 */
int starpu_worker_get_count_by_type(unsigned int kind);

/**
 * `starpu_worker_get_devid`: the device number of worker `id` within its kind.
 */
int starpu_worker_get_devid(int id);

/**
 * `starpu_worker_get_id`: this thread's worker, -1 outside workers.
 */
int starpu_worker_get_id(void);

/**
 * `starpu_worker_get_id_check`: like `starpu_worker_get_id`, for code that must run on a
 * worker (reports and returns -1 otherwise).
 */
unsigned int starpu_worker_get_id_check(void);

/**
 * `starpu_worker_get_ids_by_type`: fills `workerids` (at most `maxsize`), returns how many.
 *
 * # Safety
 * `workerids` has room for `maxsize` ints.
 */
unsigned int starpu_worker_get_ids_by_type(unsigned int kind, int *workerids, int maxsize);

/**
 * `starpu_worker_get_local_memory_node`: this worker's node, main RAM elsewhere.
 */
unsigned int starpu_worker_get_local_memory_node(void);

/**
 * `starpu_worker_get_memory_node`.
 */
unsigned int starpu_worker_get_memory_node(unsigned int id);

/**
 * `starpu_worker_get_name`: "CPU `n`".
 *
 * # Safety
 * `dst` has room for `maxlen` bytes.
 */
void starpu_worker_get_name(int id, char *dst, size_t maxlen);

/**
 * `starpu_worker_get_perf_archtype`: the architecture of worker `workerid`.
 */
struct starpu_perfmodel_arch *starpu_worker_get_perf_archtype(int workerid,
                                                              unsigned int _sched_ctx_id);

/**
 * `starpu_worker_get_sched_condition`: a mutex and condition variable per worker, for
 * policies that lock around their queues. Workers do not sleep on them here (they park
 * and are woken by the runtime or `starpu_wake_worker_*`).
 *
 * # Safety
 * `mutex` and `cond` are NULL or valid pointers.
 */
void starpu_worker_get_sched_condition(int workerid,
                                       pthread_mutex_t **mutex,
                                       pthread_cond_t **cond);

/**
 * `starpu_worker_get_type`: the kind of worker `id` (`STARPU_ANY_WORKER` if none).
 */
unsigned int starpu_worker_get_type(int id);

/**
 * `starpu_worker_get_type_as_string`.
 */
const char *starpu_worker_get_type_as_string(unsigned int kind);

/**
 * `starpu_worker_is_blocked_in_parallel`: 1 while worker `workerid` is held for a
 * parallel section (a parallel worker's team or `starpu_sched_ctx_exec_parallel_code`)
 * and takes no task of its own, else 0 (also 0, with a message, for a bad id).
 */
unsigned int starpu_worker_is_blocked_in_parallel(int workerid);

/**
 * `starpu_worker_is_combined_worker`: whether `id` names a combined worker.
 */
int starpu_worker_is_combined_worker(int id);

/**
 * `starpu_worker_is_slave_somewhere` (StarPU 1.4's name): 1 when worker `workerid` is a
 * member, other than the master, of a master-only context (a parallel worker's
 * context), else 0.
 */
unsigned int starpu_worker_is_slave_somewhere(int workerid);

#endif  /* STARPU_GENERATED_H */
/* ---- end of generated part ---- */

/* ==== Utilities (starpu_util.h) ==== */
#define STARPU_UNLIKELY(expr) (__builtin_expect(!!(expr), 0))
#define STARPU_LIKELY(expr) (__builtin_expect(!!(expr), 1))
#define STARPU_ATTRIBUTE_UNUSED __attribute__((unused))
#define STARPU_ATTRIBUTE_NORETURN __attribute__((noreturn))
#define STARPU_ATTRIBUTE_INTERNAL __attribute__((visibility("internal")))
#define STARPU_ATTRIBUTE_MALLOC __attribute__((malloc))
#define STARPU_ATTRIBUTE_WARN_UNUSED_RESULT __attribute__((warn_unused_result))
#define STARPU_ATTRIBUTE_PURE __attribute__((pure))
#define STARPU_ATTRIBUTE_ALIGNED(size) __attribute__((aligned(size)))
#define STARPU_ATTRIBUTE_FORMAT(type, string, first) __attribute__((format(type, string, first)))
#define STARPU_DEPRECATED __attribute__((__deprecated__))
#define STARPU_WARN_UNUSED_RESULT __attribute__((__warn_unused_result__))
#define STARPU_INLINE static inline
#define STARPU_POISON_PTR ((void *)0xdeadbeef)

#define STARPU_MIN(a, b) ((a) < (b) ? (a) : (b))
#define STARPU_MAX(a, b) ((a) < (b) ? (b) : (a))

#define STARPU_ABORT()                                                              \
	do {                                                                        \
		fprintf(stderr, "[starpu][abort][%s()@%s:%d]\n", __func__, __FILE__, __LINE__); \
		abort();                                                            \
	} while (0)
#define STARPU_ABORT_MSG(msg, ...)                                                  \
	do {                                                                        \
		fprintf(stderr, "[starpu][abort][%s()@%s:%d] " msg "\n", __func__, __FILE__, __LINE__, ##__VA_ARGS__); \
		abort();                                                            \
	} while (0)
#define STARPU_ASSERT(x) assert(x)
#define STARPU_ASSERT_MSG(x, msg, ...)                                              \
	do {                                                                        \
		if (STARPU_UNLIKELY(!(x))) {                                        \
			fprintf(stderr, "\n[starpu][%s][assert failure] " msg "\n\n", __func__, ##__VA_ARGS__); \
			assert(x);                                                  \
		}                                                                   \
	} while (0)
#define STARPU_ASSERT_ACCESSIBLE(ptr) ((void)(ptr))

/* Braces, not do/while, like StarPU: callers may omit the final semicolon. */
#define STARPU_CHECK_RETURN_VALUE(err, message, ...)                               \
	{                                                                           \
		if (STARPU_UNLIKELY((err) != 0)) {                                  \
			fprintf(stderr, "[starpu] Unexpected value: <%d:%s> returned for <" message ">\n", \
				(int)(err), strerror(-(err)), ##__VA_ARGS__);       \
			STARPU_ABORT();                                             \
		}                                                                   \
	}
#define STARPU_CHECK_RETURN_VALUE_IS(err, value, message, ...)                     \
	{                                                                           \
		if (STARPU_UNLIKELY((err) != (value))) {                            \
			fprintf(stderr, "[starpu] Unexpected value: <%d:%s> returned for <" message ">\n", \
				(int)(err), strerror(-(err)), ##__VA_ARGS__);       \
			STARPU_ABORT();                                             \
		}                                                                   \
	}

#define STARPU_ATOMIC_ADD(ptr, value) (__sync_fetch_and_add((ptr), (value)) + (value))
#define STARPU_ATOMIC_ADDL(ptr, value) STARPU_ATOMIC_ADD(ptr, value)
#define STARPU_ATOMIC_OR(ptr, value) (__sync_fetch_and_or((ptr), (value)))
#define STARPU_ATOMIC_ORL(ptr, value) STARPU_ATOMIC_OR(ptr, value)
#define STARPU_BOOL_COMPARE_AND_SWAP(ptr, old, value) (__sync_bool_compare_and_swap((ptr), (old), (value)))
#define STARPU_VAL_COMPARE_AND_SWAP(ptr, old, value) (__sync_val_compare_and_swap((ptr), (old), (value)))
#define STARPU_SYNCHRONIZE() __sync_synchronize()
#define STARPU_RMB() __sync_synchronize()
#define STARPU_WMB() __sync_synchronize()

/* ==== Random numbers (starpu_rand.h) ==== */
typedef int starpu_drand48_data;
#define starpu_seed(seed) srand48(seed)
#define starpu_srand48(seed) srand48(seed)
#define starpu_drand48() drand48()
#define starpu_lrand48() lrand48()
#define starpu_erand48(xsubi) erand48(xsubi)
#define starpu_srand48_r(seed, buffer) srand48(seed)
#define starpu_erand48_r(xsubi, buffer, result) do { (void)(buffer); *(result) = erand48(xsubi); } while (0)

/* ==== Threads (starpu_thread.h, starpu_thread_util.h): plain pthreads ==== */
typedef pthread_t starpu_pthread_t;
typedef pthread_attr_t starpu_pthread_attr_t;
typedef pthread_mutex_t starpu_pthread_mutex_t;
typedef pthread_mutexattr_t starpu_pthread_mutexattr_t;
typedef pthread_cond_t starpu_pthread_cond_t;
typedef pthread_condattr_t starpu_pthread_condattr_t;
typedef pthread_key_t starpu_pthread_key_t;
typedef pthread_rwlock_t starpu_pthread_rwlock_t;
typedef pthread_barrier_t starpu_pthread_barrier_t;
typedef pthread_spinlock_t starpu_pthread_spinlock_t;
#define starpu_pthread_create pthread_create
#define starpu_pthread_join pthread_join
#define starpu_pthread_exit pthread_exit
#define starpu_pthread_self pthread_self
#define starpu_pthread_mutex_init pthread_mutex_init
#define starpu_pthread_mutex_destroy pthread_mutex_destroy
#define starpu_pthread_mutex_lock pthread_mutex_lock
#define starpu_pthread_mutex_unlock pthread_mutex_unlock
#define starpu_pthread_mutex_trylock pthread_mutex_trylock
#define starpu_pthread_cond_init pthread_cond_init
#define starpu_pthread_cond_destroy pthread_cond_destroy
#define starpu_pthread_cond_signal pthread_cond_signal
#define starpu_pthread_cond_broadcast pthread_cond_broadcast
#define starpu_pthread_cond_wait pthread_cond_wait
#define starpu_pthread_key_create pthread_key_create
#define starpu_pthread_key_delete pthread_key_delete
#define starpu_pthread_setspecific pthread_setspecific
#define starpu_pthread_getspecific pthread_getspecific
#define starpu_pthread_barrier_init pthread_barrier_init
#define starpu_pthread_barrier_wait pthread_barrier_wait
#define starpu_pthread_barrier_destroy pthread_barrier_destroy
#define STARPU_PTHREAD_MUTEX_INITIALIZER PTHREAD_MUTEX_INITIALIZER
#define STARPU_PTHREAD_COND_INITIALIZER PTHREAD_COND_INITIALIZER

#define _STARPU_PTHREAD_CHECK(call, what)                                           \
	do {                                                                        \
		int _starpu_p_ret = (call);                                         \
		if (STARPU_UNLIKELY(_starpu_p_ret != 0)) {                          \
			fprintf(stderr, "[starpu] %s:%d %s: %s\n", __FILE__, __LINE__, what, strerror(_starpu_p_ret)); \
			STARPU_ABORT();                                             \
		}                                                                   \
	} while (0)
#define STARPU_PTHREAD_CREATE(thread, attr, routine, arg) _STARPU_PTHREAD_CHECK(pthread_create(thread, attr, routine, arg), "pthread_create")
#define STARPU_PTHREAD_CREATE_ON(name, thread, attr, routine, arg, where) STARPU_PTHREAD_CREATE(thread, attr, routine, arg)
#define STARPU_PTHREAD_JOIN(thread, retval) _STARPU_PTHREAD_CHECK(pthread_join(thread, retval), "pthread_join")
#define STARPU_PTHREAD_MUTEX_INIT(mutex, attr) _STARPU_PTHREAD_CHECK(pthread_mutex_init(mutex, attr), "pthread_mutex_init")
#define STARPU_PTHREAD_MUTEX_DESTROY(mutex) _STARPU_PTHREAD_CHECK(pthread_mutex_destroy(mutex), "pthread_mutex_destroy")
#define STARPU_PTHREAD_MUTEX_LOCK(mutex) _STARPU_PTHREAD_CHECK(pthread_mutex_lock(mutex), "pthread_mutex_lock")
#define STARPU_PTHREAD_MUTEX_UNLOCK(mutex) _STARPU_PTHREAD_CHECK(pthread_mutex_unlock(mutex), "pthread_mutex_unlock")
#define STARPU_PTHREAD_COND_INIT(cond, attr) _STARPU_PTHREAD_CHECK(pthread_cond_init(cond, attr), "pthread_cond_init")
#define STARPU_PTHREAD_COND_DESTROY(cond) _STARPU_PTHREAD_CHECK(pthread_cond_destroy(cond), "pthread_cond_destroy")
#define STARPU_PTHREAD_COND_SIGNAL(cond) _STARPU_PTHREAD_CHECK(pthread_cond_signal(cond), "pthread_cond_signal")
#define STARPU_PTHREAD_COND_BROADCAST(cond) _STARPU_PTHREAD_CHECK(pthread_cond_broadcast(cond), "pthread_cond_broadcast")
#define STARPU_PTHREAD_COND_WAIT(cond, mutex) _STARPU_PTHREAD_CHECK(pthread_cond_wait(cond, mutex), "pthread_cond_wait")
#define STARPU_PTHREAD_KEY_CREATE(key, destr) _STARPU_PTHREAD_CHECK(pthread_key_create(key, destr), "pthread_key_create")
#define STARPU_PTHREAD_KEY_DELETE(key) _STARPU_PTHREAD_CHECK(pthread_key_delete(key), "pthread_key_delete")
#define STARPU_PTHREAD_SETSPECIFIC(key, ptr) _STARPU_PTHREAD_CHECK(pthread_setspecific(key, ptr), "pthread_setspecific")
#define STARPU_PTHREAD_GETSPECIFIC(key) pthread_getspecific(key)
#define STARPU_PTHREAD_BARRIER_INIT(barrier, attr, count) _STARPU_PTHREAD_CHECK(pthread_barrier_init(barrier, attr, count), "pthread_barrier_init")
#define STARPU_PTHREAD_BARRIER_DESTROY(barrier) _STARPU_PTHREAD_CHECK(pthread_barrier_destroy(barrier), "pthread_barrier_destroy")
#define STARPU_PTHREAD_BARRIER_WAIT(barrier) do { int _r = pthread_barrier_wait(barrier); if (_r != 0 && _r != PTHREAD_BARRIER_SERIAL_THREAD) STARPU_ABORT(); } while (0)

/* ==== Priorities (starpu_sched_ctx.h) ==== */
#define STARPU_MIN_PRIO (starpu_sched_get_min_priority())
#define STARPU_MAX_PRIO (starpu_sched_get_max_priority())
/* Options follow the name as KEY, value pairs ending with 0 (STARPU_SCHED_CTX_*). */
unsigned starpu_sched_ctx_create(int *workerids_ctx, int nworkers_ctx, const char *sched_ctx_name, ...);

/* ==== Data interfaces: accessors on the description a kernel receives ==== */
#define STARPU_VARIABLE_GET_PTR(interface) (((struct starpu_variable_interface *)(interface))->ptr)
#define STARPU_VARIABLE_GET_ELEMSIZE(interface) (((struct starpu_variable_interface *)(interface))->elemsize)
#define STARPU_VARIABLE_GET_DEV_HANDLE(interface) (((struct starpu_variable_interface *)(interface))->dev_handle)
#define STARPU_VARIABLE_GET_OFFSET(interface) (((struct starpu_variable_interface *)(interface))->offset)

#define STARPU_MULTIFORMAT_GET_CPU_PTR(interface) (((struct starpu_multiformat_interface *)(interface))->cpu_ptr)
#define STARPU_MULTIFORMAT_GET_CUDA_PTR(interface) (((struct starpu_multiformat_interface *)(interface))->cuda_ptr)
#define STARPU_MULTIFORMAT_GET_OPENCL_PTR(interface) (((struct starpu_multiformat_interface *)(interface))->opencl_ptr)
#define STARPU_MULTIFORMAT_GET_NX(interface) (((struct starpu_multiformat_interface *)(interface))->nx)
#define STARPU_VECTOR_GET_PTR(interface) (((struct starpu_vector_interface *)(interface))->ptr)
#define STARPU_VECTOR_GET_DEV_HANDLE(interface) (((struct starpu_vector_interface *)(interface))->dev_handle)
#define STARPU_VECTOR_GET_OFFSET(interface) (((struct starpu_vector_interface *)(interface))->offset)
#define STARPU_VECTOR_GET_NX(interface) (((struct starpu_vector_interface *)(interface))->nx)
#define STARPU_VECTOR_GET_ELEMSIZE(interface) (((struct starpu_vector_interface *)(interface))->elemsize)
#define STARPU_VECTOR_GET_ALLOCSIZE(interface) (((struct starpu_vector_interface *)(interface))->allocsize)
#define STARPU_VECTOR_GET_SLICE_BASE(interface) (((struct starpu_vector_interface *)(interface))->slice_base)

#define STARPU_MATRIX_GET_PTR(interface) (((struct starpu_matrix_interface *)(interface))->ptr)
#define STARPU_MATRIX_GET_DEV_HANDLE(interface) (((struct starpu_matrix_interface *)(interface))->dev_handle)
#define STARPU_MATRIX_GET_OFFSET(interface) (((struct starpu_matrix_interface *)(interface))->offset)
#define STARPU_MATRIX_GET_NX(interface) (((struct starpu_matrix_interface *)(interface))->nx)
#define STARPU_MATRIX_GET_NY(interface) (((struct starpu_matrix_interface *)(interface))->ny)
#define STARPU_MATRIX_GET_LD(interface) (((struct starpu_matrix_interface *)(interface))->ld)
#define STARPU_MATRIX_GET_ELEMSIZE(interface) (((struct starpu_matrix_interface *)(interface))->elemsize)
#define STARPU_MATRIX_GET_ALLOCSIZE(interface) (((struct starpu_matrix_interface *)(interface))->allocsize)

#define STARPU_BLOCK_GET_PTR(interface) (((struct starpu_block_interface *)(interface))->ptr)
#define STARPU_BLOCK_GET_DEV_HANDLE(interface) (((struct starpu_block_interface *)(interface))->dev_handle)
#define STARPU_BLOCK_GET_OFFSET(interface) (((struct starpu_block_interface *)(interface))->offset)
#define STARPU_BLOCK_GET_NX(interface) (((struct starpu_block_interface *)(interface))->nx)
#define STARPU_BLOCK_GET_NY(interface) (((struct starpu_block_interface *)(interface))->ny)
#define STARPU_BLOCK_GET_NZ(interface) (((struct starpu_block_interface *)(interface))->nz)
#define STARPU_BLOCK_GET_LDY(interface) (((struct starpu_block_interface *)(interface))->ldy)
#define STARPU_BLOCK_GET_LDZ(interface) (((struct starpu_block_interface *)(interface))->ldz)
#define STARPU_BLOCK_GET_ELEMSIZE(interface) (((struct starpu_block_interface *)(interface))->elemsize)

#define STARPU_TENSOR_GET_PTR(interface) (((struct starpu_tensor_interface *)(interface))->ptr)
#define STARPU_TENSOR_GET_DEV_HANDLE(interface) (((struct starpu_tensor_interface *)(interface))->dev_handle)
#define STARPU_TENSOR_GET_OFFSET(interface) (((struct starpu_tensor_interface *)(interface))->offset)
#define STARPU_TENSOR_GET_NX(interface) (((struct starpu_tensor_interface *)(interface))->nx)
#define STARPU_TENSOR_GET_NY(interface) (((struct starpu_tensor_interface *)(interface))->ny)
#define STARPU_TENSOR_GET_NZ(interface) (((struct starpu_tensor_interface *)(interface))->nz)
#define STARPU_TENSOR_GET_NT(interface) (((struct starpu_tensor_interface *)(interface))->nt)
#define STARPU_TENSOR_GET_LDY(interface) (((struct starpu_tensor_interface *)(interface))->ldy)
#define STARPU_TENSOR_GET_LDZ(interface) (((struct starpu_tensor_interface *)(interface))->ldz)
#define STARPU_TENSOR_GET_LDT(interface) (((struct starpu_tensor_interface *)(interface))->ldt)
#define STARPU_TENSOR_GET_ELEMSIZE(interface) (((struct starpu_tensor_interface *)(interface))->elemsize)

#define STARPU_NDIM_GET_PTR(interface) (((struct starpu_ndim_interface *)(interface))->ptr)
#define STARPU_NDIM_GET_DEV_HANDLE(interface) (((struct starpu_ndim_interface *)(interface))->dev_handle)
#define STARPU_NDIM_GET_OFFSET(interface) (((struct starpu_ndim_interface *)(interface))->offset)
#define STARPU_NDIM_GET_NN(interface) (((struct starpu_ndim_interface *)(interface))->nn)
#define STARPU_NDIM_GET_LDN(interface) (((struct starpu_ndim_interface *)(interface))->ldn)
#define STARPU_NDIM_GET_NDIM(interface) (((struct starpu_ndim_interface *)(interface))->ndim)
#define STARPU_NDIM_GET_ELEMSIZE(interface) (((struct starpu_ndim_interface *)(interface))->elemsize)

#define STARPU_CSR_GET_NNZ(interface) (((struct starpu_csr_interface *)(interface))->nnz)
#define STARPU_CSR_GET_NROW(interface) (((struct starpu_csr_interface *)(interface))->nrow)
#define STARPU_CSR_GET_NZVAL(interface) (((struct starpu_csr_interface *)(interface))->nzval)
#define STARPU_CSR_GET_NZVAL_DEV_HANDLE(interface) (((struct starpu_csr_interface *)(interface))->nzval)
#define STARPU_CSR_GET_COLIND(interface) (((struct starpu_csr_interface *)(interface))->colind)
#define STARPU_CSR_GET_COLIND_DEV_HANDLE(interface) ((uintptr_t)((struct starpu_csr_interface *)(interface))->colind)
#define STARPU_CSR_GET_ROWPTR(interface) (((struct starpu_csr_interface *)(interface))->rowptr)
#define STARPU_CSR_GET_ROWPTR_DEV_HANDLE(interface) ((uintptr_t)((struct starpu_csr_interface *)(interface))->rowptr)
#define STARPU_CSR_GET_OFFSET 0
#define STARPU_CSR_GET_FIRSTENTRY(interface) (((struct starpu_csr_interface *)(interface))->firstentry)
#define STARPU_CSR_GET_ELEMSIZE(interface) (((struct starpu_csr_interface *)(interface))->elemsize)

#define STARPU_BCSR_GET_NNZ(interface) (((struct starpu_bcsr_interface *)(interface))->nnz)
#define STARPU_BCSR_GET_NROW(interface) (((struct starpu_bcsr_interface *)(interface))->nrow)
#define STARPU_BCSR_GET_NZVAL(interface) (((struct starpu_bcsr_interface *)(interface))->nzval)
#define STARPU_BCSR_GET_NZVAL_DEV_HANDLE(interface) (((struct starpu_bcsr_interface *)(interface))->nzval)
#define STARPU_BCSR_GET_COLIND(interface) (((struct starpu_bcsr_interface *)(interface))->colind)
#define STARPU_BCSR_GET_COLIND_DEV_HANDLE(interface) ((uintptr_t)((struct starpu_bcsr_interface *)(interface))->colind)
#define STARPU_BCSR_GET_ROWPTR(interface) (((struct starpu_bcsr_interface *)(interface))->rowptr)
#define STARPU_BCSR_GET_ROWPTR_DEV_HANDLE(interface) ((uintptr_t)((struct starpu_bcsr_interface *)(interface))->rowptr)
#define STARPU_BCSR_GET_OFFSET 0
#define STARPU_BCSR_GET_FIRSTENTRY(interface) (((struct starpu_bcsr_interface *)(interface))->firstentry)
#define STARPU_BCSR_GET_R(interface) (((struct starpu_bcsr_interface *)(interface))->r)
#define STARPU_BCSR_GET_C(interface) (((struct starpu_bcsr_interface *)(interface))->c)
#define STARPU_BCSR_GET_ELEMSIZE(interface) (((struct starpu_bcsr_interface *)(interface))->elemsize)

#define STARPU_COO_GET_COLUMNS(interface) (((struct starpu_coo_interface *)(interface))->columns)
#define STARPU_COO_GET_COLUMNS_DEV_HANDLE(interface) ((uintptr_t)((struct starpu_coo_interface *)(interface))->columns)
#define STARPU_COO_GET_ROWS(interface) (((struct starpu_coo_interface *)(interface))->rows)
#define STARPU_COO_GET_ROWS_DEV_HANDLE(interface) ((uintptr_t)((struct starpu_coo_interface *)(interface))->rows)
#define STARPU_COO_GET_VALUES(interface) (((struct starpu_coo_interface *)(interface))->values)
#define STARPU_COO_GET_VALUES_DEV_HANDLE(interface) (((struct starpu_coo_interface *)(interface))->values)
#define STARPU_COO_GET_OFFSET 0
#define STARPU_COO_GET_NX(interface) (((struct starpu_coo_interface *)(interface))->nx)
#define STARPU_COO_GET_NY(interface) (((struct starpu_coo_interface *)(interface))->ny)
#define STARPU_COO_GET_NVALUES(interface) (((struct starpu_coo_interface *)(interface))->n_values)
#define STARPU_COO_GET_ELEMSIZE(interface) (((struct starpu_coo_interface *)(interface))->elemsize)

/* Getters of the built-in interfaces (bindings/c/src/interfaces.rs defines them through a
 * macro, which cbindgen does not expand). */
size_t starpu_variable_get_elemsize(starpu_data_handle_t handle);
uintptr_t starpu_variable_get_local_ptr(starpu_data_handle_t handle);
uint32_t starpu_vector_get_nx(starpu_data_handle_t handle);
size_t starpu_vector_get_elemsize(starpu_data_handle_t handle);
size_t starpu_vector_get_allocsize(starpu_data_handle_t handle);
uintptr_t starpu_vector_get_local_ptr(starpu_data_handle_t handle);
uint32_t starpu_matrix_get_nx(starpu_data_handle_t handle);
uint32_t starpu_matrix_get_ny(starpu_data_handle_t handle);
uint32_t starpu_matrix_get_local_ld(starpu_data_handle_t handle);
uintptr_t starpu_matrix_get_local_ptr(starpu_data_handle_t handle);
size_t starpu_matrix_get_elemsize(starpu_data_handle_t handle);
size_t starpu_matrix_get_allocsize(starpu_data_handle_t handle);
uint32_t starpu_block_get_nx(starpu_data_handle_t handle);
uint32_t starpu_block_get_ny(starpu_data_handle_t handle);
uint32_t starpu_block_get_nz(starpu_data_handle_t handle);
uint32_t starpu_block_get_local_ldy(starpu_data_handle_t handle);
uint32_t starpu_block_get_local_ldz(starpu_data_handle_t handle);
uintptr_t starpu_block_get_local_ptr(starpu_data_handle_t handle);
size_t starpu_block_get_elemsize(starpu_data_handle_t handle);
uint32_t starpu_tensor_get_nx(starpu_data_handle_t handle);
uint32_t starpu_tensor_get_ny(starpu_data_handle_t handle);
uint32_t starpu_tensor_get_nz(starpu_data_handle_t handle);
uint32_t starpu_tensor_get_nt(starpu_data_handle_t handle);
uint32_t starpu_tensor_get_local_ldy(starpu_data_handle_t handle);
uint32_t starpu_tensor_get_local_ldz(starpu_data_handle_t handle);
uint32_t starpu_tensor_get_local_ldt(starpu_data_handle_t handle);
uintptr_t starpu_tensor_get_local_ptr(starpu_data_handle_t handle);
size_t starpu_tensor_get_elemsize(starpu_data_handle_t handle);
uint32_t *starpu_ndim_get_nn(starpu_data_handle_t handle);
uint32_t *starpu_ndim_get_local_ldn(starpu_data_handle_t handle);
size_t starpu_ndim_get_ndim(starpu_data_handle_t handle);
uintptr_t starpu_ndim_get_local_ptr(starpu_data_handle_t handle);
size_t starpu_ndim_get_elemsize(starpu_data_handle_t handle);
uint32_t starpu_csr_get_nnz(starpu_data_handle_t handle);
uint32_t starpu_csr_get_nrow(starpu_data_handle_t handle);
uint32_t starpu_csr_get_firstentry(starpu_data_handle_t handle);
uintptr_t starpu_csr_get_local_nzval(starpu_data_handle_t handle);
uint32_t *starpu_csr_get_local_colind(starpu_data_handle_t handle);
uint32_t *starpu_csr_get_local_rowptr(starpu_data_handle_t handle);
size_t starpu_csr_get_elemsize(starpu_data_handle_t handle);
uint32_t starpu_bcsr_get_nnz(starpu_data_handle_t handle);
uint32_t starpu_bcsr_get_nrow(starpu_data_handle_t handle);
uint32_t starpu_bcsr_get_firstentry(starpu_data_handle_t handle);
uintptr_t starpu_bcsr_get_local_nzval(starpu_data_handle_t handle);
uint32_t *starpu_bcsr_get_local_colind(starpu_data_handle_t handle);
uint32_t *starpu_bcsr_get_local_rowptr(starpu_data_handle_t handle);
uint32_t starpu_bcsr_get_r(starpu_data_handle_t handle);
uint32_t starpu_bcsr_get_c(starpu_data_handle_t handle);
size_t starpu_bcsr_get_elemsize(starpu_data_handle_t handle);

/* Buffers of a registered dense data on one node (bindings/c/src/interfaces.rs defines them
 * through a macro, which cbindgen does not expand). */
void starpu_variable_ptr_register(starpu_data_handle_t handle, unsigned node, uintptr_t ptr, uintptr_t dev_handle, size_t offset);
void starpu_vector_ptr_register(starpu_data_handle_t handle, unsigned node, uintptr_t ptr, uintptr_t dev_handle, size_t offset);
void starpu_matrix_ptr_register(starpu_data_handle_t handle, unsigned node, uintptr_t ptr, uintptr_t dev_handle, size_t offset, uint32_t ld);
void starpu_block_ptr_register(starpu_data_handle_t handle, unsigned node, uintptr_t ptr, uintptr_t dev_handle, size_t offset, uint32_t ldy, uint32_t ldz);
void starpu_tensor_ptr_register(starpu_data_handle_t handle, unsigned node, uintptr_t ptr, uintptr_t dev_handle, size_t offset, uint32_t ldy, uint32_t ldz, uint32_t ldt);

/* Typed reads of a performance counter sample (bindings/c/src/perf_counters.rs defines them
 * through a macro, which cbindgen does not expand). */
int32_t starpu_perf_counter_sample_get_int32_value(struct starpu_perf_counter_sample *sample, int counter_id);
int64_t starpu_perf_counter_sample_get_int64_value(struct starpu_perf_counter_sample *sample, int counter_id);
float starpu_perf_counter_sample_get_float_value(struct starpu_perf_counter_sample *sample, int counter_id);
double starpu_perf_counter_sample_get_double_value(struct starpu_perf_counter_sample *sample, int counter_id);

/* ==== Tasks: buffers and modes, whether inline or in the dyn_ arrays ==== */
#define STARPU_TASK_GET_NBUFFERS(task) \
	((unsigned)((task)->cl->nbuffers == STARPU_VARIABLE_NBUFFERS ? ((task)->nbuffers) : ((task)->cl->nbuffers)))
#define STARPU_TASK_GET_HANDLE(task, i) (((task)->dyn_handles) ? (task)->dyn_handles[i] : (task)->handles[i])
#define STARPU_TASK_GET_HANDLES(task) (((task)->dyn_handles) ? (task)->dyn_handles : (task)->handles)
#define STARPU_TASK_SET_HANDLE(task, handle, i)                                    \
	do {                                                                        \
		if ((task)->dyn_handles) (task)->dyn_handles[i] = handle;           \
		else (task)->handles[i] = handle;                                   \
	} while (0)
#define STARPU_CODELET_GET_MODE(codelet, i) (((codelet)->dyn_modes) ? (codelet)->dyn_modes[i] : (codelet)->modes[i])
#define STARPU_CODELET_SET_MODE(codelet, mode, i)                                  \
	do {                                                                        \
		if ((codelet)->dyn_modes) (codelet)->dyn_modes[i] = mode;           \
		else (codelet)->modes[i] = mode;                                    \
	} while (0)
#define STARPU_TASK_GET_MODE(task, i)                                              \
	((((task)->cl->nbuffers == STARPU_VARIABLE_NBUFFERS) || ((task)->dyn_modes && !(task)->cl->dyn_modes)) \
	 ? (((task)->dyn_modes) ? (task)->dyn_modes[i] : (task)->modes[i])        \
	 : STARPU_CODELET_GET_MODE((task)->cl, i))
#define STARPU_TASK_SET_MODE(task, mode, i)                                        \
	do {                                                                        \
		if ((task)->dyn_modes) (task)->dyn_modes[i] = mode;                 \
		else (task)->modes[i] = mode;                                       \
	} while (0)
#define STARPU_CODELET_GET_NODE(codelet, i) (((codelet)->dyn_nodes) ? (codelet)->dyn_nodes[i] : (codelet)->nodes[i])

/* starpu_task_submit may also be called through this macro in StarPU 1.4 programs. */
#define starpu_task_submit_nodeps(task) starpu_task_submit(task)

/* ==== Variadic entry points (C walkers of the argument lists) ==== */
int starpu_task_insert(struct starpu_codelet *cl, ...);
int starpu_insert_task(struct starpu_codelet *cl, ...);
struct starpu_task *starpu_task_build(struct starpu_codelet *cl, ...);
int starpu_task_set(struct starpu_task *task, struct starpu_codelet *cl, ...);
void starpu_codelet_pack_args(void **arg_buffer, size_t *arg_buffer_size, ...);
void starpu_codelet_unpack_args(void *cl_arg, ...);
starpu_data_handle_t starpu_data_get_sub_data(starpu_data_handle_t root_data, unsigned depth, ...);
void starpu_data_map_filters(starpu_data_handle_t root_data, unsigned nfilters, ...);
void starpu_tag_declare_deps(starpu_tag_t id, unsigned ndeps, ...);
void starpu_task_declare_deps(struct starpu_task *task, unsigned ndeps, ...);
void starpu_task_declare_end_deps(struct starpu_task *task, unsigned ndeps, ...);
void starpu_data_set_coordinates(starpu_data_handle_t handle, unsigned dimensions, ...);
typedef double (*starpu_perfmodel_per_arch_cost_function)(struct starpu_task *task, struct starpu_perfmodel_arch *arch, unsigned nimpl);
typedef size_t (*starpu_perfmodel_per_arch_size_base)(struct starpu_task *task, struct starpu_perfmodel_arch *arch, unsigned nimpl);
int starpu_perfmodel_set_per_devices_cost_function(struct starpu_perfmodel *model, int impl, starpu_perfmodel_per_arch_cost_function func, ...);
struct starpu_perfmodel_per_arch *starpu_perfmodel_get_model_per_devices(struct starpu_perfmodel *model, int impl, ...);

/* ==== Standard filter functions (starpu_data_filters.h) ==== */
/* bindings/c/src/filters/standard.rs defines them through macros, which cbindgen does not
 * expand. Each fills child `id` of `nparts` from the interface description `father`. */
void starpu_vector_filter_block(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* `n` contiguous, nearly equal parts. */
void starpu_vector_filter_block_shadow(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts overlapping by `(uintptr_t) filter_arg_ptr` elements on each side. */
void starpu_vector_filter_list_long(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts of the `long` lengths `filter_arg_ptr` points to. */
void starpu_vector_filter_list(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts of the `uint32_t` lengths `filter_arg_ptr` points to. */
void starpu_vector_filter_divide_in_2(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* the first `filter_arg` elements, then the rest. */
void starpu_vector_filter_pick_variable(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* variables from element `(size_t) filter_arg_ptr`. */
void starpu_matrix_filter_block(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along x. */
void starpu_matrix_filter_block_shadow(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along x with a shadow of `(uintptr_t) filter_arg_ptr`. */
void starpu_matrix_filter_vertical_block(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along y. */
void starpu_matrix_filter_vertical_block_shadow(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along y with a shadow of `(uintptr_t) filter_arg_ptr`. */
void starpu_matrix_filter_pick_vector_y(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* vectors (columns) from y = `(size_t) filter_arg_ptr`. */
void starpu_matrix_filter_pick_variable(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* the element at the (x, y) `filter_arg_ptr` points to. */
void starpu_block_filter_block(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along x. */
void starpu_block_filter_block_shadow(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along x with a shadow of `(uintptr_t) filter_arg_ptr`. */
void starpu_block_filter_vertical_block(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along y. */
void starpu_block_filter_vertical_block_shadow(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along y with a shadow of `(uintptr_t) filter_arg_ptr`. */
void starpu_block_filter_depth_block(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along z. */
void starpu_block_filter_depth_block_shadow(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along z with a shadow of `(uintptr_t) filter_arg_ptr`. */
void starpu_block_filter_pick_matrix_z(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* x-y planes from z = `(size_t) filter_arg_ptr`. */
void starpu_block_filter_pick_matrix_y(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* x-z planes from y = `(size_t) filter_arg_ptr`. */
void starpu_block_filter_pick_variable(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* the element at the (x, y, z) `filter_arg_ptr` points to. */
void starpu_tensor_filter_block(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along x. */
void starpu_tensor_filter_block_shadow(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along x with a shadow of `(uintptr_t) filter_arg_ptr`. */
void starpu_tensor_filter_vertical_block(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along y. */
void starpu_tensor_filter_vertical_block_shadow(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along y with a shadow of `(uintptr_t) filter_arg_ptr`. */
void starpu_tensor_filter_depth_block(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along z. */
void starpu_tensor_filter_depth_block_shadow(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along z with a shadow of `(uintptr_t) filter_arg_ptr`. */
void starpu_tensor_filter_time_block(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along t. */
void starpu_tensor_filter_time_block_shadow(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along t with a shadow of `(uintptr_t) filter_arg_ptr`. */
void starpu_tensor_filter_pick_block_t(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* blocks from t = `(size_t) filter_arg_ptr`. */
void starpu_tensor_filter_pick_block_z(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* blocks from z = `(size_t) filter_arg_ptr`. */
void starpu_tensor_filter_pick_block_y(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* blocks from y = `(size_t) filter_arg_ptr`. */
void starpu_tensor_filter_pick_variable(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* the element at the (x, y, z, t) `filter_arg_ptr` points to. */
void starpu_ndim_filter_block(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along dimension `filter_arg`. */
void starpu_ndim_filter_block_shadow(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along dimension `filter_arg` with a shadow of `(uintptr_t) filter_arg_ptr`. */
void starpu_ndim_filter_to_tensor(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* a 4-dimension array cut along `filter_arg` into tensors. */
void starpu_ndim_filter_to_block(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* a 3-dimension array cut along `filter_arg` into blocks. */
void starpu_ndim_filter_to_matrix(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* a 2-dimension array cut along `filter_arg` into matrices. */
void starpu_ndim_filter_to_vector(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* a 1-dimension array cut into vectors. */
void starpu_ndim_filter_to_variable(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* a 0-dimension array as a variable. */
void starpu_ndim_filter_pick_ndim(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* (n-1)-dimension arrays from index `(size_t) filter_arg_ptr` of dimension `filter_arg`. */
void starpu_ndim_filter_5d_pick_tensor(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* tensors from index `(size_t) filter_arg_ptr` of dimension `filter_arg` of a 5-dimension array. */
void starpu_ndim_filter_4d_pick_block(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* blocks from index `(size_t) filter_arg_ptr` of dimension `filter_arg` of a 4-dimension array. */
void starpu_ndim_filter_3d_pick_matrix(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* matrices from index `(size_t) filter_arg_ptr` of dimension `filter_arg` of a 3-dimension array. */
void starpu_ndim_filter_2d_pick_vector(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* vectors from index `(size_t) filter_arg_ptr` of dimension `filter_arg` of a 2-dimension array. */
void starpu_ndim_filter_1d_pick_variable(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* variables from element `(size_t) filter_arg_ptr` of a 1-dimension array. */
void starpu_ndim_filter_pick_variable(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* the element at the position (one coordinate per dimension) `filter_arg_ptr` points to. */
void starpu_csr_filter_vertical_block(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* bands of consecutive rows. */
void starpu_bcsr_filter_vertical_block(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* bands of consecutive block rows. */
void starpu_bcsr_filter_canonical_block(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* one dense matrix per stored block. */
/* The interface ops of the children of pick filters. */
struct starpu_data_interface_ops *starpu_vector_filter_pick_variable_child_ops(struct starpu_data_filter *f, unsigned child); /* starpu_interface_variable_ops */
struct starpu_data_interface_ops *starpu_matrix_filter_pick_vector_child_ops(struct starpu_data_filter *f, unsigned child); /* starpu_interface_vector_ops */
struct starpu_data_interface_ops *starpu_matrix_filter_pick_variable_child_ops(struct starpu_data_filter *f, unsigned child); /* starpu_interface_variable_ops */
struct starpu_data_interface_ops *starpu_block_filter_pick_matrix_child_ops(struct starpu_data_filter *f, unsigned child); /* starpu_interface_matrix_ops */
struct starpu_data_interface_ops *starpu_block_filter_pick_variable_child_ops(struct starpu_data_filter *f, unsigned child); /* starpu_interface_variable_ops */
struct starpu_data_interface_ops *starpu_tensor_filter_pick_block_child_ops(struct starpu_data_filter *f, unsigned child); /* starpu_interface_block_ops */
struct starpu_data_interface_ops *starpu_tensor_filter_pick_variable_child_ops(struct starpu_data_filter *f, unsigned child); /* starpu_interface_variable_ops */
struct starpu_data_interface_ops *starpu_ndim_filter_pick_tensor_child_ops(struct starpu_data_filter *f, unsigned child); /* starpu_interface_tensor_ops */
struct starpu_data_interface_ops *starpu_ndim_filter_pick_block_child_ops(struct starpu_data_filter *f, unsigned child); /* starpu_interface_block_ops */
struct starpu_data_interface_ops *starpu_ndim_filter_pick_matrix_child_ops(struct starpu_data_filter *f, unsigned child); /* starpu_interface_matrix_ops */
struct starpu_data_interface_ops *starpu_ndim_filter_pick_vector_child_ops(struct starpu_data_filter *f, unsigned child); /* starpu_interface_vector_ops */
struct starpu_data_interface_ops *starpu_ndim_filter_pick_variable_child_ops(struct starpu_data_filter *f, unsigned child); /* starpu_interface_variable_ops */
struct starpu_data_interface_ops *starpu_ndim_filter_to_tensor_child_ops(struct starpu_data_filter *f, unsigned child); /* starpu_interface_tensor_ops */
struct starpu_data_interface_ops *starpu_ndim_filter_to_block_child_ops(struct starpu_data_filter *f, unsigned child); /* starpu_interface_block_ops */
struct starpu_data_interface_ops *starpu_ndim_filter_to_matrix_child_ops(struct starpu_data_filter *f, unsigned child); /* starpu_interface_matrix_ops */
struct starpu_data_interface_ops *starpu_ndim_filter_to_vector_child_ops(struct starpu_data_filter *f, unsigned child); /* starpu_interface_vector_ops */
struct starpu_data_interface_ops *starpu_ndim_filter_to_variable_child_ops(struct starpu_data_filter *f, unsigned child); /* starpu_interface_variable_ops */
struct starpu_data_interface_ops *starpu_bcsr_filter_canonical_block_child_ops(struct starpu_data_filter *f, unsigned child); /* starpu_interface_matrix_ops */

/* Acquires `handle`, runs `code` once granted (from any thread), then releases it.
 * Uses a GCC nested function, as StarPU does. */
#define STARPU_DATA_ACQUIRE_CB(handle, mode, code)                                 \
	do {                                                                        \
		void callback(void *arg)                                            \
		{                                                                   \
			(void)arg;                                                  \
			code;                                                       \
			starpu_data_release(handle);                                \
		}                                                                   \
		starpu_data_acquire_cb(handle, mode, callback, NULL);               \
	} while (0)

/* ==== Task lists (starpu_task_list.h) ==== */
static inline void starpu_task_list_init(struct starpu_task_list *list)
{
	list->head = NULL;
	list->tail = NULL;
}
static inline int starpu_task_list_empty(struct starpu_task_list *list)
{
	return list->head == NULL;
}
static inline void starpu_task_list_push_front(struct starpu_task_list *list, struct starpu_task *task)
{
	task->prev = NULL;
	task->next = list->head;
	if (list->head)
		list->head->prev = task;
	else
		list->tail = task;
	list->head = task;
}
static inline void starpu_task_list_push_back(struct starpu_task_list *list, struct starpu_task *task)
{
	task->next = NULL;
	task->prev = list->tail;
	if (list->tail)
		list->tail->next = task;
	else
		list->head = task;
	list->tail = task;
}
static inline struct starpu_task *starpu_task_list_front(const struct starpu_task_list *list)
{
	return list->head;
}
static inline struct starpu_task *starpu_task_list_back(const struct starpu_task_list *list)
{
	return list->tail;
}
static inline void starpu_task_list_erase(struct starpu_task_list *list, struct starpu_task *task)
{
	if (task->prev)
		task->prev->next = task->next;
	else
		list->head = task->next;
	if (task->next)
		task->next->prev = task->prev;
	else
		list->tail = task->prev;
	task->prev = task->next = NULL;
}
static inline struct starpu_task *starpu_task_list_pop_front(struct starpu_task_list *list)
{
	struct starpu_task *task = list->head;
	if (task)
		starpu_task_list_erase(list, task);
	return task;
}
static inline struct starpu_task *starpu_task_list_pop_back(struct starpu_task_list *list)
{
	struct starpu_task *task = list->tail;
	if (task)
		starpu_task_list_erase(list, task);
	return task;
}
static inline struct starpu_task *starpu_task_list_begin(const struct starpu_task_list *list)
{
	return list->head;
}
static inline struct starpu_task *starpu_task_list_end(const struct starpu_task_list *list)
{
	(void)list;
	return NULL;
}
static inline struct starpu_task *starpu_task_list_next(const struct starpu_task *task)
{
	return task->next;
}
static inline int starpu_task_list_ismember(const struct starpu_task_list *list, const struct starpu_task *look)
{
	const struct starpu_task *t;
	for (t = list->head; t; t = t->next)
		if (t == look)
			return 1;
	return 0;
}

/* ==== Environment helpers (starpu_helper.h) ==== */
static inline int starpu_getenv_number(const char *str)
{
	char *v = starpu_getenv(str);
	return v ? atoi(v) : -1;
}
static inline int starpu_getenv_number_default(const char *str, int defval)
{
	char *v = starpu_getenv(str);
	return v ? atoi(v) : defval;
}
static inline float starpu_getenv_float_default(const char *str, float defval)
{
	char *v = starpu_getenv(str);
	return v ? (float)atof(v) : defval;
}
static inline int starpu_get_env_number(const char *str)
{
	return starpu_getenv_number(str);
}
static inline int starpu_get_env_number_default(const char *str, int defval)
{
	return starpu_getenv_number_default(str, defval);
}

/* ==== Timespec arithmetic (starpu_profiling.h) ==== */
#define STARPU_NS_PER_S 1000000000
static inline void starpu_timespec_clear(struct timespec *tsp)
{
	tsp->tv_sec = 0;
	tsp->tv_nsec = 0;
}
/* result = a + b */
static inline void starpu_timespec_add(struct timespec *a, struct timespec *b, struct timespec *result)
{
	result->tv_sec = a->tv_sec + b->tv_sec;
	result->tv_nsec = a->tv_nsec + b->tv_nsec;
	if (result->tv_nsec >= STARPU_NS_PER_S) {
		result->tv_sec++;
		result->tv_nsec -= STARPU_NS_PER_S;
	}
}
/* result += a */
static inline void starpu_timespec_accumulate(struct timespec *result, struct timespec *a)
{
	starpu_timespec_add(result, a, result);
}
/* result = a - b */
static inline void starpu_timespec_sub(const struct timespec *a, const struct timespec *b, struct timespec *result)
{
	result->tv_sec = a->tv_sec - b->tv_sec;
	result->tv_nsec = a->tv_nsec - b->tv_nsec;
	if (result->tv_nsec < 0) {
		result->tv_sec--;
		result->tv_nsec += STARPU_NS_PER_S;
	}
}
#define starpu_timespec_cmp(a, b, CMP) \
	(((a)->tv_sec == (b)->tv_sec) ? ((a)->tv_nsec CMP (b)->tv_nsec) : ((a)->tv_sec CMP (b)->tv_sec))

#ifdef __cplusplus
}
#endif

/* Parallel workers, as StarPU's starpu.h declares them. */
#include <starpu_parallel_worker.h>
/* The OpenCL API, when built with it (starpu_config.h). */
#include <starpu_opencl.h>
/* The CUDA API, when built with it (starpu_config.h). */
#include <starpu_cuda.h>

#endif /* __STARPU_H__ */
