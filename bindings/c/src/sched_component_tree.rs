//! Trees of C components (`starpu_sched_tree_*`), the `struct starpu_sched_policy`
//! functions made of them, and `starpu_sched_component_initialize_simple_scheduler` (the
//! core's layout, `starpu_core::sched::modular::simple`, built with C components).

use crate::abi::*;
use crate::ffi::{self, report};
use crate::sched_component::*;
use crate::sched_component_builtin::*;
use libc::{c_int, c_uint, c_void};
use starpu_core::sched::modular::components::{self, Kind};
use starpu_core::sched::modular::simple::{self, Builder, WorkerPlace};
use starpu_core::sched::modular::Graph;
use starpu_core::Error;
use std::collections::{HashMap, VecDeque};
use std::ptr::null_mut;

// Flags of `starpu_sched_component_initialize_simple_scheduler` (the core's
// `simple::flags`, checked below). The decision is made per worker (the default), per memory node or per
// architecture. PERFMODEL, IMPL, FIFOS_BELOW_READY and FIFOS_BELOW_EXP change nothing in
// this build (no component predicts times); COMBINED_WORKERS and PRE_DECISION are refused.
pub const STARPU_SCHED_SIMPLE_DECIDE_MASK: c_uint = 3;
pub const STARPU_SCHED_SIMPLE_DECIDE_WORKERS: c_uint = 1;
pub const STARPU_SCHED_SIMPLE_DECIDE_MEMNODES: c_uint = 2;
pub const STARPU_SCHED_SIMPLE_DECIDE_ARCHS: c_uint = 3;
pub const STARPU_SCHED_SIMPLE_PERFMODEL: c_uint = 1 << 2;
pub const STARPU_SCHED_SIMPLE_IMPL: c_uint = 1 << 3;
pub const STARPU_SCHED_SIMPLE_FIFO_ABOVE: c_uint = 1 << 4;
pub const STARPU_SCHED_SIMPLE_FIFO_ABOVE_PRIO: c_uint = 1 << 5;
pub const STARPU_SCHED_SIMPLE_FIFOS_BELOW: c_uint = 1 << 6;
pub const STARPU_SCHED_SIMPLE_FIFOS_BELOW_PRIO: c_uint = 1 << 7;
pub const STARPU_SCHED_SIMPLE_FIFOS_BELOW_READY: c_uint = 1 << 8;
pub const STARPU_SCHED_SIMPLE_FIFOS_BELOW_EXP: c_uint = 1 << 9;
pub const STARPU_SCHED_SIMPLE_WS_BELOW: c_uint = 1 << 10;
pub const STARPU_SCHED_SIMPLE_COMBINED_WORKERS: c_uint = 1 << 11;
pub const STARPU_SCHED_SIMPLE_PRE_DECISION: c_uint = 1 << 12;
// The same values as the core's.
const _: () = assert!(
    true && STARPU_SCHED_SIMPLE_DECIDE_MASK == simple::flags::DECIDE_MASK
        && STARPU_SCHED_SIMPLE_DECIDE_WORKERS == simple::flags::DECIDE_WORKERS
        && STARPU_SCHED_SIMPLE_DECIDE_MEMNODES == simple::flags::DECIDE_MEMNODES
        && STARPU_SCHED_SIMPLE_DECIDE_ARCHS == simple::flags::DECIDE_ARCHS
        && STARPU_SCHED_SIMPLE_PERFMODEL == simple::flags::PERFMODEL
        && STARPU_SCHED_SIMPLE_IMPL == simple::flags::IMPL
        && STARPU_SCHED_SIMPLE_FIFO_ABOVE == simple::flags::FIFO_ABOVE
        && STARPU_SCHED_SIMPLE_FIFO_ABOVE_PRIO == simple::flags::FIFO_ABOVE_PRIO
        && STARPU_SCHED_SIMPLE_FIFOS_BELOW == simple::flags::FIFOS_BELOW
        && STARPU_SCHED_SIMPLE_FIFOS_BELOW_PRIO == simple::flags::FIFOS_BELOW_PRIO
        && STARPU_SCHED_SIMPLE_FIFOS_BELOW_READY == simple::flags::FIFOS_BELOW_READY
        && STARPU_SCHED_SIMPLE_FIFOS_BELOW_EXP == simple::flags::FIFOS_BELOW_EXP
        && STARPU_SCHED_SIMPLE_WS_BELOW == simple::flags::WS_BELOW
        && STARPU_SCHED_SIMPLE_COMBINED_WORKERS == simple::flags::COMBINED_WORKERS
        && STARPU_SCHED_SIMPLE_PRE_DECISION == simple::flags::PRE_DECISION
);

