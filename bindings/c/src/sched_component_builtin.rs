//! The components this library offers in C (`starpu_sched_component_fifo_create`,
//! `_prio_create`, `_eager_create`, `_random_create`, `_work_stealing_create`,
//! `_worker_get`): C structs whose functions are trampolines into the core's components
//! (`starpu_core::sched::modular::components`), their state boxed in `data`.

use crate::abi::*;
use crate::ffi::{self, report};
use crate::sched_component::*;
use libc::{c_int, c_uint, c_void};
use starpu_core::sched::modular::components::{self, Component, Kind};
use starpu_core::Error;
use std::collections::{HashMap, HashSet};
use std::ptr::null_mut;

pub(crate) unsafe fn builtin<'a>(c: *mut Comp) -> &'a Builtin {
    &*((*c).data as *const Builtin)
}

unsafe extern "C" fn builtin_push(c: *mut Comp, t: *mut starpu_task) -> c_int {
    ffi::guard("push_task", 1, || {
        components::push(&CGraph, c, &builtin(c).comp, CTask(t)).is_err() as c_int
    })
}

unsafe extern "C" fn builtin_pull(c: *mut Comp, to: *mut Comp) -> *mut starpu_task {
    ffi::guard("pull_task", null_mut(), || {
        let to = (!to.is_null()).then_some(to);
        components::pull(&CGraph, c, &builtin(c).comp, to).map_or(null_mut(), |t| t.0)
    })
}

unsafe extern "C" fn builtin_can_push(c: *mut Comp, to: *mut Comp) -> c_int {
    ffi::guard("can_push", 0, || {
        components::can_push(&CGraph, c, &builtin(c).comp, to) as c_int
    })
}

unsafe extern "C" fn builtin_can_pull(c: *mut Comp) -> c_int {
    ffi::guard("can_pull", 0, || {
        components::can_pull(&CGraph, c, &builtin(c).comp) as c_int
    })
}

pub(crate) unsafe extern "C" fn builtin_estimated_load(c: *mut Comp) -> f64 {
    builtin(c).comp.ntasks() as f64 + starpu_sched_component_estimated_load(c)
}

/// A component of this library, of kind `kind`, queues bounded by `threshold`.
pub(crate) unsafe fn make_builtin(
    tree: *mut starpu_sched_tree,
    kind: Kind,
    threshold: usize,
    name: &str,
) -> *mut Comp {
    let cname = std::ffi::CString::new(name).unwrap_or_default();
    let c = starpu_sched_component_create(tree, cname.as_ptr());
    if c.is_null() {
        return c;
    }
    let b = Box::new(Builtin {
        comp: Component::bounded(kind, threshold),
    });
    let r = &mut *c;
    r.data = Box::into_raw(b) as *mut c_void;
    r.push_task = Some(builtin_push);
    r.pull_task = Some(builtin_pull);
    r.can_push = Some(builtin_can_push);
    r.can_pull = Some(builtin_can_pull);
    r.estimated_load = Some(builtin_estimated_load);
    lock(&BUILTINS)
        .get_or_insert_with(HashSet::new)
        .insert(c as usize);
    c
}

/// `starpu_sched_component_fifo_create`: a FIFO queue (bounded by
/// `params->ntasks_threshold` when not 0).
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_component_fifo_create(
    tree: *mut starpu_sched_tree,
    params: *mut starpu_sched_component_fifo_data,
) -> *mut starpu_sched_component {
    let threshold = if params.is_null() {
        0
    } else {
        (*params).ntasks_threshold as usize
    };
    make_builtin(tree, Kind::Fifo, threshold, "fifo")
}

/// `starpu_sched_component_prio_create`: a queue by priority (FIFO among equals).
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_component_prio_create(
    tree: *mut starpu_sched_tree,
    params: *mut starpu_sched_component_prio_data,
) -> *mut starpu_sched_component {
    let threshold = if params.is_null() {
        0
    } else {
        (*params).ntasks_threshold as usize
    };
    make_builtin(tree, Kind::Prio, threshold, "prio")
}

/// `starpu_sched_component_eager_create`: pushes to the first child able to run a task.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_component_eager_create(
    tree: *mut starpu_sched_tree,
    _arg: *mut c_void,
) -> *mut starpu_sched_component {
    make_builtin(tree, Kind::Eager, 0, "eager")
}

/// `starpu_sched_component_random_create`: pushes to a child drawn at random.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_component_random_create(
    tree: *mut starpu_sched_tree,
    _arg: *mut c_void,
) -> *mut starpu_sched_component {
    make_builtin(tree, Kind::Random, 0, "random")
}

