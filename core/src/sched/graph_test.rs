//! StarPU's `graph_test` policy: scheduling from the shape of the task graph.
//!
//! Ready tasks wait in a bag until the application says the graph is there
//! (`starpu_do_schedule`, which every wait for tasks also does). Then each task still in
//! the graph gets as priority its depth, the longest chain of tasks that wait for it
//! (StarPU's `_starpu_graph_compute_depths`: tasks nothing waits for have depth 0), or,
//! with `STARPU_SCHED_GRAPH_TEST_DESCENDANTS=1`, how many tasks wait for it directly or
//! not; the bag empties into a queue workers take from highest priority first, and from
//! then on tasks go to that queue as they become ready.
//!
//! The graph is walked from the tasks this policy holds (the bag and the queue), through
//! the tasks waiting for them; a task whose predecessors are all running is not reached,
//! and keeps its own priority (StarPU records every task in a global graph instead). A
//! priority given to a task not ready yet is kept here, with the task, until it is pushed
//! (the task's own priority is the application's and is not rewritten).

use super::queue::Ranked;
use super::{Policy, SchedView};
use crate::env::env_int;
use crate::error::Result;
use crate::task::{Task, TaskRef};
use std::collections::{BinaryHeap, HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

#[derive(Default)]
struct State {
    /// Ready tasks held until the first `do_schedule`.
    bag: VecDeque<TaskRef>,
    queue: BinaryHeap<Ranked>,
    /// Priorities computed for tasks not ready yet, by task address; the task is kept
    /// with it so that the address cannot be reused meanwhile.
    computed: HashMap<usize, (TaskRef, i32)>,
    seq: u64,
}

pub(crate) struct GraphTest {
    descendants: bool,
    /// A `do_schedule` came: tasks are no longer held.
    released: AtomicBool,
    state: Mutex<State>,
    /// Tasks in the queue, for lock-free `has_work`.
    queued: AtomicUsize,
}

fn key(t: &Task) -> usize {
    t as *const Task as usize
}

impl GraphTest {
    pub(crate) fn from_env() -> Result<Self> {
        Ok(GraphTest {
            descendants: env_int("STARPU_SCHED_GRAPH_TEST_DESCENDANTS")?.is_some_and(|v| v != 0),
            released: AtomicBool::new(false),
            state: Mutex::new(State::default()),
            queued: AtomicUsize::new(0),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn enqueue(&self, s: &mut State, task: TaskRef) {
        let priority = s
            .computed
            .remove(&key(&task))
            .map_or(task.priority(), |(_, p)| p);
        s.seq += 1;
        let seq = s.seq;
        s.queue.push(Ranked {
            priority,
            seq,
            task,
        });
        self.queued.fetch_add(1, Ordering::Release);
    }

    /// Depth or descendants of every task reachable from `roots` through the tasks
    /// waiting for them.
    fn measure(&self, roots: &[TaskRef]) -> HashMap<usize, (TaskRef, i32)> {
        // Each reachable task once, with its successors, in depth-first order.
        let mut nodes: HashMap<usize, (TaskRef, Vec<usize>)> = HashMap::new();
        let mut order = Vec::new();
        let mut stack: Vec<TaskRef> = roots.to_vec();
        while let Some(t) = stack.pop() {
            let k = key(&t);
            if nodes.contains_key(&k) {
                continue;
            }
            let succ: Vec<TaskRef> = t.successors_pending().into_iter().map(|(s, _)| s).collect();
            let keys = succ.iter().map(|s| key(s)).collect();
            stack.extend(succ);
            order.push(k);
            nodes.insert(k, (t, keys));
        }
        let mut out = HashMap::with_capacity(nodes.len());
        if self.descendants {
            // StarPU's is O(|V|.(|V|+|E|)) too: one walk per task.
            for (&k, (t, _)) in &nodes {
                let mut seen = std::collections::HashSet::new();
                let mut todo: Vec<usize> = nodes[&k].1.clone();
                while let Some(n) = todo.pop() {
                    if seen.insert(n) {
                        todo.extend(nodes[&n].1.iter().copied());
                    }
                }
                out.insert(k, (t.clone(), seen.len().min(i32::MAX as usize) as i32));
            }
        } else {
            // Bottom-up: a task's depth is one more than its deepest successor's. Tasks
            // are settled in reverse topological order (iterative post-order).
            let mut depth: HashMap<usize, i32> = HashMap::with_capacity(nodes.len());
            for &start in &order {
                let mut walk = vec![(start, false)];
                while let Some((n, expanded)) = walk.pop() {
                    if depth.contains_key(&n) {
                        continue;
                    }
                    let succ = &nodes[&n].1;
                    if expanded {
                        let d = succ
                            .iter()
                            .map(|s| depth[s].saturating_add(1))
                            .max()
                            .unwrap_or(0);
                        depth.insert(n, d);
                    } else {
                        walk.push((n, true));
                        walk.extend(
                            succ.iter()
                                .filter(|s| !depth.contains_key(s))
                                .map(|&s| (s, false)),
                        );
                    }
                }
            }
            for (k, (t, _)) in nodes {
                out.insert(k, (t, depth[&k]));
            }
        }
        out
    }
}

impl Policy for GraphTest {
    fn name(&self) -> &'static str {
        "graph_test"
    }

    fn push(&self, task: TaskRef, _from: Option<usize>, _view: &dyn SchedView) -> Option<usize> {
        let mut s = self.lock();
        if self.released.load(Ordering::Acquire) {
            self.enqueue(&mut s, task);
        } else {
            s.bag.push_back(task);
        }
        None
    }

    fn pop(&self, _worker: usize, can_run: &dyn Fn(&Task) -> bool) -> Option<TaskRef> {
        if self.queued.load(Ordering::Acquire) == 0 {
            return None;
        }
        let mut s = self.lock();
        // The best task this worker may run; those it may not go back.
        let mut skipped = Vec::new();
        let mut found = None;
        while let Some(e) = s.queue.pop() {
            if can_run(&e.task) {
                found = Some(e.task);
                break;
            }
            skipped.push(e);
        }
        s.queue.extend(skipped);
        if found.is_some() {
            self.queued.fetch_sub(1, Ordering::Release);
        }
        found
    }

    fn do_schedule(&self) -> bool {
        let mut s = self.lock();
        let roots: Vec<TaskRef> = s
            .bag
            .iter()
            .cloned()
            .chain(s.queue.iter().map(|e| e.task.clone()))
            .collect();
        if roots.is_empty() && self.released.load(Ordering::Acquire) {
            return false;
        }
        let held = !s.bag.is_empty();
        s.computed = self.measure(&roots);
        // Queued tasks keep their place: only tasks pushed from now on use the new values.
        for e in s.queue.iter().map(|e| key(&e.task)).collect::<Vec<_>>() {
            s.computed.remove(&e);
        }
        self.released.store(true, Ordering::Release);
        while let Some(t) = s.bag.pop_front() {
            self.enqueue(&mut s, t);
        }
        held
    }

    fn has_work(&self, _worker: usize) -> bool {
        self.queued.load(Ordering::Acquire) > 0
    }

    fn ntasks(&self) -> usize {
        let s = self.lock();
        s.bag.len() + s.queue.len()
    }

    fn priority_range(&self) -> (i32, i32) {
        (i32::MIN, i32::MAX)
    }
}
