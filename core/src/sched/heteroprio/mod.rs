//! `heteroprio` (StarPU's `src/sched_policies/heteroprio.c`): tasks wait in buckets,
//! indexed by task priority (0 to [`MAX_PRIO`] - 1); each worker architecture has its
//! own list of priority levels, each level naming a bucket, and a worker takes the first
//! task of the first non-empty bucket of its architecture's list, level 0 first.
//!
//! The application sets the lists from the policy's init hook (`conf.sched_policy_init`,
//! `STARPU_SCHED_CTX_POLICY_INIT`) with [`Heteroprio::set_nb_prios`],
//! [`Heteroprio::set_mapping`], and optionally [`Heteroprio::set_faster_arch`] and
//! [`Heteroprio::set_arch_slow_factor`]: a worker of a slower architecture takes a task of
//! a bucket only while the bucket holds at least `slow_factor` tasks per worker of the
//! faster architecture (when that architecture has workers: otherwise nobody could take
//! the tasks held back). Without a hook, every architecture maps level `p` to bucket `p`
//! for each priority of the context: priority 0 runs first.
//!
//! Three ways of running, as in StarPU:
//! - by default each worker keeps a queue of up to [`MAX_PREFETCH`] tasks taken from the
//!   buckets, runs from it first, and steals from another worker's queue when the buckets
//!   give it nothing ([`prefetch`]);
//! - `STARPU_HETEROPRIO_USE_LA=1` (or `starpu_heteroprio_set_use_locality`) is the
//!   locality-aware mode: per-memory-node task lists in each bucket, no worker queue
//!   ([`locality`], which says what degenerates with one memory node);
//! - `STARPU_HETEROPRIO_USE_AUTO_CALIBRATION=1` makes the buckets and their order from
//!   codelets and their performance models instead of task priorities ([`auto`]); the
//!   init hook's lists are then overwritten, with a warning.

pub mod auto;
pub mod lists;
pub mod locality;
pub mod options;
pub mod prefetch;

use super::{Policy, SchedView};
use crate::error::{Error, Result};
use crate::memory::NodeId;
use crate::task::{Task, TaskRef};
use crate::worker::Worker;
use auto::Auto;
use lists::Lists;
use locality::{Locality, Votes};
pub use options::Options;
use prefetch::WorkerQueues;
pub use prefetch::MAX_PREFETCH;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

/// Buckets, and priorities a task may have (`STARPU_HETEROPRIO_MAX_PRIO`).
pub const MAX_PRIO: usize = 100;
/// Architectures StarPU numbers (`STARPU_NARCH`).
pub const NARCH: usize = 9;

/// A task in a bucket, with the locality-aware mode's votes.
struct Entry {
    task: TaskRef,
    votes: Option<Votes>,
}

/// A bucket's tasks: one list per memory node in the locality-aware mode, else one.
struct Bucket {
    groups: Vec<VecDeque<Entry>>,
    ntasks: usize,
}

impl Bucket {
    fn new(ngroups: usize) -> Self {
        Bucket {
            groups: (0..ngroups).map(|_| VecDeque::new()).collect(),
            ntasks: 0,
        }
    }
}

struct State {
    lists: Lists,
    /// Whether the application changed the default lists (its first call clears them).
    customised: bool,
    buckets: Vec<Bucket>,
    /// Tasks whose bucket no architecture's list names: any worker takes them last, so
    /// that a mapping which forgets a priority does not leave tasks waiting forever.
    orphans: VecDeque<TaskRef>,
    warned_orphan: bool,
    queues: WorkerQueues,
    locality: Option<Locality>,
    /// The lists changed since the locality-aware access orders were made.
    access_stale: bool,
    auto: Option<Auto>,
    warned_hook: bool,
    /// The context's workers (bit = worker), as `workers_added` / `_removed` say.
    members: u64,
}

