//! Switching a handle between views: the partitioning and unpartitioning tasks.
//!
//! A switch is a task with no kernel that accesses the parent and the plan's children, so
//! implicit dependencies order it with the tasks using either (as StarPU's
//! `data_partition_switch` codelet does): partitioning reads the parent and writes the
//! children, unpartitioning reads the children and writes the parent. Children are views
//! into the parent's buffers, so no bytes move; when the switch runs it records on the
//! gathering node which replicas hold the value.
//!
//! Every change of view happens under one process-wide plan lock, together with the
//! submission of its switches (and, for a task that triggered them, the ordering of the
//! task's own accesses), so that concurrent submitters see consistent views. Switches that
//! are ready at once are scheduled only after the lock is released: scheduling may run
//! application code (prologue callbacks), which may submit tasks in turn.

use crate::data::hstate;
use crate::data::partition::plan::{active, links, links_if_any, Active, Plan, SwitchOptions};
use crate::data::{registry, AccessMode, DataHandle};
use crate::error::{Error, Result};
use crate::memory::NodeId;
use crate::runtime::Runtime;
use crate::task::{Access, ReadyList, Task, TaskSpec};
use smallvec::SmallVec;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard};

static PLANS: Mutex<()> = Mutex::new(());

/// Which replicas hold no value once a switch is done.
#[derive(Clone, Copy)]
enum Forget {
    Nothing,
    /// The parent (its children hold the data now).
    Parent,
    /// The children (gathered into the parent).
    Children,
}

/// The switches: each accesses the parent and the children in its own modes and leaves
/// some replicas without value.
#[derive(Clone, Copy)]
enum Kind {
    /// The parent's value goes to the children of a read-write plan.
    Partition,
    /// The children of a read-only plan get the parent's value; both stay readable.
    PartitionReadonly,
    /// The only read-only plan becomes read-write.
    Upgrade,
    /// The children's value comes back to the parent; both stay readable.
    GatherReadonly,
    /// The children's value comes back to the parent; the children hold none.
    Unpartition,
}

impl Kind {
    /// The switch task's name, the modes of the parent and of the children, and what
    /// holds no value afterwards.
    fn task(self) -> (&'static str, AccessMode, AccessMode, Forget) {
        use AccessMode as M;
        match self {
            Kind::Partition => ("partition", M::RW, M::W, Forget::Parent),
            Kind::PartitionReadonly => ("partition", M::R, M::W, Forget::Nothing),
            Kind::Upgrade => ("partition_upgrade", M::RW, M::W, Forget::Parent),
            Kind::GatherReadonly => ("unpartition_readonly", M::W, M::R, Forget::Nothing),
            Kind::Unpartition => ("unpartition", M::W, M::RW, Forget::Children),
        }
    }
}

/// One switch task.
struct Switch<'s> {
    name: &'static str,
    parent: &'s DataHandle,
    parent_mode: AccessMode,
    parent_seq: bool,
    children: &'s [DataHandle],
    child_mode: AccessMode,
    node: NodeId,
    forget: Forget,
    callback: Option<Box<dyn FnOnce() + Send>>,
}

impl<'s> Switch<'s> {
    /// The switch of `kind` between `parent` and `plan`'s children, with `opts` (or the
    /// parent's flag and the plan's gathering node).
    fn of(kind: Kind, parent: &'s DataHandle, plan: &'s Plan, opts: SwitchOptions) -> Switch<'s> {
        let (name, parent_mode, child_mode, forget) = kind.task();
        Switch {
            name,
            parent,
            parent_mode,
            parent_seq: opts
                .sequential_consistency
                .unwrap_or(parent.sequential_consistency()),
            children: &plan.children,
            child_mode,
            node: opts.gathering_node.unwrap_or(plan.gather),
            forget,
            callback: opts.callback,
        }
    }
}

/// Holds the plan lock while views change; schedules the switches it submitted when it
/// goes (after releasing the lock).
pub(crate) struct Switcher<'a> {
    rt: &'a Runtime,
    ready: ReadyList,
    guard: Option<MutexGuard<'static, ()>>,
}

