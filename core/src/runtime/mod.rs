//! The runtime: configuration, workers, scheduling policy, and the process-wide instance
//! behind StarPU's global API.
//!
//! A `Runtime` is leaked on start and lives as `&'static Runtime`: tasks, workers and
//! bindings reach it without reference counting on every task. Shutdown stops and joins the
//! workers and empties what the runtime holds; the small struct itself stays allocated,
//! which also keeps a late call from another thread from touching freed memory.

mod control;
mod submit;
mod wait;

pub use submit::ReadyList;

use crate::config::{Binding, Config};
use crate::error::{Error, Result};
use crate::sched::{self, Policy};
use crate::task::bell::Bell;
use crate::task::tags::Tags;
use crate::task::Task;
use crate::topology::{self, Topology};
use crate::worker::{self, Worker};
use std::sync::atomic::{fence, AtomicBool, AtomicPtr, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Instant;

/// Most workers a runtime runs (`STARPU_NMAXWORKERS`).
pub const MAX_WORKERS: usize = 64;

pub struct Runtime {
    pub config: Config,
    pub(crate) workers: Box<[Worker]>,
    pub(crate) policy: Box<dyn Policy>,
    pub(crate) nsleeping: AtomicUsize,
    /// Tasks submitted and not yet terminated.
    pub(crate) submitted: AtomicUsize,
    /// `wait_for_all` and `wait_for_n_submitted` waiters: rung when `submitted` drops to
    /// `watermark` or below.
    pub(crate) all_bell: Bell,
    pub(crate) watermark: AtomicUsize,
    /// Waiters for one task, a tag, or an acquisition.
    pub(crate) task_bell: Bell,
    /// Waiters for a data handle to become idle.
    pub(crate) data_bell: Bell,
    pub tags: Tags,
    pub(crate) default_sequential: AtomicBool,
    /// `starpu_pause` calls not yet matched by `starpu_resume`.
    paused: AtomicUsize,
    accepting: AtomicBool,
    stopping: AtomicBool,
    threads: Mutex<Vec<JoinHandle<()>>>,
    priority_range: (i32, i32),
    started: Instant,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Runtime {
    /// Starts a runtime with `config` (environment variables already applied).
    pub fn start(config: Config) -> Result<&'static Runtime> {
        let topo = Topology::detect();
        let mut cpus: Vec<Option<usize>> = match &config.binding {
            Binding::Explicit(list) if !list.is_empty() => list.iter().map(|&c| Some(c)).collect(),
            Binding::None => topo.core_cpus.iter().map(|_| None).collect(),
            _ => topo.core_cpus.iter().map(|&c| Some(c)).collect(),
        };
        if config.main_thread_bind {
            let cpu = config
                .main_thread_cpuid
                .or_else(|| cpus.last().copied().flatten())
                .unwrap_or(0);
            topology::bind_current_thread(cpu)?;
            cpus.retain(|&c| c != Some(cpu));
        }
        let reserve = config.reserve_ncpus.min(cpus.len());
        cpus.truncate(cpus.len() - reserve);
        let ncpus = config.ncpus.unwrap_or(cpus.len());
        if ncpus == 0 {
            return Err(Error::no_device(
                "no worker to run tasks (0 CPU workers asked for, and no accelerator)",
            ));
        }
        if ncpus > MAX_WORKERS {
            return Err(Error::invalid(format!(
                "{ncpus} CPU workers asked for, at most {MAX_WORKERS} are supported"
            )));
        }
        let policy_name = config
            .sched_policy
            .clone()
            .unwrap_or_else(|| sched::DEFAULT_POLICY.to_string());
        let policy = sched::create(&policy_name, ncpus)?;
        let workers: Box<[Worker]> = (0..ncpus)
            .map(|i| {
                let cpu = if cpus.is_empty() {
                    None
                } else {
                    cpus[i % cpus.len()]
                };
                Worker::new(i, cpu)
            })
            .collect();
        let (pmin, pmax) = policy.priority_range();
        let priority_range = (
            config.min_priority.unwrap_or(pmin),
            config.max_priority.unwrap_or(pmax),
        );
        let rt: &'static Runtime = Box::leak(Box::new(Runtime {
            config,
            workers,
            policy,
            nsleeping: AtomicUsize::new(0),
            submitted: AtomicUsize::new(0),
            all_bell: Bell::default(),
            watermark: AtomicUsize::new(0),
            task_bell: Bell::default(),
            data_bell: Bell::default(),
            tags: Tags::default(),
            default_sequential: AtomicBool::new(true),
            paused: AtomicUsize::new(0),
            accepting: AtomicBool::new(true),
            stopping: AtomicBool::new(false),
            threads: Mutex::new(Vec::new()),
            priority_range,
            started: Instant::now(),
        }));
        let mut threads = lock(&rt.threads);
        for id in 0..rt.workers.len() {
            let handle = std::thread::Builder::new()
                .name(format!("starpu-cpu-{id}"))
                .spawn(move || worker::run(rt, id))
                .map_err(|e| Error::no_device(format!("cannot start worker thread: {e}")))?;
            let _ = rt.workers[id].thread.set(handle.thread().clone());
            threads.push(handle);
        }
        drop(threads);
        Ok(rt)
    }

    /// Waits for every task, stops the workers and forgets tags. The runtime refuses new
    /// work from then on.
    pub fn shutdown(&'static self) {
        if worker::current_worker_id().is_some() {
            self.warn("starpu_shutdown called from a worker thread; ignored");
            return;
        }
        let _ = self.wait_for_all();
        self.accepting.store(false, Ordering::SeqCst);
        self.stopping.store(true, Ordering::SeqCst);
        for w in self.workers.iter() {
            w.sleeping.store(false, Ordering::SeqCst);
            if let Some(t) = w.thread.get() {
                t.unpark();
            }
        }
        for h in lock(&self.threads).drain(..) {
            let _ = h.join();
        }
        self.tags.clear();
        if self.config.worker_stats {
            eprintln!(
                "[starpu] worker statistics ({} policy, {:.3} s):",
                self.policy.name(),
                self.uptime()
            );
            for w in self.workers.iter() {
                eprintln!("\t{}\t{} tasks", w.name, w.executed());
            }
        }
    }

    pub(crate) fn is_stopping(&self) -> bool {
        self.stopping.load(Ordering::Relaxed)
    }

    pub(crate) fn check_accepting(&self) -> Result<()> {
        if self.accepting.load(Ordering::Relaxed) {
            Ok(())
        } else {
            Err(Error::not_initialized())
        }
    }

    /// Prints an informational line unless `STARPU_SILENT` is set.
    pub fn info(&self, msg: &str) {
        if !self.config.silent {
            eprintln!("[starpu] {msg}");
        }
    }

    /// Prints a warning (always: warnings are about the application's use of the API).
    pub fn warn(&self, msg: &str) {
        eprintln!("[starpu] warning: {msg}");
    }

    pub fn workers(&self) -> &[Worker] {
        &self.workers
    }

    pub fn worker(&self, id: usize) -> Option<&Worker> {
        self.workers.get(id)
    }

    pub fn policy_name(&self) -> &'static str {
        self.policy.name()
    }

    pub fn priority_range(&self) -> (i32, i32) {
        self.priority_range
    }

    /// Seconds since start.
    pub fn uptime(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }

    /// Tasks run by all workers.
    pub fn tasks_executed(&self) -> u64 {
        self.workers.iter().map(|w| w.executed()).sum()
    }

    /// Tasks submitted and not yet over (`starpu_task_nsubmitted`).
    pub fn nsubmitted(&self) -> usize {
        self.submitted.load(Ordering::SeqCst)
    }

    /// Tasks ready and waiting for a worker (`starpu_task_nready`).
    pub fn nready(&self) -> usize {
        self.policy.ntasks() + self.workers.iter().map(|w| w.pinned.len()).sum::<usize>()
    }

    pub fn default_sequential_consistency(&self) -> bool {
        self.default_sequential.load(Ordering::Relaxed)
    }

    pub fn set_default_sequential_consistency(&self, on: bool) {
        self.default_sequential.store(on, Ordering::Relaxed);
    }

    /// The implementation of `task` worker `w` would run, if it may run it at all.
    pub fn choose_impl(&self, task: &Task, w: usize) -> Option<usize> {
        let spec = task.spec()?;
        if let Some(only) = spec.worker {
            if only != w {
                return None;
            }
        }
        let Some(cl) = &spec.codelet else {
            return Some(0);
        };
        let mask = spec.where_mask.unwrap_or_else(|| cl.effective_where());
        if mask & crate::task::where_mask::CPU == 0 {
            return None;
        }
        (0..cl.cpu_funcs.len()).find(|&i| cl.can_execute.as_ref().is_none_or(|f| f(w, task, i)))
    }

    /// Whether any worker of this runtime can run `task`.
    pub(crate) fn runnable_somewhere(&self, task: &Task) -> bool {
        (0..self.workers.len()).any(|w| self.choose_impl(task, w).is_some())
    }

    pub(crate) fn pop_for(&self, w: usize) -> Option<crate::task::TaskRef> {
        if self.is_paused() {
            return None;
        }
        let me = &self.workers[w];
        if !me.pinned.is_empty() {
            if let Some(t) = me.pinned.pop_front(&|_| true) {
                return Some(t);
            }
        }
        self.policy.pop(w, &|t| self.choose_impl(t, w).is_some())
    }

    pub(crate) fn has_work(&self, w: usize) -> bool {
        !self.is_paused() && (!self.workers[w].pinned.is_empty() || self.policy.has_work(w))
    }

    /// Wakes `target` if it sleeps, else any sleeping worker.
    pub(crate) fn wake(&self, target: Option<usize>) {
        // Pairs with the fence in worker::park (see there).
        fence(Ordering::SeqCst);
        if self.nsleeping.load(Ordering::SeqCst) == 0 {
            return;
        }
        if let Some(t) = target {
            if self.workers[t].wake() {
                return;
            }
        }
        for w in self.workers.iter() {
            if w.wake() {
                return;
            }
        }
    }
}

