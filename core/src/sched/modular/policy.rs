//! The core's component trees, and the `modular-*` policies StarPU builds from them
//! (`src/sched_policies/modular_*.c`):
//!
//! - `modular-eager`: a fifo above an eager decision over the workers;
//! - `modular-prio` (and `modular-eager-prio`): the same with a priority queue;
//! - `modular-random`: a random decision over one fifo per worker;
//! - `modular-random-prio`: the same with priority queues;
//! - `modular-ws`: a work-stealing component over the workers.
//!
//! The model-based ones (`modular-heft`, `modular-heft2`, `modular-heft-prio`) are
//! [`super::heft`].

use super::components::{self, Component, Kind};
use super::simple::{self, flags, Builder, WorkerPlace};
use super::Graph;
use crate::error::Result;
use crate::sched::{Policy, SchedView};
use crate::task::{Task, TaskRef};
use crate::worker::Worker;
use std::cell::Cell;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

struct Node {
    comp: Component<TaskRef>,
    children: Vec<usize>,
    parents: Vec<usize>,
    workers: u64,
}

/// A tree of the core's components, scheduling as a [`Policy`].
pub struct Tree {
    name: &'static str,
    nodes: Vec<Node>,
    root: usize,
    leaf_of: Vec<Option<usize>>,
    ntasks: AtomicUsize,
    /// Tasks the root refused (its queues full): handed out after the tree's.
    refused: Mutex<VecDeque<TaskRef>>,
}

/// Builds a [`Tree`] through [`simple::build`].
struct TreeBuilder {
    nodes: Vec<Node>,
    leaf_of: Vec<Option<usize>>,
}

impl TreeBuilder {
    fn add(&mut self, kind: Kind) -> usize {
        self.nodes.push(Node {
            comp: Component::new(kind),
            children: Vec::new(),
            parents: Vec::new(),
            workers: 0,
        });
        self.nodes.len() - 1
    }
}

impl Builder for TreeBuilder {
    type Node = usize;
    fn fifo(&mut self, prio: bool) -> Result<usize> {
        Ok(self.add(if prio { Kind::Prio } else { Kind::Fifo }))
    }
    fn eager(&mut self) -> Result<usize> {
        Ok(self.add(Kind::Eager))
    }
    fn work_stealing(&mut self) -> Result<usize> {
        Ok(self.add(Kind::WorkStealing))
    }
    fn worker(&mut self, worker: usize) -> Result<usize> {
        if let Some(Some(n)) = self.leaf_of.get(worker) {
            return Ok(*n);
        }
        let n = self.add(Kind::Worker(worker));
        if self.leaf_of.len() <= worker {
            self.leaf_of.resize(worker + 1, None);
        }
        self.leaf_of[worker] = Some(n);
        self.nodes[n].workers = 1 << worker;
        Ok(n)
    }
    fn connect(&mut self, parent: usize, child: usize) {
        self.nodes[parent].children.push(child);
        self.nodes[child].parents.push(parent);
    }
}

impl Tree {
    /// A tree with `decision` (a component kind) as the decision of StarPU's simple
    /// layout with `flags`, over `workers`.
    pub fn simple(
        name: &'static str,
        decision: Kind,
        flags: u32,
        workers: &[Worker],
    ) -> Result<Tree> {
        let mut b = TreeBuilder {
            nodes: Vec::new(),
            leaf_of: vec![None; workers.len()],
        };
        let d = b.add(decision);
        let places: Vec<WorkerPlace> = workers
            .iter()
            .enumerate()
            .map(|(id, w)| WorkerPlace {
                id,
                node: w.node,
                arch: w.kind.starpu_id(),
            })
            .collect();
        let root = simple::build(&mut b, d, flags, &places)?;
        let mut t = Tree {
            name,
            nodes: b.nodes,
            root,
            leaf_of: b.leaf_of,
            ntasks: AtomicUsize::new(0),
            refused: Mutex::new(VecDeque::new()),
        };
        t.update_workers(root);
        Ok(t)
    }

    /// Each component's workers: those of the leaves below it.
    fn update_workers(&mut self, n: usize) -> u64 {
        if let Kind::Worker(w) = self.nodes[n].comp.kind() {
            return 1 << w;
        }
        let mut m = 0;
        for c in self.nodes[n].children.clone() {
            m |= self.update_workers(c);
        }
        self.nodes[n].workers = m;
        m
    }

    /// The kind of each component, by depth-first order from the root (for tests).
    pub fn layout(&self) -> Vec<(Kind, Vec<usize>)> {
        self.nodes
            .iter()
            .map(|n| (n.comp.kind(), n.children.clone()))
            .collect()
    }
}

/// Who may run what, during one call. During a pop, whatever leaves a queue goes to the
/// pulling worker, so only its own answer counts: a task only others may run stays where
/// they will pull it.
enum CanRun<'a> {
    View(&'a dyn SchedView),
    Worker(usize, &'a dyn Fn(&Task) -> bool),
}

/// The tree during one push or pop.
struct Walk<'a> {
    tree: &'a Tree,
    can: CanRun<'a>,
    woken: Cell<u64>,
}

