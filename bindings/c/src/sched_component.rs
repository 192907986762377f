//! Modular schedulers in C (`starpu_sched_component.h`): `struct starpu_sched_component`
//! and `struct starpu_sched_tree` with StarPU 1.4's layout, so that an application writes
//! its own components (`push_task` / `pull_task` / `can_push` / `can_pull`) and builds
//! trees as StarPU's examples/scheduler/ do, usually through
//! `starpu_sched_component_initialize_simple_scheduler` and a `struct starpu_sched_policy`
//! made of `starpu_sched_tree_*` (adapted to the core by `sched_policy.rs`).
//!
//! The algorithms (default `can_push`/`can_pull`, `pump_to`, the pop walk, the simple
//! layout) and the components this library offers (fifo, prio, eager, random, work
//! stealing, worker) are the core's (`starpu_core::sched::modular`); here each component
//! is a C struct, whose functions are the application's or trampolines into the core.

use crate::ffi::{self, report};
use crate::sched_policy::{
    starpu_wake_worker_relax_light, starpu_worker_can_execute_task_first_impl,
};
use crate::types::starpu_task;
use libc::{c_char, c_int, c_uint, c_ulong, c_void};
use starpu_core::sched::modular::components::{self, Component, Kind};
use starpu_core::sched::modular::simple::{self, Builder, WorkerPlace};
use starpu_core::sched::modular::{self as modular, Graph};
use starpu_core::Error;
use std::collections::{HashMap, HashSet, VecDeque};
use std::ptr::null_mut;
use std::sync::Mutex;

/// `struct starpu_bitmap` (StarPU 1.4: a plain struct, embedded in the components).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct starpu_bitmap {
    /// One word: `STARPU_NMAXWORKERS` is 64 here.
    pub bits: [c_ulong; 1],
    pub cardinal: c_int,
}

impl starpu_bitmap {
    #[allow(clippy::unnecessary_cast)] // c_ulong is not u64 everywhere
    fn mask(&self) -> u64 {
        self.bits[0] as u64
    }
    fn set_mask(&mut self, m: u64) {
        self.bits[0] = m as c_ulong;
        self.cardinal = m.count_ones() as c_int;
    }
}

type Comp = starpu_sched_component;

/// `struct starpu_sched_component`, field for field as StarPU 1.4's.
#[repr(C)]
pub struct starpu_sched_component {
    pub tree: *mut starpu_sched_tree,
    pub workers: starpu_bitmap,
    pub workers_in_ctx: starpu_bitmap,
    pub data: *mut c_void,
    pub name: *mut c_char,
    pub nchildren: c_uint,
    pub children: *mut *mut starpu_sched_component,
    pub nparents: c_uint,
    pub parents: *mut *mut starpu_sched_component,
    pub add_child: Option<unsafe extern "C" fn(*mut Comp, *mut Comp)>,
    pub remove_child: Option<unsafe extern "C" fn(*mut Comp, *mut Comp)>,
    pub add_parent: Option<unsafe extern "C" fn(*mut Comp, *mut Comp)>,
    pub remove_parent: Option<unsafe extern "C" fn(*mut Comp, *mut Comp)>,
    pub push_task: Option<unsafe extern "C" fn(*mut Comp, *mut starpu_task) -> c_int>,
    pub pull_task: Option<unsafe extern "C" fn(*mut Comp, *mut Comp) -> *mut starpu_task>,
    pub can_push: Option<unsafe extern "C" fn(*mut Comp, *mut Comp) -> c_int>,
    pub can_pull: Option<unsafe extern "C" fn(*mut Comp) -> c_int>,
    pub notify: Option<unsafe extern "C" fn(*mut Comp, c_int, *mut c_void) -> c_int>,
    pub estimated_load: Option<unsafe extern "C" fn(*mut Comp) -> f64>,
    pub estimated_end: Option<unsafe extern "C" fn(*mut Comp) -> f64>,
    pub deinit_data: Option<unsafe extern "C" fn(*mut Comp)>,
    pub notify_change_workers: Option<unsafe extern "C" fn(*mut Comp)>,
    pub properties: c_int,
    /// StarPU's `hwloc_obj_t obj` (a pointer); unused here.
    pub obj: *mut c_void,
}

