//! Data management: registered handles, their replicas, implicit dependencies,
//! acquisition by the application, partitioning.

mod access;
mod acquire;
pub mod filters;
mod handle;
mod implicit;
pub mod interfaces;
mod lifecycle;
mod partition;
pub mod registry;

pub use access::AccessMode;
pub use handle::DataHandle;
pub use partition::{sub_data, Filter};

/// Where an acquisition wants the data (`starpu_data_acquire_on_node`'s node argument).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AcquireNode {
    /// On this memory node, fetched there.
    Node(crate::memory::NodeId),
    /// Ordering only: no replica is brought anywhere (`STARPU_ACQUIRE_NO_NODE`).
    None,
}
