//! Scheduling policies: where a ready task waits, and which task an idle worker takes.
//!
//! A policy only orders tasks; waking sleeping workers and running tasks is the runtime's
//! job. `push` says which worker the task is meant for so the runtime can wake it.

mod central;
pub mod contexts;
mod dm;
mod expected;
mod graph_test;
pub mod heteroprio;
pub mod modular;
pub mod queue;
mod random;
mod stealing;
pub mod view;

use crate::error::{Error, Result};
use crate::task::{Task, TaskRef};
use crate::worker::Worker;
use queue::{FifoQueue, PrioQueue};
use std::sync::Arc;
pub use view::{Expected, SchedView};

/// A scheduling policy (StarPU's `struct starpu_sched_policy`, in Rust terms).
pub trait Policy: Send + Sync {
    fn name(&self) -> &'static str;

    /// Queues a ready task. Returns the worker it was queued for, if one in particular
    /// (`None`: any worker may take it). `from` is the worker pushing, if a worker is;
    /// `view` answers questions about workers and the task (who may run it, how long it
    /// should take where). A policy that picks the implementation records it with
    /// `Task::set_sched_impl`.
    fn push(&self, task: TaskRef, from: Option<usize>, view: &dyn SchedView) -> Option<usize>;

    /// Queues several ready tasks at once. Policies with a central queue insert them all
    /// under one lock, so a worker never sees part of a batch (a batch of tasks released
    /// together by a tag runs in priority order). Returns the worker hint of each.
    fn push_all(
        &self,
        tasks: Vec<TaskRef>,
        from: Option<usize>,
        view: &dyn SchedView,
    ) -> Vec<Option<usize>> {
        tasks
            .into_iter()
            .map(|t| self.push(t, from, view))
            .collect()
    }

    /// The next task for `worker`, among those `can_run` accepts.
    fn pop(&self, worker: usize, can_run: &dyn Fn(&Task) -> bool) -> Option<TaskRef>;

    /// [`Policy::pop`], with the runtime's view: what the runtime calls. Policies that
    /// place tasks while workers pop (the modular heft trees, whose window places its
    /// tasks once per-worker queues have room) need the view then too.
    fn pop_in(
        &self,
        worker: usize,
        can_run: &dyn Fn(&Task) -> bool,
        view: &dyn SchedView,
    ) -> Option<TaskRef> {
        let _ = view;
        self.pop(worker, can_run)
    }

    /// `task`, popped by `worker`, is over; `measured` is its kernel's duration in
    /// microseconds when it was measured. Policies that predict end times correct them here.
    fn task_done(&self, worker: usize, task: &Task, measured: Option<f64>) {
        let _ = (worker, task, measured);
    }

    /// `worker` is about to run `task`, popped from this policy (StarPU's `pre_exec_hook`).
    fn task_starting(&self, worker: usize, task: &Task) {
        let _ = (worker, task);
    }

    /// Workers joined the context this policy schedules (StarPU's `add_workers`).
    fn workers_added(&self, workers: &[usize]) {
        let _ = workers;
    }

    /// Workers left the context this policy schedules (StarPU's `remove_workers`).
    fn workers_removed(&self, workers: &[usize]) {
        let _ = workers;
    }

    /// The policy's context is going away (deleted, or the runtime shuts down), with no
    /// task left in it (StarPU's `deinit_sched`).
    fn deinit(&self) {}

    /// Cheap check, without locks, that `worker` may find something to pop.
    fn has_work(&self, worker: usize) -> bool;

    /// Tasks queued (`starpu_task_nready`).
    fn ntasks(&self) -> usize;

    /// Priorities the policy distinguishes (`starpu_sched_get_{min,max}_priority`).
    fn priority_range(&self) -> (i32, i32) {
        (0, 0)
    }

    /// StarPU's `do_schedule`: the application says the tasks it meant to submit for now
    /// are submitted, so a policy holding ready tasks back (to look at the whole graph
    /// first) lets them go. Returns true when tasks were let go, so the runtime wakes the
    /// workers. The runtime also calls it before it blocks a thread waiting for tasks.
    fn do_schedule(&self) -> bool {
        false
    }