/// The process-wide runtime behind StarPU's global API.
static GLOBAL: AtomicPtr<Runtime> = AtomicPtr::new(std::ptr::null_mut());
/// `starpu_init` calls not yet matched by `starpu_shutdown` (StarPU allows nesting).
static INIT_COUNT: Mutex<usize> = Mutex::new(0);

/// Starts the global runtime, or counts one more user of the running one.
pub fn init(config: Config) -> Result<&'static Runtime> {
    let mut count = lock(&INIT_COUNT);
    if *count > 0 {
        *count += 1;
        return global();
    }
    let rt = Runtime::start(config)?;
    GLOBAL.store(rt as *const Runtime as *mut Runtime, Ordering::SeqCst);
    *count = 1;
    Ok(rt)
}

/// Ends one `init`; the last one shuts the global runtime down.
pub fn shutdown() -> Result<()> {
    let mut count = lock(&INIT_COUNT);
    if *count == 0 {
        return Err(Error::not_initialized());
    }
    if *count > 1 {
        *count -= 1;
        return Ok(());
    }
    let rt = global()?;
    if worker::current_worker_id().is_some() {
        return Err(Error::deadlock(
            "starpu_shutdown cannot be called from a task or callback",
        ));
    }
    rt.shutdown();
    GLOBAL.store(std::ptr::null_mut(), Ordering::SeqCst);
    *count = 0;
    Ok(())
}

/// The global runtime, if initialised.
pub fn global() -> Result<&'static Runtime> {
    let p = GLOBAL.load(Ordering::Acquire);
    if p.is_null() {
        Err(Error::not_initialized())
    } else {
        // SAFETY: runtimes are leaked, never freed.
        Ok(unsafe { &*p })
    }
}

pub fn is_initialized() -> bool {
    !GLOBAL.load(Ordering::Acquire).is_null()
}
