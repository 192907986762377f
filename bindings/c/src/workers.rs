//! Worker and memory-node queries (`starpu_worker.h`), answered by the core, and the
//! accelerator-named calls CPU programs make unconditionally.

use crate::ffi;
use libc::{c_char, c_int, c_uint, c_void, size_t};
use starpu_core::worker::{current_worker_id, WorkerKind};

/// `STARPU_ANY_WORKER`.
const ANY_WORKER: c_uint = 255;

fn nworkers() -> usize {
    ffi::runtime().map_or(0, |rt| rt.workers().len())
}

/// Which workers a C `enum starpu_worker_archtype` value selects: `Some(None)` for all,
/// `None` for a value this build does not know.
fn kind_filter(kind: c_uint) -> Option<Option<WorkerKind>> {
    if kind == ANY_WORKER {
        Some(None)
    } else {
        WorkerKind::from_starpu_id(kind).map(Some)
    }
}

/// The ids of the workers `kind` selects (none for an unknown kind).
fn worker_ids(kind: c_uint) -> Vec<usize> {
    match (kind_filter(kind), ffi::runtime()) {
        (Some(k), Ok(rt)) => rt.worker_ids(k),
        _ => Vec::new(),
    }
}

/// `starpu_worker_get_count`.
#[no_mangle]
pub extern "C" fn starpu_worker_get_count() -> c_uint {
    nworkers() as c_uint
}

/// `starpu_cpu_worker_get_count`.
#[no_mangle]
pub extern "C" fn starpu_cpu_worker_get_count() -> c_uint {
    worker_ids(WorkerKind::Cpu.starpu_id()).len() as c_uint
}

/// `starpu_opencl_worker_get_count`.
#[no_mangle]
pub extern "C" fn starpu_opencl_worker_get_count() -> c_uint {
    worker_ids(WorkerKind::OpenCl.starpu_id()).len() as c_uint
}

/// `starpu_hip_worker_get_count`: this build has no such workers.
#[no_mangle]
pub extern "C" fn starpu_hip_worker_get_count() -> c_uint {
    0
}

/// `starpu_mpi_sc_worker_get_count`: this build has no such workers.
#[no_mangle]
pub extern "C" fn starpu_mpi_sc_worker_get_count() -> c_uint {
    0
}

/// `starpu_tcpip_sc_worker_get_count`: this build has no such workers.
#[no_mangle]
pub extern "C" fn starpu_tcpip_sc_worker_get_count() -> c_uint {
    0
}

/// `starpu_max_fpga_worker_get_count`: this build has no such workers.
#[no_mangle]
pub extern "C" fn starpu_max_fpga_worker_get_count() -> c_uint {
    0
}

/// `starpu_sycl_worker_get_count`: this build has no such workers.
#[no_mangle]
pub extern "C" fn starpu_sycl_worker_get_count() -> c_uint {
    0
}

/// `starpu_mpi_ms_worker_get_count` (StarPU 1.4's name of the MPI server-client workers,
/// "master-slave"): this build has no such workers.
#[no_mangle]
pub extern "C" fn starpu_mpi_ms_worker_get_count() -> c_uint {
    0
}

/// `starpu_tcpip_ms_worker_get_count` (StarPU 1.4's name): this build has no such workers.
#[no_mangle]
pub extern "C" fn starpu_tcpip_ms_worker_get_count() -> c_uint {
    0
}

/// `starpu_worker_get_id`: this thread's worker, -1 outside workers.
#[no_mangle]
pub extern "C" fn starpu_worker_get_id() -> c_int {
    current_worker_id().map_or(-1, |w| w as c_int)
}

/// `starpu_worker_get_id_check`: like `starpu_worker_get_id`, for code that must run on a
/// worker (reports and returns -1 otherwise).
#[no_mangle]
pub extern "C" fn starpu_worker_get_id_check() -> c_uint {
    match current_worker_id() {
        Some(w) => w as c_uint,
        None => {
            let e = starpu_core::Error::invalid("not called from a worker");
            crate::ffi::report("starpu_worker_get_id_check", &e);
            c_uint::MAX
        }
    }
}

/// `starpu_worker_get_type`: the kind of worker `id` (`STARPU_ANY_WORKER` if none).
#[no_mangle]
pub extern "C" fn starpu_worker_get_type(id: c_int) -> c_uint {
    ffi::runtime()
        .ok()
        .and_then(|rt| {
            rt.worker(usize::try_from(id).ok()?)
                .map(|w| w.kind.starpu_id())
        })
        .unwrap_or(ANY_WORKER)
}

/// `starpu_worker_get_count_by_type`: -EINVAL for an unknown type.
#[no_mangle]
pub extern "C" fn starpu_worker_get_count_by_type(kind: c_uint) -> c_int {
    match kind {
        // Kinds StarPU has and this build does not run (HIP, FPGA, MPI, TCP/IP, SYCL...).
        k if kind_filter(k).is_none() && k <= 8 => 0,
        k if kind_filter(k).is_none() => -libc::EINVAL,
        k => worker_ids(k).len() as c_int,
    }
}

