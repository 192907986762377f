//! Performance knobs (StarPU's `starpu_perf_steering.h`): named settings a program reads
//! and changes while the runtime runs, each acting on the runtime at once.
//!
//! Only the knobs this runtime can act on are listed:
//! - `starpu.global.g_calibrate_knob`: the calibration level (`STARPU_CALIBRATE`); setting
//!   it also turns measuring on or off for the models already loaded, so that the next
//!   tasks update them, or not.
//! - `starpu.worker.w_enable_worker_knob`: a disabled worker takes no task (policies do not
//!   choose it while another worker is enabled); enabling it wakes it.
//! - `starpu.worker.w_bind_to_pu_knob`: the logical CPU the worker's thread is bound to;
//!   setting it rebinds the thread before its next task.
//! - `starpu.task.s_max_priority_cap_knob` / `s_min_priority_cap_knob`: submitted tasks'
//!   priorities are clamped into `[min cap, max cap]`. As in StarPU 1.4 the caps apply to
//!   every task whatever the policy name given (StarPU notes this as a TODO).
//!
//! StarPU's `starpu.global.g_enable_catch_signal_knob` is left out: this runtime installs
//! no signal handlers, so the knob would change nothing.
//!
//! Ids are built as StarPU builds them: the index within the scope shifted left by 4, or'ed
//! with the scope, so an id tells its scope.

use crate::error::{Error, Result};
use crate::runtime::Runtime;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicI64, AtomicU64, Ordering};

/// `enum starpu_perf_knob_scope`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KnobScope {
    Global = 1,
    PerWorker = 3,
    PerScheduler = 5,
}

impl KnobScope {
    pub const ALL: [KnobScope; 3] = [
        KnobScope::Global,
        KnobScope::PerWorker,
        KnobScope::PerScheduler,
    ];

    /// StarPU's name for the scope (`starpu_perf_knob_scope_id_to_name`).
    pub fn name(self) -> &'static str {
        match self {
            KnobScope::Global => "global",
            KnobScope::PerWorker => "per_worker",
            KnobScope::PerScheduler => "per_scheduler",
        }
    }

    pub fn from_id(id: i32) -> Option<KnobScope> {
        KnobScope::ALL.into_iter().find(|s| *s as i32 == id)
    }

    pub fn from_name(name: &str) -> Option<KnobScope> {
        KnobScope::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// `enum starpu_perf_knob_type`. Every knob listed is an int32; the other types exist in
/// StarPU's enum and name lookups.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KnobType {
    Int32 = 1,
    Int64 = 2,
    Float = 3,
    Double = 4,
}

impl KnobType {
    pub const ALL: [KnobType; 4] = [
        KnobType::Int32,
        KnobType::Int64,
        KnobType::Float,
        KnobType::Double,
    ];

    pub fn name(self) -> &'static str {
        match self {
            KnobType::Int32 => "int32",
            KnobType::Int64 => "int64",
            KnobType::Float => "float",
            KnobType::Double => "double",
        }
    }

    pub fn from_id(id: i32) -> Option<KnobType> {
        KnobType::ALL.into_iter().find(|t| *t as i32 == id)
    }

    pub fn from_name(name: &str) -> Option<KnobType> {
        KnobType::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// The knobs this runtime acts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Knob {
    Calibrate,
    EnableWorker,
    BindToPu,
    MaxPriorityCap,
    MinPriorityCap,
}

/// A knob's description.
pub struct KnobDef {
    pub knob: Knob,
    pub name: &'static str,
    pub scope: KnobScope,
    pub ty: KnobType,
    pub help: &'static str,
}

/// Every knob, in registration order (the order within a scope gives its index).
pub const KNOBS: &[KnobDef] = &[
    KnobDef {
        knob: Knob::Calibrate,
        name: "starpu.global.g_calibrate_knob",
        scope: KnobScope::Global,
        ty: KnobType::Int32,
        help: "performance model calibration level (0, 1 or 2, as STARPU_CALIBRATE)",
    },
    KnobDef {
        knob: Knob::BindToPu,
        name: "starpu.worker.w_bind_to_pu_knob",
        scope: KnobScope::PerWorker,
        ty: KnobType::Int32,
        help: "logical index of the processing unit the worker is bound to",
    },
    KnobDef {
        knob: Knob::EnableWorker,
        name: "starpu.worker.w_enable_worker_knob",
        scope: KnobScope::PerWorker,
        ty: KnobType::Int32,
        help: "whether the worker takes tasks (1) or not (0)",
    },
    KnobDef {
        knob: Knob::MaxPriorityCap,
        name: "starpu.task.s_max_priority_cap_knob",
        scope: KnobScope::PerScheduler,
        ty: KnobType::Int32,
        help: "force task priority to this value or below (priority value)",
    },
    KnobDef {
        knob: Knob::MinPriorityCap,
        name: "starpu.task.s_min_priority_cap_knob",
        scope: KnobScope::PerScheduler,
        ty: KnobType::Int32,
        help: "force task priority to this value or above (priority value)",
    },
];

