//! Performance counters (StarPU's performance monitoring, `starpu_perf_monitoring.h`):
//! named counters in three scopes (global, per worker, per codelet) that the application
//! reads through listeners: a listener is told, after each task, the values of the
//! counters it chose, for the scope it was attached to.
//!
//! Counting starts when collection is started (`start_collection`: when the application
//! allocates a counter set, calls `starpu_perf_counter_collection_start`, or sets
//! `conf.start_perf_counter_collection`); until then it costs one relaxed load per task.

use crate::runtime::Runtime;
use crate::task::Task;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// StarPU's `enum starpu_perf_counter_scope`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Scope {
    Global = 1,
    PerWorker = 2,
    PerCodelet = 3,
}

impl Scope {
    pub const ALL: [Scope; 3] = [Scope::Global, Scope::PerWorker, Scope::PerCodelet];

    pub fn from_id(id: i32) -> Option<Scope> {
        Scope::ALL.into_iter().find(|s| *s as i32 == id)
    }

    /// StarPU's name (`starpu_perf_counter_scope_id_to_name`).
    pub fn name(self) -> &'static str {
        match self {
            Scope::Global => "global",
            Scope::PerWorker => "per_worker",
            Scope::PerCodelet => "per_codelet",
        }
    }
}

/// StarPU's `enum starpu_perf_counter_type`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ValueType {
    Int32 = 1,
    Int64 = 2,
    Float = 3,
    Double = 4,
}

impl ValueType {
    pub const ALL: [ValueType; 4] = [
        ValueType::Int32,
        ValueType::Int64,
        ValueType::Float,
        ValueType::Double,
    ];

    pub fn from_id(id: i32) -> Option<ValueType> {
        ValueType::ALL.into_iter().find(|t| *t as i32 == id)
    }

    pub fn name(self) -> &'static str {
        match self {
            ValueType::Int32 => "int32",
            ValueType::Int64 => "int64",
            ValueType::Float => "float",
            ValueType::Double => "double",
        }
    }
}

/// One counter: its StarPU name, scope, type and help text.
pub struct CounterDef {
    pub name: &'static str,
    pub scope: Scope,
    pub ty: ValueType,
    pub help: &'static str,
}

/// Every counter; a counter's id is its index here.
pub const COUNTERS: &[CounterDef] = &[
    CounterDef {
        name: "starpu.task.g.total_submitted",
        scope: Scope::Global,
        ty: ValueType::Int64,
        help: "number of tasks submitted globally (since collection started)",
    },
    CounterDef {
        name: "starpu.task.g.peak_submitted",
        scope: Scope::Global,
        ty: ValueType::Int64,
        help: "maximum simultaneous number of tasks submitted and not yet ended",
    },
    CounterDef {
        name: "starpu.task.g.current_submitted",
        scope: Scope::Global,
        ty: ValueType::Int64,
        help: "number of tasks submitted and not yet ended",
    },
    CounterDef {
        name: "starpu.task.g.current_ready",
        scope: Scope::Global,
        ty: ValueType::Int64,
        help: "number of tasks ready and waiting for a worker",
    },
    CounterDef {
        name: "starpu.task.g.total_executed",
        scope: Scope::Global,
        ty: ValueType::Int64,
        help: "number of tasks executed globally",
    },
    CounterDef {
        name: "starpu.task.g.cumul_execution_time",
        scope: Scope::Global,
        ty: ValueType::Double,
        help: "cumulated execution time of the tasks executed globally (us)",
    },
    CounterDef {
        name: "starpu.task.w.total_executed",
        scope: Scope::PerWorker,
        ty: ValueType::Int64,
        help: "number of tasks executed by the worker",
    },
    CounterDef {
        name: "starpu.task.w.cumul_execution_time",
        scope: Scope::PerWorker,
        ty: ValueType::Double,
        help: "cumulated execution time of the tasks executed by the worker (us)",
    },
    CounterDef {
        name: "starpu.task.c.total_executed",
        scope: Scope::PerCodelet,
        ty: ValueType::Int64,
        help: "number of tasks of the codelet executed",
    },
    CounterDef {
        name: "starpu.task.c.cumul_execution_time",
        scope: Scope::PerCodelet,
        ty: ValueType::Double,
        help: "cumulated execution time of the tasks of the codelet (us)",
    },
];

