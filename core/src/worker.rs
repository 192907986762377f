//! Workers as every layer sees them: their kinds, their descriptions (id, kind, CPU,
//! memory node, device) and wake state, and the role of the calling thread (a worker or
//! an application thread, inside application code called by the runtime or not).
//!
//! The threads themselves (what a worker does all day: pop, run, park) are the runtime's
//! (`runtime/worker_thread.rs`): running a task is where every subsystem meets. This
//! module sits low (above `memory`) so that data, tasks, models and policies can name
//! workers and ask who is calling without knowing the runtime.

use crate::error::{Error, ErrorKind};
use crate::memory::{NodeId, MAIN_RAM};
use crossbeam_utils::CachePadded;
use std::any::Any;
use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::thread::Thread;

/// Most workers a runtime runs (`STARPU_NMAXWORKERS`).
pub const MAX_WORKERS: usize = 64;

/// The kinds of workers (StarPU's `enum starpu_worker_archtype`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorkerKind {
    Cpu,
    Cuda,
    OpenCl,
}

impl WorkerKind {
    /// Every kind, in StarPU's order.
    pub const ALL: [WorkerKind; 3] = [WorkerKind::Cpu, WorkerKind::Cuda, WorkerKind::OpenCl];

    /// StarPU's value for this kind (`STARPU_CPU_WORKER` ...).
    pub fn starpu_id(self) -> u32 {
        match self {
            WorkerKind::Cpu => 0,
            WorkerKind::Cuda => 1,
            WorkerKind::OpenCl => 2,
        }
    }

    /// The kind StarPU's value `id` names, if this build knows it.
    pub fn from_starpu_id(id: u32) -> Option<WorkerKind> {
        WorkerKind::ALL.into_iter().find(|k| k.starpu_id() == id)
    }

    /// The `where` bit of this kind.
    pub fn where_bit(self) -> u32 {
        match self {
            WorkerKind::Cpu => where_mask::CPU,
            WorkerKind::Cuda => where_mask::CUDA,
            WorkerKind::OpenCl => where_mask::OPENCL,
        }
    }

    /// StarPU's name for the kind (`starpu_worker_get_type_as_string`).
    pub fn name(self) -> &'static str {
        match self {
            WorkerKind::Cpu => "STARPU_CPU_WORKER",
            WorkerKind::Cuda => "STARPU_CUDA_WORKER",
            WorkerKind::OpenCl => "STARPU_OPENCL_WORKER",
        }
    }
}

/// The `where` bits of a codelet (`STARPU_CPU`, ...): the kinds of workers it may run on.
pub mod where_mask {
    pub const NOWHERE: u32 = 1 << 0;
    pub const CPU: u32 = 1 << 1;
    pub const CUDA: u32 = 1 << 3;
    pub const OPENCL: u32 = 1 << 6;
}

#[repr(align(128))] // keeps each worker's flags on its own cache lines
pub struct Worker {
    pub id: usize,
    pub kind: WorkerKind,
    /// Logical CPU the thread is bound to, if bound.
    pub cpu: Option<usize>,
    pub node: NodeId,
    /// The device number within the worker's kind (StarPU's `devid`; the CPU number for
    /// CPU workers).
    pub devid: usize,
    pub name: String,
    pub(crate) sleeping: AtomicBool,
    pub(crate) thread: OnceLock<Thread>,
    /// Written by the worker for each task: on a cache line of its own, away from what the
    /// other threads read of the worker (its kind, node, `sleeping`) for each task.
    pub(crate) executed: CachePadded<AtomicU64>,
    /// Set while the worker looks for a task (from before it checks for a pause until it
    /// has one or none), so that `pause` can wait until no worker can still start a task
    /// queued after it. Written twice per task by the worker: a cache line of its own.
    pub(crate) popping: CachePadded<AtomicBool>,
}

impl Worker {
    pub(crate) fn new(id: usize, cpu: Option<usize>) -> Worker {
        Worker {
            id,
            kind: WorkerKind::Cpu,
            cpu,
            node: MAIN_RAM,
            devid: id,
            name: format!("CPU {id}"),
            sleeping: AtomicBool::new(false),
            thread: OnceLock::new(),
            executed: CachePadded::new(AtomicU64::new(0)),
            popping: CachePadded::new(AtomicBool::new(false)),
        }
    }

    /// The worker of device `devid` of `kind`, computing in memory node `node`.
    pub(crate) fn device(
        id: usize,
        kind: WorkerKind,
        devid: usize,
        node: NodeId,
        name: String,
    ) -> Worker {
        Worker {
            kind,
            node,
            devid,
            name,
            ..Worker::new(id, None)
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

/// What the runtime knows about the current thread. One thread-local for all of it: in a
/// shared library every thread-local access is a call, and the task path makes several.
struct ThreadRole {
    /// The worker this thread is, if it is one.
    worker: Cell<Option<usize>>,
    /// Application code called by the runtime is running (blocking calls are refused).
    in_callback: Cell<bool>,
    /// The task whose kernel runs on this thread (`starpu_task_get_current`), as the task
    /// layer gave it (`task::current_task` gives it back typed).
    current_task: RefCell<Option<CurrentTask>>,
}

thread_local! {
    static ROLE: ThreadRole = const {
        ThreadRole {
            worker: Cell::new(None),
            in_callback: Cell::new(false),
            current_task: RefCell::new(None),
        }
    };
}

/// The id of the worker running on this thread, `None` on application threads.
pub fn current_worker_id() -> Option<usize> {
    ROLE.with(|r| r.worker.get())
}

/// Whether this thread may block waiting for tasks (it is not a worker, nor in a callback).
pub fn may_block() -> bool {
    ROLE.with(|r| r.worker.get().is_none() && !r.in_callback.get())
}

/// The task whose kernel runs on a thread, type-erased: this layer sits below tasks.
pub(crate) type CurrentTask = Arc<dyn Any + Send + Sync>;

/// The task whose kernel is running on the calling thread, as `as_callback` was given it.
pub(crate) fn current_task_any() -> Option<CurrentTask> {
    ROLE.with(|r| r.current_task.borrow().clone())
}

/// Runs application code `f` as a callback: blocking calls are refused inside it, and a
/// panic is caught and returned as an error naming `what` (a failed Python or Java callback
/// must not kill the worker thread that runs it). With `task`, `f` is that task's kernel
/// (`current_task_any` answers it meanwhile).
pub(crate) fn as_callback<R>(
    what: &str,
    task: Option<CurrentTask>,
    f: impl FnOnce() -> R,
) -> Result<R, Error> {
    ROLE.with(|role| {
        let prev = role.in_callback.replace(true);
        let current = task.is_some();
        if current {
            *role.current_task.borrow_mut() = task;
        }
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
        if current {
            *role.current_task.borrow_mut() = None;
        }
        role.in_callback.set(prev);
        r.map_err(|p| {
            Error::new(
                ErrorKind::TaskFailed,
                format!("{what} panicked: {}", panic_message(&*p)),
            )
        })
    })
}

/// Marks the calling thread as worker `id` (or an application thread again, with `None`).
pub(crate) fn set_current_worker(id: Option<usize>) {
    ROLE.with(|r| r.worker.set(id));
}

/// The text of a panic payload.
pub(crate) fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "(no message)".into()
    }
}
