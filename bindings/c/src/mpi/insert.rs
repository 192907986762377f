//! `starpu_mpi_task_insert` and its parts: the C walker (csrc/mpi_varargs.c) reads the
//! argument list into the same records as `starpu_task_insert`'s; here the MPI keys and
//! the data are taken from them, the crate decides where the task runs and moves the
//! data, and the task itself is made by `starpu_task_insert`'s decoder.

use super::{comm, handle};
use crate::abi::starpu_mpi_task_exchange_params;
use crate::abi::{
    _starpu_insert_arg, starpu_codelet, starpu_data_descr, starpu_data_handle_t, starpu_task,
};
use crate::codelet;
use crate::consts::*;
use crate::ffi::{self, c_handle, report};
use crate::insert::{insert_args, Known, _STARPU_INSERT_BUILD, _STARPU_INSERT_SUBMIT};
use libc::c_int;
use smallvec::SmallVec;
use starpu_core::{AccessMode, Codelet, Error, Result};
use starpu_mpi::ffi::MPI_Comm;
use starpu_mpi::{DataAccess, ExecuteOn, Mpi, Placement, CURRENT_POLICY};
use std::sync::{Arc, Mutex};

/// What to do with the arguments.
pub const _STARPU_MPI_INSERT: c_int = 0;
pub const _STARPU_MPI_BUILD: c_int = 1;
pub const _STARPU_MPI_POST_BUILD: c_int = 2;

/// The MPI side of an argument list.
struct Decoded {
    /// The core's view of the codelet, for the task's own insertion.
    codelet: Option<Arc<Codelet>>,
    /// One per buffer, in the order of the records.
    data: SmallVec<[DataAccess; 4]>,
    execute_on: Option<ExecuteOn>,
    policy: i32,
    prio: i32,
}

fn access(h: starpu_data_handle_t, mode: u32) -> Result<DataAccess> {
    Ok(DataAccess {
        handle: if h.is_null() { None } else { Some(handle(h)?) },
        mode: AccessMode::from_bits_retain(mode),
    })
}

unsafe fn decode(cl: *mut starpu_codelet, args: &[_starpu_insert_arg]) -> Result<Decoded> {
    let core_cl = (!cl.is_null()).then(|| codelet::lookup(cl));
    let codelet_mode = |i: usize| {
        core_cl
            .as_ref()
            .and_then(|c| c.modes.get(i).copied())
            .map_or(0, |m| m.bits())
    };
    let mut d = Decoded {
        codelet: None,
        data: SmallVec::new(),
        execute_on: None,
        policy: CURRENT_POLICY,
        prio: 0,
    };
    for a in args {
        let key = a.key;
        if key > 0 && key < STARPU_VALUE {
            d.data
                .push(access(a.a.p as starpu_data_handle_t, key as u32)?);
            continue;
        }
        match key {
            STARPU_EXECUTE_ON_NODE => {
                let r = a.a.i as i32;
                if r != -1 && d.execute_on.is_none() {
                    d.execute_on = Some(ExecuteOn::Node(r));
                }
            }
            STARPU_EXECUTE_ON_DATA if d.execute_on.is_none() => {
                d.execute_on = Some(ExecuteOn::Data(handle(a.a.p as starpu_data_handle_t)?));
            }
            STARPU_NODE_SELECTION_POLICY => d.policy = a.a.i as i32,
            STARPU_PRIORITY => d.prio = a.a.i as i32,
            STARPU_DATA_ARRAY => {
                let hs = a.a.p as *const starpu_data_handle_t;
                for i in 0..a.b.i.max(0) as usize {
                    let mode = codelet_mode(d.data.len());
                    d.data.push(access(*hs.add(i), mode)?);
                }
            }
            STARPU_DATA_MODE_ARRAY => {
                let ds = a.a.p as *const starpu_data_descr;
                for i in 0..a.b.i.max(0) as usize {
                    let x = *ds.add(i);
                    d.data.push(access(x.handle, x.mode)?);
                }
            }
            _ => {}
        }
    }
    d.codelet = core_cl;
    Ok(d)
}

/// `starpu_mpi_task_insert` / `_build` / `_post_build` from argument records: returns 0
/// or -errno; a built task (or NULL on the processes that do not run it) goes to `out`.
///
/// # Safety
/// `args` holds `nargs` records; their pointers are what the C caller passed.
#[no_mangle]
pub unsafe extern "C" fn _starpu_mpi_task_insert_args(
    action: c_int,
    c: MPI_Comm,
    cl: *mut starpu_codelet,
    args: *const _starpu_insert_arg,
    nargs: c_int,
    out: *mut *mut starpu_task,
) -> c_int {
    let name = match action {
        _STARPU_MPI_BUILD => "starpu_mpi_task_build",
        _STARPU_MPI_POST_BUILD => "starpu_mpi_task_post_build",
        _ => "starpu_mpi_task_insert",
    };
    if !out.is_null() {
        *out = std::ptr::null_mut();
    }
    let args = if nargs > 0 {
        std::slice::from_raw_parts(args, nargs as usize)
    } else {
        &[]
    };
    ffi::int_call(name, || {
        super::with_mpi(|m| mpi_insert_args(m, action, c, cl, args, out))
    })
}