/// `starpu_sched_tree_create`: an empty tree for context `sched_ctx_id`.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_tree_create(sched_ctx_id: c_uint) -> *mut starpu_sched_tree {
    let t = libc::calloc(1, std::mem::size_of::<starpu_sched_tree>()) as *mut starpu_sched_tree;
    if t.is_null() {
        return t;
    }
    (*t).sched_ctx_id = sched_ctx_id;
    libc::pthread_mutex_init(&mut (*t).lock, std::ptr::null());
    // Worker components left from an earlier tree of this context (one never destroyed,
    // e.g. by a runtime shut down since) are not this tree's.
    if let Some(m) = lock(&WORKERS).as_mut() {
        m.retain(|(c, _), _| *c != sched_ctx_id);
    }
    lock(&TREES)
        .get_or_insert_with(HashMap::new)
        .insert(sched_ctx_id, (t as usize, VecDeque::new()));
    t
}

/// `starpu_sched_tree_get`: the tree of context `sched_ctx_id` (NULL if none).
#[no_mangle]
pub extern "C" fn starpu_sched_tree_get(sched_ctx_id: c_uint) -> *mut starpu_sched_tree {
    lock(&TREES)
        .as_ref()
        .and_then(|m| m.get(&sched_ctx_id))
        .map_or(null_mut(), |(t, _)| *t as *mut starpu_sched_tree)
}

/// `starpu_sched_tree_destroy`: the tree and every component in it.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_tree_destroy(tree: *mut starpu_sched_tree) {
    if tree.is_null() {
        return;
    }
    let ctx = (*tree).sched_ctx_id;
    if let Some(m) = lock(&TREES).as_mut() {
        if m.get(&ctx).is_some_and(|(t, _)| *t == tree as usize) {
            m.remove(&ctx);
        }
    }
    starpu_sched_component_destroy_rec((*tree).root);
    libc::pthread_mutex_destroy(&mut (*tree).lock);
    libc::free(tree as *mut c_void);
}

/// Sets `workers` of every component below `c` (the union of its children's), and
/// `workers_in_ctx` (those also in the tree's).
unsafe fn update(c: *mut Comp, ctx_mask: u64) -> u64 {
    let m = match kind_of(c) {
        Some(Kind::Worker(w)) => 1u64 << w,
        _ => list((*c).children, (*c).nchildren)
            .into_iter()
            .fold(0, |m, ch| m | update(ch, ctx_mask)),
    };
    (*c).workers.set_mask(m);
    (*c).workers_in_ctx.set_mask(m & ctx_mask);
    m
}

/// `starpu_sched_tree_update_workers`: each component's workers, from the leaves.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_tree_update_workers(t: *mut starpu_sched_tree) {
    if !t.is_null() && !(*t).root.is_null() {
        update((*t).root, (*t).workers.mask());
    }
}

/// `starpu_sched_tree_update_workers_in_ctx`: as `starpu_sched_tree_update_workers`.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_tree_update_workers_in_ctx(t: *mut starpu_sched_tree) {
    starpu_sched_tree_update_workers(t)
}

unsafe fn change_workers(call: &str, ctx: c_uint, ids: *mut c_int, n: c_uint, add: bool) {
    let t = starpu_sched_tree_get(ctx);
    if t.is_null() {
        report(
            call,
            &Error::invalid(format!("context {ctx} has no component tree")),
        );
        return;
    }
    let mut m = (*t).workers.mask();
    let ids = if ids.is_null() {
        &[][..]
    } else {
        std::slice::from_raw_parts(ids, n as usize)
    };
    for &w in ids {
        if !(0..64).contains(&w) {
            report(call, &Error::invalid(format!("worker {w} does not exist")));
            continue;
        }
        if add {
            m |= 1 << w;
        } else {
            m &= !(1 << w);
        }
    }
    (*t).workers.set_mask(m);
    starpu_sched_tree_update_workers(t);
}

/// `starpu_sched_tree_add_workers`: the policy's `add_workers`.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_tree_add_workers(
    sched_ctx_id: c_uint,
    workerids: *mut c_int,
    nworkers: c_uint,
) {
    change_workers(
        "starpu_sched_tree_add_workers",
        sched_ctx_id,
        workerids,
        nworkers,
        true,
    )
}

/// `starpu_sched_tree_remove_workers`: the policy's `remove_workers`.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_tree_remove_workers(
    sched_ctx_id: c_uint,
    workerids: *mut c_int,
    nworkers: c_uint,
) {
    change_workers(
        "starpu_sched_tree_remove_workers",
        sched_ctx_id,
        workerids,
        nworkers,
        false,
    )
}

/// `starpu_sched_tree_push_task`: the policy's `push_task`: into the root of the task's
/// context's tree. A task the root refuses waits in the tree and is handed out last.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_tree_push_task(task: *mut starpu_task) -> c_int {
    if task.is_null() {
        return -libc::EINVAL;
    }
    let ctx = (*task).sched_ctx;
    let t = starpu_sched_tree_get(ctx);
    if t.is_null() || (*t).root.is_null() {
        report(
            "starpu_sched_tree_push_task",
            &Error::invalid(format!("context {ctx} has no component tree with a root")),
        );
        return -libc::EINVAL;
    }
    if let Err(left) = CGraph.push((*t).root, CTask(task)) {
        if let Some((_, q)) = lock(&TREES).as_mut().and_then(|m| m.get_mut(&ctx)) {
            q.push_back(left.0 as usize);
        }
    }
    0
}