/// The id of counter `name` of `scope`.
pub fn id_of(scope: Scope, name: &str) -> Option<usize> {
    COUNTERS
        .iter()
        .position(|c| c.scope == scope && c.name == name)
}

/// The id of the `nth` counter of `scope`.
pub fn nth(scope: Scope, n: usize) -> Option<usize> {
    COUNTERS
        .iter()
        .enumerate()
        .filter(|(_, c)| c.scope == scope)
        .nth(n)
        .map(|(i, _)| i)
}

/// How many counters `scope` has.
pub fn count(scope: Scope) -> usize {
    COUNTERS.iter().filter(|c| c.scope == scope).count()
}

/// A counter's value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    Int(i64),
    Double(f64),
}

/// The values of some counters of one scope at one moment, as a listener gets them.
#[derive(Clone, Debug, Default)]
pub struct Sample {
    values: Vec<(usize, Value)>,
}

impl Sample {
    /// The value of counter `id`, if the sample has it (the listener enabled it).
    pub fn get(&self, id: usize) -> Option<Value> {
        self.values.iter().find(|(i, _)| *i == id).map(|(_, v)| *v)
    }
}

/// A listener: the counters it wants (ids of one scope) and what to call with them.
pub struct Listener {
    pub scope: Scope,
    pub enabled: Vec<usize>,
    pub callback: Box<dyn Fn(&Sample) + Send + Sync>,
}

/// Where a listener is attached.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Attach {
    Global,
    Worker(usize),
    /// A codelet, by name (what StarPU's summaries name codelets by).
    Codelet(String),
}

#[derive(Default)]
struct Totals {
    executed: u64,
    ns: u64,
}

