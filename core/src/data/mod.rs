//! Data management: registered handles, their replicas and interfaces, implicit
//! dependencies, filters and partition plans. What the application does with data
//! through the runtime (registration, acquisition, partitioning) is in
//! `runtime/api/data/`; switching partitions and reductions are tasks (`task/`).

mod access;
mod coherency;
pub mod commute;
pub mod element;
pub mod filters;
mod handle;
/// StarPU's hash, which data footprints are made of (`crate::hash`).
pub use crate::hash;
mod implicit;
pub mod interfaces;
mod modes;
mod pack;
pub(crate) mod partition;
mod prefetch;
pub mod redux;
mod register;
pub mod registry;
mod scratch;

pub use access::AccessMode;
pub use commute::Arbiter;
pub use element::{ElemKind, Element};
pub(crate) use handle::hstate;
pub use handle::{DataHandle, Origin};
pub use pack::Run;
pub use partition::{sub_data, Filter, SwitchOptions};
pub use prefetch::NodeStatus;
pub use redux::ReductionMethods;
pub use register::{Buffer, Coo, Csr};

/// Where an acquisition wants the data (`starpu_data_acquire_on_node`'s node argument).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AcquireNode {
    /// On this memory node, fetched there.
    Node(crate::memory::NodeId),
    /// Ordering only: no replica is brought anywhere (`STARPU_ACQUIRE_NO_NODE`).
    None,
}

#[cfg(test)]
mod tests;
