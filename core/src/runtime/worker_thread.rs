//! The worker threads: one per CPU core by default, and one per accelerator device (an
//! OpenCL worker drives its device: it brings the task's data to the device's memory
//! node, launches the kernels and waits for them).
//!
//! An idle worker spins briefly (a task may be just about to arrive) and then parks; a
//! push wakes a parked worker only when one is parked, so a busy runtime pays one atomic
//! load per push for wakeups.

use super::Runtime;
use crate::worker;
use std::sync::atomic::{fence, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long an idle worker polls for work before parking.
const SPIN: Duration = Duration::from_micros(20);

/// The body of a worker thread.
pub(crate) fn run(rt: Arc<Runtime>, id: usize) {
    let rt = &rt;
    worker::set_current_worker(Some(id));
    let me = &rt.workers[id];
    if let Some(cpu) = me.cpu {
        if let Err(e) = rt.topology.bind_current_thread(cpu) {
            rt.warn(&format!("worker {id}: {e}"));
        }
    }
    #[cfg(feature = "cuda")]
    if me.kind == worker::WorkerKind::Cuda {
        if let Some(d) = rt.devices.cuda.get(me.devid) {
            let pipeline = rt.config.cuda.pipeline;
            if let Err(e) = crate::drivers::cuda::set_current(me.devid, d.clone(), pipeline) {
                rt.warn(&format!("worker {id}: {e}"));
            }
        }
    }
    #[cfg(feature = "opencl")]
    if me.kind == worker::WorkerKind::OpenCl {
        if let Some(d) = rt.devices.opencl.get(me.devid) {
            crate::drivers::opencl::set_current(me.devid, d.clone());
        }
    }
    // A CUDA worker that may queue tasks on its stream (`STARPU_CUDA_PIPELINE`).
    #[cfg(feature = "cuda")]
    let queues = me.kind == worker::WorkerKind::Cuda && rt.config.cuda.pipeline > 0;
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
        // A CUDA worker ends the tasks it queued on its stream that are over, and makes
        // room for one more (`STARPU_CUDA_PIPELINE`).
        #[cfg(feature = "cuda")]
        if queues {
            let ended =
                crate::drivers::cuda::take_ended(crate::drivers::cuda::pipeline::Drain::MakeRoom);
            crate::task::end_queued(rt, id, ended);
        }
        if let Some(t) = rt.pop_for(id) {
            rebind_if_asked(rt, id);
            crate::task::execute(rt, id, t);
            rt.graveyard.dig(4);
            continue;
        }
        // Nothing to do: every task it queued ends before it idles.
        #[cfg(feature = "cuda")]
        if queues {
            let ended =
                crate::drivers::cuda::take_ended(crate::drivers::cuda::pipeline::Drain::All);
            crate::task::end_queued(rt, id, ended);
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
    worker::set_current_worker(None);
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
    if !may_spin(rt) {
        return None;
    }
    rt.nspinning.fetch_add(1, Ordering::SeqCst);
    let t = poll_for_work(rt, id);
    stop_spinning(rt, id);
    t
}

/// Whether one more idle worker may poll before it parks: one may always, more only while
/// fewer than half as many poll as run tasks (the rule Go's scheduler uses for its
/// spinning threads). Every poller reads the queues the submitting thread writes: fifteen
/// of them made each push wait for its cache line, and the cost per task grew with the
/// number of workers. A parked worker is woken when pollers are not enough (`wake_owed`).
fn may_spin(rt: &Runtime) -> bool {
    let spinning = rt.nspinning.load(Ordering::Relaxed);
    if spinning == 0 {
        return true;
    }
    let idle = spinning + rt.nsleeping.load(Ordering::Relaxed);
    let running = rt.workers.len().saturating_sub(idle);
    2 * spinning < running
}

/// This worker no longer polls. A push that saw workers polling woke no one and left the
/// wake-up owed (see `Runtime::wake`): the last poller to stop pays it, since the task may
/// be one it could not take (another kind, `can_execute`, a disabled worker), and the
/// pushes that follow find no poller and wake workers themselves. The fence pairs with the
/// one in `Runtime::wake`: either the pusher sees this worker gone from `nspinning`, or
/// this worker sees `wake_owed`.
fn stop_spinning(rt: &Runtime, id: usize) {
    rt.nspinning.fetch_sub(1, Ordering::SeqCst);
    fence(Ordering::SeqCst);
    if rt.nspinning.load(Ordering::SeqCst) == 0
        && rt.wake_owed.load(Ordering::Relaxed)
        && rt.wake_owed.swap(false, Ordering::SeqCst)
    {
        rt.wake_other(id);
    }
}

/// The most `spin_loop` hints between two looks at the queues: looks back off
/// exponentially to this, so that a poller does not keep the queues' cache lines away from
/// the threads that push and pop.
const MAX_BACKOFF: u32 = 64;

fn poll_for_work(rt: &Runtime, id: usize) -> Option<crate::task::TaskRef> {
    let start = Instant::now();
    let mut backoff = 1;
    loop {
        if rt.has_work(id) {
            if rt.parallel.has_part(id) {
                return None;
            }
            if let Some(t) = rt.pop_for(id) {
                return Some(t);
            }
        }
        if rt.is_stopping() || start.elapsed() > SPIN {
            return None;
        }
        if backoff < MAX_BACKOFF {
            for _ in 0..backoff {
                std::hint::spin_loop();
            }
            backoff *= 2;
        } else {
            // Leave the core to the application thread it may share.
            std::thread::yield_now();
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
