//! Mutual exclusion for commuting accesses (`STARPU_COMMUTE`) and arbiters.
//!
//! Implicit dependencies let the writers of a commute group run in any order
//! (`implicit.rs`); this module makes sure two of them never run together. Each handle
//! belongs to one [`Gate`]: a private one by default, or the gate of the [`Arbiter`] it was
//! assigned to (`starpu_data_assign_arbiter`). A gate records which of its handles a task
//! holds, and the tasks waiting for them.
//!
//! A task is admitted once its dependencies are met, before it is scheduled: it takes its
//! gates one at a time in a fixed global order (gate address). Within one gate it takes all
//! its handles of that gate at once, or none (so handles sharing an arbiter are acquired
//! together atomically). When a handle it needs is held, the task queues on that gate and
//! keeps the gates it already has: the fixed order makes a cycle of waiters impossible, so
//! there is no deadlock, and no worker ever blocks (a waiting task is simply not queued
//! for execution yet). When a task ends, it releases its handles and hands them straight to
//! the first waiters that can now take their share of the gate, which continue with their
//! next gates and, once they hold everything, go to the scheduler.

use super::{AccessMode, DataHandle};
use crate::task::{ReadyList, TaskRef, TaskSpec};
use smallvec::SmallVec;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// One exclusion domain: a handle's own, or an arbiter's for all its handles.
#[derive(Default)]
pub struct Gate {
    state: Mutex<GateState>,
    /// For an arbiter: the registered handles assigned to it.
    handles: AtomicUsize,
}

struct Waiter {
    task: TaskRef,
    step: usize,
    needs: SmallVec<[usize; 2]>,
}

#[derive(Default)]
struct GateState {
    /// (handle address, id of the task holding it).
    held: Vec<(usize, u64)>,
    /// Tasks waiting for handles of this gate, first come first served: the task, the
    /// index of this gate in its plan, the handles it needs here.
    waiting: VecDeque<Waiter>,
}

impl GateState {
    fn holder(&self, h: usize) -> Option<u64> {
        self.held.iter().find(|(k, _)| *k == h).map(|(_, t)| *t)
    }

    fn all_free(&self, hs: &[usize]) -> bool {
        hs.iter().all(|h| self.holder(*h).is_none())
    }
}

/// A group of data whose commuting accesses are arbitrated together
/// (`starpu_arbiter_t`): a task takes all its commuting handles of one arbiter at once.
///
/// ```
/// use starpu_core::data::Arbiter;
/// let a = Arbiter::new();
/// assert_eq!(a.handles(), 0);
/// ```
#[derive(Clone, Default)]
pub struct Arbiter(pub(crate) Arc<Gate>);

impl Arbiter {
    pub fn new() -> Arbiter {
        Arbiter::default()
    }

    /// How many handles are assigned to this arbiter and not yet unregistered.
    pub fn handles(&self) -> usize {
        self.0.handles.load(Ordering::Acquire)
    }

