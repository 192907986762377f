//! Acquisition of data by the application (`starpu_data_acquire` and friends).
//!
//! An acquisition is a task without a kernel in the dependency graph: it waits for the
//! tasks submitted before it, and tasks submitted after it wait until it is released.

use crate::data::{AccessMode, AcquireNode, DataHandle};
use crate::error::{Error, Result};
use crate::runtime::Runtime;
use crate::task::{self, state, Access, ReadyList, Task, TaskKind, TaskRef, TaskSpec};
use smallvec::smallvec;
use std::sync::atomic::Ordering;

/// The thread that made a blocking acquisition (kept as the acquisition's payload).
struct HeldBy(std::thread::ThreadId);

/// An acquisition outside sequential consistency is not ordered after earlier tasks, but
/// as in StarPU it still waits for the conflicting tasks that hold the data now (those past
/// their dependencies and not done with the data): StarPU arbitrates every access to a
/// handle, so an application that turns sequential consistency off after a task was
/// released reads the data once that task wrote it (examples/dependency/task_end_dep.c).
/// Tasks still waiting for their dependencies do not hold the data yet and are not waited
/// for, nor are this thread's own acquisitions (it would wait for itself).
fn wait_for_holders(h: &DataHandle, mode: AccessMode, acquisition: &TaskRef) {
    let here = std::thread::current().id();
    let deps = h.0.deps.lock().unwrap_or_else(|e| e.into_inner());
    for holder in deps.conflicting(mode) {
        let mine = holder
            .spec()
            .and_then(|s| s.payload_as::<HeldBy>())
            .is_some_and(|b| b.0 == here);
        // Released from its dependencies: ready, running, or about to be scheduled by the
        // thread that released it.
        let past_deps = holder.state() >= state::READY
            || holder.state() == state::SUBMITTED && holder.pending.load(Ordering::Acquire) == 0;
        if past_deps && !mine {
            holder.add_data_successor(acquisition);
        }
    }
}

/// Refuses a blocking acquisition of `h` in `mode` that would wait for an acquisition this
/// very thread holds (and so wait forever, as StarPU does): a write after anything, or
/// anything after a write, of the same data in sequential order.
fn check_not_held_here(h: &DataHandle, mode: AccessMode) -> Result<()> {
    if !h.sequential_consistency() {
        return Ok(());
    }
    let here = std::thread::current().id();
    let held = h.0.acquisitions.lock().unwrap_or_else(|e| e.into_inner());
    let conflict = held.iter().find(|a| {
        let Some(spec) = a.spec() else { return false };
        a.state() >= state::RUNNING
            && spec.payload_as::<HeldBy>().is_some_and(|b| b.0 == here)
            && spec
                .accesses
                .iter()
                .any(|x| x.sequential && (x.mode.writes() || mode.writes()))
    });
    match conflict {
        Some(a) => Err(Error::deadlock(format!(
            "data acquisition: this thread holds data {} already (acquired in mode {:?}, not \
             released): acquiring it in mode {mode:?} would wait for itself",
            h.label(),
            a.spec().map_or(AccessMode::NONE, |s| s.accesses[0].mode)
        ))),
        None => Ok(()),
    }
}

/// Waits until no task or acquisition uses `h` (a pending reduction is made first, so
/// that the data holds its contributions).
pub(crate) fn wait_idle(rt: &Runtime, h: &DataHandle) {
    rt.end_reduction(h);
    rt.data_bell
        .wait_until(|| h.0.in_flight.load(Ordering::SeqCst) == 0);
}

pub(crate) fn acquire(
    rt: &Runtime,
    h: &DataHandle,
    node: AcquireNode,
    mode: AccessMode,
) -> Result<()> {
    acquire_task(rt, h, node, mode).map(drop)
}

pub(crate) fn acquire_task(
    rt: &Runtime,
    h: &DataHandle,
    node: AcquireNode,
    mode: AccessMode,
) -> Result<TaskRef> {
    rt.check_may_block("data acquisition")?;
    check_not_held_here(h, mode)?;
    let t = submit_acquisition(rt, h, node, mode, None, h.sequential_consistency())?;
    rt.task_bell.wait_until(|| t.state() >= state::RUNNING);
    if let Some(e) = t.failure() {
        h.0.acquisitions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|a| !std::sync::Arc::ptr_eq(a, &t));
        end_acquisition(rt, &t);
        return Err(e);
    }
    Ok(t)
}

