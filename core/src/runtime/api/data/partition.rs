//! Synchronous partitioning (`starpu_data_partition` / `starpu_data_unpartition`): the
//! parent is cut once the tasks using it are done, and only its children may be used until
//! it is gathered back.

use crate::data::hstate;
use crate::data::partition::plan::{check_node, find_plan, links, Plan};
use crate::data::partition::{check_filter, main_node, make_children};
use crate::data::{registry, DataHandle};
use crate::data::{AccessMode, Filter, SwitchOptions};
use crate::error::{Error, Result};
use crate::memory::NodeId;
use crate::runtime::Runtime;
use crate::task::acquire::wait_idle;
use crate::task::partition::{Request, Switcher};
use std::sync::atomic::Ordering;
use std::sync::Arc;

impl Runtime {
    /// Cuts `parent` into `filter.nchildren` children, once the tasks using it are done.
    pub fn partition(&self, parent: &DataHandle, filter: &Filter) -> Result<Vec<DataHandle>> {
        self.check_may_block("partitioning")?;
        parent.check_usable()?;
        crate::data::partition::plan::check_no_plans(parent, "synchronous partitioning")?;
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

impl Runtime {
    /// Plans a way to cut `parent` (`starpu_data_partition_plan`): returns its children,
    /// which tasks may use once a partitioning is submitted, explicitly or by the runtime
    /// when a task uses them. Nothing waits: tasks already using `parent` go on.
    ///
    /// ```
    /// use starpu_core::{data::Filter, AccessMode, Codelet, Config, Runtime};
    /// use std::sync::Arc;
    /// let rt = Runtime::start(Config { ncpus: Some(2), silent: true, ..Config::default() })?;
    /// let v = rt.register_vector(vec![1i64; 8])?;
    /// let halves = rt.partition_plan(&v, &Filter::vector_block(2))?;
    /// let add = Arc::new(Codelet::new("add").modes([AccessMode::RW]).cpu(|call| {
    ///     let k = *call.arg::<i64>(0)?;
    ///     call.vector_mut::<i64>(0)?.iter_mut().for_each(|x| *x += k);
    ///     Ok(())
    /// }));
    /// rt.partition_submit(&v, &halves)?;
    /// rt.task(&add).buffer(&halves[1], AccessMode::RW).arg(10i64).submit()?;
    /// // Using the whole vector again gathers it back first (an implicit unpartitioning).
    /// rt.task(&add).buffer(&v, AccessMode::RW).arg(1i64).submit()?;
    /// rt.partition_clean(&v, &halves, None)?;
    /// assert_eq!(rt.unregister_take::<Vec<i64>>(&v)?, [2, 2, 2, 2, 12, 12, 12, 12]);
    /// rt.shutdown();
    /// # Ok::<(), starpu_core::Error>(())
    /// ```
    pub fn partition_plan(&self, parent: &DataHandle, filter: &Filter) -> Result<Vec<DataHandle>> {
        parent
            .check_usable()
            .map_err(|e| Error::invalid(format!("partition planning: {e}")))?;
        if !parent.sequential_consistency() {
            return Err(Error::invalid(format!(
                "partition planning: data {} has sequential consistency off; plans need it \
                 (as in StarPU)",
                parent.label()
            )));
        }
        let n = filter.nchildren_for(parent)?;
        check_filter(parent, filter)?;
        let main = main_node(parent);
        // Children point into the parent's buffer: it must exist (its value need not).
        parent.fetch(main, AccessMode::W)?;
        // (The filter may be application code: it runs without the plan lock.)
        let children = make_children(parent, filter, n, false)?;
        let _lock = Switcher::lock();
        let plan = Arc::new(Plan {
            parent: Arc::downgrade(&parent.0),
            children: children.clone(),
            gather: main,
        });
        for c in &children {
            links(c).member = Some(Arc::downgrade(&plan));
        }
        links(parent).plans.push(plan);
        Ok(children)
    }

    /// Switches `parent` to the read-write view of the plan whose children are `children`
    /// (`starpu_data_partition_submit`): tasks may use the children, the parent's value is
    /// theirs until it is unpartitioned.
    pub fn partition_submit(&self, parent: &DataHandle, children: &[DataHandle]) -> Result<()> {
        self.partition_submit_with(parent, children, SwitchOptions::default())
    }

    /// `partition_submit` with options (`starpu_data_partition_submit_sequential_consistency`).
    pub fn partition_submit_with(
        &self,
        parent: &DataHandle,
        children: &[DataHandle],
        opts: SwitchOptions,
    ) -> Result<()> {
        Switcher::begin(self).request(Request::Partition, parent, children, opts)
    }

    /// Adds the read-only view of a plan (`starpu_data_partition_readonly_submit`): the
    /// children and the parent may be read concurrently, and other plans may be active
    /// read-only at the same time. Writing to either needs a switch first.
    pub fn partition_readonly_submit(
        &self,
        parent: &DataHandle,
        children: &[DataHandle],
    ) -> Result<()> {
        self.partition_readonly_submit_with(parent, children, SwitchOptions::default())
    }

    /// `partition_readonly_submit` with options
    /// (`starpu_data_partition_readonly_submit_sequential_consistency`).
    pub fn partition_readonly_submit_with(
        &self,
        parent: &DataHandle,
        children: &[DataHandle],
        opts: SwitchOptions,
    ) -> Result<()> {
        Switcher::begin(self).request(Request::PartitionReadonly, parent, children, opts)
    }

    /// Turns the only read-only view of `parent` into a read-write one
    /// (`starpu_data_partition_readwrite_upgrade_submit`).
    pub fn partition_readwrite_upgrade_submit(
        &self,
        parent: &DataHandle,
        children: &[DataHandle],
    ) -> Result<()> {
        Switcher::begin(self).request(Request::Upgrade, parent, children, SwitchOptions::default())
    }

    /// Turns the read-write view of `parent` into a read-only one, the parent readable
    /// again (`starpu_data_partition_readonly_downgrade_submit`).
    pub fn partition_readonly_downgrade_submit(
        &self,
        parent: &DataHandle,
        children: &[DataHandle],
    ) -> Result<()> {
        Switcher::begin(self).request(
            Request::Downgrade,
            parent,
            children,
            SwitchOptions::default(),
        )
    }

    /// Gathers the children of an active plan back into `parent`
    /// (`starpu_data_unpartition_submit`); the children may not be used until the plan is
    /// active again. Children partitioned themselves are gathered first.
    pub fn unpartition_submit(&self, parent: &DataHandle, children: &[DataHandle]) -> Result<()> {
        self.unpartition_submit_with(parent, children, SwitchOptions::default())
    }

    /// `unpartition_submit` with options (`starpu_data_unpartition_submit_sequential_consistency[_cb]`).
    pub fn unpartition_submit_with(
        &self,
        parent: &DataHandle,
        children: &[DataHandle],
        opts: SwitchOptions,
    ) -> Result<()> {
        Switcher::begin(self).request(Request::Unpartition, parent, children, opts)
    }

    /// Gathers the children of an active plan into `parent` and keeps them readable: the
    /// plan becomes read-only, the parent readable (`starpu_data_unpartition_readonly_submit`).
    pub fn unpartition_readonly_submit(
        &self,
        parent: &DataHandle,
        children: &[DataHandle],
    ) -> Result<()> {
        self.unpartition_readonly_submit_with(parent, children, SwitchOptions::default())
    }

    /// `unpartition_readonly_submit` with options.
    pub fn unpartition_readonly_submit_with(
        &self,
        parent: &DataHandle,
        children: &[DataHandle],
        opts: SwitchOptions,
    ) -> Result<()> {
        Switcher::begin(self).request(Request::UnpartitionReadonly, parent, children, opts)
    }

    /// Gathers every active plan of `h`, and of its children recursively
    /// (`starpu_data_unpartition_submit_r`).
    pub fn unpartition_submit_all(
        &self,
        h: &DataHandle,
        gathering_node: Option<NodeId>,
    ) -> Result<()> {
        check_node(h, gathering_node)?;
        let mut sw = Switcher::begin(self);
        sw.unpartition_all(h, gathering_node)
    }

    /// Forgets a plan (`starpu_data_partition_clean[_node]`): gathers it first if it is
    /// active, then unregisters its children once the tasks using them are done. Plans
    /// made on the children go with them.
    pub fn partition_clean(
        &self,
        parent: &DataHandle,
        children: &[DataHandle],
        gathering_node: Option<NodeId>,
    ) -> Result<()> {
        check_node(parent, gathering_node)?;
        let mut sw = Switcher::begin(self);
        let plan = find_plan(parent, children, "partition clean")?;
        sw.clean(parent, &plan, gathering_node)
    }

    /// Whether tasks using `h` switch partitioned views by themselves (the default), or
    /// leave it to the application (`starpu_data_partition_not_automatic`).
    pub fn set_partition_automatic(&self, h: &DataHandle, automatic: bool) {
        let _lock = Switcher::lock();
        links(h).manual = !automatic;
    }
}