    /// The policy as `Any`, for the calls that configure one policy in particular
    /// (`starpu_heteroprio_*`); `None` for policies nothing configures that way.
    fn as_any(&self) -> Option<&dyn std::any::Any> {
        None
    }
}

/// The policies this build offers, with StarPU's names and descriptions.
pub const POLICIES: &[(&str, &str)] = &[
    ("eager", "greedy policy: one central FIFO queue"),
    (
        "prio",
        "eager policy with priorities: one central queue ordered by priority",
    ),
    ("random", "tasks go to a random worker's queue"),
    (
        "ws",
        "work stealing: per-worker queues, idle workers steal from the most loaded",
    ),
    (
        "lws",
        "locality work stealing: per-worker queues, idle workers steal from neighbours",
    ),
    (
        "dm",
        "deque model: each task goes to the worker expected to finish it first",
    ),
    (
        "dmda",
        "deque model data aware: dm, counting data transfer times",
    ),
    (
        "dmdas",
        "deque model data aware sorted: dmda with per-worker queues sorted by priority",
    ),
    (
        "dmdap",
        "deque model data aware priority: dmda with per-worker queues sorted by priority",
    ),
    (
        "dmdasd",
        "deque model data aware sorted decision: dmdas, placing each task by the queued work of its priority or higher",
    ),
    (
        "dmdar",
        "deque model data aware ready: dmda, workers first run tasks whose data is there",
    ),
    (
        "heft",
        "heterogeneous earliest finish time: an alias of dmda",
    ),
    (
        "graph_test",
        "test policy for using graphs in scheduling decisions: ready tasks wait until the \
         graph is complete (starpu_do_schedule, or a wait), then run deepest first",
    ),
    (
        "heteroprio",
        "heteroprio: buckets of tasks by priority, each architecture taking from its own ordered list of buckets",
    ),
    // Trees of components (modular::policy).
    (
        "modular-eager",
        "modular eager: a central fifo component above the workers",
    ),
    (
        "modular-prio",
        "modular prio: a central priority queue component above the workers",
    ),
    (
        "modular-eager-prio",
        "modular eager with priorities: as modular-prio",
    ),
    (
        "modular-random",
        "modular random: tasks go to a random worker's fifo component",
    ),
    (
        "modular-random-prio",
        "modular random with priorities: tasks go to a random worker's priority queue",
    ),
    (
        "modular-ws",
        "modular work stealing: per-worker queues in a work-stealing component",
    ),
    // Model-based trees (modular::heft).
    (
        "modular-heft",
        "heft modular policy: a window above perfmodel selection, mct decision and per-worker priority queues with expected ends",
    ),
    (
        "modular-heft2",
        "heft modular2 policy: modular-heft whose decision places first the task that gains most among the next few",
    ),
    (
        "modular-heft-prio",
        "heft+prio modular policy: mct over memory nodes (one here: workers take calibrated tasks by priority)",
    ),
    // Built in crate::parallel (they use combined workers).
    (
        "peager",
        "parallel eager: parallel tasks go to the largest combined worker",
    ),
    (
        "pheft",
        "parallel HEFT: parallel tasks go to the combined worker expected to finish first",
    ),
];

/// StarPU's other policies: named in errors, so users know they exist but are not here yet.
const NOT_YET: &[&str] = &["modular-heteroprio-heft", "nodems"];

/// Makes a policy written outside this crate (an application's, through a face) for the
/// context `ctx` over `workers` (the runtime's workers; the context's members are told by
/// `workers_added`).
#[derive(Clone)]
pub struct PolicyFactory(pub Arc<MakePolicy>);

/// What a [`PolicyFactory`] calls: context id and the runtime's workers to a policy.
pub type MakePolicy = dyn Fn(u32, &[Worker]) -> Box<dyn Policy> + Send + Sync;