pub(crate) fn acquire_cb(
    rt: &Runtime,
    h: &DataHandle,
    node: AcquireNode,
    mode: AccessMode,
    granted: Box<dyn FnOnce() + Send>,
) -> Result<()> {
    submit_acquisition(rt, h, node, mode, Some(granted), h.sequential_consistency()).map(|_| ())
}

pub(crate) fn submit_acquisition(
    rt: &Runtime,
    h: &DataHandle,
    node: AcquireNode,
    mode: AccessMode,
    granted: Option<Box<dyn FnOnce() + Send>>,
    sequential: bool,
) -> Result<TaskRef> {
    h.check_usable()?;
    if let AcquireNode::Node(n) = node {
        if n >= h.memory().node_count() {
            return Err(Error::invalid(format!("no memory node {n}")));
        }
    }
    let mode = AccessMode::from_bits(mode.bits())
        .map_err(|e| Error::invalid(format!("data acquisition: {e}")))?;
    let t = Task::new();
    // A blocking acquisition belongs to the thread that waits for it.
    let held_by = granted
        .is_none()
        .then(|| std::sync::Arc::new(HeldBy(std::thread::current().id())) as _);
    if let Some(f) = granted {
        t.set_callback(move |_| f());
    }
    let spec = TaskSpec {
        accesses: smallvec![Access {
            handle: h.clone(),
            mode,
            sequential,
        }],
        kind: TaskKind::Acquire(node),
        payload: held_by,
        ..Default::default()
    };
    h.0.acquisitions
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(t.clone());
    if !sequential {
        wait_for_holders(h, mode, &t);
    }
    if let Err(e) = rt.submit(&t, spec) {
        h.0.acquisitions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop();
        return Err(e);
    }
    Ok(t)
}

pub(crate) fn grant(rt: &Runtime, t: &TaskRef, node: AcquireNode) {
    let spec = t.spec().expect("granted acquisitions were submitted");
    if let AcquireNode::Node(n) = node {
        for a in &spec.accesses {
            if n == crate::memory::MAIN_RAM {
                if let Err(e) = super::multiformat::for_application(&a.handle, a.mode) {
                    t.set_failure(e);
                }
            }
            if let Err(e) = a.handle.pin(n, a.mode) {
                t.set_failure(e);
            }
        }
    }
    t.set_state(state::RUNNING);
    match t.take_callback() {
        Some(f) => {
            task::guarded(rt, t, "the acquisition callback", || f(t));
        }
        None => rt.task_bell.ring(),
    }
    // For `wait_for_all` an acquisition is over once granted (its callback included),
    // as in StarPU: an application holding data acquired can still wait for its tasks
    // and shut down.
    rt.task_left();
}

pub(crate) fn release(rt: &Runtime, h: &DataHandle) -> Result<()> {
    let t = {
        let mut acq = h.0.acquisitions.lock().unwrap_or_else(|e| e.into_inner());
        let i = acq
            .iter()
            .rposition(|t| t.state() >= state::RUNNING)
            .ok_or_else(|| {
                Error::invalid(format!(
                    "data release: data {} is not acquired (or its acquisition is not \
                     granted yet)",
                    h.label()
                ))
            })?;
        acq.remove(i)
    };
    end_acquisition(rt, &t);
    Ok(())
}

pub(crate) fn release_acquisition(rt: &Runtime, h: &DataHandle, t: &TaskRef) {
    let held = {
        let mut acq = h.0.acquisitions.lock().unwrap_or_else(|e| e.into_inner());
        let before = acq.len();
        acq.retain(|a| !std::sync::Arc::ptr_eq(a, t));
        acq.len() != before
    };
    if held {
        end_acquisition(rt, t);
    }
}

pub(crate) fn end_acquisition(rt: &Runtime, t: &TaskRef) {
    let spec = t.spec().expect("acquisitions were submitted");
    if let TaskKind::Acquire(AcquireNode::Node(n)) = spec.kind {
        for a in &spec.accesses {
            a.handle.unpin(n, a.mode);
        }
    }
    let mut ready = ReadyList::new();
    task::complete(rt, t, &mut ready);
    rt.schedule(ready);
}