impl Graph for Walk<'_> {
    type Node = usize;
    type Task = TaskRef;
    fn children(&self, n: usize) -> Vec<usize> {
        self.tree.nodes[n].children.clone()
    }
    fn parents(&self, n: usize) -> Vec<usize> {
        self.tree.nodes[n].parents.clone()
    }
    fn push(&self, n: usize, task: TaskRef) -> std::result::Result<(), TaskRef> {
        components::push(self, n, &self.tree.nodes[n].comp, task)
    }
    fn pull(&self, n: usize, to: Option<usize>) -> Option<TaskRef> {
        components::pull(self, n, &self.tree.nodes[n].comp, to)
    }
    fn can_push(&self, n: usize, to: usize) -> bool {
        components::can_push(self, n, &self.tree.nodes[n].comp, to)
    }
    fn can_pull(&self, n: usize) -> bool {
        components::can_pull(self, n, &self.tree.nodes[n].comp)
    }
    fn workers(&self, n: usize) -> u64 {
        self.tree.nodes[n].workers
    }
    fn can_run(&self, task: &TaskRef, worker: usize) -> bool {
        match self.can {
            CanRun::View(v) => v.can_run(task, worker),
            CanRun::Worker(w, f) => w == worker && f(task),
        }
    }
    fn priority(&self, task: &TaskRef) -> i32 {
        task.priority()
    }
    /// Records the workers told of a task, and says none woke, so that every worker
    /// below the component holding it is told: the runtime wakes that worker when it is
    /// the only one, any worker otherwise.
    fn wake(&self, worker: usize) -> bool {
        self.woken.set(self.woken.get() | 1 << worker);
        false
    }
}

impl Policy for Tree {
    fn name(&self) -> &'static str {
        self.name
    }

    fn push(&self, task: TaskRef, _from: Option<usize>, view: &dyn SchedView) -> Option<usize> {
        let walk = Walk {
            tree: self,
            can: CanRun::View(view),
            woken: Cell::new(0),
        };
        self.ntasks.fetch_add(1, Ordering::SeqCst);
        if let Err(t) = walk.push(self.root, task) {
            self.refused
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push_back(t);
            return None;
        }
        let m = walk.woken.get();
        (m.count_ones() == 1).then(|| m.trailing_zeros() as usize)
    }

    fn pop(&self, worker: usize, can_run: &dyn Fn(&Task) -> bool) -> Option<TaskRef> {
        if self.ntasks.load(Ordering::SeqCst) == 0 {
            return None;
        }
        let leaf = (*self.leaf_of.get(worker)?)?;
        let walk = Walk {
            tree: self,
            can: CanRun::Worker(worker, can_run),
            woken: Cell::new(0),
        };
        let t = components::pop_for_worker(&walk, leaf).or_else(|| {
            let mut r = self.refused.lock().unwrap_or_else(|e| e.into_inner());
            let i = r.iter().position(|t| can_run(t))?;
            r.remove(i)
        });
        if t.is_some() {
            self.ntasks.fetch_sub(1, Ordering::SeqCst);
        }
        t
    }

    fn has_work(&self, _worker: usize) -> bool {
        self.ntasks.load(Ordering::SeqCst) > 0
    }

    fn ntasks(&self) -> usize {
        self.ntasks.load(Ordering::SeqCst)
    }

    fn priority_range(&self) -> (i32, i32) {
        if self.nodes.iter().any(|n| n.comp.kind() == Kind::Prio) {
            (i32::MIN, i32::MAX)
        } else {
            (0, 0)
        }
    }

    fn as_any(&self) -> Option<&dyn std::any::Any> {
        Some(self)
    }
}

/// The modular policy called `name`, if it is one.
pub fn create(name: &str, workers: &[Worker]) -> Option<Result<Box<dyn Policy>>> {
    let (static_name, _) = crate::sched::POLICIES.iter().find(|(n, _)| *n == name)?;
    let (decision, f) = match name {
        "modular-eager" => (Kind::Eager, flags::FIFO_ABOVE | flags::DECIDE_WORKERS),
        "modular-prio" | "modular-eager-prio" => (
            Kind::Eager,
            flags::FIFO_ABOVE | flags::FIFO_ABOVE_PRIO | flags::DECIDE_WORKERS,
        ),
        "modular-random" => (Kind::Random, flags::DECIDE_WORKERS | flags::FIFOS_BELOW),
        "modular-random-prio" => (
            Kind::Random,
            flags::DECIDE_WORKERS | flags::FIFOS_BELOW | flags::FIFOS_BELOW_PRIO,
        ),
        "modular-ws" => (Kind::WorkStealing, flags::DECIDE_WORKERS),
        "modular-heft" | "modular-heft2" | "modular-heft-prio" => {
            use super::heft::{Decision, HeftTree};
            let decision = match name {
                "modular-heft" => Decision::Mct,
                "modular-heft2" => Decision::Heft,
                _ => Decision::Eager,
            };
            return Some(
                HeftTree::new(static_name, decision, workers)
                    .map(|t| Box::new(t) as Box<dyn Policy>),
            );
        }
        _ => return None,
    };
    Some(Tree::simple(static_name, decision, f, workers).map(|t| Box::new(t) as Box<dyn Policy>))
}
