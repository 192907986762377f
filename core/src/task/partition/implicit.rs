//! Implicit partitioning: a task (or an acquisition) that uses a handle taking part in
//! partition plans gets the right view first, as in StarPU. Using a child whose plan is not
//! active partitions its parent (read-only for a read, read-write for a write, gathering
//! whatever other view was active); using a parent whose children are active gathers them
//! back (only the read-write ones for a read: reads at every level may run concurrently).
//! This goes up and down the tree of nested plans.

use super::switch::Switcher;
use crate::data::partition::plan::{active, links, links_if_any, member_plan, Active};
use crate::data::{AccessMode, DataHandle};
use crate::error::{Error, Result};
use crate::runtime::Runtime;
use crate::task::{Access, TaskSpec};
use std::sync::Arc;

/// Held while a submitted task's accesses are ordered when some of its data takes part in
/// plans: the plan lock, and the switches submitted for the task (scheduled when it goes).
pub(crate) struct PlanGuard<'a>(#[allow(dead_code)] Option<Switcher<'a>>);

/// Whether this access may need a switch: the handle took part in a plan, and the access
/// neither opted out (`STARPU_NOPLAN`) nor is a scratch buffer (no value).
fn concerned(a: &Access) -> bool {
    a.handle.0.plan_links.get().is_some()
        && !a.mode.contains(AccessMode::NOPLAN)
        && !a.mode.is_scratch()
}

/// Submits the switches the task described by `spec` needs, and returns the guard to hold
/// until its accesses are ordered. Costs one atomic load per access for data that never
/// took part in a plan.
pub(crate) fn before_submit<'a>(rt: &'a Runtime, spec: &TaskSpec) -> PlanGuard<'a> {
    if !spec.accesses.iter().any(concerned) {
        return PlanGuard(None);
    }
    let mut sw = Switcher::begin(rt);
    let acc = &spec.accesses;
    for (i, a) in acc.iter().enumerate().filter(|(_, a)| concerned(a)) {
        // A handle given twice is switched once, for the union of its accesses.
        let same = |b: &Access| concerned(b) && b.handle.ptr_eq(&a.handle);
        if acc[..i].iter().any(same) {
            continue;
        }
        let write = acc[i..].iter().filter(|b| same(b)).any(|b| b.mode.writes());
        if let Err(e) = sw.make_usable(&a.handle, write) {
            rt.warn(&format!(
                "switching the partitioned view of data {}: {}",
                a.handle.label(),
                e.message
            ));
        }
    }
    PlanGuard(Some(sw))
}

/// Before `h` is unregistered: refuses a plan's child (its plan owns it), gathers the
/// active views of `h`, and forgets its plans (their children are unregistered once the
/// tasks using them are done).
pub(crate) fn before_unregister(rt: &Runtime, h: &DataHandle) -> Result<()> {
    if h.0.plan_links.get().is_none() {
        return Ok(());
    }
    let mut sw = Switcher::begin(rt);
    if member_plan(h).is_some() {
        return Err(Error::invalid(format!(
            "unregistration: data {} is a child of a partition plan: \
             starpu_data_partition_clean unregisters it",
            h.label()
        )));
    }
    sw.unpartition_all(h, None)?;
    let plans = links_if_any(h).map(|l| l.plans.clone()).unwrap_or_default();
    for p in plans {
        sw.clean(h, &p, None)?;
    }
    Ok(())
}

impl Switcher<'_> {
    /// Makes `h` usable by an access that reads, or writes when `write`: `h` active (as a
    /// child), read-write for a write; and, as a parent, no view active that the access
    /// conflicts with.
    pub(crate) fn make_usable(&mut self, h: &DataHandle, write: bool) -> Result<()> {
        if links(h).manual {
            return Ok(());
        }
        self.activate(h, write)?;
        match active(h) {
            Active::Whole => Ok(()),
            Active::ReadOnly(_) if !write => Ok(()),
            _ => self.unpartition_all(h, None),
        }
    }

    /// Makes `h` active as a child: readable, or writable when `write`. Data that is not a
    /// plan's child (registered data, children of a synchronous partitioning) always is.
    pub(crate) fn activate(&mut self, h: &DataHandle, write: bool) -> Result<()> {
        let Some(plan) = member_plan(h) else {
            return Ok(());
        };
        let parent = plan.parent()?;
        match active(&parent) {
            Active::ReadWrite(p) if Arc::ptr_eq(&p, &plan) => return Ok(()),
            Active::ReadOnly(l) if !write && l.iter().any(|p| Arc::ptr_eq(p, &plan)) => {
                return Ok(())
            }
            _ => {}
        }
        // The parent must be usable the same way before it is cut.
        self.activate(&parent, write)?;
        match active(&parent) {
            Active::ReadWrite(other) => self.unpartition(&parent, &other, Default::default())?,
            Active::ReadOnly(l) if write => {
                for p in l.iter().filter(|p| !Arc::ptr_eq(p, &plan)) {
                    self.unpartition(&parent, p, Default::default())?;
                }
            }
            _ => {}
        }
        match active(&parent) {
            Active::Whole => self.partition(&parent, &plan, !write, Default::default()),
            Active::ReadOnly(l) if l.iter().any(|p| Arc::ptr_eq(p, &plan)) => {
                self.upgrade(&parent, &plan)
            }
            Active::ReadOnly(_) => self.partition(&parent, &plan, true, Default::default()),
            Active::ReadWrite(_) => Err(Error::invalid(
                "partition plans: a read-write view is still active after gathering it",
            )),
        }
    }
}
