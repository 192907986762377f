//! Workers: the threads that run tasks, one per CPU core by default.
//!
//! An idle worker spins briefly (a task may be just about to arrive) and then parks; a
//! push wakes a parked worker only when one is parked, so a busy runtime pays one atomic
//! load per push for wakeups.

use crate::memory::{NodeId, MAIN_RAM};
use crate::runtime::Runtime;
use crate::sched::queue::FifoQueue;
use std::cell::Cell;
use std::sync::atomic::{fence, AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;
use std::thread::Thread;
use std::time::{Duration, Instant};

/// `enum starpu_worker_archtype` values for the kinds this build runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorkerKind {
    Cpu,
}

/// How long an idle worker polls for work before parking.
const SPIN: Duration = Duration::from_micros(20);

#[repr(align(128))] // keeps each worker's flags on its own cache lines
pub struct Worker {
    pub id: usize,
    pub kind: WorkerKind,
    /// Logical CPU the thread is bound to, if bound.
    pub cpu: Option<usize>,
    pub node: NodeId,
    pub name: String,
    pub(crate) sleeping: AtomicBool,
    pub(crate) thread: OnceLock<Thread>,
    /// Tasks that must run on this worker (`execute_on_a_specific_worker`).
    pub(crate) pinned: FifoQueue,
    pub(crate) executed: AtomicU64,
}

impl Worker {
    pub(crate) fn new(id: usize, cpu: Option<usize>) -> Worker {
        Worker {
            id,
            kind: WorkerKind::Cpu,
            cpu,
            node: MAIN_RAM,
            name: format!("CPU {id}"),
            sleeping: AtomicBool::new(false),
            thread: OnceLock::new(),
            pinned: FifoQueue::default(),
            executed: AtomicU64::new(0),
        }
    }

    /// Tasks this worker has run since init.
    pub fn executed(&self) -> u64 {
        self.executed.load(Ordering::Relaxed)
    }

    /// Wakes the worker if it is parked; true if it was.
    pub(crate) fn wake(&self) -> bool {
        if self.sleeping.swap(false, Ordering::SeqCst) {
            if let Some(t) = self.thread.get() {
                t.unpark();
            }
            true
        } else {
            false
        }
    }
}

thread_local! {
    /// The worker the current thread is, and while a task runs, that task.
    static CURRENT_WORKER: Cell<Option<usize>> = const { Cell::new(None) };
    static IN_CALLBACK: Cell<bool> = const { Cell::new(false) };
}

/// The id of the worker running on this thread, `None` on application threads.
pub fn current_worker_id() -> Option<usize> {
    CURRENT_WORKER.with(|c| c.get())
}

/// Whether this thread may block waiting for tasks (it is not a worker).
pub fn may_block() -> bool {
    current_worker_id().is_none() && !IN_CALLBACK.with(|c| c.get())
}

/// Runs `f` marked as inside a callback (where blocking calls are refused).
pub(crate) fn as_callback<R>(f: impl FnOnce() -> R) -> R {
    let prev = IN_CALLBACK.with(|c| c.replace(true));
    let r = f();
    IN_CALLBACK.with(|c| c.set(prev));
    r
}

/// The body of a worker thread.
pub(crate) fn run(rt: &'static Runtime, id: usize) {
    CURRENT_WORKER.with(|c| c.set(Some(id)));
    let me = &rt.workers[id];
    if let Some(cpu) = me.cpu {
        if let Err(e) = crate::topology::bind_current_thread(cpu) {
            rt.warn(&format!("worker {id}: {e}"));
        }
    }
    loop {
        if let Some(t) = rt.pop_for(id) {
            crate::task::execute(rt, id, t);
            continue;
        }
        if rt.is_stopping() {
            break;
        }
        if let Some(t) = spin_for_work(rt, id) {
            crate::task::execute(rt, id, t);
            continue;
        }
        park(rt, id);
    }
    CURRENT_WORKER.with(|c| c.set(None));
}

fn spin_for_work(rt: &Runtime, id: usize) -> Option<crate::task::TaskRef> {
    let start = Instant::now();
    let mut i = 0u32;
    loop {
        if rt.has_work(id) {
            if let Some(t) = rt.pop_for(id) {
                return Some(t);
            }
        }
        if rt.is_stopping() {
            return None;
        }
        i += 1;
        if i.is_multiple_of(64) {
            if start.elapsed() > SPIN {
                return None;
            }
            // Leave the core to the application thread it may share.
            std::thread::yield_now();
        } else {
            std::hint::spin_loop();
        }
    }
}

fn park(rt: &Runtime, id: usize) {
    let me = &rt.workers[id];
    me.sleeping.store(true, Ordering::SeqCst);
    rt.nsleeping.fetch_add(1, Ordering::SeqCst);
    // Pairs with the fence in Runtime::wake: either the pusher sees us asleep, or we see
    // its task here.
    fence(Ordering::SeqCst);
    if !(rt.has_work(id) || rt.is_stopping()) {
        while me.sleeping.load(Ordering::SeqCst) && !rt.is_stopping() {
            std::thread::park();
        }
    }
    me.sleeping.store(false, Ordering::SeqCst);
    rt.nsleeping.fetch_sub(1, Ordering::SeqCst);
}
