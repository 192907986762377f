//! `starpu_task_insert` and friends: turning a key/value argument list into a task.
//!
//! The C walker (csrc/varargs.c) reads the variadic list into `_starpu_insert_arg`s; this
//! module gives each key its meaning. It is the one decoder: the Fortran binding will
//! translate its argument array to the same records.

use crate::abi::*;
/// The path the Fortran helpers (compiled into this library) import them by.
pub use crate::abi::{_starpu_insert_arg, _starpu_insert_value};
use crate::codelet;
use crate::consts::*;
use crate::ffi::{self, report};
use crate::job::job;
use crate::task::{self, starpu_task_create, starpu_task_destroy};
use libc::{c_int, c_void};
use smallvec::SmallVec;
use starpu_core::task::args;
use starpu_core::task::Access;
use starpu_core::{AccessMode, Codelet, DataHandle, Error};
use std::sync::Arc;

/// What to do with the decoded task.
pub const _STARPU_INSERT_SUBMIT: c_int = 0;
pub const _STARPU_INSERT_BUILD: c_int = 1;
pub const _STARPU_INSERT_SET: c_int = 2;

/// Reports a key the walker does not know; the rest of the list cannot be read.
#[no_mangle]
pub extern "C" fn _starpu_insert_unknown_key(key: c_int) -> c_int {
    report(
        "starpu_task_insert",
        &Error::invalid(format!(
            "unknown argument key {key:#x} (is the list terminated by 0? is an access mode missing?)"
        )),
    );
    -libc::EINVAL
}

/// A callback passed through an argument record.
///
/// # Safety
/// `p` is NULL or was a `void (*)(void *)` in the caller's argument list.
unsafe fn callback(p: *mut c_void) -> starpu_callback_func_t {
    std::mem::transmute::<*mut c_void, starpu_callback_func_t>(p)
}

/// What a caller decoded from the same records already (StarPU-MPI's insertion, which
/// needs the data to place the task): reused here instead of looked up again.
pub(crate) struct Known<'a> {
    /// The core's view of the codelet (`None` for a task without codelet).
    pub codelet: Option<Arc<Codelet>>,
    /// The resolved handle of buffer `i`, in the order of the records (`None`: resolve it
    /// here, which reports a bad one).
    pub handle: &'a dyn Fn(usize) -> Option<DataHandle>,
    /// Access-mode bits the task does not get (`STARPU_SSEND` only tells StarPU-MPI how to
    /// send).
    pub drop_modes: u32,
}

/// Appends handles to a task, in `handles` then in `dyn_handles` past STARPU_NMAXBUFS.
struct Buffers {
    /// The core's view of the codelet, whose rules check each buffer.
    cl: Option<Arc<Codelet>>,
    /// Check each buffer as it is given: for a task built, not submitted, by this call (a
    /// submitted task's buffers are checked by the core's submission, once).
    check_now: bool,
    handles: SmallVec<[(starpu_data_handle_t, u32); STARPU_NMAXBUFS]>,
}

impl Buffers {
    /// Adds buffer `handle` with `mode` (0: the codelet's).
    fn push(&mut self, handle: starpu_data_handle_t, mode: u32) -> starpu_core::Result<()> {
        let i = self.handles.len();
        let cl = self
            .cl
            .as_ref()
            .ok_or_else(|| Error::invalid("data given for a task without codelet"))?;
        let mode = if self.check_now {
            cl.check_buffer(i, AccessMode::from_bits_retain(mode))?
                .bits()
        } else {
            mode
        };
        // The handle itself is checked once, when the task is submitted.
        self.handles.push((handle, mode));
        Ok(())
    }

    /// The core's accesses for the buffers (each handle resolved, or taken from `known`;
    /// modes as given).
    fn accesses(&self, known: Option<&Known>) -> starpu_core::Result<SmallVec<[Access; 4]>> {
        let mut out = SmallVec::with_capacity(self.handles.len());
        for (i, &(h, mode)) in self.handles.iter().enumerate() {
            let handle = match known.and_then(|k| (k.handle)(i)) {
                Some(handle) => handle,
                None => ffi::handle(h)
                    .map_err(|e| Error::invalid(format!("buffer {i}: {}", e.message)))?,
            };
            out.push(Access {
                handle,
                mode: AccessMode::from_bits_retain(mode),
                sequential: true,
            });
        }
        Ok(out)
    }

