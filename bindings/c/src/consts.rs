//! Integer constants of StarPU's C API, written once here and emitted into `starpu.h` as
//! `#define`s by cbindgen, so the header and the decoder of `starpu_task_insert` agree.

use libc::c_int;

/// `STARPU_MAIN_RAM`: memory node 0.
pub const STARPU_MAIN_RAM: c_int = 0;

// `where` bits of codelets and tasks.
pub const STARPU_NOWHERE: u64 = 1 << 0;
pub const STARPU_CPU: u64 = 1 << 1;
pub const STARPU_CUDA: u64 = 1 << 3;
pub const STARPU_OPENCL: u64 = 1 << 6;
pub const STARPU_MAX_FPGA: u64 = 1 << 8;
pub const STARPU_MPI_SC: u64 = 1 << 9;
pub const STARPU_TCPIP_SC: u64 = 1 << 10;
/// StarPU 1.4's names of `STARPU_MPI_SC` / `STARPU_TCPIP_SC` (master renamed them).
pub const STARPU_MPI_MS: u64 = STARPU_MPI_SC;
pub const STARPU_TCPIP_MS: u64 = STARPU_TCPIP_SC;
/// StarPU 1.3's Xeon Phi bit, kept so 1.3 programs compile; no worker has it.
pub const STARPU_MIC: u64 = 1 << 7;
pub const STARPU_HIP: u64 = 1 << 11;
pub const STARPU_SYCL: u64 = 1 << 12;

// Codelet flags.
pub const STARPU_CODELET_SIMGRID_EXECUTE: c_int = 1 << 0;
pub const STARPU_CODELET_SIMGRID_EXECUTE_AND_INJECT: c_int = 1 << 1;
pub const STARPU_CODELET_NOPLANS: c_int = 1 << 2;
pub const STARPU_CUDA_ASYNC: c_int = 1 << 0;
pub const STARPU_HIP_ASYNC: c_int = 1 << 0;
pub const STARPU_OPENCL_ASYNC: c_int = 1 << 0;
pub const STARPU_SYCL_ASYNC: c_int = 1 << 0;

/// `codelet.nbuffers` value: each task gives its own number of buffers.
pub const STARPU_VARIABLE_NBUFFERS: c_int = -1;

// `codelet.nodes` values.
pub const STARPU_SPECIFIC_NODE_LOCAL: c_int = -1;
pub const STARPU_SPECIFIC_NODE_CPU: c_int = -2;
pub const STARPU_SPECIFIC_NODE_SLOW: c_int = -3;
pub const STARPU_SPECIFIC_NODE_FAST: c_int = -4;
pub const STARPU_SPECIFIC_NODE_LOCAL_OR_CPU: c_int = -5;
pub const STARPU_SPECIFIC_NODE_NONE: c_int = -6;

/// `starpu_data_acquire_on_node` node values: no node (ordering only).
pub const STARPU_ACQUIRE_NO_NODE: c_int = -1;
pub const STARPU_ACQUIRE_NO_NODE_LOCK_ALL: c_int = -2;

// `starpu_malloc_flags` flags.
pub const STARPU_MALLOC_PINNED: u64 = 1 << 1;
pub const STARPU_MALLOC_COUNT: u64 = 1 << 2;
pub const STARPU_MALLOC_NORECLAIM: u64 = 1 << 3;
pub const STARPU_MEMORY_WAIT: u64 = 1 << 4;
pub const STARPU_MEMORY_OVERFLOW: u64 = 1 << 5;
pub const STARPU_MALLOC_SIMULATION_FOLDED: u64 = 1 << 6;
pub const STARPU_MALLOC_SIMULATION_UNIQUE: u64 = 1 << 7;

/// `STARPU_DEFAULT_PRIO`.
pub const STARPU_DEFAULT_PRIO: c_int = 0;