const SCOPE_BITS: u32 = 4;

/// The knobs of `scope`, in order.
pub fn in_scope(scope: KnobScope) -> impl Iterator<Item = &'static KnobDef> {
    KNOBS.iter().filter(move |k| k.scope == scope)
}

/// How many knobs `scope` has (`starpu_perf_knob_nb`).
pub fn count(scope: KnobScope) -> usize {
    in_scope(scope).count()
}

/// The id of the `nth` knob of `scope` (`starpu_perf_knob_nth_to_id`).
pub fn nth_id(scope: KnobScope, nth: usize) -> Option<i32> {
    (nth < count(scope)).then_some(((nth as i32) << SCOPE_BITS) | scope as i32)
}

/// The id of knob `name` in `scope` (`starpu_perf_knob_name_to_id`).
pub fn id_of(scope: KnobScope, name: &str) -> Option<i32> {
    let nth = in_scope(scope).position(|k| k.name == name)?;
    nth_id(scope, nth)
}

/// The knob `id` names.
pub fn def(id: i32) -> Option<&'static KnobDef> {
    if id < 0 {
        return None;
    }
    let scope = KnobScope::from_id(id & ((1 << SCOPE_BITS) - 1))?;
    in_scope(scope).nth((id >> SCOPE_BITS) as usize)
}

/// The id of `knob`.
pub fn knob_id(knob: Knob) -> i32 {
    let d = KNOBS.iter().find(|d| d.knob == knob).expect("listed");
    id_of(d.scope, d.name).expect("listed")
}

/// Where a knob's value lives: the runtime (global), one worker, or a scheduling policy.
#[derive(Debug, Clone, Copy)]
pub enum Target<'a> {
    Global,
    Worker(usize),
    Scheduler(&'a str),
}

/// The knobs' state in a runtime.
pub(crate) struct Knobs {
    /// Bit `w` set: worker `w` is disabled.
    disabled: AtomicU64,
    /// A rebinding asked for each worker (-1: none pending), applied by the worker.
    rebind: Box<[AtomicI64]>,
    /// Any rebinding pending: one load on the worker's path when there is none.
    rebind_pending: AtomicBool,
    /// The CPU each worker is bound to now (-1: unbound).
    bound: Box<[AtomicI64]>,
    /// Priority caps; `None` (i32::MAX / i32::MIN) means the policy's bounds.
    max_cap: AtomicI32,
    min_cap: AtomicI32,
    caps_set: AtomicBool,
}

impl Knobs {
    pub(crate) fn new(cpus: &[Option<usize>]) -> Knobs {
        Knobs {
            disabled: AtomicU64::new(0),
            rebind: cpus.iter().map(|_| AtomicI64::new(-1)).collect(),
            rebind_pending: AtomicBool::new(false),
            bound: cpus
                .iter()
                .map(|c| AtomicI64::new(c.map_or(-1, |c| c as i64)))
                .collect(),
            max_cap: AtomicI32::new(i32::MAX),
            min_cap: AtomicI32::new(i32::MIN),
            caps_set: AtomicBool::new(false),
        }
    }

    /// Whether worker `w` takes tasks.
    #[inline]
    pub(crate) fn enabled(&self, w: usize) -> bool {
        self.disabled.load(Ordering::Relaxed) & (1u64 << w) == 0
    }

    /// Whether policies should leave worker `w` out of their choices: it is disabled and
    /// another worker is not (with every worker disabled, tasks wait where they go).
    #[inline]
    pub(crate) fn excluded(&self, w: usize, nworkers: usize) -> bool {
        let d = self.disabled.load(Ordering::Relaxed);
        let all = if nworkers >= 64 {
            u64::MAX
        } else {
            (1u64 << nworkers) - 1
        };
        d & (1u64 << w) != 0 && d & all != all
    }