/// The `heteroprio` policy.
pub struct Heteroprio {
    state: Mutex<State>,
    /// Tasks queued, in buckets and in worker queues.
    ntasks: AtomicUsize,
    /// Each worker's architecture (StarPU's archtype number).
    arch_of: Vec<usize>,
    /// Each worker's memory node.
    nodes: Vec<NodeId>,
    nworkers_per_arch: [usize; NARCH],
    /// Auto-calibration is on (fixed at creation).
    auto_mode: bool,
}

/// Which tasks the popping worker can run.
type CanRun<'a> = &'a dyn Fn(&Task) -> bool;
/// A task popped, with its bucket ([`MAX_PRIO`] for an orphan).
type Popped = Option<(TaskRef, usize)>;

fn take_first(q: &mut VecDeque<Entry>, can_run: CanRun) -> Option<Entry> {
    let i = q.iter().position(|e| can_run(&e.task))?;
    q.remove(i)
}

impl Heteroprio {
    /// The policy for `workers`, configured by the environment.
    pub fn new(workers: &[Worker]) -> Result<Self> {
        Ok(Self::with_options(workers, Options::read(&options::env)?))
    }

    /// The policy for `workers`, configured by `opts`.
    pub fn with_options(workers: &[Worker], opts: Options) -> Self {
        let arch_of: Vec<usize> = workers
            .iter()
            .map(|w| w.kind.starpu_id() as usize)
            .collect();
        let nodes: Vec<NodeId> = workers.iter().map(|w| w.node).collect();
        let mut nworkers_per_arch = [0; NARCH];
        for &a in &arch_of {
            nworkers_per_arch[a] += 1;
        }
        let locality = opts.locality.map(|la| Locality::new(la, &nodes, &arch_of));
        let ngroups = locality.as_ref().map_or(1, |l| l.nb_groups);
        let auto_mode = opts.auto.is_some();
        let (lists, auto) = match opts.auto {
            None => (Lists::direct(&nworkers_per_arch), None),
            Some(o) => {
                // StarPU starts auto-calibration with no level anywhere, the CPU as every
                // bucket's fastest architecture and a slow factor of 1 for the others,
                // then adds the buckets the data file names.
                let mut lists = Lists::empty();
                for b in 0..MAX_PRIO {
                    for a in 1..NARCH {
                        lists.buckets[b].slow_factors[a] = 1.0;
                    }
                    lists.set_faster_arch(0, b);
                }
                let path = o.data_file.clone();
                let mut auto = Auto::new(o);
                auto::datafile::load(&mut auto, &mut lists, &path);
                (lists, Some(auto))
            }
        };
        let state = State {
            lists,
            customised: false,
            buckets: (0..MAX_PRIO).map(|_| Bucket::new(ngroups)).collect(),
            orphans: VecDeque::new(),
            warned_orphan: false,
            queues: WorkerQueues::new(&arch_of),
            locality,
            access_stale: true,
            auto,
            warned_hook: false,
            members: 0,
        };
        Heteroprio {
            state: Mutex::new(state),
            ntasks: AtomicUsize::new(0),
            arch_of,
            nodes,
            nworkers_per_arch,
            auto_mode,
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The state to change, or `None` under auto-calibration, which makes the lists
    /// itself: StarPU runs the init hook, then overwrites what it set, with a warning.
    fn configure(&self) -> Option<MutexGuard<'_, State>> {
        let mut s = self.lock();
        if s.auto.is_some() {
            if !s.warned_hook {
                s.warned_hook = true;
                eprintln!(
                    "[starpu] warning: heteroprio: a sched init function configures the lists \
                     while auto-calibration (STARPU_HETEROPRIO_USE_AUTO_CALIBRATION) is on; \
                     its changes to the priority mapping are overwritten"
                );
            }
            return None;
        }
        if !s.customised {
            s.customised = true;
            s.lists = Lists::empty();
        }
        s.access_stale = true;
        Some(s)
    }

    fn check_arch(arch: u32, what: &str) -> Result<usize> {
        let a = arch as usize;
        if a >= NARCH {
            return Err(Error::invalid(format!(
                "{what}: architecture {arch} does not exist (STARPU_NARCH is {NARCH})"
            )));
        }
        Ok(a)
    }

    fn check_bucket(bucket: usize, what: &str) -> Result<()> {
        if bucket >= MAX_PRIO {
            return Err(Error::invalid(format!(
                "{what}: bucket {bucket} is out of range (STARPU_HETEROPRIO_MAX_PRIO is {MAX_PRIO})"
            )));
        }
        Ok(())
    }

    /// How many priority levels `arch` has (`starpu_heteroprio_set_nb_prios`).
    pub fn set_nb_prios(&self, arch: u32, nb: usize) -> Result<()> {
        let what = "starpu_heteroprio_set_nb_prios";
        let a = Self::check_arch(arch, what)?;
        if nb > MAX_PRIO {
            return Err(Error::invalid(format!(
                "{what}: {nb} levels, more than STARPU_HETEROPRIO_MAX_PRIO ({MAX_PRIO})"
            )));
        }
        if let Some(mut s) = self.configure() {
            s.lists.nb_prios[a] = nb;
        }
        Ok(())
    }

    /// Level `level` of `arch` takes from bucket `bucket` (`starpu_heteroprio_set_mapping`).
    pub fn set_mapping(&self, arch: u32, level: usize, bucket: usize) -> Result<()> {
        let what = "starpu_heteroprio_set_mapping";
        let a = Self::check_arch(arch, what)?;
        Self::check_bucket(bucket, what)?;
        if level >= MAX_PRIO {
            return Err(Error::invalid(format!(
                "{what}: level {level} is out of range (STARPU_HETEROPRIO_MAX_PRIO is {MAX_PRIO})"
            )));
        }
        if let Some(mut s) = self.configure() {
            s.lists.set_mapping(a, level, bucket);
        }
        Ok(())
    }

    /// `arch` is the fastest for the tasks of `bucket` (`starpu_heteroprio_set_faster_arch`).
    pub fn set_faster_arch(&self, arch: u32, bucket: usize) -> Result<()> {
        let what = "starpu_heteroprio_set_faster_arch";
        let a = Self::check_arch(arch, what)?;
        Self::check_bucket(bucket, what)?;
        if let Some(mut s) = self.configure() {
            s.lists.set_faster_arch(a, bucket);
        }
        Ok(())
    }

    /// How much slower `arch` is than the fastest for `bucket`
    /// (`starpu_heteroprio_set_arch_slow_factor`).
    pub fn set_arch_slow_factor(&self, arch: u32, bucket: usize, factor: f32) -> Result<()> {
        let what = "starpu_heteroprio_set_arch_slow_factor";
        let a = Self::check_arch(arch, what)?;
        Self::check_bucket(bucket, what)?;
        if factor.is_nan() || factor < 0.0 {
            return Err(Error::invalid(format!(
                "{what}: the slow factor must be a number >= 0 (got {factor})"
            )));
        }
        if let Some(mut s) = self.configure() {
            s.lists.buckets[bucket].slow_factors[a] = factor;
        }
        Ok(())
    }

    /// Turns the locality-aware mode on or off (`starpu_heteroprio_set_use_locality`),
    /// reading its `STARPU_LAHETEROPRIO_*` settings when turned on. Refused while tasks
    /// are queued: they sit in lists the other mode does not look at.
    pub fn set_use_locality(&self, on: bool) -> Result<()> {
        let mut s = self.lock();
        if s.locality.is_some() == on {
            return Ok(());
        }
        if self.ntasks.load(Ordering::SeqCst) > 0 {
            return Err(Error::invalid(
                "starpu_heteroprio_set_use_locality: tasks are queued in heteroprio; \
                 choose the mode from the init hook, before submitting",
            ));
        }
        s.locality = if on {
            let opts = options::LaOptions::read(&options::env)?;
            Some(Locality::new(opts, &self.nodes, &self.arch_of))
        } else {
            None
        };
        let ngroups = s.locality.as_ref().map_or(1, |l| l.nb_groups);
        s.buckets = (0..MAX_PRIO).map(|_| Bucket::new(ngroups)).collect();
        s.access_stale = true;
        Ok(())
    }

    /// Makes the locality-aware mode's groups and access orders again, one group per
    /// memory node (`starpu_heteroprio_map_wgroup_memory_nodes`; this policy also does it
    /// by itself whenever the lists change). An error outside that mode, as StarPU's
    /// assertion.
    pub fn map_wgroup_memory_nodes(&self) -> Result<()> {
        Self::map_groups(&mut self.lock()).map(|_| ())
    }

    fn map_groups(s: &mut State) -> Result<&Locality> {
        let State {
            lists,
            locality,
            access_stale,
            ..
        } = s;
        let loc = locality.as_mut().ok_or_else(|| {
            Error::invalid(
                "heteroprio: the locality-aware mode is off (STARPU_HETEROPRIO_USE_LA, \
                 starpu_heteroprio_set_use_locality)",
            )
        })?;
        loc.map(&lists.nb_prios, &lists.mapping);
        *access_stale = false;
        Ok(loc)
    }

    /// The locality-aware mode's groups and access orders as text
    /// (`starpu_heteroprio_print_wgroups`); an error outside that mode.
    pub fn wgroups_report(&self) -> Result<String> {
        let mut s = self.lock();
        let s = &mut *s;
        Self::map_groups(s)?;
        let loc = s.locality.as_ref().expect("mapped above");
        Ok(loc.report(&s.lists.nb_prios, &s.lists.mapping))
    }

    /// Whether the locality-aware mode is on.
    pub fn uses_locality(&self) -> bool {
        self.lock().locality.is_some()
    }

    /// The buckets `arch` takes from, in order (its levels' mapping).
    pub fn levels(&self, arch: u32) -> Vec<usize> {
        let s = self.lock();
        s.lists.levels((arch as usize).min(NARCH - 1)).to_vec()
    }

    /// Under auto-calibration, the codelet names of `arch`'s levels, in order (empty
    /// otherwise).
    pub fn level_names(&self, arch: u32) -> Vec<String> {
        let s = self.lock();
        let Some(auto) = &s.auto else {
            return Vec::new();
        };
        s.lists
            .levels((arch as usize).min(NARCH - 1))
            .iter()
            .map(|&b| auto.names[b].clone())
            .collect()
    }

    /// The number of workers in the policy's context.
    fn nmembers(&self, s: &State) -> usize {
        match s.members.count_ones() as usize {
            0 => self.arch_of.len(),
            n => n,
        }
    }

    /// Expected lengths of `task` per architecture (the best implementation on the
    /// first worker of each architecture present), for auto-calibration.
    fn expected_per_arch(&self, task: &Task, view: &dyn SchedView) -> [Option<f64>; NARCH] {
        let mut out = [None; NARCH];
        for (arch, slot) in out.iter_mut().enumerate() {
            let Some(w) = self.arch_of.iter().position(|&a| a == arch) else {
                continue;
            };
            if w >= view.nworkers() {
                continue;
            }
            *slot = (0..view.nimpls(task, w))
                .filter_map(|i| match view.expected_length(task, w, i) {
                    super::Expected::Length(t) => Some(t),
                    _ => None,
                })
                .reduce(f64::min);
        }
        out
    }

    /// The bucket `task` goes to under auto-calibration, learning from the push: its
    /// expected lengths and its successors, taken before the policy's lock.
    fn auto_bucket(
        s: &mut State,
        task: &TaskRef,
        expected: [Option<f64>; NARCH],
        successors: &[(TaskRef, usize)],
    ) -> Option<usize> {
        let State { lists, auto, .. } = s;
        let auto = auto.as_mut()?;
        let b = auto.bucket_of(lists, task);
        if auto.ordering_due() {
            auto::ordering::order(auto, lists);
            if auto.opts.print_after_ordering {
                auto.print_order(lists);
            }
            auto::ordering::update_slow_factors(auto, lists);
        }
        let b = b?;
        auto.pushed(lists, task, b, expected, successors);
        Some(b)
    }

    /// Puts `task` in bucket `b` (or with the orphans when no list names `b`).
    fn enqueue(&self, s: &mut State, task: TaskRef, b: Option<usize>, from: Option<usize>) {
        match b {
            Some(b) if s.lists.buckets[b].valid_archs != 0 => {
                let (group, votes) = match &s.locality {
                    Some(l) => l.place(&task, from),
                    None => (0, None),
                };
                let bucket = &mut s.buckets[b];
                bucket.groups[group].push_back(Entry { task, votes });
                bucket.ntasks += 1;
            }
            _ => {
                // Under auto-calibration only tasks that run nowhere, or codelets past
                // the 100th (warned about then), have no bucket.
                if !s.warned_orphan && s.auto.is_none() {
                    s.warned_orphan = true;
                    eprintln!(
                        "[starpu] warning: heteroprio: a task of priority {} has no bucket \
                         that an architecture takes from (priorities are 0 to {}, each mapped \
                         with starpu_heteroprio_set_mapping); such tasks run after the others",
                        task.priority(),
                        MAX_PRIO - 1
                    );
                }
                s.orphans.push_back(task);
            }
        }
    }

    /// The locality-aware pop: the (level, group) pairs of the worker's group, in order,
    /// one task.
    fn pop_locality(&self, s: &mut State, w: usize, can_run: CanRun) -> Popped {
        let arch = self.arch_of[w];
        let State {
            lists,
            buckets,
            locality,
            access_stale,
            ..
        } = s;
        let loc = locality.as_mut()?;
        if *access_stale {
            loc.map(&lists.nb_prios, &lists.mapping);
            *access_stale = false;
        }
        let g = loc.group_of(w);
        let mut found = None;
        for &(level, group) in loc.access(g) {
            let b = lists.mapping[arch][level];
            let bucket = &mut buckets[b];
            if bucket.groups[group].is_empty()
                || !lists.takes_from(b, arch, bucket.ntasks, &self.nworkers_per_arch)
            {
                continue;
            }
            if let Some(e) = take_first(&mut bucket.groups[group], can_run) {
                bucket.ntasks -= 1;
                found = Some((e, b));
                break;
            }
        }
        let (e, b) = found?;
        if let Some(v) = e.votes {
            loc.popped(&e.task, w, v);
        }
        Some((e.task, b))
    }

    /// The default pop: top the worker's queue up from the buckets, then run from it.
    fn pop_prefetch(&self, s: &mut State, w: usize, can_run: CanRun) -> Popped {
        let arch = self.arch_of[w];
        let nworkers = self.nmembers(s);
        let State {
            lists,
            buckets,
            queues,
            ..
        } = s;
        let remaining: usize = lists.levels(arch).iter().map(|&b| buckets[b].ntasks).sum();
        let mut wanted = queues.wanted(w, remaining, nworkers);
        for &b in lists.levels(arch) {
            if wanted == 0 {
                break;
            }
            let bucket = &mut buckets[b];
            while wanted > 0
                && bucket.ntasks > 0
                && lists.takes_from(b, arch, bucket.ntasks, &self.nworkers_per_arch)
            {
                let Some(e) = take_first(&mut bucket.groups[0], can_run) else {
                    break;
                };
                bucket.ntasks -= 1;
                queues.push(w, e.task, b);
                wanted -= 1;
            }
        }
        queues.pop_own(w, can_run)
    }
}

impl Policy for Heteroprio {
    fn name(&self) -> &'static str {
        "heteroprio"
    }