    /// Stores the buffers into the task.
    unsafe fn store(&self, t: *mut starpu_task) {
        let n = self.handles.len();
        (*t).nbuffers = n as c_int;
        if n <= STARPU_NMAXBUFS {
            for (i, &(h, m)) in self.handles.iter().enumerate() {
                (*t).handles[i] = h;
                (*t).modes[i] = m;
            }
            return;
        }
        let hs = libc::malloc(n * std::mem::size_of::<starpu_data_handle_t>())
            as *mut starpu_data_handle_t;
        let ms = libc::malloc(n * std::mem::size_of::<u32>()) as *mut u32;
        for (i, &(h, m)) in self.handles.iter().enumerate() {
            *hs.add(i) = h;
            *ms.add(i) = m;
        }
        (*t).dyn_handles = hs;
        (*t).dyn_modes = ms;
        job(t).owns_dyn = true;
    }
}

/// Fills `t` from the argument records; for a task to submit (`submitting`), returns the
/// core's conversion of the codelet and the buffers.
unsafe fn apply(
    t: *mut starpu_task,
    cl: *mut starpu_codelet,
    args: &[_starpu_insert_arg],
    submitting: bool,
    known: Option<Known>,
) -> starpu_core::Result<Option<task::Decoded>> {
    let tr = &mut *t;
    tr.cl = cl;
    let (codelet, keep) = match &known {
        Some(k) => (k.codelet.clone(), !k.drop_modes),
        None => ((!cl.is_null()).then(|| codelet::lookup(cl)), !0),
    };
    let mut buffers = Buffers {
        cl: codelet,
        check_now: !submitting,
        handles: SmallVec::new(),
    };
    // The `STARPU_VALUE`s, packed once all are known.
    let mut values: SmallVec<[&[u8]; 8]> = SmallVec::new();
    for (pos, a) in args.iter().enumerate() {
        let key = a.key;
        if key > 0 && key < STARPU_VALUE {
            buffers.push(a.a.p as starpu_data_handle_t, key as u32 & keep)?;
            continue;
        }
        match key {
            STARPU_VALUE => {
                let len = a.b.u as usize;
                if a.a.p.is_null() && len > 0 {
                    return Err(Error::invalid(format!(
                        "argument {pos}: STARPU_VALUE with a NULL pointer and size {len}"
                    )));
                }
                let bytes = if len == 0 {
                    &[][..]
                } else {
                    std::slice::from_raw_parts(a.a.p as *const u8, len)
                };
                values.push(bytes);
            }
            STARPU_CL_ARGS | STARPU_CL_ARGS_NFREE => {
                tr.cl_arg = a.a.p;
                tr.cl_arg_size = a.b.u as usize;
                tr.cl_arg_free = (key == STARPU_CL_ARGS) as u32;
            }
            STARPU_CALLBACK => tr.callback_func = callback(a.a.p),
            STARPU_CALLBACK_WITH_ARG | STARPU_CALLBACK_WITH_ARG_NFREE => {
                tr.callback_func = callback(a.a.p);
                tr.callback_arg = a.b.p;
                tr.callback_arg_free = (key == STARPU_CALLBACK_WITH_ARG) as u32;
            }
            STARPU_CALLBACK_ARG | STARPU_CALLBACK_ARG_NFREE => {
                tr.callback_arg = a.a.p;
                tr.callback_arg_free = (key == STARPU_CALLBACK_ARG) as u32;
            }
            STARPU_PROLOGUE_CALLBACK => tr.prologue_callback_func = callback(a.a.p),
            STARPU_PROLOGUE_CALLBACK_ARG | STARPU_PROLOGUE_CALLBACK_ARG_NFREE => {
                tr.prologue_callback_arg = a.a.p;
                tr.prologue_callback_arg_free = (key == STARPU_PROLOGUE_CALLBACK_ARG) as u32;
            }
            STARPU_PROLOGUE_CALLBACK_POP => tr.prologue_callback_pop_func = callback(a.a.p),
            STARPU_PROLOGUE_CALLBACK_POP_ARG | STARPU_PROLOGUE_CALLBACK_POP_ARG_NFREE => {
                tr.prologue_callback_pop_arg = a.a.p;
                tr.prologue_callback_pop_arg_free =
                    (key == STARPU_PROLOGUE_CALLBACK_POP_ARG) as u32;
            }
            STARPU_EPILOGUE_CALLBACK => tr.epilogue_callback_func = callback(a.a.p),
            STARPU_EPILOGUE_CALLBACK_ARG => tr.epilogue_callback_arg = a.a.p,
            STARPU_SOON_CALLBACK => tr.soon_callback_func = callback(a.a.p),
            STARPU_SOON_CALLBACK_ARG | STARPU_SOON_CALLBACK_ARG_NFREE => {
                tr.soon_callback_arg = a.a.p;
                tr.soon_callback_arg_free = (key == STARPU_SOON_CALLBACK_ARG) as u32;
            }
            STARPU_PRIORITY => tr.priority = a.a.i as c_int,
            // Where to run in a multi-process (MPI) program: meaningless without MPI.
            STARPU_EXECUTE_ON_NODE | STARPU_EXECUTE_ON_DATA | STARPU_NODE_SELECTION_POLICY => {}
            STARPU_DATA_ARRAY => {
                let hs = a.a.p as *const starpu_data_handle_t;
                for i in 0..a.b.i.max(0) as usize {
                    buffers.push(*hs.add(i), 0)?;
                }
            }
            STARPU_DATA_MODE_ARRAY => {
                let ds = a.a.p as *const starpu_data_descr;
                for i in 0..a.b.i.max(0) as usize {
                    let d = *ds.add(i);
                    buffers.push(d.handle, d.mode & keep)?;
                }
            }
            STARPU_TAG => {
                tr.tag_id = a.a.u;
                tr.use_tag = 1;
            }
            STARPU_TAG_ONLY => tr.tag_id = a.a.u,
            STARPU_HYPERVISOR_TAG => tr.hypervisor_tag = a.a.i as c_int,
            STARPU_FLOPS => tr.flops = a.a.d,
            STARPU_SCHED_CTX => tr.sched_ctx = a.a.u as u32,
            STARPU_EXECUTE_ON_WORKER => {
                let w = a.a.i;
                if w >= 0 {
                    tr.execute_on_a_specific_worker = 1;
                    tr.workerid = w as u32;
                }
            }
            STARPU_WORKER_ORDER => tr.workerorder = a.a.u as u32,
            STARPU_EXECUTE_WHERE => tr.r#where = a.a.u as i32,
            STARPU_POSSIBLY_PARALLEL => tr.possibly_parallel = a.a.u as u32,
            STARPU_NAME => tr.name = a.a.p as *const libc::c_char,
            STARPU_TASK_FILE => tr.file = a.a.p as *const libc::c_char,
            STARPU_TASK_LINE => tr.line = a.a.i as c_int,
            STARPU_TASK_DEPS_ARRAY => task::starpu_task_declare_deps_array(
                t,
                a.b.u as u32,
                a.a.p as *mut *mut starpu_task,
            ),
            STARPU_TASK_END_DEPS_ARRAY => task::starpu_task_declare_end_deps_array(
                t,
                a.b.u as u32,
                a.a.p as *mut *mut starpu_task,
            ),
            STARPU_TASK_END_DEP => task::starpu_task_end_dep_add(t, a.a.i as c_int),
            STARPU_TASK_COLOR => tr.color = a.a.i as u32,
            STARPU_HANDLES_SEQUENTIAL_CONSISTENCY => {
                tr.handles_sequential_consistency = a.a.p as *mut u8
            }
            STARPU_TASK_SYNCHRONOUS => tr.synchronous = (a.a.i != 0) as u32,
            STARPU_TASK_WORKERIDS => {
                tr.workerids_len = a.b.u as u32;
                tr.workerids = a.a.p as *mut u32;
            }
            STARPU_SEQUENTIAL_CONSISTENCY => tr.sequential_consistency = a.a.u as u32,
            STARPU_TASK_PROFILING_INFO => {
                tr.profiling_info = a.a.p as *mut starpu_profiling_task_info
            }
            STARPU_TASK_NO_SUBMITORDER => tr.no_submitorder = a.a.u as u32,
            STARPU_TASK_SCHED_DATA => tr.sched_data = a.a.p,
            STARPU_TRANSACTION => tr.transaction = a.a.p,
            STARPU_RECURSIVE_TASK_FUNC => {
                tr.recursive_task_func = std::mem::transmute::<
                    *mut c_void,
                    Option<unsafe extern "C" fn(*mut starpu_task, *mut c_void) -> c_int>,
                >(a.a.p)
            }
            STARPU_RECURSIVE_TASK_FUNC_ARG => tr.recursive_task_func_arg = a.a.p,
            STARPU_RECURSIVE_TASK_GEN_DAG_FUNC => {
                tr.recursive_task_gen_dag_func = std::mem::transmute::<
                    *mut c_void,
                    Option<unsafe extern "C" fn(*mut starpu_task, *mut c_void)>,
                >(a.a.p)
            }
            STARPU_RECURSIVE_TASK_GEN_DAG_FUNC_ARG => tr.recursive_task_gen_dag_func_arg = a.a.p,
            STARPU_RECURSIVE_TASK_PARENT => tr.recursive_task_parent = a.a.p as *mut starpu_task,
            _ => return Err(Error::invalid(format!("unknown argument key {key:#x}"))),
        }
    }
    if let Some(cl) = &buffers.cl {
        cl.check_count(buffers.handles.len())?;
    }
    let accesses = if submitting {
        Some(buffers.accesses(known.as_ref())?)
    } else {
        None
    };
    buffers.store(t);
    if !values.is_empty() {
        let len = args::packed_len(&values);
        let buf = libc::malloc(len) as *mut u8;
        if buf.is_null() {
            return Err(Error::new(
                starpu_core::ErrorKind::OutOfMemory,
                "cannot allocate task arguments",
            ));
        }
        args::pack_into(&values, std::slice::from_raw_parts_mut(buf, len));
        tr.cl_arg = buf.cast();
        tr.cl_arg_size = len;
        tr.cl_arg_free = 1;
    }
    Ok(match (buffers.cl, accesses) {
        (Some(codelet), Some(accesses)) => Some(task::Decoded { codelet, accesses }),
        _ => None,
    })
}

