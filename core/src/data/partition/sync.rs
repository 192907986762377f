//! Synchronous partitioning (`starpu_data_partition` / `starpu_data_unpartition`): the
//! parent is cut once the tasks using it are done, and only its children may be used until
//! it is gathered back.

use super::children::{check_filter, main_node, make_children};
use super::Filter;
use crate::data::acquire::wait_idle;
use crate::data::handle::hstate;
use crate::data::{registry, DataHandle};
use crate::error::{Error, Result};
use crate::memory::NodeId;
use crate::runtime::Runtime;
use std::sync::atomic::Ordering;

impl Runtime {
    /// Cuts `parent` into `filter.nchildren` children, once the tasks using it are done.
    pub fn partition(&self, parent: &DataHandle, filter: &Filter) -> Result<Vec<DataHandle>> {
        self.check_may_block("partitioning")?;
        parent.check_usable()?;
        super::plan::check_no_plans(parent, "synchronous partitioning")?;
        let n = filter.nchildren_for(parent)?;
        check_filter(parent, filter)?;
        wait_idle(self, parent);
        parent.materialize(main_node(parent))?;
        let children = make_children(parent, filter, n, true)?;
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
        self.check_may_block("unpartitioning")?;
        if !parent.is_partitioned() {
            return Err(Error::invalid(format!(
                "unpartitioning: data {} is not partitioned",
                parent.label()
            )));
        }
        if parent.memory().kind(gathering_node).is_none() {
            return Err(Error::invalid(format!(
                "unpartitioning: no memory node {gathering_node}"
            )));
        }
        let children = parent.children();
        // A tree made by map_filters comes back whole, as in StarPU.
        for c in children.iter().filter(|c| c.is_partitioned()) {
            self.unpartition(c, gathering_node)?;
        }
        for c in &children {
            wait_idle(self, c);
        }
        // Children are views of the parent's buffers where it was allocated when cut: each
        // child's value comes to the gathering node (its view there, hence the parent's
        // buffer), which then holds the parent's only current copy.
        let gather = if parent.is_allocated_on(gathering_node) {
            gathering_node
        } else {
            main_node(parent)
        };
        if parent.memory().has_devices() {
            for c in &children {
                c.fetch(gather, crate::data::AccessMode::R)?;
            }
            parent.gathered_on(gather);
        }
        for c in &children {
            registry::retract(c);
            drop(c.retire());
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
