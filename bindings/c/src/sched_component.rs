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
//! This file: the structs, the tree as the core's algorithms see it (`CGraph`), and the
//! generic component calls; `sched_component_builtin.rs`: this library's components;
//! `sched_component_tree.rs`: trees, the policy functions and the simple scheduler.

use crate::abi::starpu_task;
use crate::abi::{starpu_bitmap, starpu_sched_component, starpu_sched_tree, Comp};
use crate::ffi::report;
use crate::sched_policy::{
    starpu_wake_worker_relax_light, starpu_worker_can_execute_task_first_impl,
};
use libc::{c_char, c_int, c_uint, c_ulong, c_void};
use starpu_core::sched::modular::components::Component;
use starpu_core::sched::modular::{self as modular, Graph};
use starpu_core::Error;
use std::collections::{HashMap, HashSet, VecDeque};
use std::ptr::null_mut;
use std::sync::Mutex;

impl starpu_bitmap {
    #[allow(clippy::unnecessary_cast)] // c_ulong is not u64 everywhere
    pub(crate) fn mask(&self) -> u64 {
        self.bits[0] as u64
    }
    pub(crate) fn set_mask(&mut self, m: u64) {
        self.bits[0] = m as c_ulong;
        self.cardinal = m.count_ones() as c_int;
    }
}

/// A C task pointer, as the core's components hold it.
#[derive(Clone, Copy)]
pub(crate) struct CTask(pub(crate) *mut starpu_task);
// SAFETY: a submitted task's struct is shared with the workers as in StarPU.
unsafe impl Send for CTask {}
unsafe impl Sync for CTask {}

/// The state of a component this library made (in its `data`).
pub(crate) struct Builtin {
    pub(crate) comp: Component<CTask>,
}

/// Components this library made (their `data` is a `Builtin`), by address.
pub(crate) static BUILTINS: Mutex<Option<HashSet<usize>>> = Mutex::new(None);
/// Worker components, by (context, worker).
pub(crate) static WORKERS: Mutex<Option<HashMap<(u32, usize), usize>>> = Mutex::new(None);
/// A tree's address, and the tasks its root refused.
pub(crate) type TreeEntry = (usize, VecDeque<usize>);
/// Trees by context.
pub(crate) static TREES: Mutex<Option<HashMap<u32, TreeEntry>>> = Mutex::new(None);

pub(crate) fn lock<T>(m: &Mutex<Option<T>>) -> std::sync::MutexGuard<'_, Option<T>> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

pub(crate) fn is_builtin(c: *mut Comp) -> bool {
    lock(&BUILTINS)
        .as_ref()
        .is_some_and(|s| s.contains(&(c as usize)))
}

/// The component tree as the core's algorithms see it.
pub(crate) struct CGraph;

pub(crate) unsafe fn list(p: *mut *mut Comp, n: c_uint) -> Vec<*mut Comp> {
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

pub(crate) unsafe extern "C" fn remove_child(component: *mut Comp, child: *mut Comp) {
    let c = &mut *component;
    remove(c.children, &mut c.nchildren, child);
}

pub(crate) unsafe extern "C" fn add_parent(component: *mut Comp, parent: *mut Comp) {
    let c = &mut *component;
    append(&mut c.parents, &mut c.nparents, parent);
}

pub(crate) unsafe extern "C" fn remove_parent(component: *mut Comp, parent: *mut Comp) {
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