/// `struct starpu_sched_tree`, field for field as StarPU 1.4's.
#[repr(C)]
pub struct starpu_sched_tree {
    pub root: *mut starpu_sched_component,
    pub workers: starpu_bitmap,
    pub sched_ctx_id: c_uint,
    pub lock: libc::pthread_mutex_t,
}

/// `typedef struct starpu_sched_component *(*starpu_sched_component_create_t)(struct
/// starpu_sched_tree *tree, void *data)`.
pub type starpu_sched_component_create_t = Option<
    unsafe extern "C" fn(*mut starpu_sched_tree, *mut c_void) -> *mut starpu_sched_component,
>;

/// `struct starpu_sched_component_fifo_data`: parameters of the fifo component.
#[repr(C)]
pub struct starpu_sched_component_fifo_data {
    pub ntasks_threshold: c_uint,
    pub exp_len_threshold: f64,
    pub ready: c_int,
    pub exp: c_int,
}

/// `struct starpu_sched_component_prio_data`: parameters of the prio component.
#[repr(C)]
pub struct starpu_sched_component_prio_data {
    pub ntasks_threshold: c_uint,
    pub exp_len_threshold: f64,
    pub ready: c_int,
    pub exp: c_int,
}

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

/// A C task pointer, as the core's components hold it.
#[derive(Clone, Copy)]
struct CTask(*mut starpu_task);
// SAFETY: a submitted task's struct is shared with the workers as in StarPU.
unsafe impl Send for CTask {}
unsafe impl Sync for CTask {}

/// The state of a component this library made (in its `data`).
struct Builtin {
    comp: Component<CTask>,
}

/// Components this library made (their `data` is a `Builtin`), by address.
static BUILTINS: Mutex<Option<HashSet<usize>>> = Mutex::new(None);
/// Worker components, by (context, worker).
static WORKERS: Mutex<Option<HashMap<(u32, usize), usize>>> = Mutex::new(None);
/// A tree's address, and the tasks its root refused.
type TreeEntry = (usize, VecDeque<usize>);
/// Trees by context.
static TREES: Mutex<Option<HashMap<u32, TreeEntry>>> = Mutex::new(None);

fn lock<T>(m: &Mutex<Option<T>>) -> std::sync::MutexGuard<'_, Option<T>> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn is_builtin(c: *mut Comp) -> bool {
    lock(&BUILTINS)
        .as_ref()
        .is_some_and(|s| s.contains(&(c as usize)))
}

/// The component tree as the core's algorithms see it.
struct CGraph;

unsafe fn list(p: *mut *mut Comp, n: c_uint) -> Vec<*mut Comp> {
    if p.is_null() {
        return Vec::new();
    }
    std::slice::from_raw_parts(p, n as usize).to_vec()
}

impl Graph for CGraph {
    type Node = *mut Comp;
    type Task = CTask;
    fn children(&self, n: *mut Comp) -> Vec<*mut Comp> {
        // SAFETY: components are valid while their tree is.
        unsafe { list((*n).children, (*n).nchildren) }
    }
    fn parents(&self, n: *mut Comp) -> Vec<*mut Comp> {
        // SAFETY: as above.
        unsafe { list((*n).parents, (*n).nparents) }
    }
    fn push(&self, n: *mut Comp, task: CTask) -> Result<(), CTask> {
        // SAFETY: the component's own function, as StarPU calls it.
        match unsafe { (*n).push_task } {
            Some(f) if unsafe { f(n, task.0) } == 0 => Ok(()),
            _ => Err(task),
        }
    }
    fn pull(&self, n: *mut Comp, to: Option<*mut Comp>) -> Option<CTask> {
        // SAFETY: as above.
        let f = unsafe { (*n).pull_task }?;
        let t = unsafe { f(n, to.unwrap_or(null_mut())) };
        (!t.is_null()).then_some(CTask(t))
    }
    fn can_push(&self, n: *mut Comp, to: *mut Comp) -> bool {
        // SAFETY: as above.
        unsafe { (*n).can_push.is_some_and(|f| f(n, to) != 0) }
    }
    fn can_pull(&self, n: *mut Comp) -> bool {
        // SAFETY: as above.
        unsafe { (*n).can_pull.is_some_and(|f| f(n) != 0) }
    }
    fn workers(&self, n: *mut Comp) -> u64 {
        // SAFETY: as above.
        unsafe { (*n).workers_in_ctx.mask() }
    }
    fn can_run(&self, task: &CTask, worker: usize) -> bool {
        // SAFETY: a task pushed to the tree is a submitted one.
        unsafe {
            starpu_worker_can_execute_task_first_impl(worker as c_uint, task.0, null_mut()) != 0
        }
    }
    fn priority(&self, task: &CTask) -> i32 {
        // SAFETY: as above.
        unsafe { (*task.0).priority }
    }
    fn wake(&self, worker: usize) -> bool {
        starpu_wake_worker_relax_light(worker as c_int) != 0
    }
}

