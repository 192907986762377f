//! Acquisitions for a runtime layer (StarPU-MPI holding data for a transfer), released
//! exactly: `acquire_cb` hands the data over once it is available, and `release` ends the
//! most recent acquisition of the handle, which is right for an application thread but not
//! for a transfer that holds the data while the application holds it too. An
//! `Acquisition` names one. It is not the application's: the application's `release`
//! never ends it, and unregistering the data waits for it (as for a task) instead of
//! refusing, as StarPU's unregistration waits for pending communications.

use crate::data::{AccessMode, AcquireNode, DataHandle};
use crate::error::Result;
use crate::runtime::Runtime;
use crate::task::TaskRef;

/// One acquisition of a handle, ended by `Runtime::release_acquired`.
pub struct Acquisition {
    handle: DataHandle,
    task: TaskRef,
}

impl Acquisition {
    pub fn handle(&self) -> &DataHandle {
        &self.handle
    }
}

impl Runtime {
    /// Asks for `h` in `mode` on `node` and returns at once; `granted` runs (on some
    /// thread, possibly this one before the call returns) once the data may be used. With
    /// `sequential` false the acquisition is not ordered after earlier accesses (StarPU's
    /// `_sequential_consistency` variants). End it with `release_acquired`.
    pub fn acquire_exact(
        &self,
        h: &DataHandle,
        node: AcquireNode,
        mode: AccessMode,
        sequential: bool,
        granted: Box<dyn FnOnce() + Send>,
    ) -> Result<Acquisition> {
        let sequential = sequential && h.sequential_consistency();
        let task = self.submit_acquisition(h, node, mode, Some(granted), sequential)?;
        h.0.acquisitions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|t| !std::sync::Arc::ptr_eq(t, &task));
        Ok(Acquisition {
            handle: h.clone(),
            task,
        })
    }

    /// Ends acquisition `a`, once its `granted` function has run.
    pub fn release_acquired(&self, a: Acquisition) {
        self.end_acquisition(&a.task);
    }
}
