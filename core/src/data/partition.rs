//! Synchronous partitioning: cutting a handle into children that tasks use instead of it
//! (`starpu_data_partition` / `starpu_data_unpartition`).
//!
//! Children describe parts of the parent's buffers (no copy). While partitioned, the parent
//! itself may not be used by tasks.

use super::acquire::wait_idle;
use super::handle::{hstate, ReplicaInit};
use super::interfaces::{Description, InterfaceOps};
use super::{registry, DataHandle};
use crate::error::{Error, Result};
use crate::memory::{self, NodeId};
use crate::runtime::Runtime;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// Fills child `id` (of `nparts`) from the parent's description; both are C interface structs.
pub type FilterFn = dyn Fn(*const u8, *mut u8, usize, usize) + Send + Sync;

/// The interface type of child `id`, when it differs from the parent's (pick filters).
pub type ChildOpsFn = dyn Fn(usize) -> Option<&'static dyn InterfaceOps> + Send + Sync;

/// How to cut a handle (StarPU's `struct starpu_data_filter`, in Rust terms).
pub struct Filter {
    pub nchildren: usize,
    pub apply: Box<FilterFn>,
    pub child_ops: Option<Box<ChildOpsFn>>,
}

impl Filter {
    pub fn new(
        nchildren: usize,
        apply: impl Fn(*const u8, *mut u8, usize, usize) + Send + Sync + 'static,
    ) -> Filter {
        Filter {
            nchildren,
            apply: Box::new(apply),
            child_ops: None,
        }
    }
}

impl Runtime {
    /// Cuts `parent` into `filter.nchildren` children, once the tasks using it are done.
    pub fn partition(&self, parent: &DataHandle, filter: &Filter) -> Result<Vec<DataHandle>> {
        self.check_may_block("starpu_data_partition")?;
        parent.check_usable()?;
        if filter.nchildren == 0 {
            return Err(Error::invalid(
                "a filter must make at least one child (nchildren is 0)",
            ));
        }
        wait_idle(self, parent);
        parent.materialize(parent.home_node().unwrap_or(memory::MAIN_RAM))?;
        let n = filter.nchildren;
        let mut children = Vec::with_capacity(n);
        for id in 0..n {
            let ops = filter
                .child_ops
                .as_ref()
                .and_then(|f| f(id))
                .unwrap_or_else(|| parent.ops());
            let replicas = parent
                .0
                .replicas
                .iter()
                .map(|r| {
                    let desc = if ops.id() == parent.ops().id() {
                        r.desc.duplicate()
                    } else {
                        Description::zeroed(ops)
                    };
                    (filter.apply)(r.desc.ptr(), desc.ptr(), id, n);
                    ReplicaInit {
                        desc,
                        valid: r.valid.load(Ordering::Acquire),
                        allocated: r.allocated.load(Ordering::Acquire),
                    }
                })
                .collect();
            let child = DataHandle::from_replicas(
                parent.home_node(),
                replicas,
                parent.sequential_consistency(),
                Some(Arc::downgrade(&parent.0)),
            );
            registry::publish(&child);
            children.push(child);
        }
        *parent.0.children.lock().unwrap_or_else(|e| e.into_inner()) = children.clone();
        parent.0.state.store(hstate::PARTITIONED, Ordering::Release);
        Ok(children)
    }

    /// Partitions `root` with `filters[0]`, each child with `filters[1]`, and so on
    /// (`starpu_data_map_filters`).
    pub fn map_filters(&self, root: &DataHandle, filters: &[&Filter]) -> Result<()> {
        let Some((first, rest)) = filters.split_first() else {
            return Ok(());
        };
        for child in self.partition(root, first)? {
            self.map_filters(&child, rest)?;
        }
        Ok(())
    }

    /// Gathers the children back into `parent` and forgets them, once the tasks using them
    /// are done.
    pub fn unpartition(&self, parent: &DataHandle, gathering_node: NodeId) -> Result<()> {
        self.check_may_block("starpu_data_unpartition")?;
        if !parent.is_partitioned() {
            return Err(Error::invalid(format!(
                "data {} is not partitioned",
                parent.label()
            )));
        }
        if memory::node_kind(gathering_node).is_none() {
            return Err(Error::invalid(format!("no memory node {gathering_node}")));
        }
        let children = parent.children();
        // A tree made by map_filters comes back whole, as in StarPU.
        for c in children.iter().filter(|c| c.is_partitioned()) {
            self.unpartition(c, gathering_node)?;
        }
        for c in &children {
            wait_idle(self, c);
        }
        // Children are views of the parent's buffers on every node it was allocated on, so
        // the parent's copy is current there. (With several nodes, data a child holds only
        // elsewhere will be brought back here.)
        for c in &children {
            registry::retract(c);
            c.retire();
        }
        parent
            .0
            .children
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
        parent.0.state.store(hstate::REGISTERED, Ordering::Release);
        Ok(())
    }
}

/// Walks down the partition tree: child `path[0]` of `root`, then its child `path[1]`...
/// (`starpu_data_get_sub_data`).
pub fn sub_data(root: &DataHandle, path: &[usize]) -> Result<DataHandle> {
    let mut h = root.clone();
    for (depth, &i) in path.iter().enumerate() {
        let n = h.nchildren();
        h = h.child(i).ok_or_else(|| {
            Error::invalid(format!(
                "no child {i} at depth {depth} of data {} (it has {n} children)",
                root.label()
            ))
        })?;
    }
    Ok(h)
}