impl PolicyFactory {
    /// Wraps `f`.
    pub fn new(f: impl Fn(u32, &[Worker]) -> Box<dyn Policy> + Send + Sync + 'static) -> Self {
        PolicyFactory(Arc::new(f))
    }
}

impl std::fmt::Debug for PolicyFactory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PolicyFactory")
    }
}

/// StarPU's default policy.
pub const DEFAULT_POLICY: &str = "lws";

/// Whether `name` is a policy this build provides.
pub fn is_policy(name: &str) -> bool {
    POLICIES.iter().any(|p| p.0 == name)
}

/// The policy a runtime starts with when asked for `name`: `name` itself, or, as StarPU
/// does for a name it does not know, the default one, with a warning naming the policies
/// there are (so that a program written for another StarPU still runs).
pub fn resolve_name(name: Option<&str>, warn: impl FnOnce(&str)) -> String {
    match name {
        None => DEFAULT_POLICY.to_string(),
        Some(n) if is_policy(n) => n.to_string(),
        // `STARPU_SCHED=help`: StarPU lists the policies, then starts with its default.
        Some("help") => {
            eprintln!("StarPU scheduling policies:");
            for (name, what) in POLICIES {
                eprintln!("\t{name:<8}-> {what}");
            }
            DEFAULT_POLICY.to_string()
        }
        Some(n) => {
            let names: Vec<&str> = POLICIES.iter().map(|p| p.0).collect();
            let what = if NOT_YET.contains(&n) {
                "is a StarPU policy not implemented in this build yet"
            } else {
                "was not found"
            };
            warn(&format!(
                "scheduling policy '{n}' {what}; using the default, {DEFAULT_POLICY} (the \
                 policies are: {})",
                names.join(", ")
            ));
            DEFAULT_POLICY.to_string()
        }
    }
}

/// Builds the policy called `name` for `workers`.
pub fn create(name: &str, workers: &[Worker]) -> Result<Box<dyn Policy>> {
    let nworkers = workers.len();
    if let Some(p) = modular::policy::create(name, workers) {
        return p;
    }
    Ok(match name {
        "eager" => Box::new(central::Central::<FifoQueue>::new("eager", (0, 0))),
        "prio" => Box::new(central::Central::<PrioQueue>::new(
            "prio",
            (i32::MIN, i32::MAX),
        )),
        "random" => Box::new(random::Random::new(nworkers)),
        "ws" => Box::new(stealing::Stealing::new(
            nworkers,
            stealing::Victim::MostLoaded,
        )),
        "lws" => Box::new(stealing::Stealing::new(
            nworkers,
            stealing::Victim::Neighbour,
        )),
        "dm" => Box::new(dm::Dm::new(dm::Variant::Dm, workers)),
        "dmda" => Box::new(dm::Dm::new(dm::Variant::Dmda, workers)),
        "dmdas" => Box::new(dm::Dm::new(dm::Variant::Dmdas, workers)),
        "dmdap" => Box::new(dm::Dm::new(dm::Variant::Dmdap, workers)),
        "dmdasd" => Box::new(dm::Dm::new(dm::Variant::Dmdasd, workers)),
        "dmdar" => Box::new(dm::Dm::new(dm::Variant::Dmdar, workers)),
        "heft" => Box::new(dm::Dm::new(dm::Variant::Heft, workers)),
        "heteroprio" => Box::new(heteroprio::Heteroprio::new(workers)?),
        "graph_test" => Box::new(graph_test::GraphTest::from_env()?),
        _ => {
            let names: Vec<&str> = POLICIES.iter().map(|p| p.0).collect();
            let what = if NOT_YET.contains(&name) {
                "is a StarPU policy not implemented in this build yet"
            } else {
                "is not a scheduling policy"
            };
            return Err(Error::invalid(format!(
                "'{name}' {what} (available: {})",
                names.join(", ")
            )));
        }
    })
}

#[cfg(test)]
mod tests;
