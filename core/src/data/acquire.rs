//! Acquisition of data by the application (`starpu_data_acquire` and friends).
//!
//! An acquisition is a task without a kernel in the dependency graph: it waits for the
//! tasks submitted before it, and tasks submitted after it wait until it is released.

use super::{AccessMode, AcquireNode, DataHandle};
use crate::error::{Error, Result};
use crate::runtime::Runtime;
use crate::task::{self, state, Access, ReadyList, Task, TaskKind, TaskRef, TaskSpec};
use smallvec::smallvec;
use std::sync::atomic::Ordering;

impl Runtime {
    /// Blocks until the application may access `h` in `mode` on `node`.
    pub fn acquire(&self, h: &DataHandle, node: AcquireNode, mode: AccessMode) -> Result<()> {
        self.acquire_task(h, node, mode).map(drop)
    }

    /// `acquire`, returning the acquisition (to view the data, or release it precisely).
    pub(crate) fn acquire_task(
        &self,
        h: &DataHandle,
        node: AcquireNode,
        mode: AccessMode,
    ) -> Result<TaskRef> {
        self.check_may_block("data acquisition")?;
        let t = self.submit_acquisition(h, node, mode, None)?;
        self.task_bell.wait_until(|| t.state() >= state::RUNNING);
        if let Some(e) = t.failure() {
            h.0.acquisitions
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .retain(|a| !std::sync::Arc::ptr_eq(a, &t));
            self.end_acquisition(&t);
            return Err(e);
        }
        Ok(t)
    }

    /// Asks for `h` in `mode` and returns at once; `granted` runs (on some thread) once the
    /// application may access the data. It must be followed by `release`.
    pub fn acquire_cb(
        &self,
        h: &DataHandle,
        node: AcquireNode,
        mode: AccessMode,
        granted: Box<dyn FnOnce() + Send>,
    ) -> Result<()> {
        self.submit_acquisition(h, node, mode, Some(granted))
            .map(|_| ())
    }

    fn submit_acquisition(
        &self,
        h: &DataHandle,
        node: AcquireNode,
        mode: AccessMode,
        granted: Option<Box<dyn FnOnce() + Send>>,
    ) -> Result<TaskRef> {
        h.check_usable()?;
        if let AcquireNode::Node(n) = node {
            if n >= h.memory().node_count() {
                return Err(Error::invalid(format!("no memory node {n}")));
            }
        }
        let mode = AccessMode::from_bits(mode.0)
            .map_err(|e| Error::invalid(format!("data acquisition: {e}")))?;
        let t = Task::new();
        if let Some(f) = granted {
            t.set_callback(move |_| f());
        }
        let spec = TaskSpec {
            accesses: smallvec![Access {
                handle: h.clone(),
                mode,
                sequential: h.sequential_consistency(),
            }],
            kind: TaskKind::Acquire(node),
            ..Default::default()
        };
        h.0.acquisitions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(t.clone());
        if let Err(e) = self.submit(&t, spec) {
            h.0.acquisitions
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .pop();
            return Err(e);
        }
        Ok(t)
    }

    /// The acquisition's dependencies are met: bring the data and hand it over.
    pub(crate) fn grant(&self, t: &TaskRef, node: AcquireNode) {
        let spec = t.spec().expect("granted acquisitions were submitted");
        if let AcquireNode::Node(n) = node {
            for a in &spec.accesses {
                if let Err(e) = a.handle.pin(n, a.mode) {
                    t.set_failure(e);
                }
            }
        }
        t.set_state(state::RUNNING);
        match t.take_callback() {
            Some(f) => {
                task::guarded(self, t, "the acquisition callback", || f(t));
            }
            None => self.task_bell.ring(),
        }
        // For `wait_for_all` an acquisition is over once granted (its callback included),
        // as in StarPU: an application holding data acquired can still wait for its tasks
        // and shut down.
        self.task_left();
    }

    /// Ends the most recent acquisition of `h` (`starpu_data_release`).
    pub fn release(&self, h: &DataHandle) -> Result<()> {
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
        self.end_acquisition(&t);
        Ok(())
    }

    /// Ends acquisition `t` of `h` (if it is still held).
    pub(crate) fn release_acquisition(&self, h: &DataHandle, t: &TaskRef) {
        let held = {
            let mut acq = h.0.acquisitions.lock().unwrap_or_else(|e| e.into_inner());
            let before = acq.len();
            acq.retain(|a| !std::sync::Arc::ptr_eq(a, t));
            acq.len() != before
        };
        if held {
            self.end_acquisition(t);
        }
    }

    /// Ends a granted acquisition: what it wrote becomes the data's value, and the tasks
    /// waiting for it may go.
    fn end_acquisition(&self, t: &TaskRef) {
        let spec = t.spec().expect("acquisitions were submitted");
        if let TaskKind::Acquire(AcquireNode::Node(n)) = spec.kind {
            for a in &spec.accesses {
                a.handle.unpin(n, a.mode);
            }
        }
        let mut ready = ReadyList::new();
        task::complete(self, t, &mut ready);
        self.schedule(ready);
    }
}

/// Waits until no task or acquisition uses `h` (a pending reduction is made first, so
/// that the data holds its contributions).
pub(super) fn wait_idle(rt: &Runtime, h: &DataHandle) {
    rt.end_reduction(h);
    rt.data_bell
        .wait_until(|| h.0.in_flight.load(Ordering::SeqCst) == 0);
}
