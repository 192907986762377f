//! The runtime: configuration, workers, scheduling policy, and the process-wide instance
//! behind StarPU's global API.
//!
//! A runtime lives in an `Arc`: the application's handle, each worker thread and the
//! process-wide slot (`init` / `global`) hold one. `shutdown` waits for the tasks, stops
//! and joins the workers; the memory goes once the last reference is dropped, so a
//! process may start and stop runtimes as often as it likes without growing.

mod api;
mod control;
mod ctx_wait;
mod global;
mod sched_view;
mod submit;
mod wait;
mod watchdog;
mod watermark;
mod worker_thread;

pub use api::{Acquired, Acquisition};
pub use ctx_wait::CloseCallback;
pub use global::{global, init, init_count, is_initialized, shutdown, with_global};
pub use submit::ReadyList;

use crate::config::{Binding, Config};
use crate::error::{Error, Result};
use crate::sched::queue::FifoQueue;
use crate::sched::{self, Policy};
use crate::task::bell::Bell;
use crate::task::tags::Tags;
use crate::task::{Task, TaskRef};
use crate::topology::Topology;
use crate::worker::{self, Worker};
use crossbeam_utils::CachePadded;
use std::sync::atomic::{fence, AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Instant;

/// Most workers a runtime runs (`STARPU_NMAXWORKERS`).
pub const MAX_WORKERS: usize = 64;

/// One running instance of the runtime: its workers, scheduling policy, tags and
/// counters. Start one with [`Runtime::start`] (an independent runtime) or
/// [`init`] (the process-wide one StarPU's global API uses).
///
/// ```
/// use starpu_core::{Config, Runtime};
/// let rt = Runtime::start(Config { ncpus: Some(2), silent: true, ..Config::default() })?;
/// assert_eq!(rt.workers().len(), 2);
/// rt.shutdown();
/// # Ok::<(), starpu_core::Error>(())
/// ```
pub struct Runtime {
    pub config: Config,
    pub(crate) workers: Box<[Worker]>,
    /// Per worker, the tasks that must run on it (`execute_on_a_specific_worker`).
    pub(crate) pinned: Box<[CachePadded<FifoQueue>]>,
    pub(crate) policy: Box<dyn Policy>,
    pub(crate) topology: Topology,
    /// Counters every task touches from both sides (submitting thread and workers) sit on
    /// cache lines of their own, so that writing them does not evict what the other side
    /// reads (the configuration, the policy, the workers).
    pub(crate) nsleeping: CachePadded<AtomicUsize>,
    /// Workers polling for work before they park (`worker::spin_for_work`). While one
    /// polls, a push need not wake a parked worker: the poller takes the task, or hands
    /// the wake-up on when it stops polling (see `worker::stop_spinning`).
    pub(crate) nspinning: CachePadded<AtomicUsize>,
    /// A push left its wake-up to the pollers: the last one to stop polling wakes a parked
    /// worker.
    pub(crate) wake_owed: CachePadded<AtomicBool>,
    /// Tasks submitted and not yet terminated.
    pub(crate) submitted: CachePadded<AtomicUsize>,
    /// `wait_for_all` and `wait_for_n_submitted` waiters: rung when `submitted` drops to
    /// `watermark` or below.
    pub(crate) all_bell: Bell,
    pub(crate) watermark: watermark::Watermark,
    /// Waiters for one task, a tag, or an acquisition.
    pub(crate) task_bell: Bell,
    /// Waiters for a data handle to become idle.
    pub(crate) data_bell: Bell,
    pub tags: Tags,
    pub(crate) default_sequential: AtomicBool,
    /// Tasks that failed since the last `wait_for_all`, and the first failure's message.
    pub(crate) failures: failures::Failures,
    /// `starpu_pause` calls not yet matched by `starpu_resume`.
    paused: AtomicUsize,
    accepting: AtomicBool,
    stopping: AtomicBool,
    threads: Mutex<Vec<JoinHandle<()>>>,
    priority_range: (i32, i32),
    started: Instant,
    /// Reports waiting tasks when none ends for a while (`STARPU_WATCHDOG_TIMEOUT`).
    pub(crate) watchdog: Option<watchdog::Watchdog>,
    /// Per-task and per-worker timings (`STARPU_PROFILING`).
    pub(crate) profile: crate::profiling::Profiling,
    /// Performance counters and their listeners (`starpu_perf_counter_*`).
    pub(crate) counters: crate::counters::Counters,
    /// Scheduling contexts (`sched/contexts.rs`).
    pub(crate) contexts: crate::sched::contexts::Contexts,
    /// Finished tasks for the workers to drop (`task/graveyard.rs`).
    pub(crate) graveyard: crate::task::graveyard::Graveyard,
    /// Combined workers and the mailboxes of parallel tasks' teams.
    pub(crate) parallel: Arc<crate::parallel::Parallel>,
    /// Performance knobs' state (`knobs.rs`).
    pub(crate) knobs: crate::knobs::Knobs,
    /// Tasks submitted and not yet terminated, per scheduling context (`ctx_wait.rs`).
    pub(crate) ctx_counts: ctx_wait::ContextCounts,
    /// Tasks faces wait for by id (`task/registry.rs`).
    pub(crate) waitables: crate::task::registry::Waitables,
    /// The execution trace recorder (`trace/`; off unless asked for).
    pub(crate) trace: crate::trace::Recorder,
    /// The memory nodes (`memory/`): main RAM and one per accelerator device.
    pub(crate) memory: Arc<crate::memory::Memory>,
    /// The accelerator devices, in the order of their workers and nodes (`drivers/`).
    pub(crate) devices: crate::drivers::Devices,
    /// The `where` bits of the worker kinds present.
    pub(crate) worker_kinds: u32,
}

mod failures;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Whether a worker of device kind `kind` may run a task with these accesses: multiformat
/// data needs a conversion codelet for that kind (`task::multiformat`).
pub(crate) fn device_can_take(spec: &crate::task::TaskSpec, kind: worker::WorkerKind) -> bool {
    crate::task::multiformat::device_can_take(spec, kind)
}

impl Runtime {
    /// Starts a runtime with `config` (environment variables already applied, see
    /// [`Config::apply_env`]). The machine's topology is read here, once.
    #[must_use = "a runtime runs until `shutdown` is called"]
    pub fn start(config: Config) -> Result<Arc<Runtime>> {
        let topology = Topology::detect();
        let mut cpus: Vec<Option<usize>> = match &config.binding {
            Binding::Explicit(list) if !list.is_empty() => list.iter().map(|&c| Some(c)).collect(),
            Binding::None => topology.core_cpus.iter().map(|_| None).collect(),
            _ => topology.core_cpus.iter().map(|&c| Some(c)).collect(),
        };
        if config.main_thread_bind {
            let cpu = config
                .main_thread_cpuid
                .or_else(|| cpus.last().copied().flatten())
                .unwrap_or(0);
            topology.bind_current_thread(cpu)?;
            cpus.retain(|&c| c != Some(cpu));
        }
        let reserve = config.reserve_ncpus.min(cpus.len());
        cpus.truncate(cpus.len() - reserve);
        let devices = crate::drivers::Devices::discover(&config);
        let device_workers = devices.workers();
        let ndevices = device_workers.len();
        // As StarPU, each accelerator's worker takes a core from the CPU workers.
        let ncpus = config.ncpus.unwrap_or(cpus.len().saturating_sub(ndevices));
        if ncpus + ndevices == 0 {
            return Err(Error::no_device(
                "no worker to run tasks (0 CPU workers asked for, and no accelerator)",
            ));
        }
        if ncpus + ndevices > MAX_WORKERS {
            return Err(Error::invalid(format!(
                "{ncpus} CPU workers asked for, at most {MAX_WORKERS} workers are supported"
            )));
        }
        let policy_name = sched::resolve_name(config.sched_policy.as_deref(), |m| {
            eprintln!("[starpu] warning: {m}")
        });
        let mut worker_cpus: Vec<Option<usize>> = (0..ncpus)
            .map(|i| {
                if cpus.is_empty() {
                    None
                } else {
                    cpus[i % cpus.len()]
                }
            })
            .collect();
        // CPU workers first, then one per device (StarPU numbers accelerators first; the
        // CPU workers keep ids 0..ncpus here, which bindings and combined workers use).
        let mut workers: Vec<Worker> = worker_cpus
            .iter()
            .enumerate()
            .map(|(i, &cpu)| Worker::new(i, cpu))
            .collect();
        for d in device_workers {
            let id = workers.len();
            workers.push(Worker::device(id, d.kind, d.devid, d.node, d.name));
            worker_cpus.push(None);
        }
        let workers: Box<[Worker]> = workers.into_boxed_slice();
        let nworkers = workers.len();
        let worker_kinds = workers.iter().fold(0, |m, w| m | w.kind.where_bit());
        let memory = Arc::new(crate::memory::Memory::new(
            devices.node_drivers(),
            config.memory_limits.clone(),
        ));
        // The parallel policies (peager, pheft) come with their combined workers; an
        // application policy or another built-in one has none.
        let (parallel_policy, parallel) = crate::parallel::policy::create(
            if config.custom_policy.is_some() {
                ""
            } else {
                &policy_name
            },
            &workers,
            &topology,
            &config,
        )?;
        let policy = match (&config.custom_policy, parallel_policy) {
            (Some(f), _) => (f.0)(sched::contexts::GLOBAL, &workers),
            (None, Some(p)) => p,
            (None, None) => sched::create(&policy_name, &workers)?,
        };
        let (pmin, pmax) = policy.priority_range();
        let priority_range = (
            config.min_priority.unwrap_or(pmin),
            config.max_priority.unwrap_or(pmax),
        );
        let config_watchdog = config.watchdog;
        let (config_profiling, config_worker_stats) = (config.profiling, config.worker_stats);
        let config_perf_counters = config.perf_counters;
        let trace = crate::trace::Recorder::new(
            (config.trace || config.trace_output.generate) && crate::trace::autostart(),
            crate::trace::worker_infos(&workers),
        );
        let pinned = (0..nworkers).map(|_| CachePadded::default()).collect();
        let rt = Arc::new(Runtime {
            config,
            workers,
            pinned,
            policy,
            topology,
            nsleeping: CachePadded::new(AtomicUsize::new(0)),
            nspinning: CachePadded::new(AtomicUsize::new(0)),
            wake_owed: CachePadded::new(AtomicBool::new(false)),
            submitted: CachePadded::new(AtomicUsize::new(0)),
            all_bell: Bell::default(),
            watermark: Default::default(),
            task_bell: Bell::default(),
            data_bell: Bell::default(),
            tags: Tags::default(),
            default_sequential: AtomicBool::new(true),
            failures: failures::Failures::default(),
            paused: AtomicUsize::new(0),
            accepting: AtomicBool::new(true),
            stopping: AtomicBool::new(false),
            threads: Mutex::new(Vec::new()),
            priority_range,
            started: Instant::now(),
            watchdog: config_watchdog.map(watchdog::Watchdog::new),
            profile: crate::profiling::Profiling::new(
                config_profiling,
                config_worker_stats,
                nworkers,
            ),
            counters: crate::counters::Counters::new(nworkers, config_perf_counters),
            contexts: sched::contexts::Contexts::new(nworkers, priority_range),
            graveyard: Default::default(),
            parallel,
            knobs: crate::knobs::Knobs::new(&worker_cpus),
            ctx_counts: Default::default(),
            waitables: Default::default(),
            trace,
            memory,
            devices,
            worker_kinds,
        });
        rt.policy.workers_added(&(0..nworkers).collect::<Vec<_>>());
        // Every finished transfer between memory nodes reaches the trace (when recording).
        let traced = Arc::downgrade(&rt);
        rt.memory
            .observe(Box::new(move |src, dst, bytes, handle, micros| {
                if let Some(rt) = traced.upgrade() {
                    let end = crate::clock::now_ns();
                    let start = end.saturating_sub((micros * 1e3) as u64);
                    rt.trace.transfer(src, dst, bytes, handle, start, end);
                }
            }));
        let mut threads = lock(&rt.threads);
        for id in 0..rt.workers.len() {
            let worker_rt = rt.clone();
            let spawned = std::thread::Builder::new()
                .name(match rt.workers[id].kind {
                    worker::WorkerKind::Cpu => format!("starpu-cpu-{id}"),
                    worker::WorkerKind::Cuda => format!("starpu-cuda-{}", rt.workers[id].devid),
                    _ => format!("starpu-opencl-{}", rt.workers[id].devid),
                })
                .spawn(move || worker_thread::run(worker_rt, id));
            match spawned {
                Ok(handle) => {
                    let _ = rt.workers[id].thread.set(handle.thread().clone());
                    threads.push(handle);
                }
                Err(e) => {
                    drop(threads);
                    rt.stop_workers();
                    return Err(Error::no_device(format!("cannot start worker thread: {e}")));
                }
            }
        }
        drop(threads);
        crate::perfmodel::settings::runtime_started(&rt.config);
        // With devices: the transfer costs, read or measured once per machine.
        crate::perfmodel::bus::calibrate(&rt.memory, rt.topology.core_cpus.len());
        if let Err(e) = watchdog::Watchdog::start(&rt) {
            rt.stop_workers();
            return Err(Error::no_device(format!(
                "cannot start the watchdog thread: {e}"
            )));
        }
        Ok(rt)
    }

    /// Waits for every task, stops the workers and forgets tags. The runtime refuses new
    /// work from then on. Called from a task or a callback it does nothing and says so
    /// (the worker would wait for itself).
    pub fn shutdown(&self) {
        if !worker::may_block() {
            self.warn("runtime shutdown requested from a task or a callback; ignored");
            return;
        }
        let _ = self.wait_for_all();
        let first = self.is_running();
        self.stop_workers();
        if first {
            self.deinit_policies();
        }
        if first {
            // Learned performance models are saved once the last runtime stops.
            crate::perfmodel::settings::runtime_stopped();
        }
        self.tags.clear();
        self.waitables.clear();
        // Data still acquired does not keep shutdown waiting (StarPU returns too); say so,
        // since the application probably forgot a release.
        for h in crate::data::registry::all() {
            if h.is_acquired() {
                self.warn(&format!(
                    "shutdown: data {} is still acquired by the application (never released)",
                    h.label()
                ));
            }
        }
        if first {
            self.finish_trace();
        }
        self.print_statistics();
        // Buffers kept for reuse on the devices go (data still registered keeps its own).
        for n in self.memory.nodes() {
            n.release_cache();
        }
    }

    /// Refuses new work, wakes the workers so they see it, and joins them.
    fn stop_workers(&self) {
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
        if let Some(w) = &self.watchdog {
            w.stop();
        }
    }

    /// Whether the runtime still accepts work (not shut down).
    pub fn is_running(&self) -> bool {
        self.accepting.load(Ordering::Relaxed)
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

    /// The memory nodes.
    pub fn memory(&self) -> &Arc<crate::memory::Memory> {
        &self.memory
    }

    /// The accelerator devices.
    pub fn devices(&self) -> &crate::drivers::Devices {
        &self.devices
    }

    /// Waits for the kernels worker `w` queued on its device (nothing for a CPU worker).
    pub(crate) fn finish_device_kernels(&self, w: usize) -> Result<()> {
        let me = &self.workers[w];
        match me.kind {
            #[cfg(feature = "cuda")]
            worker::WorkerKind::Cuda => crate::drivers::cuda::finish_current(),
            #[cfg(feature = "opencl")]
            worker::WorkerKind::OpenCl => match self.devices.opencl.get(me.devid) {
                Some(d) => d.finish_kernels(),
                None => Ok(()),
            },
            _ => Ok(()),
        }
    }

    /// Whether the calling thread, a CUDA worker, may queue its task on its stream
    /// instead of waiting for its kernels (`STARPU_CUDA_PIPELINE`).
    pub(crate) fn may_queue_device_task(&self) -> bool {
        #[cfg(feature = "cuda")]
        return crate::drivers::cuda::may_queue();
        #[cfg(not(feature = "cuda"))]
        false
    }

    /// Queues `task` (started at `started`) on the calling CUDA worker's stream: it ends
    /// once its kernels are over (`crate::task::end_queued`).
    pub(crate) fn queue_device_task(&self, task: TaskRef, started: Option<u64>) -> Result<()> {
        #[cfg(feature = "cuda")]
        return crate::drivers::cuda::queue((task, started));
        #[cfg(not(feature = "cuda"))]
        {
            let _ = (task, started);
            Err(Error::no_device("no CUDA driver in this build"))
        }
    }

    pub fn workers(&self) -> &[Worker] {
        &self.workers
    }

    pub fn worker(&self, id: usize) -> Option<&Worker> {
        self.workers.get(id)
    }

    /// The ids of the workers of `kind` (all workers with `None`), in order.
    pub fn worker_ids(&self, kind: Option<worker::WorkerKind>) -> Vec<usize> {
        self.workers
            .iter()
            .filter(|w| kind.is_none_or(|k| w.kind == k))
            .map(|w| w.id)
            .collect()
    }

    pub fn policy_name(&self) -> &'static str {
        self.policy.name()
    }

    /// Priority bounds of the global context.
    pub fn priority_range(&self) -> (i32, i32) {
        self.context_priority_range(sched::contexts::GLOBAL)
            .unwrap_or(self.priority_range)
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

    /// The distinct performance architectures of the workers, in worker order: StarPU's
    /// "arch combinations" (`starpu_perfmodel_get_narch_combs`, `_arch_comb_fetch`).
    pub fn arch_combinations(&self) -> Vec<crate::perfmodel::PerfArch> {
        let mut combs: Vec<crate::perfmodel::PerfArch> = Vec::new();
        for w in 0..self.workers.len() {
            let arch = sched::SchedView::worker_arch(self, w);
            if !combs.contains(&arch) {
                combs.push(arch);
            }
        }
        combs
    }

    /// Tasks ready and waiting for a worker (`starpu_task_nready`).
    pub fn nready(&self) -> usize {
        self.policy.ntasks()
            + self.contexts_ntasks()
            + self.pinned.iter().map(|q| q.len()).sum::<usize>()
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
        let kind = self.workers[w].kind;
        if let Some(cl) = &spec.codelet {
            if cl.can_execute.is_none() && spec.worker.is_none() {
                // The common case: nothing to ask, the first implementation of the kind runs.
                let mask = spec.where_mask.unwrap_or_else(|| cl.effective_where());
                let ok = mask & kind.where_bit() != 0
                    && !cl.funcs(kind).is_empty()
                    && (kind == worker::WorkerKind::Cpu || device_can_take(spec, kind));
                return ok.then_some(0);
            }
        }
        // A task without a codelet has one (empty) implementation.
        let n = spec.codelet.as_ref().map_or(1, |cl| cl.funcs(kind).len());
        (0..n).find(|&i| self.impl_allowed(task, w, i))
    }

    /// Whether worker `w` may run implementation `nimpl` of `task` (`where`, the worker
    /// the task is pinned to, `can_execute`).
    pub fn impl_allowed(&self, task: &Task, w: usize, nimpl: usize) -> bool {
        let Some(spec) = task.spec() else {
            return false;
        };
        if spec.worker.is_some_and(|only| only != w) {
            return false;
        }
        let Some(cl) = &spec.codelet else {
            return nimpl == 0;
        };
        let mask = spec.where_mask.unwrap_or_else(|| cl.effective_where());
        let kind = self.workers[w].kind;
        if mask & kind.where_bit() == 0 || nimpl >= cl.funcs(kind).len() {
            return false;
        }
        if kind != worker::WorkerKind::Cpu && !device_can_take(spec, kind) {
            return false;
        }
        cl.can_execute.as_ref().is_none_or(|can| {
            crate::task::guarded(self, task, "can_execute", || can(w, task, nimpl)).unwrap_or(true)
        })
    }

    /// Whether any worker of this runtime can run `task`.
    pub(crate) fn runnable_somewhere(&self, task: &Task) -> bool {
        (0..self.workers.len()).any(|w| self.choose_impl(task, w).is_some())
    }

    pub(crate) fn pop_for(&self, w: usize) -> Option<crate::task::TaskRef> {
        let me = &self.workers[w];
        // Announced before the pause check (both SeqCst, against `pause`'s increment and
        // its reading of the flag): a pause either is seen here or waits for this pop.
        me.popping.store(true, Ordering::SeqCst);
        let t = if self.paused.load(Ordering::SeqCst) > 0 || !self.knobs.enabled(w) {
            None
        } else {
            self.pop_unpaused(w)
        };
        me.popping.store(false, Ordering::Release);
        t
    }

    fn pop_unpaused(&self, w: usize) -> Option<crate::task::TaskRef> {
        let pinned = &self.pinned[w];
        if !pinned.is_empty() {
            if let Some(t) = pinned.pop_front(&|_| true) {
                return Some(t);
            }
        }
        let t = if self.contexts.is_active() {
            self.pop_from_contexts(w)
        } else {
            self.policy
                .pop_in(w, &|t| self.choose_impl(t, w).is_some(), self)
        };
        if t.is_none() && self.nsleeping.load(Ordering::SeqCst) > 0 && self.has_work(w) {
            // The work left is work this worker cannot run (`can_execute`, `where`): a
            // sleeping worker may be the one that can. It may have gone to sleep while
            // this worker held the task out of a shared queue, seeing the queue empty.
            self.wake_other(w);
        }
        t
    }

    /// Wakes one sleeping worker other than `me`, looking from `me + 1` on, so that
    /// repeated hand-offs reach every worker rather than the same first sleeper.
    pub(crate) fn wake_other(&self, me: usize) {
        let n = self.workers.len();
        for i in (1..n).map(|k| (me + k) % n) {
            if self.workers[i].wake() {
                return;
            }
        }
    }

    pub(crate) fn has_work(&self, w: usize) -> bool {
        self.parallel.has_part(w)
            || !self.is_paused()
                && self.knobs.enabled(w)
                && (!self.pinned[w].is_empty()
                    || if self.contexts.is_active() {
                        self.contexts_have_work(w)
                    } else {
                        self.policy.has_work(w)
                    })
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
        // A polling worker looks at every queue it may take from: it takes the task, or
        // wakes a parked worker when it stops polling with work left. Waking one more here
        // would cost the pusher a system call per task while workers are idle, the
        // wake-up storm that made the cost per task grow with the number of workers.
        if self.nspinning.load(Ordering::SeqCst) > 0 {
            if !self.wake_owed.load(Ordering::Relaxed) {
                self.wake_owed.store(true, Ordering::SeqCst);
            }
            // Pairs with the fence in `worker::stop_spinning`: either the last poller sees
            // `wake_owed`, or this sees it gone.
            fence(Ordering::SeqCst);
            if self.nspinning.load(Ordering::SeqCst) > 0 {
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
