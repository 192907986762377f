//! What the application says about where data should be (`starpu_data_fetch_on_node`,
//! `prefetch_on_node`, `idle_prefetch_on_node`, `wont_use`, `request_allocation`,
//! `query_status`). As in StarPU, a fetch or prefetch is ordered after the tasks submitted
//! before it on the data (an acquisition in read mode): it brings the value those tasks
//! leave.

use super::DataHandle;
use crate::memory::NodeId;

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
