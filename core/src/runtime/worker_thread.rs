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
    #[cfg(feature = "opencl")]
    if me.kind == worker::WorkerKind::OpenCl {
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