unsafe fn builtin<'a>(c: *mut Comp) -> &'a Builtin {
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

unsafe extern "C" fn builtin_estimated_load(c: *mut Comp) -> f64 {
    builtin(c).comp.ntasks() as f64 + starpu_sched_component_estimated_load(c)
}

unsafe fn append(arr: &mut *mut *mut Comp, n: &mut c_uint, c: *mut Comp) {
    let p = libc::realloc(
        *arr as *mut c_void,
        (*n as usize + 1) * std::mem::size_of::<*mut Comp>(),
    ) as *mut *mut Comp;
    if p.is_null() {
        report("starpu_sched_component", &Error::invalid("out of memory"));
        return;
    }
    *p.add(*n as usize) = c;
    *arr = p;
    *n += 1;
}

unsafe fn remove(arr: *mut *mut Comp, n: &mut c_uint, c: *mut Comp) {
    let v = list(arr, *n);
    if let Some(i) = v.iter().position(|&x| x == c) {
        for j in i..(*n as usize - 1) {
            *arr.add(j) = *arr.add(j + 1);
        }
        *n -= 1;
    }
}

/// `starpu_sched_component_add_child`: appends `child` to `component`'s children.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_component_add_child(
    component: *mut starpu_sched_component,
    child: *mut starpu_sched_component,
) {
    if component.is_null() || child.is_null() {
        return;
    }
    let c = &mut *component;
    append(&mut c.children, &mut c.nchildren, child);
}

unsafe extern "C" fn remove_child(component: *mut Comp, child: *mut Comp) {
    let c = &mut *component;
    remove(c.children, &mut c.nchildren, child);
}

unsafe extern "C" fn add_parent(component: *mut Comp, parent: *mut Comp) {
    let c = &mut *component;
    append(&mut c.parents, &mut c.nparents, parent);
}

unsafe extern "C" fn remove_parent(component: *mut Comp, parent: *mut Comp) {
    let c = &mut *component;
    remove(c.parents, &mut c.nparents, parent);
}

/// `starpu_sched_component_create`: a component with StarPU's defaults (`pull_task` from
/// the parents, `can_push` to the parents, `can_pull` to the children); the application
/// sets `push_task` and its other functions.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_component_create(
    tree: *mut starpu_sched_tree,
    name: *const c_char,
) -> *mut starpu_sched_component {
    let c = libc::calloc(1, std::mem::size_of::<Comp>()) as *mut Comp;
    if c.is_null() {
        return c;
    }
    let r = &mut *c;
    r.tree = tree;
    r.name = if name.is_null() {
        null_mut()
    } else {
        libc::strdup(name)
    };
    r.add_child = Some(starpu_sched_component_add_child);
    r.remove_child = Some(remove_child);
    r.add_parent = Some(add_parent);
    r.remove_parent = Some(remove_parent);
    r.pull_task = Some(starpu_sched_component_parents_pull_task);
    r.can_push = Some(starpu_sched_component_can_push);
    r.can_pull = Some(starpu_sched_component_can_pull);
    r.estimated_load = Some(starpu_sched_component_estimated_load);
    r.estimated_end = Some(starpu_sched_component_estimated_end_min);
    c
}

