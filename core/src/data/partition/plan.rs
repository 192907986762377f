//! Partition plans (StarPU's asynchronous partitioning): the ways a handle may be cut, made
//! up front, and the explicit calls that switch between the whole data and its children.
//!
//! A plan is a set of children of a handle. At any time a handle (as a parent) shows one
//! of three views: the whole data; the children of one plan, read-write (the parent may
//! not be used meanwhile: using it switches back); or the children of one or several plans,
//! read-only (the parent stays readable, so reads at every level run concurrently). The
//! switches are tasks ordered with the others (`switch.rs`); the runtime also submits them
//! itself when a task uses a view that is not active (`implicit.rs`).

use super::children::{check_filter, main_node, make_children};
use super::switch::Switcher;
use super::Filter;
use crate::data::handle::HandleInner;
use crate::data::{AccessMode, DataHandle};
use crate::error::{Error, Result};
use crate::memory::NodeId;
use crate::runtime::Runtime;
use std::sync::{Arc, MutexGuard, Weak};

/// One way to cut a handle: its children, in filter order.
pub(crate) struct Plan {
    pub(super) parent: Weak<HandleInner>,
    pub(super) children: Vec<DataHandle>,
    /// Where switches bring the data by default: the parent's home (or main) node.
    pub(super) gather: NodeId,
}

impl Plan {
    pub(super) fn parent(&self) -> Result<DataHandle> {
        self.parent
            .upgrade()
            .map(DataHandle)
            .ok_or_else(|| Error::invalid("the data this plan cuts is unregistered"))
    }
}

/// Which view of a handle, as a parent, tasks may use.
#[derive(Default, Clone)]
pub(super) enum Active {
    #[default]
    Whole,
    ReadWrite(Arc<Plan>),
    /// Never empty.
    ReadOnly(Vec<Arc<Plan>>),
}

impl Active {
    pub(super) fn has(&self, plan: &Arc<Plan>) -> bool {
        match self {
            Active::Whole => false,
            Active::ReadWrite(p) => Arc::ptr_eq(p, plan),
            Active::ReadOnly(l) => l.iter().any(|p| Arc::ptr_eq(p, plan)),
        }
    }
}

/// A handle's part in partition plans (created on first use, see `HandleInner`).
#[derive(Default)]
pub(crate) struct PlanLinks {
    /// Plans made on this handle.
    pub(super) plans: Vec<Arc<Plan>>,
    /// The view of this handle tasks may use now.
    pub(super) active: Active,
    /// The plan this handle is a child of.
    pub(super) member: Option<Weak<Plan>>,
    /// `starpu_data_partition_not_automatic`: tasks using this handle never switch views.
    pub(super) manual: bool,
}

/// The plan bookkeeping of `h`, created empty if `h` never took part in a plan. Callers
/// hold the plan lock (`Switcher`), so handles are locked one at a time.
pub(super) fn links(h: &DataHandle) -> MutexGuard<'_, PlanLinks> {
    h.0.plan_links
        .get_or_init(Box::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner())
}

/// The plan bookkeeping of `h` if it ever took part in a plan (one atomic load otherwise:
/// this is on every task submission's path).
pub(super) fn links_if_any(h: &DataHandle) -> Option<MutexGuard<'_, PlanLinks>> {
    h.0.plan_links
        .get()
        .map(|l| l.lock().unwrap_or_else(|e| e.into_inner()))
}

/// The plan `h` is a child of, if any (and if that plan still exists).
pub(super) fn member_plan(h: &DataHandle) -> Option<Arc<Plan>> {
    links_if_any(h)?.member.as_ref()?.upgrade()
}

pub(super) fn active(h: &DataHandle) -> Active {
    links_if_any(h).map_or(Active::Whole, |l| l.active.clone())
}

/// Refuses `what` (a synchronous partitioning) on a handle that takes part in plans:
/// StarPU does not mix both ways on one handle.
pub(super) fn check_no_plans(h: &DataHandle, what: &str) -> Result<()> {
    let Some(l) = links_if_any(h) else {
        return Ok(());
    };
    if !l.plans.is_empty() {
        return Err(Error::invalid(format!(
            "{what}: data {} has partition plans (clean them first: partition planning and \
             synchronous partitioning do not mix)",
            h.label()
        )));
    }
    if l.member.as_ref().is_some_and(|m| m.strong_count() > 0) {
        return Err(Error::invalid(format!(
            "{what}: data {} is a child of a partition plan: make a plan on it instead",
            h.label()
        )));
    }
    Ok(())
}

/// How a switch between views is submitted (the `_sequential_consistency` and `_cb`
/// variants of StarPU's calls).
#[derive(Default)]
pub struct SwitchOptions {
    /// Whether the parent's access is ordered with the other tasks using it (default:
    /// the parent's own sequential consistency flag).
    pub sequential_consistency: Option<bool>,
    /// The memory node the data is gathered on (default: the parent's home node, or main
    /// memory for data without a home).
    pub gathering_node: Option<NodeId>,
    /// Runs once the switch is done.
    pub callback: Option<Box<dyn FnOnce() + Send>>,
}