/// The body of `_starpu_mpi_task_insert_args`.
unsafe fn mpi_insert_args(
    m: &Mpi,
    action: c_int,
    c: MPI_Comm,
    cl: *mut starpu_codelet,
    args: &[_starpu_insert_arg],
    out: *mut *mut starpu_task,
) -> Result<()> {
    let d = decode(cl, args)?;
    let c = comm(c);
    let p = m.place(c, &d.data, d.execute_on.as_ref(), d.policy)?;
    if action == _STARPU_MPI_POST_BUILD {
        return m.exchange_after(c, &d.data, &p, d.prio);
    }
    m.exchange_before(c, &d.data, &p, d.prio)?;
    let made = if p.do_execute {
        make_task(action, cl, args, &d, out)
    } else {
        Ok(())
    };
    // Made even when the task could not be: the other processes expect these transfers.
    if action == _STARPU_MPI_INSERT {
        m.exchange_after(c, &d.data, &p, d.prio)?;
    }
    made
}

/// The task itself, on the process that runs it: built (`_STARPU_MPI_BUILD`, into
/// `out`) or submitted, from the codelet and handles `d` resolved already. `STARPU_SSEND`
/// only tells StarPU-MPI how to send: the task gets the access modes without it.
unsafe fn make_task(
    action: c_int,
    cl: *mut starpu_codelet,
    args: &[_starpu_insert_arg],
    d: &Decoded,
    out: *mut *mut starpu_task,
) -> Result<()> {
    // The hook sees each task before its submission: with one, the task is built, shown,
    // then submitted.
    let hook = *PRE_SUBMIT_HOOK.lock().unwrap_or_else(|e| e.into_inner());
    let submit_here = action == _STARPU_MPI_INSERT && hook.is_none();
    let how = if submit_here {
        _STARPU_INSERT_SUBMIT
    } else {
        _STARPU_INSERT_BUILD
    };
    let handle = |i: usize| d.data.get(i).and_then(|a| a.handle.clone());
    let known = Known {
        codelet: d.codelet.clone(),
        handle: &handle,
        drop_modes: AccessMode::SSEND.bits(),
    };
    let mut task = std::ptr::null_mut();
    let ret = insert_args(how, std::ptr::null_mut(), cl, args, &mut task, Some(known));
    if ret != 0 {
        return Err(Error::new(
            errno_kind(ret),
            "the task could not be made (see above)",
        ));
    }
    if action == _STARPU_MPI_BUILD {
        if !out.is_null() {
            *out = task;
        }
    } else if let (false, Some(f)) = (submit_here, hook) {
        f(task);
        let ret = crate::task::starpu_task_submit(task);
        if ret != 0 {
            crate::task::starpu_task_destroy(task);
            return Err(Error::new(
                errno_kind(ret),
                "the task could not be submitted (see above)",
            ));
        }
    }
    Ok(())
}

fn errno_kind(ret: c_int) -> starpu_core::ErrorKind {
    use starpu_core::ErrorKind::*;
    match -ret {
        libc::ENODEV => NoDevice,
        libc::ENOMEM => OutOfMemory,
        libc::EDEADLK => Deadlock,
        _ => InvalidArgument,
    }
}

/// The task's data as `starpu_data_descr` records and as the crate's accesses. Their
/// number and modes come from the codelet, or from the task for codelets with a
/// variable number of buffers (StarPU's `STARPU_TASK_GET_NBUFFERS` / `_GET_MODE`).
unsafe fn task_data(
    task: *mut starpu_task,
    descrs: *mut starpu_data_descr,
) -> Result<Vec<DataAccess>> {
    let t = &*task;
    let variable = t.cl.is_null() || (*t.cl).nbuffers == STARPU_VARIABLE_NBUFFERS;
    let n = if variable {
        t.nbuffers
    } else {
        (*t.cl).nbuffers
    }
    .max(0) as usize;
    let cl = (!t.cl.is_null()).then(|| codelet::lookup(t.cl));
    let task_modes = variable || !t.dyn_modes.is_null();
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let h = if t.dyn_handles.is_null() {
            t.handles[i]
        } else {
            *t.dyn_handles.add(i)
        };
        let mode = match (&cl, task_modes) {
            (Some(c), false) => c.modes.get(i).map_or(0, |m| m.bits()),
            _ if t.dyn_modes.is_null() => t.modes[i],
            _ => *t.dyn_modes.add(i),
        };
        *descrs.add(i) = starpu_data_descr { handle: h, mode };
        out.push(access(h, mode)?);
    }
    Ok(out)
}

