//! Making the children a filter cuts out of a handle: one description per memory node,
//! each a view into the parent's buffers on that node.

use super::Filter;
use crate::data::handle::{Origin, ReplicaInit};
use crate::data::interfaces::{Description, Interface, NdimInterface};
use crate::data::{registry, DataHandle};
use crate::error::{Error, Result};
use crate::memory::{self, NodeId};
use std::sync::Arc;

/// The node whose replica of `h` children are cut from: the home node, or main memory
/// for data registered without a home.
pub(crate) fn main_node(h: &DataHandle) -> NodeId {
    h.home_node().unwrap_or(memory::MAIN_RAM)
}

/// Checks that `filter` applies to `parent`'s interface.
pub(crate) fn check_filter(parent: &DataHandle, filter: &Filter) -> Result<()> {
    if let Some(id) = filter.parent_id {
        if id != parent.interface_id() {
            return Err(Error::invalid(format!(
                "partitioning: the filter applies to interface id {id}, data {} is a {}",
                parent.label(),
                parent.ops().name()
            )));
        }
    }
    Ok(())
}

/// Builds and registers the `n` children `filter` cuts out of `parent`, whose buffer on
/// its main node must exist. On every node where the parent has a buffer, the filter
/// makes the child's description (a view into it); elsewhere the child starts without
/// buffers. With `inherit`, each child's replicas hold a value where the parent's do
/// (synchronous partitioning); otherwise none does until a partitioning task runs.
pub(crate) fn make_children(
    parent: &DataHandle,
    filter: &Filter,
    n: usize,
    inherit: bool,
) -> Result<Vec<DataHandle>> {
    let main = main_node(parent);
    let mut children = Vec::with_capacity(n);
    for id in 0..n {
        let ops = filter
            .child_ops
            .as_ref()
            .and_then(|f| f(id))
            .unwrap_or_else(|| parent.ops());
        let cut = |node: NodeId| -> Result<Description> {
            let r = &parent.0.replicas[node];
            let desc = if ops.id() == parent.ops().id() && ops.size() == parent.ops().size() {
                let d = r.desc.duplicate();
                if ops.id() == NdimInterface::ID {
                    // SAFETY: d holds an ndim description; its arrays must not be the
                    // parent's, which a C filter may write into.
                    unsafe { (*(d.ptr() as *mut NdimInterface)).own_arrays() };
                }
                d
            } else {
                Description::zeroed(ops)
            };
            // The filter is application code: a panic fails the partitioning, which then
            // leaves the parent as it was.
            crate::worker::as_callback("the filter function", None, || {
                (filter.apply)(r.desc.ptr(), desc.ptr(), id, n)
            })
            .and_then(|r| r)
            .map_err(|e| Error::invalid(format!("partitioning: child {id}: {e}")))?;
            Ok(desc)
        };
        let main_desc = cut(main)?;
        let mut replicas = Vec::with_capacity(parent.0.replicas.len());
        for (node, r) in parent.0.replicas.iter().enumerate() {
            let allocated = r.is_allocated();
            let desc = if node == main {
                main_desc.duplicate()
            } else if allocated {
                cut(node)?
            } else {
                // No buffer there to point into: the shape only.
                // CORE-NOTE: with several memory nodes, allocating a child where its
                // parent has no buffer should allocate the parent's and cut it.
                let d = main_desc.duplicate();
                // SAFETY: d is a private description of ops's type.
                unsafe { ops.clear_buffers(d.ptr()) };
                d
            };
            replicas.push(ReplicaInit {
                desc,
                valid: inherit && r.is_valid(),
                allocated,
            });
        }
        children.push(DataHandle::from_replicas(
            parent.memory(),
            parent.home_node(),
            replicas,
            parent.sequential_consistency(),
            Some(Arc::downgrade(&parent.0)),
            Origin {
                elem: parent.elem_kind(),
                owner: None,
            },
        ));
    }
    for child in &children {
        registry::publish(child);
    }
    Ok(children)
}