    /// `priority` clamped into the caps.
    #[inline]
    pub(crate) fn cap_priority(&self, priority: i32) -> i32 {
        if !self.caps_set.load(Ordering::Relaxed) {
            return priority;
        }
        let max = self.max_cap.load(Ordering::Relaxed);
        let min = self.min_cap.load(Ordering::Relaxed);
        priority.min(max).max(min)
    }

    /// The CPU worker `w` must bind to now, if a rebinding is pending. It stays pending
    /// (and the knob reads it) until `rebound` says it was applied.
    #[inline]
    pub(crate) fn rebind_request(&self, w: usize) -> Option<usize> {
        if !self.rebind_pending.load(Ordering::Acquire) {
            return None;
        }
        usize::try_from(self.rebind[w].load(Ordering::Acquire)).ok()
    }

    /// Worker `w` applied request `cpu` (bound: `ok`); a newer request stays pending.
    pub(crate) fn rebound(&self, w: usize, cpu: usize, ok: bool) {
        if ok {
            self.bound[w].store(cpu as i64, Ordering::Release);
        }
        let _ =
            self.rebind[w].compare_exchange(cpu as i64, -1, Ordering::AcqRel, Ordering::Relaxed);
        if self.rebind.iter().all(|r| r.load(Ordering::Acquire) < 0) {
            self.rebind_pending.store(false, Ordering::Release);
            // A request made meanwhile must not be lost.
            if self.rebind.iter().any(|r| r.load(Ordering::Acquire) >= 0) {
                self.rebind_pending.store(true, Ordering::Release);
            }
        }
    }

    /// Whether worker `w` has a rebinding to apply (it must not park before).
    pub(crate) fn rebind_pending(&self, w: usize) -> bool {
        self.rebind_request(w).is_some()
    }
}

fn to_i32(v: i64) -> i32 {
    v.clamp(i32::MIN as i64, i32::MAX as i64) as i32
}

fn knob_checked(rt: &Runtime, id: i32, target: &Target) -> Result<&'static KnobDef> {
    let d = def(id).ok_or_else(|| Error::invalid(format!("unknown knob id {id}")))?;
    match (d.scope, target) {
        (KnobScope::Global, Target::Global) | (KnobScope::PerScheduler, Target::Scheduler(_)) => {
            Ok(d)
        }
        (KnobScope::PerWorker, Target::Worker(w)) if *w < rt.workers.len() => Ok(d),
        (KnobScope::PerWorker, Target::Worker(w)) => Err(Error::invalid(format!(
            "no worker {w} (there are {})",
            rt.workers.len()
        ))),
        _ => Err(Error::invalid(format!(
            "knob {} has scope {}, not the one asked for",
            d.name,
            d.scope.name()
        ))),
    }
}

pub(crate) fn knob_value(rt: &Runtime, id: i32, target: Target) -> Result<i32> {
    let d = knob_checked(rt, id, &target)?;
    let k = &rt.knobs;
    Ok(match (d.knob, target) {
        (Knob::Calibrate, _) => crate::perfmodel::settings::calibrate_level(),
        (Knob::EnableWorker, Target::Worker(w)) => k.enabled(w) as i32,
        (Knob::BindToPu, Target::Worker(w)) => {
            let pending = k.rebind[w].load(Ordering::Acquire);
            to_i32(if pending >= 0 {
                pending
            } else {
                k.bound[w].load(Ordering::Relaxed)
            })
        }
        (Knob::MaxPriorityCap, _) if k.caps_set.load(Ordering::Relaxed) => {
            k.max_cap.load(Ordering::Relaxed).min(rt.priority_range().1)
        }
        (Knob::MinPriorityCap, _) if k.caps_set.load(Ordering::Relaxed) => {
            k.min_cap.load(Ordering::Relaxed).max(rt.priority_range().0)
        }
        (Knob::MaxPriorityCap, _) => rt.priority_range().1,
        (Knob::MinPriorityCap, _) => rt.priority_range().0,
        _ => unreachable!("scopes checked above"),
    })
}