/// `starpu_mpi_task_exchange_data_before_execution`: for a task the application made,
/// decides where it runs (into `params`) and starts the transfers before it; fills
/// `descrs` (one per buffer) for `starpu_mpi_task_exchange_data_after_execution`.
///
/// # Safety
/// `task` is a task with its buffers set; `descrs` has room for one record per buffer.
#[no_mangle]
pub unsafe extern "C" fn starpu_mpi_task_exchange_data_before_execution(
    c: MPI_Comm,
    task: *mut starpu_task,
    descrs: *mut starpu_data_descr,
    params: *mut starpu_mpi_task_exchange_params,
) -> c_int {
    super::call("starpu_mpi_task_exchange_data_before_execution", |m| {
        for (p, what) in [
            (task as *const u8, "task"),
            (descrs as *const u8, "descrs"),
            (params as *const u8, "params"),
        ] {
            ffi::non_null(p, what)?;
        }
        let data = task_data(task, descrs)?;
        let prio = (*task).priority;
        let p = m.place(comm(c), &data, None, CURRENT_POLICY)?;
        m.exchange_before(comm(c), &data, &p, prio)?;
        *params = starpu_mpi_task_exchange_params {
            do_execute: p.do_execute as c_int,
            xrank: p.xrank,
            priority: prio,
        };
        Ok(())
    })
}

/// `starpu_mpi_task_exchange_data_after_execution`.
///
/// # Safety
/// `descrs` holds `nb_data` records from `starpu_mpi_task_exchange_data_before_execution`.
#[no_mangle]
pub unsafe extern "C" fn starpu_mpi_task_exchange_data_after_execution(
    c: MPI_Comm,
    descrs: *mut starpu_data_descr,
    nb_data: libc::c_uint,
    params: starpu_mpi_task_exchange_params,
) -> c_int {
    super::call("starpu_mpi_task_exchange_data_after_execution", |m| {
        let mut data = Vec::new();
        if nb_data > 0 {
            ffi::non_null(descrs, "descrs")?;
            for x in std::slice::from_raw_parts(descrs, nb_data as usize) {
                data.push(access(x.handle, x.mode)?);
            }
        }
        let p = Placement {
            xrank: params.xrank,
            do_execute: params.do_execute != 0,
        };
        m.exchange_after(comm(c), &data, &p, params.priority)
    })
}

/// `starpu_mpi_select_node_policy_func_t`.
pub type starpu_mpi_select_node_policy_func_t =
    Option<unsafe extern "C" fn(c_int, c_int, *mut starpu_data_descr, c_int) -> c_int>;

/// `starpu_mpi_node_selection_register_policy`: returns the policy's number.
#[no_mangle]
pub extern "C" fn starpu_mpi_node_selection_register_policy(
    f: starpu_mpi_select_node_policy_func_t,
) -> c_int {
    let Some(f) = f else {
        report(
            "starpu_mpi_node_selection_register_policy",
            &Error::invalid("the policy function is NULL"),
        );
        return -libc::EINVAL;
    };
    super::value(
        "starpu_mpi_node_selection_register_policy",
        -libc::EINVAL,
        |m| {
            m.node_selection_register_policy(Arc::new(
                move |_: &Mpi, me, nb, data: &[DataAccess]| {
                    let mut descrs: Vec<starpu_data_descr> = data
                        .iter()
                        .map(|a| starpu_data_descr {
                            handle: a.handle.as_ref().map_or(std::ptr::null_mut(), c_handle),
                            mode: a.mode.bits(),
                        })
                        .collect();
                    // SAFETY: the application's policy over an array of descrs.len() records.
                    unsafe { f(me, nb, descrs.as_mut_ptr(), descrs.len() as c_int) }
                },
            ))
        },
    )
}

/// `starpu_mpi_node_selection_unregister_policy`.
#[no_mangle]
pub extern "C" fn starpu_mpi_node_selection_unregister_policy(policy: c_int) -> c_int {
    super::call("starpu_mpi_node_selection_unregister_policy", |m| {
        m.node_selection_unregister_policy(policy)
    })
}

/// `starpu_mpi_node_selection_get_current_policy`.
#[no_mangle]
pub extern "C" fn starpu_mpi_node_selection_get_current_policy() -> c_int {
    super::value("starpu_mpi_node_selection_get_current_policy", -1, |m| {
        Ok(m.node_selection_current_policy())
    })
}

/// `starpu_mpi_node_selection_set_current_policy`.
#[no_mangle]
pub extern "C" fn starpu_mpi_node_selection_set_current_policy(policy: c_int) -> c_int {
    super::call("starpu_mpi_node_selection_set_current_policy", |m| {
        m.node_selection_set_current_policy(policy)
    })
}

type Hook = unsafe extern "C" fn(*mut starpu_task);
static PRE_SUBMIT_HOOK: Mutex<Option<Hook>> = Mutex::new(None);

/// `starpu_mpi_pre_submit_hook_register`: `f` sees each task `starpu_mpi_task_insert`
/// submits on this process.
#[no_mangle]
pub extern "C" fn starpu_mpi_pre_submit_hook_register(f: Option<Hook>) -> c_int {
    *PRE_SUBMIT_HOOK.lock().unwrap_or_else(|e| e.into_inner()) = f;
    0
}

/// `starpu_mpi_pre_submit_hook_unregister`.
#[no_mangle]
pub extern "C" fn starpu_mpi_pre_submit_hook_unregister() -> c_int {
    *PRE_SUBMIT_HOOK.lock().unwrap_or_else(|e| e.into_inner()) = None;
    0
}