// `starpu_task_insert` argument keys. Access modes use the bits below 1 << 17.
pub const STARPU_MODE_SHIFT: c_int = 17;
pub const STARPU_VALUE: c_int = 1 << STARPU_MODE_SHIFT;
pub const STARPU_CALLBACK: c_int = 2 << STARPU_MODE_SHIFT;
pub const STARPU_CALLBACK_WITH_ARG: c_int = 3 << STARPU_MODE_SHIFT;
pub const STARPU_CALLBACK_ARG: c_int = 4 << STARPU_MODE_SHIFT;
pub const STARPU_PRIORITY: c_int = 5 << STARPU_MODE_SHIFT;
pub const STARPU_EXECUTE_ON_NODE: c_int = 6 << STARPU_MODE_SHIFT;
pub const STARPU_EXECUTE_ON_DATA: c_int = 7 << STARPU_MODE_SHIFT;
pub const STARPU_DATA_ARRAY: c_int = 8 << STARPU_MODE_SHIFT;
pub const STARPU_DATA_MODE_ARRAY: c_int = 9 << STARPU_MODE_SHIFT;
pub const STARPU_TAG: c_int = 10 << STARPU_MODE_SHIFT;
pub const STARPU_HYPERVISOR_TAG: c_int = 11 << STARPU_MODE_SHIFT;
pub const STARPU_FLOPS: c_int = 12 << STARPU_MODE_SHIFT;
pub const STARPU_SCHED_CTX: c_int = 13 << STARPU_MODE_SHIFT;
pub const STARPU_PROLOGUE_CALLBACK: c_int = 14 << STARPU_MODE_SHIFT;
pub const STARPU_PROLOGUE_CALLBACK_ARG: c_int = 15 << STARPU_MODE_SHIFT;
pub const STARPU_PROLOGUE_CALLBACK_POP: c_int = 16 << STARPU_MODE_SHIFT;
pub const STARPU_PROLOGUE_CALLBACK_POP_ARG: c_int = 17 << STARPU_MODE_SHIFT;
pub const STARPU_EXECUTE_ON_WORKER: c_int = 18 << STARPU_MODE_SHIFT;
pub const STARPU_EXECUTE_WHERE: c_int = 19 << STARPU_MODE_SHIFT;
pub const STARPU_TAG_ONLY: c_int = 20 << STARPU_MODE_SHIFT;
pub const STARPU_POSSIBLY_PARALLEL: c_int = 21 << STARPU_MODE_SHIFT;
pub const STARPU_WORKER_ORDER: c_int = 22 << STARPU_MODE_SHIFT;
pub const STARPU_NODE_SELECTION_POLICY: c_int = 23 << STARPU_MODE_SHIFT;
pub const STARPU_NAME: c_int = 24 << STARPU_MODE_SHIFT;
pub const STARPU_CL_ARGS: c_int = 25 << STARPU_MODE_SHIFT;
pub const STARPU_CL_ARGS_NFREE: c_int = 26 << STARPU_MODE_SHIFT;
pub const STARPU_TASK_DEPS_ARRAY: c_int = 27 << STARPU_MODE_SHIFT;
pub const STARPU_TASK_COLOR: c_int = 28 << STARPU_MODE_SHIFT;
pub const STARPU_HANDLES_SEQUENTIAL_CONSISTENCY: c_int = 29 << STARPU_MODE_SHIFT;
pub const STARPU_TASK_SYNCHRONOUS: c_int = 30 << STARPU_MODE_SHIFT;
pub const STARPU_TASK_END_DEPS_ARRAY: c_int = 31 << STARPU_MODE_SHIFT;
pub const STARPU_TASK_END_DEP: c_int = 32 << STARPU_MODE_SHIFT;
pub const STARPU_TASK_WORKERIDS: c_int = 33 << STARPU_MODE_SHIFT;
pub const STARPU_SEQUENTIAL_CONSISTENCY: c_int = 34 << STARPU_MODE_SHIFT;
pub const STARPU_TASK_PROFILING_INFO: c_int = 35 << STARPU_MODE_SHIFT;
pub const STARPU_TASK_NO_SUBMITORDER: c_int = 36 << STARPU_MODE_SHIFT;
pub const STARPU_CALLBACK_ARG_NFREE: c_int = 37 << STARPU_MODE_SHIFT;
pub const STARPU_CALLBACK_WITH_ARG_NFREE: c_int = 38 << STARPU_MODE_SHIFT;
pub const STARPU_PROLOGUE_CALLBACK_ARG_NFREE: c_int = 39 << STARPU_MODE_SHIFT;
pub const STARPU_PROLOGUE_CALLBACK_POP_ARG_NFREE: c_int = 40 << STARPU_MODE_SHIFT;
pub const STARPU_TASK_SCHED_DATA: c_int = 41 << STARPU_MODE_SHIFT;
pub const STARPU_EPILOGUE_CALLBACK: c_int = 42 << STARPU_MODE_SHIFT;
pub const STARPU_EPILOGUE_CALLBACK_ARG: c_int = 43 << STARPU_MODE_SHIFT;
pub const STARPU_TASK_FILE: c_int = 44 << STARPU_MODE_SHIFT;
pub const STARPU_TASK_LINE: c_int = 45 << STARPU_MODE_SHIFT;
pub const STARPU_TRANSACTION: c_int = 46 << STARPU_MODE_SHIFT;
pub const STARPU_SOON_CALLBACK: c_int = 47 << STARPU_MODE_SHIFT;
pub const STARPU_SOON_CALLBACK_ARG: c_int = 48 << STARPU_MODE_SHIFT;
pub const STARPU_SOON_CALLBACK_ARG_NFREE: c_int = 49 << STARPU_MODE_SHIFT;
pub const STARPU_RECURSIVE_TASK_FUNC: c_int = 50 << STARPU_MODE_SHIFT;
pub const STARPU_RECURSIVE_TASK_FUNC_ARG: c_int = 51 << STARPU_MODE_SHIFT;
pub const STARPU_RECURSIVE_TASK_GEN_DAG_FUNC: c_int = 52 << STARPU_MODE_SHIFT;
pub const STARPU_RECURSIVE_TASK_GEN_DAG_FUNC_ARG: c_int = 53 << STARPU_MODE_SHIFT;
pub const STARPU_RECURSIVE_TASK_PARENT: c_int = 54 << STARPU_MODE_SHIFT;
pub const STARPU_SHIFTED_MODE_MAX: c_int = 55 << STARPU_MODE_SHIFT;

// `enum starpu_task_status` values (the enum is in the header prelude).
pub(crate) const STATUS_READY: u32 = 2;
pub(crate) const STATUS_RUNNING: u32 = 3;
pub(crate) const STATUS_FINISHED: u32 = 4;
pub(crate) const STATUS_BLOCKED: u32 = 1;

/// `magic` value of initialised tasks and confs.
pub(crate) const MAGIC: c_int = 42;

// `starpu_profiling_status_set` values.
pub const STARPU_PROFILING_DISABLE: c_int = 0;
pub const STARPU_PROFILING_ENABLE: c_int = 1;