pub(crate) fn set_knob(rt: &Runtime, id: i32, target: Target, value: i32) -> Result<()> {
    let d = knob_checked(rt, id, &target)?;
    let k = &rt.knobs;
    match (d.knob, target) {
        (Knob::Calibrate, _) => {
            if !(0..=2).contains(&value) {
                return Err(Error::invalid(format!(
                    "calibration level {value}: 0, 1 or 2 expected"
                )));
            }
            crate::perfmodel::settings::set_calibrate_level(value);
            crate::perfmodel::state::set_all_benchmarking(value > 0);
        }
        (Knob::EnableWorker, Target::Worker(w)) => {
            if !(0..=1).contains(&value) {
                return Err(Error::invalid(format!(
                    "enable worker: {value}, 0 or 1 expected"
                )));
            }
            if value == 1 {
                k.disabled.fetch_and(!(1u64 << w), Ordering::SeqCst);
                // Tasks may be waiting for it; wake everyone so they are looked at.
                for wk in rt.workers.iter() {
                    wk.wake();
                }
            } else {
                k.disabled.fetch_or(1u64 << w, Ordering::SeqCst);
            }
        }
        (Knob::BindToPu, Target::Worker(w)) => {
            // SAFETY: sysconf only reads a system value.
            let ncpus = unsafe { libc::sysconf(libc::_SC_NPROCESSORS_CONF) }.max(1) as usize;
            if value < 0 || value as usize >= ncpus {
                return Err(Error::invalid(format!(
                    "processing unit {value}: the machine has {ncpus} (0 to {})",
                    ncpus.saturating_sub(1)
                )));
            }
            k.rebind[w].store(value as i64, Ordering::Release);
            k.rebind_pending.store(true, Ordering::Release);
            rt.workers[w].wake();
        }
        (Knob::MaxPriorityCap | Knob::MinPriorityCap, _) => {
            let (pmin, pmax) = rt.priority_range();
            if value < pmin || value > pmax {
                return Err(Error::invalid(format!(
                    "priority cap {value} outside the policy's priorities [{pmin}, {pmax}]"
                )));
            }
            let max = rt.knob_value(knob_id(Knob::MaxPriorityCap), Target::Scheduler(""))?;
            let min = rt.knob_value(knob_id(Knob::MinPriorityCap), Target::Scheduler(""))?;
            let (new_min, new_max) = if d.knob == Knob::MaxPriorityCap {
                (min, value)
            } else {
                (value, max)
            };
            if new_min > new_max {
                return Err(Error::invalid(format!(
                    "priority caps: minimum {new_min} above maximum {new_max}"
                )));
            }
            k.max_cap.store(new_max, Ordering::Relaxed);
            k.min_cap.store(new_min, Ordering::Relaxed);
            k.caps_set.store(true, Ordering::Relaxed);
        }
        _ => unreachable!("scopes checked above"),
    }
    Ok(())
}

pub(crate) fn worker_enabled(rt: &Runtime, w: usize) -> bool {
    rt.knobs.enabled(w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_tell_their_scope_and_index() {
        let cal = id_of(KnobScope::Global, "starpu.global.g_calibrate_knob").unwrap();
        assert_eq!(cal, 1);
        let en = id_of(KnobScope::PerWorker, "starpu.worker.w_enable_worker_knob").unwrap();
        assert_eq!(en, (1 << 4) | 3);
        assert_eq!(def(en).unwrap().knob, Knob::EnableWorker);
        assert_eq!(nth_id(KnobScope::PerScheduler, 1), Some((1 << 4) | 5));
        assert_eq!(nth_id(KnobScope::PerScheduler, 2), None);
        assert_eq!(count(KnobScope::Global), 1);
        assert_eq!(count(KnobScope::PerWorker), 2);
        assert!(def(-1).is_none());
        assert!(def(7).is_none());
        assert!(def((9 << 4) | 1).is_none());
        // The knob we cannot act on is not listed.
        assert!(id_of(
            KnobScope::Global,
            "starpu.global.g_enable_catch_signal_knob"
        )
        .is_none());
    }

    #[test]
    fn caps_clamp_and_exclusion_needs_an_enabled_worker() {
        let k = Knobs::new(&[None, None]);
        assert_eq!(k.cap_priority(7), 7);
        k.max_cap.store(2, Ordering::Relaxed);
        k.min_cap.store(-1, Ordering::Relaxed);
        k.caps_set.store(true, Ordering::Relaxed);
        assert_eq!(k.cap_priority(7), 2);
        assert_eq!(k.cap_priority(-9), -1);
        assert_eq!(k.cap_priority(0), 0);
        k.disabled.store(0b01, Ordering::Relaxed);
        assert!(!k.enabled(0) && k.enabled(1));
        assert!(k.excluded(0, 2));
        k.disabled.store(0b11, Ordering::Relaxed);
        assert!(
            !k.excluded(0, 2),
            "with every worker disabled none is left out"
        );
    }
}