/// `starpu_sched_tree_pop_task`: the policy's `pop_task`: the calling worker's
/// component gives a task (its own, else its parents').
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_tree_pop_task(sched_ctx: c_uint) -> *mut starpu_task {
    let Some(w) = starpu_core::worker::current_worker_id() else {
        return null_mut();
    };
    let leaf = lock(&WORKERS)
        .as_ref()
        .and_then(|m| m.get(&(sched_ctx, w)).copied());
    if let Some(leaf) = leaf {
        if let Some(t) = components::pop_for_worker(&CGraph, leaf as *mut Comp) {
            return t.0;
        }
    }
    let mut g = lock(&TREES);
    let Some((_, q)) = g.as_mut().and_then(|m| m.get_mut(&sched_ctx)) else {
        return null_mut();
    };
    let i = q
        .iter()
        .position(|&t| CGraph.can_run(&CTask(t as *mut starpu_task), w));
    i.and_then(|i| q.remove(i))
        .map_or(null_mut(), |t| t as *mut starpu_task)
}

/// Builds the simple layout with C components.
struct CBuilder {
    tree: *mut starpu_sched_tree,
    ctx: u32,
}

impl Builder for CBuilder {
    type Node = *mut Comp;
    fn fifo(&mut self, prio: bool) -> starpu_core::Result<*mut Comp> {
        // SAFETY: the tree was made by starpu_sched_tree_create.
        let c = unsafe {
            if prio {
                starpu_sched_component_prio_create(self.tree, null_mut())
            } else {
                starpu_sched_component_fifo_create(self.tree, null_mut())
            }
        };
        non_null(c)
    }
    fn eager(&mut self) -> starpu_core::Result<*mut Comp> {
        // SAFETY: as above.
        non_null(unsafe { starpu_sched_component_eager_create(self.tree, null_mut()) })
    }
    fn work_stealing(&mut self) -> starpu_core::Result<*mut Comp> {
        // SAFETY: as above.
        non_null(unsafe { starpu_sched_component_work_stealing_create(self.tree, null_mut()) })
    }
    fn worker(&mut self, worker: usize) -> starpu_core::Result<*mut Comp> {
        // SAFETY: as above.
        let c = unsafe { starpu_sched_component_worker_get(self.ctx, worker as c_int) };
        if !c.is_null() {
            // SAFETY: a worker component this library made.
            unsafe { (*c).tree = self.tree };
        }
        non_null(c)
    }
    fn connect(&mut self, parent: *mut Comp, child: *mut Comp) {
        // SAFETY: components made above.
        unsafe { starpu_sched_component_connect(parent, child) }
    }
}

fn non_null(c: *mut Comp) -> starpu_core::Result<*mut Comp> {
    if c.is_null() {
        Err(Error::invalid("a component could not be made"))
    } else {
        Ok(c)
    }
}

/// `starpu_sched_component_initialize_simple_scheduler`: builds the tree of context
/// `sched_ctx_id` with the component `create_decision_component(tree, data)` makes as
/// its decision, laid out by `flags` (`STARPU_SCHED_SIMPLE_*`), and makes it the
/// context's policy data, as StarPU does.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_component_initialize_simple_scheduler(
    create_decision_component: starpu_sched_component_create_t,
    data: *mut c_void,
    flags: c_uint,
    sched_ctx_id: c_uint,
) {
    let call = "starpu_sched_component_initialize_simple_scheduler";
    let r = (|| -> starpu_core::Result<()> {
        let create = create_decision_component
            .ok_or_else(|| Error::invalid("the decision component's create function is NULL"))?;
        let rt = ffi::runtime()?;
        let ids = rt.context_workers(sched_ctx_id)?;
        let places: Vec<WorkerPlace> = ids
            .iter()
            .map(|&id| WorkerPlace {
                id,
                node: rt.workers()[id].node,
                arch: rt.workers()[id].kind.starpu_id(),
            })
            .collect();
        let tree = starpu_sched_tree_create(sched_ctx_id);
        if tree.is_null() {
            return Err(Error::invalid("out of memory"));
        }
        let decision = create(tree, data);
        if decision.is_null() {
            starpu_sched_tree_destroy(tree);
            return Err(Error::invalid(
                "the decision component's create function returned NULL",
            ));
        }
        let mut b = CBuilder {
            tree,
            ctx: sched_ctx_id,
        };
        match simple::build(&mut b, decision, flags, &places) {
            Ok(root) => {
                (*tree).root = root;
                let mask = ids.iter().fold(0u64, |m, &w| m | 1 << w);
                (*tree).workers.set_mask(mask);
                starpu_sched_tree_update_workers(tree);
                crate::sched_ctx::starpu_sched_ctx_set_policy_data(
                    sched_ctx_id,
                    tree as *mut c_void,
                );
                Ok(())
            }
            Err(e) => {
                (*tree).root = decision;
                starpu_sched_tree_destroy(tree);
                Err(e)
            }
        }
    })();
    if let Err(e) = r {
        report(call, &e);
    }
}
