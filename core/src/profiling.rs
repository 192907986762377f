//! Profiling (StarPU's `STARPU_PROFILING`, `starpu_profiling_status_set`): when on, each
//! task records when it was submitted, started and ended and on which worker; each worker
//! counts the tasks it ran, the time it spent running them and the time it slept; and
//! tasks are counted per codelet and worker (`starpu_codelet_display_stats`).
//!
//! All of it is off by default and then costs one relaxed load per task. Times are
//! nanoseconds on a monotonic clock since the process's first look at it ([`now_ns`]),
//! which is also the clock of `starpu_timing_now`.

use crate::task::Task;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

pub use crate::clock::now_ns;
pub use crate::task::times::{ProfileTimes, TaskTimesSnapshot};

/// One worker's counters since profiling was (re)started for it.
#[derive(Default)]
struct WorkerCounters {
    since: AtomicU64,
    executing: AtomicU64,
    sleeping: AtomicU64,
    executed: AtomicU64,
    /// f64 bits.
    flops: AtomicU64,
}

/// One worker's profile (`struct starpu_profiling_worker_info`), durations in nanoseconds.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct WorkerProfile {
    pub start_ns: u64,
    pub total_ns: u64,
    pub executing_ns: u64,
    pub sleeping_ns: u64,
    pub executed_tasks: u64,
    pub flops: f64,
}

/// The runtime's profiling state.
pub(crate) struct Profiling {
    on: AtomicBool,
    /// Counting per codelet is also wanted by `STARPU_WORKER_STATS` without profiling.
    count_codelets: bool,
    workers: Box<[WorkerCounters]>,
    /// Tasks run per codelet name, per worker.
    codelets: Mutex<HashMap<String, Vec<u64>>>,
    /// Tasks are recorded for the theoretical bound (`starpu_bound_start`).
    recording: AtomicBool,
    bound: Mutex<crate::bound::BoundRecord>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Profiling {
    pub(crate) fn new(on: bool, worker_stats: bool, nworkers: usize) -> Profiling {
        let p = Profiling {
            on: AtomicBool::new(on),
            count_codelets: worker_stats,
            workers: (0..nworkers).map(|_| WorkerCounters::default()).collect(),
            codelets: Mutex::new(HashMap::new()),
            recording: AtomicBool::new(false),
            bound: Mutex::new(Default::default()),
        };
        p.reset_workers();
        p
    }

    #[inline]
    pub(crate) fn is_on(&self) -> bool {
        self.on.load(Ordering::Relaxed)
    }

    /// Turns profiling on or off; returns the previous status. Turning it on starts the
    /// workers' counters afresh (as StarPU does).
    pub(crate) fn set(&self, on: bool) -> bool {
        let was = self.on.swap(on, Ordering::SeqCst);
        if on && !was {
            self.reset_workers();
        }
        was
    }

    fn reset_workers(&self) {
        let now = now_ns();
        for w in self.workers.iter() {
            reset(w, now);
        }
    }

    /// A task is being submitted.
    #[inline]
    pub(crate) fn submitted(&self, task: &Task) {
        if self.is_on() {
            task.times().submit.store(now_ns(), Ordering::Release);
        }
    }

    /// `worker` starts running `task`; the start time, if profiling is on.
    #[inline]
    pub(crate) fn started(&self, task: &Task, worker: usize) -> Option<u64> {
        let recording = self.recording.load(Ordering::Relaxed);
        if !self.is_on() && !recording {
            return None;
        }
        let now = now_ns();
        if self.is_on() {
            let times = task.times();
            times.start.store(now, Ordering::Release);
            times.worker.store(worker as u32 + 1, Ordering::Release);
        }
        Some(now)
    }

    /// `worker` ran `task` (whose run started at `start` if profiling was on then).
    #[inline]
    pub(crate) fn ended(&self, task: &Task, worker: usize, start: Option<u64>) {
        let on = self.is_on();
        if let Some(start) = start {
            // One clock reading for the task's end, its worker's time and the bound.
            let now = now_ns();
            if self.recording.load(Ordering::Relaxed) {
                if let Some(cl) = task.spec().and_then(|s| s.codelet.as_ref()) {
                    let kind = cl.name.as_deref().unwrap_or("(unnamed)");
                    lock(&self.bound).add(kind, now.saturating_sub(start));
                }
            }
            if on {
                task.times().end.store(now, Ordering::Release);
                let w = &self.workers[worker];
                w.executing.fetch_add(now - start, Ordering::Relaxed);
                w.executed.fetch_add(1, Ordering::Relaxed);
                let flops = task.spec().map_or(0.0, |s| s.flops);
                if flops != 0.0 {
                    let _ = w
                        .flops
                        .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |b| {
                            Some((f64::from_bits(b) + flops).to_bits())
                        });
                }
            }
        }
        if (start.is_some() && on) || self.count_codelets {
            let name = task
                .spec()
                .and_then(|s| s.codelet.as_ref())
                .map(|c| c.name.clone().unwrap_or_else(|| "(unnamed)".into()));
            if let Some(name) = name {
                let n = self.workers.len();
                lock(&self.codelets)
                    .entry(name)
                    .or_insert_with(|| vec![0; n])[worker] += 1;
            }
        }
    }

