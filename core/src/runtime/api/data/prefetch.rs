//! The application's hints about where data should be (fetch, prefetch, wont_use, allocation
//! requests): acquisitions in read mode ordered after the tasks submitted before.

use crate::data::{AccessMode, AcquireNode, DataHandle};
use crate::error::Result;
use crate::memory::{Level, NodeId};
use crate::runtime::Runtime;
use std::sync::Arc;

impl Runtime {
    /// Brings the value of `h`, as left by the tasks submitted before, to `node` at
    /// `level` (ordered among the node's requests by `prio`). Synchronous: returns once
    /// it is there. Asynchronous: returns at once, the transfer starts when those tasks
    /// are done.
    pub fn prefetch(
        self: &Arc<Self>,
        h: &DataHandle,
        node: NodeId,
        level: Level,
        prio: i32,
        asynchronous: bool,
    ) -> Result<()> {
        h.check_usable()?;
        h.memory().check(node)?;
        if !asynchronous {
            self.acquire(h, AcquireNode::Node(node), AccessMode::R)?;
            return self.release(h);
        }
        let (rt, target) = (self.clone(), h.clone());
        self.acquire_cb(
            h,
            AcquireNode::None,
            AccessMode::R,
            Box::new(move || {
                if let Err(e) = target.request(node, level, prio) {
                    rt.warn(&format!(
                        "prefetch of data {}: {}",
                        target.label(),
                        e.message
                    ));
                }
                let _ = rt.release(&target);
            }),
        )
    }

    /// Says the application will not use `h` for a while (`starpu_data_wont_use`): once
    /// the tasks submitted before are done, its value goes home when the bus is idle and
    /// its device copies are the first to be evicted.
    pub fn wont_use(self: &Arc<Self>, h: &DataHandle) -> Result<()> {
        h.check_usable()?;
        let (rt, target) = (self.clone(), h.clone());
        self.acquire_cb(
            h,
            AcquireNode::None,
            AccessMode::R,
            Box::new(move || {
                target.wont_use();
                let _ = rt.release(&target);
            }),
        )
    }

    /// Makes room for `h` on `node` without bringing its value
    /// (`starpu_data_request_allocation`).
    pub fn request_allocation(&self, h: &DataHandle, node: NodeId) -> Result<()> {
        h.check_usable()?;
        h.allocate_on(node)
    }
}
