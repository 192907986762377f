//! What the application says about where data should be (`starpu_data_fetch_on_node`,
//! `prefetch_on_node`, `idle_prefetch_on_node`, `wont_use`, `request_allocation`,
//! `query_status`). As in StarPU, a fetch or prefetch is ordered after the tasks submitted
//! before it on the data (an acquisition in read mode): it brings the value those tasks
//! leave.

use super::{AccessMode, AcquireNode, DataHandle};
use crate::error::Result;
use crate::memory::{Level, NodeId};
use crate::runtime::Runtime;
use std::sync::Arc;

/// Where a handle's value is on one node (`starpu_data_query_status2`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NodeStatus {
    /// A buffer exists there.
    pub allocated: bool,
    /// It holds the current value.
    pub valid: bool,
    /// A transfer is bringing the value there now.
    pub loading: bool,
    /// A request for the value there is queued or running.
    pub requested: bool,
}

impl DataHandle {
    /// Where the value is on `node` (a hint: it may change at once).
    pub fn status(&self, node: NodeId) -> NodeStatus {
        let requested = self.is_requested_on(node);
        NodeStatus {
            allocated: self.is_allocated_on(node),
            valid: self.is_valid_on(node),
            loading: requested && self.is_loading_on(node),
            requested,
        }
    }
}

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