/// `starpu_worker_get_ids_by_type`: fills `workerids` (at most `maxsize`), returns how many.
///
/// # Safety
/// `workerids` has room for `maxsize` ints.
#[no_mangle]
pub unsafe extern "C" fn starpu_worker_get_ids_by_type(
    kind: c_uint,
    workerids: *mut c_int,
    maxsize: c_int,
) -> c_uint {
    let ids = worker_ids(kind);
    let n = ids.len().min(maxsize.max(0) as usize);
    for (i, id) in ids.into_iter().take(n).enumerate() {
        *workerids.add(i) = id as c_int;
    }
    n as c_uint
}

/// `starpu_worker_get_by_type`: the `num`-th worker of that type, -1 if none.
#[no_mangle]
pub extern "C" fn starpu_worker_get_by_type(kind: c_uint, num: c_int) -> c_int {
    usize::try_from(num)
        .ok()
        .and_then(|n| worker_ids(kind).get(n).copied())
        .map_or(-1, |id| id as c_int)
}

/// `starpu_worker_get_by_devid`: the worker of device `devid` of `kind` (CPU workers
/// have the device id of their rank).
#[no_mangle]
pub extern "C" fn starpu_worker_get_by_devid(kind: c_uint, devid: c_int) -> c_int {
    let Ok(rt) = ffi::runtime() else { return -1 };
    worker_ids(kind)
        .into_iter()
        .find(|&w| rt.worker(w).is_some_and(|w| w.devid as c_int == devid))
        .map_or(-1, |w| w as c_int)
}

/// `starpu_worker_get_devid`: the device number of worker `id` within its kind.
#[no_mangle]
pub extern "C" fn starpu_worker_get_devid(id: c_int) -> c_int {
    ffi::runtime()
        .ok()
        .and_then(|rt| Some(rt.worker(usize::try_from(id).ok()?)?.devid as c_int))
        .unwrap_or(-1)
}

/// `starpu_worker_get_bindid`: the logical CPU the worker is bound to (-1 when unbound).
#[no_mangle]
pub extern "C" fn starpu_worker_get_bindid(id: c_int) -> c_int {
    ffi::runtime()
        .ok()
        .and_then(|rt| rt.worker(usize::try_from(id).ok()?)?.cpu)
        .map_or(-1, |c| c as c_int)
}

/// `starpu_worker_get_name`: "CPU `n`".
///
/// # Safety
/// `dst` has room for `maxlen` bytes.
#[no_mangle]
pub unsafe extern "C" fn starpu_worker_get_name(id: c_int, dst: *mut c_char, maxlen: size_t) {
    if dst.is_null() || maxlen == 0 {
        return;
    }
    let name = ffi::runtime()
        .ok()
        .and_then(|rt| Some(rt.worker(usize::try_from(id).ok()?)?.name.clone()))
        .unwrap_or_else(|| format!("unknown worker {id}"));
    let n = name.len().min(maxlen - 1);
    std::ptr::copy_nonoverlapping(name.as_ptr(), dst as *mut u8, n);
    *dst.add(n) = 0;
}

/// `starpu_worker_get_type_as_string`.
#[no_mangle]
pub extern "C" fn starpu_worker_get_type_as_string(kind: c_uint) -> *const c_char {
    // NUL-terminated copies of the core's names, made once.
    static NAMES: std::sync::OnceLock<Vec<(u32, std::ffi::CString)>> = std::sync::OnceLock::new();
    let names = NAMES.get_or_init(|| {
        WorkerKind::ALL
            .iter()
            .map(|k| {
                (
                    k.starpu_id(),
                    std::ffi::CString::new(k.name()).expect("no NUL"),
                )
            })
            .collect()
    });
    match names.iter().find(|(id, _)| *id == kind) {
        Some((_, name)) => name.as_ptr(),
        None if kind == ANY_WORKER => c"STARPU_ANY_WORKER".as_ptr(),
        None => c"STARPU_unknown_WORKER".as_ptr(),
    }
}

/// `starpu_worker_get_memory_node`.
#[no_mangle]
pub extern "C" fn starpu_worker_get_memory_node(id: c_uint) -> c_uint {
    ffi::runtime()
        .ok()
        .and_then(|rt| Some(rt.worker(id as usize)?.node as c_uint))
        .unwrap_or(0)
}

/// `starpu_worker_get_local_memory_node`: this worker's node, main RAM elsewhere.
#[no_mangle]
pub extern "C" fn starpu_worker_get_local_memory_node() -> c_uint {
    current_worker_id().map_or(0, |w| starpu_worker_get_memory_node(w as c_uint))
}

