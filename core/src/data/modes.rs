//! The per-handle state of the access modes beyond R/W/RW: the commute gate (or arbiter),
//! reduction methods and contributions, SCRATCH buffers; and where a task's buffer comes
//! from for each mode.

use super::commute::GateSlot;
use super::redux::{self, ReduxState};
use super::scratch::ScratchBufs;
use super::{AccessMode, DataHandle};
use crate::error::Result;
use crate::memory::NodeId;
use std::ffi::c_void;
use std::sync::Mutex;

#[derive(Default)]
pub(crate) struct ModeState {
    pub(crate) gate: Mutex<GateSlot>,
    pub(crate) redux: Mutex<ReduxState>,
    pub(crate) scratch: Mutex<ScratchBufs>,
    /// `starpu_data_set_wt_mask`: the nodes written through to after each write. Kept
    /// only: with main memory as the one node, every write is already there.
    pub(crate) wt_mask: std::sync::atomic::AtomicU32,
}

impl ModeState {
    /// The handle is unregistered: what these modes allocated goes.
    pub(crate) fn retire(&self) {
        fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
            m.lock().unwrap_or_else(|e| e.into_inner())
        }
        lock(&self.scratch).clear();
        lock(&self.redux).clear();
        lock(&self.gate).leave();
    }
}

impl DataHandle {
    /// The buffer a task running on `worker` (memory node `node`) gets for an access in
    /// `mode`: the data's replica, the worker's SCRATCH buffer, or its REDUX contribution.
    pub(crate) fn fetch_for(
        &self,
        worker: usize,
        node: NodeId,
        mode: AccessMode,
    ) -> Result<*mut c_void> {
        if mode.is_scratch() {
            self.scratch_for(worker, node)
        } else if mode.is_redux() {
            self.contribution(worker, node)
        } else {
            self.pin(node, mode)
        }
    }

    /// Records the end of an access made through `fetch_for` by `worker`.
    pub(crate) fn end_access(&self, worker: usize, node: NodeId, mode: AccessMode) {
        if mode.is_redux() {
            // The worker's contribution was written where the worker computes.
            if let Some(c) = self.contribution_of(worker) {
                c.after_access(node, AccessMode::RW);
            }
        } else if !mode.is_scratch() {
            self.unpin(node, mode);
        }
    }

    /// Checks, at submission, that this handle may be accessed in `mode`.
    pub(crate) fn check_mode(
        &self,
        mode: AccessMode,
        sequential: bool,
        acquisition: bool,
    ) -> Result<()> {
        if mode.is_redux() {
            redux::check(self, sequential, acquisition)?;
        }
        Ok(())
    }

    /// Sets the write-through mask (`starpu_data_set_wt_mask`): one bit per memory node
    /// that should receive a copy after each write. Main memory is the only node today, so
    /// the mask is kept and has nothing more to do.
    pub fn set_wt_mask(&self, mask: u32) {
        self.0
            .modes
            .wt_mask
            .store(mask, std::sync::atomic::Ordering::Relaxed);
    }

    pub fn wt_mask(&self) -> u32 {
        self.0
            .modes
            .wt_mask
            .load(std::sync::atomic::Ordering::Relaxed)
    }
}
