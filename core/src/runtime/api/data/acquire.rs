//! Acquisition of data by the application (`starpu_data_acquire` and friends): the
//! runtime's methods, over `task/acquire.rs` (an acquisition is a task).

use crate::data::{AccessMode, AcquireNode, DataHandle};
use crate::error::Result;
use crate::runtime::Runtime;
use crate::task::TaskRef;

impl Runtime {
    /// Blocks until the application may access `h` in `mode` on `node`.
    pub fn acquire(&self, h: &DataHandle, node: AcquireNode, mode: AccessMode) -> Result<()> {
        crate::task::acquire::acquire(self, h, node, mode)
    }

    /// `acquire`, returning the acquisition (to view the data, or release it precisely).
    pub(crate) fn acquire_task(
        &self,
        h: &DataHandle,
        node: AcquireNode,
        mode: AccessMode,
    ) -> Result<TaskRef> {
        crate::task::acquire::acquire_task(self, h, node, mode)
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
        crate::task::acquire::acquire_cb(self, h, node, mode, granted)
    }

    /// Submits an acquisition of `h`, ordered after earlier accesses when `sequential`.
    pub(crate) fn submit_acquisition(
        &self,
        h: &DataHandle,
        node: AcquireNode,
        mode: AccessMode,
        granted: Option<Box<dyn FnOnce() + Send>>,
        sequential: bool,
    ) -> Result<TaskRef> {
        crate::task::acquire::submit_acquisition(self, h, node, mode, granted, sequential)
    }

    /// The acquisition's dependencies are met: bring the data and hand it over.
    pub(crate) fn grant(&self, t: &TaskRef, node: AcquireNode) {
        crate::task::acquire::grant(self, t, node)
    }

    /// Ends the most recent acquisition of `h` (`starpu_data_release`).
    pub fn release(&self, h: &DataHandle) -> Result<()> {
        crate::task::acquire::release(self, h)
    }

    /// Ends acquisition `t` of `h` (if it is still held).
    pub(crate) fn release_acquisition(&self, h: &DataHandle, t: &TaskRef) {
        crate::task::acquire::release_acquisition(self, h, t)
    }

    /// Ends a granted acquisition: what it wrote becomes the data's value, and the tasks
    /// waiting for it may go.
    pub(crate) fn end_acquisition(&self, t: &TaskRef) {
        crate::task::acquire::end_acquisition(self, t)
    }
}
