//! Modular schedulers (StarPU's `starpu_sched_component` trees): a policy is a tree of
//! components; a ready task enters at the root and is pushed down, and an idle worker
//! pulls from the worker component at its leaf, which pulls from its parents.
//!
//! The algorithms here work on any tree through [`Graph`]: the core's own trees (the
//! `modular-*` policies, [`policy`]) and the C face's, where each component is a C struct
//! whose functions may be the application's. [`components`] holds the behaviour of the
//! components this build offers (fifo, prio, eager, random, work stealing, worker), and
//! [`simple`] the layout of `starpu_sched_component_initialize_simple_scheduler`.
//! The model-based trees (`modular-heft` and family) are [`heft`], with the predictions
//! of their components in [`predict`].

pub mod components;
pub mod heft;
pub mod policy;
pub mod predict;
pub mod simple;

/// A tree of components, as the algorithms see it.
pub trait Graph {
    /// A component.
    type Node: Copy + PartialEq;
    /// A task.
    type Task;
    fn children(&self, n: Self::Node) -> Vec<Self::Node>;
    fn parents(&self, n: Self::Node) -> Vec<Self::Node>;
    /// The component's own `push_task`: `Err` gives the task back when the component
    /// cannot take it (a full queue).
    fn push(&self, n: Self::Node, task: Self::Task) -> Result<(), Self::Task>;
    /// The component's own `pull_task`, for component `to` below it.
    fn pull(&self, n: Self::Node, to: Option<Self::Node>) -> Option<Self::Task>;
    /// The component's own `can_push`: `to`, below it, has room.
    fn can_push(&self, n: Self::Node, to: Self::Node) -> bool;
    /// The component's own `can_pull`: tasks are there for the components below.
    fn can_pull(&self, n: Self::Node) -> bool;
    /// The workers below `n` that are in the scheduling context (`workers_in_ctx`).
    fn workers(&self, n: Self::Node) -> u64;
    /// Whether `worker` may run `task`.
    fn can_run(&self, task: &Self::Task, worker: usize) -> bool;
    fn priority(&self, task: &Self::Task) -> i32;
    /// Wakes `worker` if it sleeps; true if it did, or will look for work anyway.
    fn wake(&self, worker: usize) -> bool;
}

/// Whether some worker below `n` may run `task`.
pub fn can_execute<G: Graph>(g: &G, n: G::Node, task: &G::Task) -> bool {
    let mut m = g.workers(n);
    while m != 0 {
        let w = m.trailing_zeros() as usize;
        if g.can_run(task, w) {
            return true;
        }
        m &= m - 1;
    }
    false
}

/// `starpu_sched_component_can_pull`: asks the children, until one says a worker will
/// pull.
pub fn default_can_pull<G: Graph>(g: &G, n: G::Node) -> bool {
    g.children(n).into_iter().any(|c| g.can_pull(c))
}

/// `starpu_sched_component_can_pull_all`: tells every child.
pub fn can_pull_all<G: Graph>(g: &G, n: G::Node) -> bool {
    // Every child is told, so no short-circuit.
    let mut any = false;
    for c in g.children(n) {
        any |= g.can_pull(c);
    }
    any
}

/// `starpu_sched_component_can_push`: `n` has room; asks its parents, until one pushes.
pub fn default_can_push<G: Graph>(g: &G, n: G::Node) -> bool {
    g.parents(n).into_iter().any(|p| g.can_push(p, n))
}

/// `starpu_sched_component_parents_pull_task`: the first task a parent gives.
pub fn parents_pull<G: Graph>(g: &G, n: G::Node) -> Option<G::Task> {
    g.parents(n).into_iter().find_map(|p| g.pull(p, Some(n)))
}

/// `starpu_sched_component_pump_to`: moves tasks `n` gives for `to` into `to` until `to`
/// refuses one (given back) or `n` has none left. The flag says whether any moved.
pub fn pump_to<G: Graph>(g: &G, n: G::Node, to: G::Node) -> (Option<G::Task>, bool) {
    let mut moved = false;
    while let Some(t) = g.pull(n, Some(to)) {
        match g.push(to, t) {
            Ok(()) => moved = true,
            Err(t) => return (Some(t), moved),
        }
    }
    (None, moved)
}

/// `starpu_sched_component_pump_downstream`: [`pump_to`] into each child in turn.
pub fn pump_downstream<G: Graph>(g: &G, n: G::Node) -> (Option<G::Task>, bool) {
    let mut moved = false;
    for c in g.children(n) {
        let (left, m) = pump_to(g, n, c);
        moved |= m;
        if left.is_some() {
            return (left, moved);
        }
    }
    (None, moved)
}

/// `starpu_sched_component_send_can_push_to_parents`.
pub fn send_can_push_to_parents<G: Graph>(g: &G, n: G::Node) -> bool {
    default_can_push(g, n)
}
