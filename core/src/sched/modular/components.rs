//! The components this build offers, as StarPU's `src/sched_policies/component_*.c`:
//!
//! - fifo / prio: a queue (FIFO, or by priority, FIFO among equals), optionally bounded
//!   (`ntasks_threshold`: a full queue refuses a push); pulling takes a task a worker
//!   below may run, else pulls from the parents.
//! - eager: no queue; a push goes to the first child with a worker able to run the task.
//! - random: no queue; a push goes to a child drawn at random among those able to run it.
//! - work stealing: one queue per child; a push goes to the least loaded child able to
//!   run the task; a child pulls from its own queue, else steals from the most loaded.
//! - worker: the leaf of one worker; a queue of tasks pushed to it, then its parents.

use super::{can_execute, default_can_pull, default_can_push, parents_pull, Graph};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// What a component does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Fifo,
    Prio,
    Eager,
    Random,
    WorkStealing,
    Worker(usize),
}

/// A queue of tasks with their priorities.
struct Queue<T> {
    q: Mutex<VecDeque<(i32, T)>>,
    len: AtomicUsize,
}

impl<T> Queue<T> {
    fn new() -> Self {
        Queue {
            q: Mutex::new(VecDeque::new()),
            len: AtomicUsize::new(0),
        }
    }

    /// Queues `t`: at the back, or (`by_prio`) after every task of its priority or higher.
    fn push(&self, prio: i32, t: T, by_prio: bool, threshold: usize) -> Result<(), T> {
        let mut q = lock(&self.q);
        if threshold > 0 && q.len() >= threshold {
            return Err(t);
        }
        let at = if by_prio {
            q.iter().position(|(p, _)| *p < prio).unwrap_or(q.len())
        } else {
            q.len()
        };
        q.insert(at, (prio, t));
        self.len.store(q.len(), Ordering::SeqCst);
        Ok(())
    }

    /// The first task `ok` accepts.
    fn pop(&self, ok: impl Fn(&T) -> bool) -> Option<T> {
        if self.len.load(Ordering::SeqCst) == 0 {
            return None;
        }
        let mut q = lock(&self.q);
        let i = q.iter().position(|(_, t)| ok(t))?;
        let t = q.remove(i).map(|(_, t)| t);
        self.len.store(q.len(), Ordering::SeqCst);
        t
    }

    fn len(&self) -> usize {
        self.len.load(Ordering::SeqCst)
    }
}

/// A component's own state and behaviour.
pub struct Component<T> {
    kind: Kind,
    queue: Queue<T>,
    /// Work stealing: one queue per child, by the child's position.
    per_child: Mutex<Vec<std::sync::Arc<Queue<T>>>>,
    /// fifo / prio: the most tasks queued at once (0: no bound).
    threshold: usize,
}

impl<T> Component<T> {
    pub fn new(kind: Kind) -> Self {
        Self::bounded(kind, 0)
    }

    /// A fifo or prio component refusing pushes past `threshold` tasks (0: no bound).
    pub fn bounded(kind: Kind, threshold: usize) -> Self {
        Component {
            kind,
            queue: Queue::new(),
            per_child: Mutex::new(Vec::new()),
            threshold,
        }
    }

    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// Tasks queued in this component.
    pub fn ntasks(&self) -> usize {
        self.queue.len() + lock(&self.per_child).iter().map(|q| q.len()).sum::<usize>()
    }

    fn child_queue(&self, i: usize) -> std::sync::Arc<Queue<T>> {
        let mut v = lock(&self.per_child);
        while v.len() <= i {
            v.push(std::sync::Arc::new(Queue::new()));
        }
        v[i].clone()
    }
}

/// Whether a worker of `to` (any worker when `None`) may run `t`.
fn runnable_below<G: Graph>(g: &G, to: Option<G::Node>, t: &G::Task) -> bool {
    match to {
        Some(n) => can_execute(g, n, t),
        None => true,
    }
}