/// `starpu_sched_component_work_stealing_create`: one queue per child; idle children
/// steal.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_component_work_stealing_create(
    tree: *mut starpu_sched_tree,
    _arg: *mut c_void,
) -> *mut starpu_sched_component {
    make_builtin(tree, Kind::WorkStealing, 0, "work_stealing")
}

/// `starpu_sched_component_is_fifo` and friends: whether `c` is of this library's kind.
pub(crate) unsafe fn kind_of(c: *mut Comp) -> Option<Kind> {
    (!c.is_null() && is_builtin(c)).then(|| builtin(c).comp.kind())
}

/// `starpu_sched_component_is_fifo`.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_component_is_fifo(c: *mut starpu_sched_component) -> c_int {
    (kind_of(c) == Some(Kind::Fifo)) as c_int
}

/// `starpu_sched_component_is_prio`.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_component_is_prio(c: *mut starpu_sched_component) -> c_int {
    (kind_of(c) == Some(Kind::Prio)) as c_int
}

/// `starpu_sched_component_is_eager`.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_component_is_eager(c: *mut starpu_sched_component) -> c_int {
    (kind_of(c) == Some(Kind::Eager)) as c_int
}

/// `starpu_sched_component_is_random`.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_component_is_random(c: *mut starpu_sched_component) -> c_int {
    (kind_of(c) == Some(Kind::Random)) as c_int
}

/// `starpu_sched_component_is_work_stealing`.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_component_is_work_stealing(
    c: *mut starpu_sched_component,
) -> c_int {
    (kind_of(c) == Some(Kind::WorkStealing)) as c_int
}

/// `starpu_sched_component_worker_get`: the component of `workerid` in context
/// `sched_ctx` (made on first use; it belongs to that context's tree).
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_component_worker_get(
    sched_ctx: c_uint,
    workerid: c_int,
) -> *mut starpu_sched_component {
    let Ok(w) = usize::try_from(workerid) else {
        report(
            "starpu_sched_component_worker_get",
            &Error::invalid(format!("worker {workerid} does not exist")),
        );
        return null_mut();
    };
    if w >= 64 || ffi::runtime().map_or(true, |rt| w >= rt.workers().len()) {
        report(
            "starpu_sched_component_worker_get",
            &Error::invalid(format!("worker {workerid} does not exist")),
        );
        return null_mut();
    }
    if let Some(&c) = lock(&WORKERS).as_ref().and_then(|m| m.get(&(sched_ctx, w))) {
        return c as *mut Comp;
    }
    let c = make_builtin(null_mut(), Kind::Worker(w), 0, &format!("worker {w}"));
    if c.is_null() {
        return c;
    }
    (*c).workers.set_mask(1 << w);
    (*c).workers_in_ctx.set_mask(1 << w);
    (*c).properties = 3; // homogeneous, one memory node
    lock(&WORKERS)
        .get_or_insert_with(HashMap::new)
        .insert((sched_ctx, w), c as usize);
    c
}

/// `starpu_sched_component_worker_new`: as `starpu_sched_component_worker_get`.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_component_worker_new(
    sched_ctx: c_uint,
    workerid: c_int,
) -> *mut starpu_sched_component {
    starpu_sched_component_worker_get(sched_ctx, workerid)
}

/// `starpu_sched_component_is_worker`.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_component_is_worker(c: *mut starpu_sched_component) -> c_int {
    matches!(kind_of(c), Some(Kind::Worker(_))) as c_int
}

/// `starpu_sched_component_is_simple_worker`: every worker component is one here.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_component_is_simple_worker(
    c: *mut starpu_sched_component,
) -> c_int {
    starpu_sched_component_is_worker(c)
}

/// `starpu_sched_component_is_combined_worker`: no combined-worker components here.
#[no_mangle]
pub extern "C" fn starpu_sched_component_is_combined_worker(
    _c: *mut starpu_sched_component,
) -> c_int {
    0
}

/// `starpu_sched_component_worker_get_workerid`: the worker of a worker component, -1
/// for another component.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_component_worker_get_workerid(
    c: *mut starpu_sched_component,
) -> c_int {
    match kind_of(c) {
        Some(Kind::Worker(w)) => w as c_int,
        _ => -1,
    }
}

/// `starpu_sched_component_worker_pre_exec_hook`: StarPU updates the predictions of
/// the worker component; no component here predicts, so there is nothing to update.
#[no_mangle]
pub extern "C" fn starpu_sched_component_worker_pre_exec_hook(
    _task: *mut starpu_task,
    _sched_ctx_id: c_uint,
) {
}

/// `starpu_sched_component_worker_post_exec_hook`: as the pre-exec hook.
#[no_mangle]
pub extern "C" fn starpu_sched_component_worker_post_exec_hook(
    _task: *mut starpu_task,
    _sched_ctx_id: c_uint,
) {
}
