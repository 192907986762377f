//! SCRATCH buffers: working memory a task gets for a handle, shaped like the handle's
//! data, whose content means nothing to anyone else.
//!
//! As in StarPU, each worker has its own buffer per handle, allocated the first time a
//! task on that worker asks for it and reused by the next ones (its content is not reset
//! between tasks). A worker runs one task at a time, so its buffer is never shared. The
//! buffers go when the handle is unregistered (or dropped, at the latest).

use super::interfaces::Description;
use super::DataHandle;
use crate::error::Result;
use crate::memory::{Memory, NodeId};
use std::ffi::c_void;
use std::sync::Arc;

/// One worker's buffer, freed when dropped.
struct ScratchBuf {
    desc: Description,
    node: NodeId,
    mem: Arc<Memory>,
}

impl Drop for ScratchBuf {
    fn drop(&mut self) {
        if let Some(n) = self.mem.node(self.node) {
            // SAFETY: the description was allocated on `node` by `DataHandle::scratch`,
            // and no task uses it any more (its handle is retired or gone).
            unsafe { self.desc.ops().free(self.desc.ptr(), n) };
        }
    }
}

/// The per-worker SCRATCH buffers of one handle, by worker id.
#[derive(Default)]
pub(crate) struct ScratchBufs(Vec<Option<ScratchBuf>>);

impl ScratchBufs {
    /// How many buffers exist.
    pub(crate) fn count(&self) -> usize {
        self.0.iter().flatten().count()
    }

    pub(crate) fn clear(&mut self) {
        self.0.clear();
    }
}

impl DataHandle {
    /// The SCRATCH buffer of `worker` (on `node`), made on first use.
    pub(crate) fn scratch_for(&self, worker: usize, node: NodeId) -> Result<*mut c_void> {
        let mut bufs = self
            .0
            .modes
            .scratch
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if bufs.0.len() <= worker {
            bufs.0.resize_with(worker + 1, || None);
        }
        if let Some(b) = &bufs.0[worker] {
            if b.node == node {
                return Ok(b.desc.ptr() as *mut c_void);
            }
        }
        let desc = self.scratch(node)?;
        let ptr = desc.ptr() as *mut c_void;
        bufs.0[worker] = Some(ScratchBuf {
            desc,
            node,
            mem: self.memory().clone(),
        });
        Ok(ptr)
    }

    /// How many per-worker SCRATCH buffers this handle has now (for tests and statistics).
    pub fn scratch_buffers(&self) -> usize {
        self.0
            .modes
            .scratch
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .count()
    }
}