impl Drop for Switcher<'_> {
    fn drop(&mut self) {
        self.guard.take();
        let ready = std::mem::take(&mut self.ready);
        if !ready.is_empty() {
            self.rt.schedule(ready);
        }
    }
}

fn internal(what: &str) -> Error {
    Error::invalid(format!("partition plans: inconsistent view ({what})"))
}

/// The default options, gathering on `node` (`None`: the plan's node).
fn gathering_at(node: Option<NodeId>) -> SwitchOptions {
    SwitchOptions {
        gathering_node: node,
        ..SwitchOptions::default()
    }
}

/// Marks every replica of `h` as holding no value (buffers stay: they are views).
fn forget_values(h: &DataHandle) {
    h.deinitialize();
}

impl<'a> Switcher<'a> {
    /// The plan lock alone, for bookkeeping that submits nothing.
    pub(crate) fn lock() -> MutexGuard<'static, ()> {
        PLANS.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn begin(rt: &'a Runtime) -> Switcher<'a> {
        Switcher {
            rt,
            ready: ReadyList::new(),
            guard: Some(Self::lock()),
        }
    }

    fn submit(&mut self, s: Switch<'_>) -> Result<()> {
        let mut accesses: SmallVec<[Access; 4]> = SmallVec::with_capacity(1 + s.children.len());
        accesses.push(Access {
            handle: s.parent.clone(),
            mode: s.parent_mode,
            sequential: s.parent_seq,
        });
        for c in s.children {
            accesses.push(Access {
                handle: c.clone(),
                mode: s.child_mode,
                sequential: c.sequential_consistency(),
            });
        }
        let touched: Vec<(DataHandle, AccessMode)> = accesses
            .iter()
            .map(|a| (a.handle.clone(), a.mode))
            .collect();
        let (node, forget, callback) = (s.node, s.forget, s.callback);
        let task = Task::new();
        // Runs when the switch's dependencies are met, before the tasks waiting for it are
        // released: the replicas on the gathering node are the current ones from then on.
        task.set_callback(move |_| {
            for (h, mode) in &touched {
                if h.fetch(node, *mode).is_ok() {
                    h.after_access(node, *mode);
                }
            }
            match forget {
                Forget::Nothing => {}
                Forget::Parent => forget_values(&touched[0].0),
                Forget::Children => touched[1..].iter().for_each(|(h, _)| forget_values(h)),
            }
            if let Some(f) = callback {
                f();
            }
        });
        let spec = TaskSpec {
            accesses,
            name: Some(Arc::from(s.name)),
            detached: true,
            ..Default::default()
        };
        self.rt.submit_internal(&task, spec, &mut self.ready)
    }

    /// Activates `plan` of `parent`: read-write (the parent's value goes to the children),
    /// or read-only (alongside other read-only plans; the parent stays readable).
    pub(crate) fn partition(
        &mut self,
        parent: &DataHandle,
        plan: &Arc<Plan>,
        readonly: bool,
        opts: SwitchOptions,
    ) -> Result<()> {
        let next = match (active(parent), readonly) {
            (Active::Whole, false) => Active::ReadWrite(plan.clone()),
            (Active::Whole, true) => Active::ReadOnly(vec![plan.clone()]),
            (Active::ReadOnly(mut l), true) => {
                l.push(plan.clone());
                Active::ReadOnly(l)
            }
            _ => return Err(internal("partitioning a partitioned parent")),
        };
        let kind = if readonly {
            Kind::PartitionReadonly
        } else {
            Kind::Partition
        };
        self.submit(Switch::of(kind, parent, plan, opts))?;
        links(parent).active = next;
        Ok(())
    }

    /// The only read-only plan of `parent` becomes read-write.
    pub(crate) fn upgrade(&mut self, parent: &DataHandle, plan: &Arc<Plan>) -> Result<()> {
        self.submit(Switch::of(
            Kind::Upgrade,
            parent,
            plan,
            SwitchOptions::default(),
        ))?;
        links(parent).active = Active::ReadWrite(plan.clone());
        Ok(())
    }

    /// The read-write plan of `parent` becomes read-only: its children's value goes back
    /// to the parent, and both are readable.
    pub(crate) fn downgrade(
        &mut self,
        parent: &DataHandle,
        plan: &Arc<Plan>,
        opts: SwitchOptions,
    ) -> Result<()> {
        // Children read-write partitioned themselves are gathered first.
        for c in &plan.children {
            if let Active::ReadWrite(p) = active(c) {
                self.unpartition(c, &p, SwitchOptions::default())?;
            }
        }
        self.gather_readonly(parent, plan, opts)?;
        links(parent).active = Active::ReadOnly(vec![plan.clone()]);
        Ok(())
    }

    /// Gathers `plan`'s children into `parent`, the children staying readable.
    pub(crate) fn gather_readonly(
        &mut self,
        parent: &DataHandle,
        plan: &Arc<Plan>,
        opts: SwitchOptions,
    ) -> Result<()> {
        self.submit(Switch::of(Kind::GatherReadonly, parent, plan, opts))
    }

    /// Deactivates `plan` of `parent`, gathering its children (and theirs, first).
    pub(crate) fn unpartition(
        &mut self,
        parent: &DataHandle,
        plan: &Arc<Plan>,
        opts: SwitchOptions,
    ) -> Result<()> {
        for c in &plan.children {
            self.unpartition_all(c, None)?;
        }
        let next = match active(parent) {
            Active::ReadWrite(p) if Arc::ptr_eq(&p, plan) => Active::Whole,
            Active::ReadOnly(mut l) if l.iter().any(|p| Arc::ptr_eq(p, plan)) => {
                l.retain(|p| !Arc::ptr_eq(p, plan));
                if l.is_empty() {
                    Active::Whole
                } else {
                    Active::ReadOnly(l)
                }
            }
            _ => return Err(internal("unpartitioning a plan that is not active")),
        };
        self.submit(Switch::of(Kind::Unpartition, parent, plan, opts))?;
        links(parent).active = next;
        Ok(())
    }

    /// Deactivates every active plan of `h` (and of its children, first).
    pub(crate) fn unpartition_all(&mut self, h: &DataHandle, node: Option<NodeId>) -> Result<()> {
        let plans = match active(h) {
            Active::Whole => return Ok(()),
            Active::ReadWrite(p) => vec![p],
            Active::ReadOnly(l) => l,
        };
        for p in plans {
            self.unpartition(h, &p, gathering_at(node))?;
        }
        Ok(())
    }

    /// Forgets `plan` of `parent`: gathered first if active, its children (and the plans
    /// made on them) unregistered once the tasks using them are done.
    pub(crate) fn clean(
        &mut self,
        parent: &DataHandle,
        plan: &Arc<Plan>,
        node: Option<NodeId>,
    ) -> Result<()> {
        if active(parent).has(plan) {
            self.unpartition(parent, plan, gathering_at(node))?;
        }
        for c in &plan.children {
            let sub = links_if_any(c).map(|l| l.plans.clone()).unwrap_or_default();
            for p in sub {
                self.clean(c, &p, None)?;
            }
            self.retire(c)?;
        }
        links(parent).plans.retain(|p| !Arc::ptr_eq(p, plan));
        Ok(())
    }

    /// Unregisters child `c` once the tasks using it are done (its buffers are the
    /// parent's: nothing to free or bring home).
    fn retire(&mut self, c: &DataHandle) -> Result<()> {
        let target = c.clone();
        let task = Task::new();
        task.set_callback(move |_| {
            registry::retract(&target);
            drop(target.retire());
        });
        let spec = TaskSpec {
            accesses: smallvec::smallvec![Access {
                handle: c.clone(),
                mode: AccessMode::RW,
                sequential: true,
            }],
            name: Some(Arc::from("partition_clean")),
            detached: true,
            ..Default::default()
        };
        self.rt.submit_internal(&task, spec, &mut self.ready)?;
        // No task may use it from now on.
        c.0.state.store(hstate::UNREGISTERED, Ordering::Release);
        Ok(())
    }
}
