//! Parallel tasks (`starpu_worker.h`'s combined workers), answered by the core
//! (`starpu_core::parallel`). Parallel workers are in parallel_workers.rs.

use crate::abi::{starpu_codelet, starpu_task};
use crate::codelet::cpu_functions;
use crate::consts;
use crate::ffi;
use libc::{c_int, c_uint};
use starpu_core::parallel;
use starpu_core::worker::current_worker_id;
use starpu_core::Error;
use std::collections::HashMap;
use std::sync::Mutex;

/// `STARPU_SPMD` and `STARPU_FORKJOIN`.
const SPMD: c_uint = 1;
const FORKJOIN: c_uint = 2;

fn nworkers() -> usize {
    ffi::runtime().map_or(0, |rt| rt.workers().len())
}

/// `starpu_combined_worker_get_count`: the combined workers (those the parallel policies
/// `peager` and `pheft` built, and those the application added).
#[no_mangle]
pub extern "C" fn starpu_combined_worker_get_count() -> c_uint {
    ffi::guard("starpu_combined_worker_get_count", 0, || {
        ffi::runtime().map_or(0, |rt| rt.combined_workers().len() as c_uint)
    })
}

/// `starpu_worker_is_combined_worker`: whether `id` names a combined worker.
#[no_mangle]
pub extern "C" fn starpu_worker_is_combined_worker(id: c_int) -> c_int {
    ffi::guard("starpu_worker_is_combined_worker", 0, || {
        let found = ffi::runtime()
            .ok()
            .zip(usize::try_from(id).ok())
            .is_some_and(|(rt, id)| rt.combined_worker(id).is_some());
        found as c_int
    })
}

/// `starpu_combined_worker_get_size`: how many workers run the calling kernel together
/// (1 for a sequential task, or outside kernels).
#[no_mangle]
pub extern "C" fn starpu_combined_worker_get_size() -> c_int {
    parallel::combined_size() as c_int
}

/// `starpu_combined_worker_get_rank`: the caller's rank among them (0 to size - 1).
#[no_mangle]
pub extern "C" fn starpu_combined_worker_get_rank() -> c_int {
    parallel::combined_rank() as c_int
}

/// `starpu_combined_worker_get_id`: the combined worker running the calling kernel, the
/// calling worker's id when it runs it alone, -1 outside workers.
#[no_mangle]
pub extern "C" fn starpu_combined_worker_get_id() -> c_int {
    parallel::combined_worker_id()
        .or_else(current_worker_id)
        .map_or(-1, |id| id as c_int)
}

/// `starpu_combined_worker_assign_workerid`: adds a combined worker made of the
/// `nworkers` workers of `workerid_array`; returns its id, or `-EINVAL`.
///
/// # Safety
/// `workerid_array` holds `nworkers` ints.
#[no_mangle]
pub unsafe extern "C" fn starpu_combined_worker_assign_workerid(
    nworkers: c_int,
    workerid_array: *mut c_int,
) -> c_int {
    const CALL: &str = "starpu_combined_worker_assign_workerid";
    ffi::guard(CALL, -libc::EINVAL, || {
        let r = (|| {
            if nworkers <= 0 || workerid_array.is_null() {
                return Err(Error::invalid(format!(
                    "{nworkers} workers at {workerid_array:?}: expected at least one worker"
                )));
            }
            let ids = std::slice::from_raw_parts(workerid_array, nworkers as usize);
            let members = ids
                .iter()
                .map(|&w| {
                    usize::try_from(w)
                        .map_err(|_| Error::invalid(format!("{w} is not a worker id")))
                })
                .collect::<starpu_core::Result<Vec<usize>>>()?;
            ffi::runtime()?.add_combined_worker(&members)
        })();
        match r {
            Ok(id) => id as c_int,
            Err(e) => {
                ffi::report(CALL, &e);
                -e.errno()
            }
        }
    })
}

/// The member lists handed out by `starpu_combined_worker_get_description`: StarPU gives
/// a pointer into its own tables, valid while the runtime runs; these stay until exit.
static DESCRIPTIONS: Mutex<Option<MemberLists>> = Mutex::new(None);

/// The C member array of each combined worker, by its members.
type MemberLists = HashMap<Vec<usize>, Box<[c_int]>>;

/// `starpu_combined_worker_get_description`: the size and members of combined worker
/// `workerid`. Returns 0, or `-EINVAL` if it is not one.
///
/// # Safety
/// `worker_size` and `combined_workerid` are writable or NULL.
#[no_mangle]
pub unsafe extern "C" fn starpu_combined_worker_get_description(
    workerid: c_int,
    worker_size: *mut c_int,
    combined_workerid: *mut *mut c_int,
) -> c_int {
    const CALL: &str = "starpu_combined_worker_get_description";
    ffi::int_call(CALL, || {
        let rt = ffi::runtime()?;
        let c = usize::try_from(workerid)
            .ok()
            .and_then(|id| rt.combined_worker(id))
            .ok_or_else(|| Error::invalid(format!("{workerid} is not a combined worker id")))?;
        let mut all = DESCRIPTIONS.lock().unwrap_or_else(|e| e.into_inner());
        let list = all
            .get_or_insert_with(HashMap::new)
            .entry(c.members.clone())
            .or_insert_with(|| c.members.iter().map(|&m| m as c_int).collect());
        if !worker_size.is_null() {
            *worker_size = list.len() as c_int;
        }
        if !combined_workerid.is_null() {
            *combined_workerid = list.as_mut_ptr();
        }
        Ok(())
    })
}

/// `starpu_combined_worker_can_execute_task`: whether worker `workerid` (basic or
/// combined) may run implementation `nimpl` of `task`. A combined worker runs only
/// parallel codelets (`STARPU_SPMD`, `STARPU_FORKJOIN`) whose `max_parallelism` allows
/// its size; both ask the codelet's `can_execute`, with `workerid`.
///
/// # Safety
/// `task` is a valid task or NULL.
#[no_mangle]
pub unsafe extern "C" fn starpu_combined_worker_can_execute_task(
    workerid: c_uint,
    task: *mut starpu_task,
    nimpl: c_uint,
) -> c_int {
    const CALL: &str = "starpu_combined_worker_can_execute_task";
    ffi::guard(CALL, 0, || {
        if task.is_null() {
            ffi::report(CALL, &Error::invalid("task is NULL"));
            return 0;
        }
        let cl = (*task).cl;
        if cl.is_null() {
            // Nothing to run: any worker may "run" it.
            return 1;
        }
        let cl: &starpu_codelet = &*cl;
        let id = workerid as usize;
        let n = nworkers();
        let size = if id < n {
            1
        } else {
            match ffi::runtime().ok().and_then(|rt| rt.combined_worker(id)) {
                Some(c) => c.size(),
                None => return 0,
            }
        };
        if id >= n
            && (!(cl.r#type == SPMD || cl.r#type == FORKJOIN)
                || (cl.max_parallelism.max(1) as usize) < size)
        {
            return 0;
        }
        let ncpu = cpu_functions(cl).len();
        let mask = if (*task).r#where >= 0 {
            (*task).r#where as u32
        } else if cl.r#where != 0 {
            cl.r#where
        } else if ncpu > 0 {
            consts::STARPU_CPU as u32
        } else {
            0
        };
        if mask & consts::STARPU_CPU as u32 == 0 || nimpl as usize >= ncpu {
            return 0;
        }
        match cl.can_execute {
            Some(f) => (f(workerid, task, nimpl) != 0) as c_int,
            None => 1,
        }
    })
}