    /// Whether `other` is the same arbiter.
    pub fn ptr_eq(&self, other: &Arbiter) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// The gates of a task, in acquisition order, with the handles it needs in each.
type Plan = SmallVec<[(Arc<Gate>, SmallVec<[usize; 2]>); 2]>;

/// Whether the access takes part in commute exclusion.
fn excludes(mode: AccessMode) -> bool {
    mode.is_commute() && mode.writes()
}

/// Whether `spec` has a commuting access at all (the common task has none and pays one
/// scan of its modes).
pub(crate) fn has_commute(spec: &TaskSpec) -> bool {
    spec.accesses.iter().any(|a| excludes(a.mode))
}

fn plan(spec: &TaskSpec) -> Plan {
    let mut plan = Plan::new();
    for a in spec.accesses.iter().filter(|a| excludes(a.mode)) {
        let gate = a.handle.gate();
        let key = a.handle.as_ptr() as usize;
        match plan.iter_mut().find(|(g, _)| Arc::ptr_eq(g, &gate)) {
            Some((_, hs)) if hs.contains(&key) => {}
            Some((_, hs)) => hs.push(key),
            None => plan.push((gate, smallvec::smallvec![key])),
        }
    }
    plan.sort_by_key(|(g, _)| Arc::as_ptr(g) as usize);
    plan
}

/// Takes the gates of `plan` from `step` on; false when the task had to queue on one.
fn take_from(task: &TaskRef, plan: &Plan, step: usize) -> bool {
    for (i, (gate, hs)) in plan.iter().enumerate().skip(step) {
        let mut st = lock(&gate.state);
        if !st.all_free(hs) {
            st.waiting.push_back(Waiter {
                task: task.clone(),
                step: i,
                needs: hs.clone(),
            });
            return false;
        }
        st.held.extend(hs.iter().map(|h| (*h, task.id())));
    }
    true
}

/// Called when `task`'s dependencies are met: true if it may be scheduled now (it holds
/// every handle it commutes on, or has none), false if it waits for a handle and will be
/// handed to the scheduler by the task releasing it.
pub(crate) fn admit(task: &TaskRef) -> bool {
    let Some(spec) = task.spec() else { return true };
    if !has_commute(spec) {
        return true;
    }
    let plan = plan(spec);
    // A task handed its last gate by `release` comes back through scheduling: it already
    // holds everything (it held its first gate before any other).
    let (g, hs) = &plan[0];
    if lock(&g.state).holder(hs[0]) == Some(task.id()) {
        return true;
    }
    take_from(task, &plan, 0)
}

/// `task` is done with its data: its commuting handles go to the waiters; those that now
/// hold everything they need join `ready`.
pub(crate) fn release(task: &TaskRef, ready: &mut ReadyList) {
    let Some(spec) = task.spec() else { return };
    if !has_commute(spec) {
        return;
    }
    for (gate, hs) in plan(spec) {
        let mut handed: SmallVec<[(TaskRef, usize); 2]> = SmallVec::new();
        {
            let mut st = lock(&gate.state);
            st.held
                .retain(|(h, t)| !(*t == task.id() && hs.contains(h)));
            let mut i = 0;
            // Only the handles just freed can let a waiter through; stop once they are all
            // taken again. (No other lock is taken under the gate's: `assign_arbiter`
            // takes them the other way round.)
            while i < st.waiting.len() && !hs.iter().all(|h| st.holder(*h).is_some()) {
                if st.all_free(&st.waiting[i].needs) {
                    let w = st.waiting.remove(i).expect("i is in range");
                    st.held.extend(w.needs.iter().map(|h| (*h, w.task.id())));
                    handed.push((w.task, w.step));
                } else {
                    i += 1;
                }
            }
        }
        for (w, step) in handed {
            let wplan = w.spec().map(self::plan).unwrap_or_default();
            if take_from(&w, &wplan, step + 1) {
                ready.push(w);
            }
        }
    }
}

/// Which gate a handle uses: none yet (a private one is made on first use), its own, or
/// an arbiter's.
#[derive(Default)]
pub(crate) struct GateSlot {
    gate: Option<Arc<Gate>>,
    arbitrated: bool,
}

impl Drop for GateSlot {
    fn drop(&mut self) {
        self.leave();
    }
}

impl GateSlot {
    /// The handle is gone (unregistered): it no longer counts for its arbiter.
    pub(crate) fn leave(&mut self) {
        if self.arbitrated {
            if let Some(g) = &self.gate {
                g.handles.fetch_sub(1, Ordering::AcqRel);
            }
            self.arbitrated = false;
        }
    }
}

impl DataHandle {
    /// The gate this handle's commuting accesses go through.
    pub(crate) fn gate(&self) -> Arc<Gate> {
        lock(&self.0.modes.gate)
            .gate
            .get_or_insert_with(Default::default)
            .clone()
    }

    /// Makes the commuting accesses to this handle arbitrated by `arbiter`
    /// (`starpu_data_assign_arbiter`): a task then takes all its commuting handles of
    /// that arbiter at once. Assign before the handle's first commuting access; a handle
    /// that has another arbiter, or commuting tasks under way, is an error.
    pub fn assign_arbiter(&self, arbiter: &Arbiter) -> crate::error::Result<()> {
        self.check_usable()?;
        let mut slot = lock(&self.0.modes.gate);
        if let Some(cur) = &slot.gate {
            if Arc::ptr_eq(cur, &arbiter.0) {
                return Ok(());
            }
            let st = lock(&cur.state);
            if slot.arbitrated || !st.held.is_empty() || !st.waiting.is_empty() {
                return Err(crate::error::Error::invalid(format!(
                    "arbiter assignment: data {} already has an arbiter, or commuting tasks \
                     are using it",
                    self.label()
                )));
            }
        }
        arbiter.0.handles.fetch_add(1, Ordering::AcqRel);
        slot.gate = Some(arbiter.0.clone());
        slot.arbitrated = true;
        Ok(())
    }

    /// The arbiter this handle was assigned to, if any.
    pub fn arbiter(&self) -> Option<Arbiter> {
        let slot = lock(&self.0.modes.gate);
        match (&slot.gate, slot.arbitrated) {
            (Some(g), true) => Some(Arbiter(g.clone())),
            _ => None,
        }
    }
}