pub(crate) struct Counters {
    active: AtomicBool,
    total_submitted: AtomicU64,
    peak_submitted: AtomicU64,
    global: Mutex<Totals>,
    workers: Mutex<Vec<Totals>>,
    codelets: Mutex<HashMap<String, Totals>>,
    listeners: Mutex<HashMap<Attach, Arc<Listener>>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Counters {
    pub(crate) fn new(nworkers: usize, active: bool) -> Counters {
        Counters {
            active: AtomicBool::new(active),
            total_submitted: AtomicU64::new(0),
            peak_submitted: AtomicU64::new(0),
            global: Mutex::new(Totals::default()),
            workers: Mutex::new((0..nworkers).map(|_| Totals::default()).collect()),
            codelets: Mutex::new(HashMap::new()),
            listeners: Mutex::new(HashMap::new()),
        }
    }

    #[inline]
    pub(crate) fn is_active(&self) -> bool {
        self.active.load(Ordering::Relaxed)
    }

    /// A task was submitted; `pending()` tasks are now submitted and not ended (counted
    /// only while collecting: it sums a counter per worker).
    #[inline]
    pub(crate) fn submitted(&self, pending: impl FnOnce() -> usize) {
        if self.is_active() {
            self.total_submitted.fetch_add(1, Ordering::Relaxed);
            self.peak_submitted
                .fetch_max(pending() as u64, Ordering::Relaxed);
        }
    }

    /// `worker` ran `task` for `ns` nanoseconds: totals, then the listeners concerned.
    pub(crate) fn ran(&self, rt: &crate::runtime::Runtime, task: &Task, worker: usize, ns: u64) {
        let codelet = task
            .spec()
            .and_then(|s| s.codelet.as_ref())
            .map(|c| c.name.clone().unwrap_or_else(|| "(unnamed)".into()));
        let add = |t: &mut Totals| {
            t.executed += 1;
            t.ns += ns;
        };
        add(&mut lock(&self.global));
        if let Some(t) = lock(&self.workers).get_mut(worker) {
            add(t);
        }
        if let Some(name) = &codelet {
            add(lock(&self.codelets).entry(name.clone()).or_default());
        }
        let listeners: Vec<(Attach, Arc<Listener>)> = {
            let all = lock(&self.listeners);
            let mut wanted = vec![Attach::Global, Attach::Worker(worker)];
            wanted.extend(codelet.clone().map(Attach::Codelet));
            wanted
                .into_iter()
                .filter_map(|a| all.get(&a).map(|l| (a, l.clone())))
                .collect()
        };
        for (at, l) in listeners {
            let sample = self.sample(rt, &at, &l.enabled);
            let f = &l.callback;
            if let Err(e) =
                crate::worker::as_callback("a performance counter listener", None, || f(&sample))
            {
                rt.warn(&e.message);
            }
        }
    }

    /// The values of counters `ids` for `at`.
    fn sample(&self, rt: &crate::runtime::Runtime, at: &Attach, ids: &[usize]) -> Sample {
        let totals = |t: Option<&Totals>| t.map_or((0, 0), |t| (t.executed, t.ns));
        let (executed, ns) = match at {
            Attach::Global => totals(Some(&lock(&self.global))),
            Attach::Worker(w) => totals(lock(&self.workers).get(*w)),
            Attach::Codelet(c) => totals(lock(&self.codelets).get(c)),
        };
        let values = ids
            .iter()
            .filter_map(|&id| {
                let v = match COUNTERS.get(id)?.name {
                    "starpu.task.g.total_submitted" => {
                        Value::Int(self.total_submitted.load(Ordering::Relaxed) as i64)
                    }
                    "starpu.task.g.peak_submitted" => {
                        Value::Int(self.peak_submitted.load(Ordering::Relaxed) as i64)
                    }
                    "starpu.task.g.current_submitted" => Value::Int(rt.nsubmitted() as i64),
                    "starpu.task.g.current_ready" => Value::Int(rt.nready() as i64),
                    n if n.ends_with(".total_executed") => Value::Int(executed as i64),
                    n if n.ends_with(".cumul_execution_time") => Value::Double(ns as f64 / 1e3),
                    _ => return None,
                };
                Some((id, v))
            })
            .collect();
        Sample { values }
    }
}

pub(crate) fn set_counter_collection(rt: &Runtime, on: bool) {
    rt.counters.active.store(on, Ordering::SeqCst);
}

pub(crate) fn set_counter_listener(rt: &Runtime, at: Attach, listener: Option<Arc<Listener>>) {
    let mut all = lock(&rt.counters.listeners);
    match listener {
        Some(l) => {
            all.insert(at, l);
        }
        None => {
            all.remove(&at);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::data::AccessMode;
    use crate::runtime::Runtime;
    use crate::task::Codelet;

    #[test]
    fn listeners_see_the_counters_they_enabled() {
        let rt = Runtime::start(Config {
            ncpus: Some(1),
            silent: true,
            ..Config::default()
        })
        .unwrap();
        rt.set_counter_collection(true);
        let seen = Arc::new(Mutex::new(Vec::new()));
        let executed = id_of(Scope::PerCodelet, "starpu.task.c.total_executed").unwrap();
        let s = seen.clone();
        rt.set_counter_listener(
            Attach::Codelet("bump".into()),
            Some(Arc::new(Listener {
                scope: Scope::PerCodelet,
                enabled: vec![executed],
                callback: Box::new(move |sample| {
                    lock(&s).push(sample.get(executed));
                }),
            })),
        );
        let x = rt.register_variable(0u32).unwrap();
        let cl = Arc::new(Codelet::new("bump").modes([AccessMode::RW]).cpu(|call| {
            *call.variable_mut::<u32>(0)? += 1;
            Ok(())
        }));
        for _ in 0..3 {
            rt.task(&cl).buffer(&x, AccessMode::RW).submit().unwrap();
        }
        rt.wait_for_all().unwrap();
        let got = lock(&seen).clone();
        assert_eq!(
            got,
            vec![
                Some(Value::Int(1)),
                Some(Value::Int(2)),
                Some(Value::Int(3))
            ]
        );
        assert_eq!(count(Scope::Global), 6);
        assert_eq!(
            nth(Scope::PerWorker, 1),
            id_of(Scope::PerWorker, "starpu.task.w.cumul_execution_time")
        );
        rt.shutdown();
    }
}
