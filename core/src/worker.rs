//! Workers: the threads that run tasks, one per CPU core by default, and one per
//! accelerator device (a CUDA or OpenCL worker drives its device: it brings the task's data
//! to the device's memory node, launches the kernels and waits for them).
//!
//! An idle worker spins briefly (a task may be just about to arrive) and then parks; a
//! push wakes a parked worker only when one is parked, so a busy runtime pays one atomic
//! load per push for wakeups.

use crate::error::{Error, ErrorKind};
use crate::memory::{NodeId, MAIN_RAM};
use crate::runtime::Runtime;
use crate::sched::queue::FifoQueue;
use crate::task::TaskRef;
use std::cell::{Cell, RefCell};
use std::sync::atomic::{fence, AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::thread::Thread;
use std::time::{Duration, Instant};

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
        use crate::task::where_mask;
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

/// How long an idle worker polls for work before parking.
const SPIN: Duration = Duration::from_micros(20);

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
    /// Tasks that must run on this worker (`execute_on_a_specific_worker`).
    pub(crate) pinned: FifoQueue,
    pub(crate) executed: AtomicU64,
    /// Set while the worker looks for a task (from before it checks for a pause until it
    /// has one or none), so that `pause` can wait until no worker can still start a task
    /// queued after it.
    pub(crate) popping: AtomicBool,
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
            pinned: FifoQueue::default(),
            executed: AtomicU64::new(0),
            popping: AtomicBool::new(false),
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
    /// The task whose kernel runs on this thread (`starpu_task_get_current`).
    current_task: RefCell<Option<TaskRef>>,
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

/// The task whose kernel is running on the calling thread.
pub fn current_task() -> Option<TaskRef> {
    ROLE.with(|r| r.current_task.borrow().clone())
}

/// Runs application code `f` as a callback: blocking calls are refused inside it, and a
/// panic is caught and returned as an error naming `what` (a failed Python or Java callback
/// must not kill the worker thread that runs it). With `task`, `f` is that task's kernel
/// (`current_task` answers it meanwhile).
pub(crate) fn as_callback<R>(
    what: &str,
    task: Option<&TaskRef>,
    f: impl FnOnce() -> R,
) -> Result<R, Error> {
    ROLE.with(|role| {
        let prev = role.in_callback.replace(true);
        if let Some(t) = task {
            *role.current_task.borrow_mut() = Some(t.clone());
        }
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
        if task.is_some() {
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

/// The body of a worker thread.
pub(crate) fn run(rt: Arc<Runtime>, id: usize) {
    let rt = &rt;
    ROLE.with(|r| r.worker.set(Some(id)));
    let me = &rt.workers[id];
    if let Some(cpu) = me.cpu {
        if let Err(e) = rt.topology.bind_current_thread(cpu) {
            rt.warn(&format!("worker {id}: {e}"));
        }
    }
    #[cfg(feature = "cuda")]
    if me.kind == WorkerKind::Cuda {
        if let Some(d) = rt.devices.cuda.get(me.devid) {
            if let Err(e) = crate::drivers::cuda::set_current(me.devid, d.clone()) {
                rt.warn(&format!("worker {id}: {e}"));
            }
        }
    }
    #[cfg(feature = "opencl")]
    if me.kind == WorkerKind::OpenCl {
        if let Some(d) = rt.devices.opencl.get(me.devid) {
            crate::drivers::opencl::set_current(me.devid, d.clone());
        }
    }
    // Data requests of the worker's node progress between tasks (only with devices).
    let requests = rt.memory.has_devices().then(|| &rt.memory.nodes()[me.node]);
    loop {
        rebind_if_asked(rt, id);
        if let Some(n) = requests {
            n.progress(false);
        }
        // A part of a parallel task (its master waits for this worker) comes first.
        if rt.parallel.has_part(id) {
            crate::parallel::run_part(rt, id);
            continue;
        }
        if let Some(t) = rt.pop_for(id) {
            rebind_if_asked(rt, id);
            crate::task::execute(rt, id, t);
            rt.graveyard.dig(4);
            continue;
        }
        if rt.is_stopping() {
            break;
        }
        if let Some(n) = requests {
            n.progress(true);
        }
        if let Some(t) = spin_for_work(rt, id) {
            rebind_if_asked(rt, id);
            crate::task::execute(rt, id, t);
            rt.graveyard.dig(4);
            continue;
        }
        rt.graveyard.empty();
        park(rt, id);
    }
    ROLE.with(|r| r.worker.set(None));
}

/// Applies a rebinding the bind-to-PU knob asked for: a task taken after the knob was set
/// runs on the new CPU.
#[inline]
fn rebind_if_asked(rt: &Runtime, id: usize) {
    if let Some(cpu) = rt.knobs.rebind_request(id) {
        let r = rt.topology.bind_current_thread(cpu);
        if let Err(e) = &r {
            rt.warn(&format!("worker {id}: {e}"));
        }
        rt.knobs.rebound(id, cpu, r.is_ok());
    }
}

fn spin_for_work(rt: &Runtime, id: usize) -> Option<crate::task::TaskRef> {
    let start = Instant::now();
    let mut i = 0u32;
    loop {
        if rt.has_work(id) {
            if rt.parallel.has_part(id) {
                return None;
            }
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
    if !(rt.has_work(id) || rt.is_stopping() || rt.knobs.rebind_pending(id)) {
        let asleep = rt.profile.sleeps();
        rt.trace.sleeping(true);
        let node = &rt.memory.nodes()[me.node];
        while me.sleeping.load(Ordering::SeqCst) && !rt.is_stopping() {
            if node.queued_requests() > 0 {
                // Prefetches waiting for room (or for an idle node) to start: look again
                // now and then. Running transfers need no watching: whoever needs their
                // data waits for them, and polling them would take the device's cores
                // (PoCL computes on the same CPUs).
                std::thread::park_timeout(Duration::from_millis(1));
                node.progress(true);
            } else {
                std::thread::park();
            }
        }
        rt.trace.sleeping(false);
        rt.profile.woke(id, asleep);
    }
    me.sleeping.store(false, Ordering::SeqCst);
    rt.nsleeping.fetch_sub(1, Ordering::SeqCst);
}
