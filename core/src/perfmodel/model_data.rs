//! What the models read of a task's data: a handle's shape and where its value lies. The
//! data layer, above this one, implements it for its handles.

use crate::memory::{Memory, NodeId};

/// A piece of data as the performance models see it.
pub trait ModelData {
    /// The footprint of the data's shape (its interface's, `footprint` in StarPU's
    /// interface operations).
    fn shape_footprint(&self) -> u32;
    /// StarPU's id of the data's interface.
    fn interface_id(&self) -> i32;
    /// Size in bytes.
    fn size(&self) -> usize;
    /// The memory nodes of the runtime the data belongs to.
    fn memory(&self) -> &Memory;
    /// Whether `node` holds the current value.
    fn is_valid_on(&self, node: NodeId) -> bool;
    /// Whether a transfer to `node` is already on its way.
    fn is_requested_on(&self, node: NodeId) -> bool;
}