/// `starpu_memory_nodes_get_count`.
#[no_mangle]
pub extern "C" fn starpu_memory_nodes_get_count() -> c_uint {
    crate::nodes::count() as c_uint
}

/// `starpu_memory_nodes_get_numa_count`.
#[no_mangle]
pub extern "C" fn starpu_memory_nodes_get_numa_count() -> c_uint {
    1
}

/// `starpu_node_get_kind`.
#[no_mangle]
pub extern "C" fn starpu_node_get_kind(node: c_uint) -> c_uint {
    crate::nodes::kind(node as usize).map_or(0, |k| k.starpu_id())
}

/// `starpu_worker_display_names`: one line per worker of `type`.
///
/// # Safety
/// `output` is a valid `FILE *`.
#[no_mangle]
pub unsafe extern "C" fn starpu_worker_display_names(output: *mut libc::FILE, kind: c_uint) {
    if let Ok(rt) = ffi::runtime() {
        for w in worker_ids(kind).into_iter().filter_map(|id| rt.worker(id)) {
            let line = format!("\t{}\n\0", w.name);
            libc::fputs(line.as_ptr() as *const c_char, output);
        }
    }
}

/// `starpu_topology_print`: the workers and where they are bound.
///
/// # Safety
/// `output` is a valid `FILE *`.
#[no_mangle]
pub unsafe extern "C" fn starpu_topology_print(output: *mut libc::FILE) {
    if let Ok(rt) = ffi::runtime() {
        for w in rt.workers() {
            let bind = w.cpu.map_or("unbound".to_string(), |c| format!("CPU {c}"));
            let line = format!(
                "worker {}\t{}\tbound to {}\tmemory node {}\n\0",
                w.id, w.name, bind, w.node
            );
            libc::fputs(line.as_ptr() as *const c_char, output);
        }
    }
}

/// `starpu_sched_get_min_priority`.
#[no_mangle]
pub extern "C" fn starpu_sched_get_min_priority() -> c_int {
    ffi::runtime().map_or(0, |rt| rt.priority_range().0)
}

/// `starpu_sched_get_max_priority`.
#[no_mangle]
pub extern "C" fn starpu_sched_get_max_priority() -> c_int {
    ffi::runtime().map_or(0, |rt| rt.priority_range().1)
}

/// `starpu_cusparse_init`: prepares an accelerator library on each device of its kind; this build has
/// none, so there is nothing to prepare.
#[no_mangle]
pub extern "C" fn starpu_cusparse_init() {}

/// `starpu_cusparse_shutdown`: prepares an accelerator library on each device of its kind; this build has
/// none, so there is nothing to prepare.
#[no_mangle]
pub extern "C" fn starpu_cusparse_shutdown() {}

/// `starpu_hipblas_init`: prepares an accelerator library on each device of its kind; this build has
/// none, so there is nothing to prepare.
#[no_mangle]
pub extern "C" fn starpu_hipblas_init() {}

/// `starpu_hipblas_shutdown`: prepares an accelerator library on each device of its kind; this build has
/// none, so there is nothing to prepare.
#[no_mangle]
pub extern "C" fn starpu_hipblas_shutdown() {}

/// `starpu_hipsolver_init`: prepares an accelerator library on each device of its kind; this build has
/// none, so there is nothing to prepare.
#[no_mangle]
pub extern "C" fn starpu_hipsolver_init() {}

/// `starpu_hipsolver_shutdown`: prepares an accelerator library on each device of its kind; this build has
/// none, so there is nothing to prepare.
#[no_mangle]
pub extern "C" fn starpu_hipsolver_shutdown() {}

/// `starpu_syclblas_init`: prepares an accelerator library on each device of its kind; this build has
/// none, so there is nothing to prepare.
#[no_mangle]
pub extern "C" fn starpu_syclblas_init() {}

/// `starpu_syclblas_shutdown`: prepares an accelerator library on each device of its kind; this build has
/// none, so there is nothing to prepare.
#[no_mangle]
pub extern "C" fn starpu_syclblas_shutdown() {}

/// `starpu_cusolver_get_local_handle`: only meaningful inside a kernel running on an accelerator; none exists here.
#[no_mangle]
pub extern "C" fn starpu_cusolver_get_local_handle() -> *mut c_void {
    std::ptr::null_mut()
}

/// `starpu_hip_get_local_stream`: only meaningful inside a kernel running on an accelerator; none exists here.
#[no_mangle]
pub extern "C" fn starpu_hip_get_local_stream() -> *mut c_void {
    std::ptr::null_mut()
}

/// `starpu_hipblas_get_local_handle`: only meaningful inside a kernel running on an accelerator; none exists here.
#[no_mangle]
pub extern "C" fn starpu_hipblas_get_local_handle() -> *mut c_void {
    std::ptr::null_mut()
}