/// Builds (and with `_STARPU_INSERT_SUBMIT` submits) a task from argument records.
/// On error nothing is submitted and a task this call created is freed.
///
/// # Safety
/// `args` holds `nargs` records; their pointers are what the C caller passed.
#[no_mangle]
pub unsafe extern "C" fn _starpu_task_insert_args(
    action: c_int,
    task: *mut starpu_task,
    cl: *mut starpu_codelet,
    args: *const _starpu_insert_arg,
    nargs: c_int,
    out: *mut *mut starpu_task,
) -> c_int {
    let args = if nargs > 0 {
        std::slice::from_raw_parts(args, nargs as usize)
    } else {
        &[]
    };
    insert_args(action, task, cl, args, out, None)
}

/// `_starpu_task_insert_args` over a slice, with what the caller decoded already.
///
/// # Safety
/// As `_starpu_task_insert_args`; `known` was decoded from the same `cl` and `args`.
pub(crate) unsafe fn insert_args(
    action: c_int,
    task: *mut starpu_task,
    cl: *mut starpu_codelet,
    args: &[_starpu_insert_arg],
    out: *mut *mut starpu_task,
    known: Option<Known>,
) -> c_int {
    let call = match action {
        _STARPU_INSERT_BUILD => "starpu_task_build",
        _STARPU_INSERT_SET => "starpu_task_set",
        _ => "starpu_task_insert",
    };
    ffi::guard(call, -libc::EINVAL, || {
        // Checked again by the submission; here so that nothing is built for nothing.
        if action == _STARPU_INSERT_SUBMIT && !starpu_core::runtime::is_initialized() {
            let e = Error::not_initialized();
            report(call, &e);
            return -e.errno();
        }
        let t = if action == _STARPU_INSERT_SET {
            task
        } else {
            starpu_task_create()
        };
        if t.is_null() {
            report(call, &Error::invalid("task is NULL"));
            return -libc::EINVAL;
        }
        let decoded = match apply(t, cl, args, action == _STARPU_INSERT_SUBMIT, known) {
            Ok(c) => c,
            Err(e) => {
                report(call, &e);
                if action != _STARPU_INSERT_SET {
                    starpu_task_destroy(t);
                }
                return -e.errno();
            }
        };
        match action {
            _STARPU_INSERT_SUBMIT => {
                let ret = task::submit(t, call, decoded);
                if ret != 0 {
                    starpu_task_destroy(t);
                }
                ret
            }
            _ => {
                if !out.is_null() {
                    *out = t;
                }
                0
            }
        }
    })
}