    fn push(&self, task: TaskRef, from: Option<usize>, view: &dyn SchedView) -> Option<usize> {
        // The performance models and the task graph are asked outside the policy's lock.
        let learn = self.auto_mode.then(|| {
            (
                self.expected_per_arch(&task, view),
                task.successors_pending(),
            )
        });
        let mut s = self.lock();
        let b = if let Some((expected, successors)) = learn {
            Self::auto_bucket(&mut s, &task, expected, &successors)
        } else {
            usize::try_from(task.priority())
                .ok()
                .filter(|&b| b < MAX_PRIO)
        };
        self.enqueue(&mut s, task, b, from);
        self.ntasks.fetch_add(1, Ordering::SeqCst);
        None
    }

    fn pop(&self, worker: usize, can_run: &dyn Fn(&Task) -> bool) -> Option<TaskRef> {
        if self.ntasks.load(Ordering::SeqCst) == 0 {
            return None;
        }
        let arch = *self.arch_of.get(worker)?;
        let mut s = self.lock();
        let s = &mut *s;
        let mut found = if s.locality.is_some() {
            self.pop_locality(s, worker, can_run)
        } else {
            self.pop_prefetch(s, worker, can_run)
        };
        if found.is_none() {
            found = s
                .orphans
                .iter()
                .position(|t| can_run(t))
                .and_then(|i| s.orphans.remove(i))
                .map(|t| (t, MAX_PRIO));
        }
        if found.is_none() && s.locality.is_none() {
            found = s.queues.steal(worker, can_run);
        }
        let (task, b) = found?;
        if let (Some(auto), true) = (s.auto.as_mut(), b < MAX_PRIO) {
            auto.popped(&task, b, arch);
        }
        self.ntasks.fetch_sub(1, Ordering::SeqCst);
        Some(task)
    }