/// A component of this library, of kind `kind`, queues bounded by `threshold`.
unsafe fn make_builtin(
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
unsafe fn kind_of(c: *mut Comp) -> Option<Kind> {
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

/// `starpu_sched_component_connect`: `child` below `parent`.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_component_connect(
    parent: *mut starpu_sched_component,
    child: *mut starpu_sched_component,
) {
    if parent.is_null() || child.is_null() {
        report(
            "starpu_sched_component_connect",
            &Error::invalid("NULL component"),
        );
        return;
    }
    match (*parent).add_child {
        Some(f) => f(parent, child),
        None => starpu_sched_component_add_child(parent, child),
    }
    match (*child).add_parent {
        Some(f) => f(child, parent),
        None => add_parent(child, parent),
    }
}

/// `starpu_sched_component_destroy`: `deinit_data`, then the component itself.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_component_destroy(c: *mut starpu_sched_component) {
    if c.is_null() {
        return;
    }
    for p in list((*c).parents, (*c).nparents) {
        remove_child(p, c);
    }
    for ch in list((*c).children, (*c).nchildren) {
        remove_parent(ch, c);
    }
    if let Some(d) = (*c).deinit_data {
        d(c);
    }
    let was_builtin = lock(&BUILTINS)
        .as_mut()
        .is_some_and(|s| s.remove(&(c as usize)));
    if was_builtin {
        drop(Box::from_raw((*c).data as *mut Builtin));
        if let Some(m) = lock(&WORKERS).as_mut() {
            m.retain(|_, v| *v != c as usize);
        }
    }
    libc::free((*c).children as *mut c_void);
    libc::free((*c).parents as *mut c_void);
    libc::free((*c).name as *mut c_void);
    libc::free(c as *mut c_void);
}

/// `starpu_sched_component_destroy_rec`: `c` and every component below it.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_component_destroy_rec(c: *mut starpu_sched_component) {
    let mut seen = HashSet::new();
    let mut order = Vec::new();
    let mut stack = vec![c];
    while let Some(n) = stack.pop() {
        if n.is_null() || !seen.insert(n as usize) {
            continue;
        }
        order.push(n);
        stack.extend(list((*n).children, (*n).nchildren));
    }
    for n in order {
        starpu_sched_component_destroy(n);
    }
}

/// `starpu_sched_component_can_execute_task`: some worker below `c` may run `task`.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_component_can_execute_task(
    c: *mut starpu_sched_component,
    task: *mut starpu_task,
) -> c_int {
    (!c.is_null() && modular::can_execute(&CGraph, c, &CTask(task))) as c_int
}

/// `starpu_sched_component_push_task`: `to->push_task(to, task)`.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_component_push_task(
    _from: *mut starpu_sched_component,
    to: *mut starpu_sched_component,
    task: *mut starpu_task,
) -> c_int {
    CGraph.push(to, CTask(task)).is_err() as c_int
}

/// `starpu_sched_component_pull_task`: `from->pull_task(from, to)`.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_component_pull_task(
    from: *mut starpu_sched_component,
    to: *mut starpu_sched_component,
) -> *mut starpu_task {
    CGraph
        .pull(from, (!to.is_null()).then_some(to))
        .map_or(null_mut(), |t| t.0)
}

/// `starpu_sched_component_parents_pull_task`: the first task a parent gives.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_component_parents_pull_task(
    c: *mut starpu_sched_component,
    _to: *mut starpu_sched_component,
) -> *mut starpu_task {
    modular::parents_pull(&CGraph, c).map_or(null_mut(), |t| t.0)
}

/// `starpu_sched_component_can_push`: asks the parents of `c` to push to it.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_component_can_push(
    c: *mut starpu_sched_component,
    _to: *mut starpu_sched_component,
) -> c_int {
    modular::default_can_push(&CGraph, c) as c_int
}

/// `starpu_sched_component_can_pull`: tells the children, until one will pull.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_component_can_pull(c: *mut starpu_sched_component) -> c_int {
    modular::default_can_pull(&CGraph, c) as c_int
}

/// `starpu_sched_component_can_pull_all`: tells every child.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_component_can_pull_all(
    c: *mut starpu_sched_component,
) -> c_int {
    modular::can_pull_all(&CGraph, c) as c_int
}

