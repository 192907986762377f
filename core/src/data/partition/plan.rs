//! Partition plans (StarPU's asynchronous partitioning): the ways a handle may be cut, made
//! up front, and the explicit calls that switch between the whole data and its children.
//!
//! A plan is a set of children of a handle. At any time a handle (as a parent) shows one
//! of three views: the whole data; the children of one plan, read-write (the parent may
//! not be used meanwhile: using it switches back); or the children of one or several plans,
//! read-only (the parent stays readable, so reads at every level run concurrently). The
//! switches are tasks ordered with the others (`switch.rs`); the runtime also submits them
//! itself when a task uses a view that is not active (`implicit.rs`).

use crate::data::handle::HandleInner;
use crate::data::DataHandle;
use crate::error::{Error, Result};
use crate::memory::NodeId;
use std::sync::{Arc, MutexGuard, Weak};

/// One way to cut a handle: its children, in filter order.
pub(crate) struct Plan {
    pub(crate) parent: Weak<HandleInner>,
    pub(crate) children: Vec<DataHandle>,
    /// Where switches bring the data by default: the parent's home (or main) node.
    pub(crate) gather: NodeId,
}

impl Plan {
    pub(crate) fn parent(&self) -> Result<DataHandle> {
        self.parent
            .upgrade()
            .map(DataHandle)
            .ok_or_else(|| Error::invalid("the data this plan cuts is unregistered"))
    }
}

/// Which view of a handle, as a parent, tasks may use.
#[derive(Default, Clone)]
pub(crate) enum Active {
    #[default]
    Whole,
    ReadWrite(Arc<Plan>),
    /// Never empty.
    ReadOnly(Vec<Arc<Plan>>),
}

impl Active {
    pub(crate) fn has(&self, plan: &Arc<Plan>) -> bool {
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
    pub(crate) plans: Vec<Arc<Plan>>,
    /// The view of this handle tasks may use now.
    pub(crate) active: Active,
    /// The plan this handle is a child of.
    pub(crate) member: Option<Weak<Plan>>,
    /// `starpu_data_partition_not_automatic`: tasks using this handle never switch views.
    pub(crate) manual: bool,
}

/// The plan bookkeeping of `h`, created empty if `h` never took part in a plan. Callers
/// hold the plan lock (`Switcher`), so handles are locked one at a time.
pub(crate) fn links(h: &DataHandle) -> MutexGuard<'_, PlanLinks> {
    h.0.plan_links
        .get_or_init(Box::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner())
}

/// The plan bookkeeping of `h` if it ever took part in a plan (one atomic load otherwise:
/// this is on every task submission's path).
pub(crate) fn links_if_any(h: &DataHandle) -> Option<MutexGuard<'_, PlanLinks>> {
    h.0.plan_links
        .get()
        .map(|l| l.lock().unwrap_or_else(|e| e.into_inner()))
}

/// The plan `h` is a child of, if any (and if that plan still exists).
pub(crate) fn member_plan(h: &DataHandle) -> Option<Arc<Plan>> {
    links_if_any(h)?.member.as_ref()?.upgrade()
}

pub(crate) fn active(h: &DataHandle) -> Active {
    links_if_any(h).map_or(Active::Whole, |l| l.active.clone())
}

/// Refuses `what` (a synchronous partitioning) on a handle that takes part in plans:
/// StarPU does not mix both ways on one handle.
pub(crate) fn check_no_plans(h: &DataHandle, what: &str) -> Result<()> {
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

/// Refuses a gathering node that does not exist.
pub(crate) fn check_node(parent: &DataHandle, node: Option<NodeId>) -> Result<()> {
    match node {
        Some(n) if parent.memory().kind(n).is_none() => {
            Err(Error::invalid(format!("no memory node {n}")))
        }
        _ => Ok(()),
    }
}

/// The plan of `parent` whose children are exactly `children` (in any order).
pub(crate) fn find_plan(
    parent: &DataHandle,
    children: &[DataHandle],
    what: &str,
) -> Result<Arc<Plan>> {
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