impl DataHandle {
    /// How many partition plans are made on this handle (`starpu_data_partition_get_nplans`).
    pub fn nplans(&self) -> usize {
        links_if_any(self).map_or(0, |l| l.plans.len())
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
        let mut sw = Switcher::begin(self);
        let plan = find_plan(parent, children, "partition submission")?;
        match active(parent) {
            Active::Whole => {}
            Active::ReadWrite(p) if Arc::ptr_eq(&p, &plan) => {
                return Err(Error::invalid(format!(
                    "partition submission: data {} is already partitioned with this plan",
                    parent.label()
                )))
            }
            _ => {
                return Err(Error::invalid(format!(
                    "partition submission: data {} has another partitioning active \
                     (unpartition it first; one read-write partitioning at a time, not \
                     alongside read-only ones)",
                    parent.label()
                )))
            }
        }
        sw.activate(parent, true)?;
        sw.partition(parent, &plan, false, opts)
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
        let mut sw = Switcher::begin(self);
        let plan = find_plan(parent, children, "read-only partition submission")?;
        match active(parent) {
            Active::ReadWrite(_) => {
                return Err(Error::invalid(format!(
                    "read-only partition submission: data {} is partitioned read-write \
                     (downgrade or unpartition it first)",
                    parent.label()
                )))
            }
            a if a.has(&plan) => {
                return Err(Error::invalid(format!(
                    "read-only partition submission: this plan of data {} is active already",
                    parent.label()
                )))
            }
            _ => {}
        }
        sw.activate(parent, false)?;
        sw.partition(parent, &plan, true, opts)
    }

    /// Turns the only read-only view of `parent` into a read-write one
    /// (`starpu_data_partition_readwrite_upgrade_submit`).
    pub fn partition_readwrite_upgrade_submit(
        &self,
        parent: &DataHandle,
        children: &[DataHandle],
    ) -> Result<()> {
        let mut sw = Switcher::begin(self);
        let plan = find_plan(parent, children, "read-write upgrade")?;
        match active(parent) {
            Active::ReadOnly(l) if l.len() == 1 && Arc::ptr_eq(&l[0], &plan) => {}
            Active::ReadOnly(l) if l.iter().any(|p| Arc::ptr_eq(p, &plan)) => {
                return Err(Error::invalid(format!(
                    "read-write upgrade: data {} has other read-only partitionings active \
                     (unpartition them first)",
                    parent.label()
                )))
            }
            _ => {
                return Err(Error::invalid(format!(
                    "read-write upgrade: this plan of data {} is not active read-only",
                    parent.label()
                )))
            }
        }
        sw.activate(parent, true)?;
        sw.upgrade(parent, &plan)
    }

    /// Turns the read-write view of `parent` into a read-only one, the parent readable
    /// again (`starpu_data_partition_readonly_downgrade_submit`).
    pub fn partition_readonly_downgrade_submit(
        &self,
        parent: &DataHandle,
        children: &[DataHandle],
    ) -> Result<()> {
        let mut sw = Switcher::begin(self);
        let plan = find_plan(parent, children, "read-only downgrade")?;
        match active(parent) {
            Active::ReadWrite(p) if Arc::ptr_eq(&p, &plan) => {}
            _ => {
                return Err(Error::invalid(format!(
                    "read-only downgrade: this plan of data {} is not active read-write",
                    parent.label()
                )))
            }
        }
        sw.downgrade(parent, &plan, SwitchOptions::default())
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
        let mut sw = Switcher::begin(self);
        let plan = find_plan(parent, children, "unpartition submission")?;
        if !active(parent).has(&plan) {
            return Err(Error::invalid(format!(
                "unpartition submission: this plan of data {} is not active",
                parent.label()
            )));
        }
        check_node(parent, opts.gathering_node)?;
        sw.unpartition(parent, &plan, opts)
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
        let mut sw = Switcher::begin(self);
        let plan = find_plan(parent, children, "read-only unpartition submission")?;
        check_node(parent, opts.gathering_node)?;
        match active(parent) {
            Active::ReadWrite(p) if Arc::ptr_eq(&p, &plan) => sw.downgrade(parent, &plan, opts),
            a if a.has(&plan) => sw.gather_readonly(parent, &plan, opts),
            _ => Err(Error::invalid(format!(
                "read-only unpartition submission: this plan of data {} is not active",
                parent.label()
            ))),
        }
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

fn check_node(parent: &DataHandle, node: Option<NodeId>) -> Result<()> {
    match node {
        Some(n) if parent.memory().kind(n).is_none() => {
            Err(Error::invalid(format!("no memory node {n}")))
        }
        _ => Ok(()),
    }
}

/// The plan of `parent` whose children are exactly `children` (in any order).
fn find_plan(parent: &DataHandle, children: &[DataHandle], what: &str) -> Result<Arc<Plan>> {
    let first = children
        .first()
        .ok_or_else(|| Error::invalid(format!("{what}: no children given (nparts is 0)")))?;
    let plan = member_plan(first).ok_or_else(|| {
        Error::invalid(format!(
            "{what}: data {} is not a child of a partition plan (or its plan was cleaned)",
            first.label()
        ))
    })?;
    if !plan.parent.ptr_eq(&Arc::downgrade(&parent.0)) {
        return Err(Error::invalid(format!(
            "{what}: child {} was planned from another data than {}",
            first.label(),
            parent.label()
        )));
    }
    if children.len() != plan.children.len() {
        return Err(Error::invalid(format!(
            "{what}: the plan has {} children, {} given",
            plan.children.len(),
            children.len()
        )));
    }
    for (i, c) in children.iter().enumerate() {
        let mine = member_plan(c).is_some_and(|p| Arc::ptr_eq(&p, &plan));
        let twice = children[..i].iter().any(|d| d.ptr_eq(c));
        if !mine || twice {
            return Err(Error::invalid(format!(
                "{what}: child {i} ({}) is not one of the plan's children, or is given twice",
                c.label()
            )));
        }
    }
    Ok(plan)
}