/// `starpu_sched_component_send_can_push_to_parents`.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_component_send_can_push_to_parents(
    c: *mut starpu_sched_component,
) -> c_int {
    modular::send_can_push_to_parents(&CGraph, c) as c_int
}

/// `starpu_sched_component_pump_to`: moves the tasks `c` gives for `to` into `to`;
/// returns the task `to` refused (NULL if none), `*success` = 1 if any moved.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_component_pump_to(
    c: *mut starpu_sched_component,
    to: *mut starpu_sched_component,
    success: *mut c_int,
) -> *mut starpu_task {
    let (left, moved) = modular::pump_to(&CGraph, c, to);
    if moved && !success.is_null() {
        *success = 1;
    }
    left.map_or(null_mut(), |t| t.0)
}

/// `starpu_sched_component_pump_downstream`: `pump_to` into each child.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_component_pump_downstream(
    c: *mut starpu_sched_component,
    success: *mut c_int,
) -> *mut starpu_task {
    let (left, moved) = modular::pump_downstream(&CGraph, c);
    if moved && !success.is_null() {
        *success = 1;
    }
    left.map_or(null_mut(), |t| t.0)
}

/// `starpu_sched_component_estimated_load`: the sum of the children's loads.
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_component_estimated_load(
    c: *mut starpu_sched_component,
) -> f64 {
    list((*c).children, (*c).nchildren)
        .into_iter()
        .map(|ch| (*ch).estimated_load.map_or(0.0, |f| f(ch)))
        .sum()
}

/// `starpu_sched_component_estimated_end_min`: the earliest of the children's ends (no
/// component predicts here: 0 without children).
#[no_mangle]
pub unsafe extern "C" fn starpu_sched_component_estimated_end_min(
    c: *mut starpu_sched_component,
) -> f64 {
    list((*c).children, (*c).nchildren)
        .into_iter()
        .filter_map(|ch| (*ch).estimated_end.map(|f| f(ch)))
        .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.min(x))))
        .unwrap_or(0.0)
}

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

/// `starpu_bitmap_get`: whether bit `e` is set.
#[no_mangle]
pub unsafe extern "C" fn starpu_bitmap_get(b: *mut starpu_bitmap, e: c_int) -> c_int {
    (!b.is_null() && (0..64).contains(&e) && (*b).mask() & (1 << e) != 0) as c_int
}

/// `starpu_bitmap_set`.
#[no_mangle]
pub unsafe extern "C" fn starpu_bitmap_set(b: *mut starpu_bitmap, e: c_int) {
    if !b.is_null() && (0..64).contains(&e) {
        let m = (*b).mask() | 1 << e;
        (*b).set_mask(m);
    }
}

/// `starpu_bitmap_unset`.
#[no_mangle]
pub unsafe extern "C" fn starpu_bitmap_unset(b: *mut starpu_bitmap, e: c_int) {
    if !b.is_null() && (0..64).contains(&e) {
        let m = (*b).mask() & !(1 << e);
        (*b).set_mask(m);
    }
}

/// `starpu_bitmap_cardinal`: bits set.
#[no_mangle]
pub unsafe extern "C" fn starpu_bitmap_cardinal(b: *mut starpu_bitmap) -> c_int {
    if b.is_null() {
        0
    } else {
        (*b).mask().count_ones() as c_int
    }
}

/// `starpu_bitmap_first`: the first bit set, -1 if none.
#[no_mangle]
pub unsafe extern "C" fn starpu_bitmap_first(b: *mut starpu_bitmap) -> c_int {
    starpu_bitmap_next(b, -1)
}

/// `starpu_bitmap_next`: the first bit set after `e`, -1 if none.
#[no_mangle]
pub unsafe extern "C" fn starpu_bitmap_next(b: *mut starpu_bitmap, e: c_int) -> c_int {
    if b.is_null() || e >= 63 {
        return -1;
    }
    let m = (*b).mask() & (u64::MAX << (e + 1).max(0));
    if m == 0 {
        -1
    } else {
        m.trailing_zeros() as c_int
    }
}