/// The component's `push_task`.
pub fn push<G: Graph>(
    g: &G,
    n: G::Node,
    c: &Component<G::Task>,
    task: G::Task,
) -> Result<(), G::Task> {
    match c.kind {
        Kind::Fifo | Kind::Prio => {
            let p = g.priority(&task);
            c.queue.push(p, task, c.kind == Kind::Prio, c.threshold)?;
            // Tell the components below that a task is there (wakes a worker).
            default_can_pull(g, n);
            Ok(())
        }
        Kind::Worker(w) => {
            let p = g.priority(&task);
            c.queue.push(p, task, true, 0)?;
            g.wake(w);
            Ok(())
        }
        Kind::Eager => {
            let mut task = task;
            for ch in g.children(n) {
                if can_execute(g, ch, &task) {
                    match g.push(ch, task) {
                        Ok(()) => return Ok(()),
                        Err(t) => task = t,
                    }
                }
            }
            Err(task)
        }
        Kind::Random => {
            let children: Vec<G::Node> = g
                .children(n)
                .into_iter()
                .filter(|&ch| can_execute(g, ch, &task))
                .collect();
            if children.is_empty() {
                return Err(task);
            }
            let start = (crate::sched::random::next_random() % children.len() as u64) as usize;
            let mut task = task;
            for i in 0..children.len() {
                match g.push(children[(start + i) % children.len()], task) {
                    Ok(()) => return Ok(()),
                    Err(t) => task = t,
                }
            }
            Err(task)
        }
        Kind::WorkStealing => {
            let children = g.children(n);
            let best = children
                .iter()
                .enumerate()
                .filter(|(_, &ch)| can_execute(g, ch, &task))
                .min_by_key(|(i, _)| c.child_queue(*i).len())
                .map(|(i, &ch)| (i, ch));
            let Some((i, ch)) = best else {
                return Err(task);
            };
            let p = g.priority(&task);
            c.child_queue(i).push(p, task, true, 0)?;
            g.can_pull(ch);
            Ok(())
        }
    }
}

/// The component's `pull_task`, for `to` below it.
pub fn pull<G: Graph>(
    g: &G,
    n: G::Node,
    c: &Component<G::Task>,
    to: Option<G::Node>,
) -> Option<G::Task> {
    match c.kind {
        Kind::Fifo | Kind::Prio | Kind::Worker(_) => c
            .queue
            .pop(|t| runnable_below(g, to, t))
            .or_else(|| parents_pull(g, n)),
        Kind::Eager | Kind::Random => parents_pull(g, n),
        Kind::WorkStealing => {
            let children = g.children(n);
            let me = to.and_then(|t| children.iter().position(|&ch| ch == t));
            if let Some(i) = me {
                if let Some(t) = c.child_queue(i).pop(|t| runnable_below(g, to, t)) {
                    return Some(t);
                }
            }
            // Steal: the most loaded queue first.
            let mut victims: Vec<(usize, std::sync::Arc<Queue<G::Task>>)> =
                lock(&c.per_child).iter().cloned().enumerate().collect();
            victims.retain(|(i, q)| Some(*i) != me && q.len() > 0);
            victims.sort_by_key(|(_, q)| std::cmp::Reverse(q.len()));
            victims
                .into_iter()
                .find_map(|(_, q)| q.pop(|t| runnable_below(g, to, t)))
                .or_else(|| parents_pull(g, n))
        }
    }
}

/// The component's `can_push`: `to` below has room.
pub fn can_push<G: Graph>(g: &G, n: G::Node, _c: &Component<G::Task>, _to: G::Node) -> bool {
    default_can_push(g, n)
}

/// The component's `can_pull`: tasks wait above the workers below.
pub fn can_pull<G: Graph>(g: &G, n: G::Node, c: &Component<G::Task>) -> bool {
    match c.kind {
        Kind::Worker(w) => g.wake(w),
        _ => default_can_pull(g, n),
    }
}

/// The task for the worker whose leaf is `leaf` (`starpu_sched_tree_pop_task`): one
/// pushed to the leaf, else one its parents give.
pub fn pop_for_worker<G: Graph>(g: &G, leaf: G::Node) -> Option<G::Task> {
    g.pull(leaf, None)
}