    fn task_done(&self, worker: usize, _task: &Task, measured: Option<f64>) {
        // Only auto-calibration counts busy time: the others skip the lock.
        let (true, Some(&arch), Some(t)) = (self.auto_mode, self.arch_of.get(worker), measured)
        else {
            return;
        };
        if let Some(auto) = self.lock().auto.as_mut() {
            auto.ran(arch, t);
        }
    }

    fn workers_added(&self, workers: &[usize]) {
        let mut s = self.lock();
        for &w in workers.iter().filter(|&&w| w < 64) {
            s.members |= 1 << w;
        }
    }

    /// A worker leaving takes no task with it: its queue goes back to the front of the
    /// buckets, in order.
    fn workers_removed(&self, workers: &[usize]) {
        let mut s = self.lock();
        for &w in workers.iter().filter(|&&w| w < self.arch_of.len()) {
            if w < 64 {
                s.members &= !(1 << w);
            }
            for (task, b) in s.queues.drain(w).into_iter().rev() {
                let bucket = &mut s.buckets[b];
                bucket.groups[0].push_front(Entry { task, votes: None });
                bucket.ntasks += 1;
            }
        }
    }

    /// Auto-calibration saves what it learned (unless gathering was frozen).
    fn deinit(&self) {
        let mut s = self.lock();
        let State { lists, auto, .. } = &mut *s;
        if let Some(auto) = auto.as_mut().filter(|a| !a.opts.freeze) {
            auto.finish_run(&self.nworkers_per_arch);
            let path = auto.opts.data_file.clone();
            auto::datafile::save(auto, lists, &path);
        }
    }

    fn has_work(&self, _worker: usize) -> bool {
        self.ntasks.load(Ordering::SeqCst) > 0
    }

    fn ntasks(&self) -> usize {
        self.ntasks.load(Ordering::SeqCst)
    }

    fn priority_range(&self) -> (i32, i32) {
        (0, MAX_PRIO as i32 - 1)
    }

    fn as_any(&self) -> Option<&dyn std::any::Any> {
        Some(self)
    }
}