    /// A worker goes to sleep: the time, if profiling is on.
    #[inline]
    pub(crate) fn sleeps(&self) -> Option<u64> {
        self.is_on().then(now_ns)
    }

    /// `worker` woke up from a sleep that began at `since`.
    #[inline]
    pub(crate) fn woke(&self, worker: usize, since: Option<u64>) {
        if let Some(since) = since {
            self.workers[worker]
                .sleeping
                .fetch_add(now_ns().saturating_sub(since), Ordering::Relaxed);
        }
    }

    /// `worker`'s counters since they were last read (or profiling started), restarted
    /// from now (`starpu_profiling_worker_get_info`).
    pub(crate) fn take_worker(&self, worker: usize) -> Option<WorkerProfile> {
        let w = self.workers.get(worker)?;
        let now = now_ns();
        let start = w.since.load(Ordering::Relaxed);
        let p = WorkerProfile {
            start_ns: start,
            total_ns: now.saturating_sub(start),
            executing_ns: w.executing.load(Ordering::Relaxed),
            sleeping_ns: w.sleeping.load(Ordering::Relaxed),
            executed_tasks: w.executed.load(Ordering::Relaxed),
            flops: f64::from_bits(w.flops.load(Ordering::Relaxed)),
        };
        reset(w, now);
        Some(p)
    }

    /// Tasks of the codelet named `name` run by each worker, if any ran.
    pub(crate) fn codelet_counts(&self, name: &str) -> Option<Vec<u64>> {
        lock(&self.codelets).get(name).cloned()
    }
}

/// What `STARPU_STATS` prints at shutdown: the data still registered and the transfers
/// between memory nodes (none: main memory is the only one).
pub(crate) fn data_summary() -> String {
    let handles = crate::data::registry::all();
    let bytes: usize = handles.iter().map(|h| h.size()).sum();
    format!(
        "[starpu] data statistics: {} data still registered ({} bytes); transfers between \
         memory nodes: STARPU_BUS_STATS=1\n",
        handles.len(),
        bytes
    )
}

impl Profiling {
    /// Starts recording tasks for the theoretical bound, forgetting earlier records.
    pub(crate) fn bound_start(&self, deps: bool) {
        *lock(&self.bound) = crate::bound::BoundRecord {
            deps,
            ..Default::default()
        };
        self.recording.store(true, Ordering::SeqCst);
    }

    pub(crate) fn bound_stop(&self) {
        self.recording.store(false, Ordering::SeqCst);
    }

    /// The linear program of what was recorded, over `nworkers` workers.
    pub(crate) fn bound_problem(&self, nworkers: usize) -> crate::bound::BoundProblem {
        lock(&self.bound).problem(nworkers)
    }
}

fn reset(w: &WorkerCounters, now: u64) {
    w.since.store(now, Ordering::Relaxed);
    w.executing.store(0, Ordering::Relaxed);
    w.sleeping.store(0, Ordering::Relaxed);
    w.executed.store(0, Ordering::Relaxed);
    w.flops.store(0f64.to_bits(), Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use crate::config::Config;
    use crate::data::AccessMode;
    use crate::runtime::Runtime;
    use crate::task::Codelet;
    use std::sync::Arc;

    #[test]
    fn times_are_ordered_and_counts_add_up() {
        let config = Config {
            ncpus: Some(2),
            silent: true,
            profiling: true,
            ..Config::default()
        };
        let rt = Runtime::start(config).unwrap();
        let x = rt.register_variable(0u64).unwrap();
        let cl = Arc::new(Codelet::new("bump").modes([AccessMode::RW]).cpu(|call| {
            *call.variable_mut::<u64>(0)? += 1;
            Ok(())
        }));
        let tasks: Vec<_> = (0..10)
            .map(|_| {
                rt.task(&cl)
                    .buffer(&x, AccessMode::RW)
                    .detach(false)
                    .submit()
                    .unwrap()
            })
            .collect();
        rt.wait_for_all().unwrap();
        let mut last_end = 0;
        for t in &tasks {
            let s = t.profiling_times().expect("recorded");
            assert!(s.submit_ns <= s.start_ns && s.start_ns <= s.end_ns, "{s:?}");
            assert!(s.worker.is_some_and(|w| w < 2));
            // RW on the same data: each task starts after the previous one ended.
            assert!(s.start_ns >= last_end);
            last_end = s.end_ns;
        }
        let counts = rt.codelet_counts("bump").unwrap();
        assert_eq!(counts.iter().sum::<u64>(), 10);
        let executed: u64 = (0..2)
            .map(|w| rt.take_worker_profile(w).unwrap().executed_tasks)
            .sum();
        assert_eq!(executed, 10);
        // Reading restarts the counters.
        assert_eq!(rt.take_worker_profile(0).unwrap().executed_tasks, 0);
        assert!(rt.set_profiling(false));
        assert!(!rt.profiling());
        rt.shutdown();
    }
}
