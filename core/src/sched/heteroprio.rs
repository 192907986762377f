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
//! Not here: prefetching into per-worker queues (`STARPU_HETEROPRIO_MAX_PREFETCH`; workers
//! take one task at a time), the locality-aware mode (`STARPU_HETEROPRIO_USE_LA`) and the
//! auto-calibration mode (`STARPU_HETEROPRIO_USE_AUTO_CALIBRATION`): both variables are
//! read, and setting them to a non-zero value is refused with an error at creation.

use super::{Policy, SchedView};
use crate::error::{Error, Result};
use crate::runtime::Runtime;
use crate::task::{Task, TaskRef};
use crate::worker::Worker;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

/// Buckets, and priorities a task may have (`STARPU_HETEROPRIO_MAX_PRIO`).
pub const MAX_PRIO: usize = 100;
/// Architectures StarPU numbers (`STARPU_NARCH`).
pub const NARCH: usize = 9;

#[derive(Clone)]
struct Bucket {
    tasks: VecDeque<TaskRef>,
    /// Architectures whose lists name this bucket (bit = StarPU's archtype number).
    valid_archs: u32,
    /// The architecture that runs this bucket's tasks fastest, if the application said.
    faster_arch: Option<usize>,
    slow_factors: [f32; NARCH],
}

impl Bucket {
    fn new() -> Self {
        Bucket {
            tasks: VecDeque::new(),
            valid_archs: 0,
            faster_arch: None,
            slow_factors: [0.0; NARCH],
        }
    }
}

struct State {
    buckets: Vec<Bucket>,
    nb_prios: [usize; NARCH],
    mapping: [[usize; MAX_PRIO]; NARCH],
    /// Whether the application changed the default lists (its first call clears them).
    customised: bool,
    /// Tasks whose bucket no architecture's list names: any worker takes them last, so
    /// that a mapping which forgets a priority does not leave tasks waiting forever.
    orphans: VecDeque<TaskRef>,
    warned_orphan: bool,
}

/// The `heteroprio` policy.
pub struct Heteroprio {
    state: Mutex<State>,
    ntasks: AtomicUsize,
    /// Each worker's architecture (StarPU's archtype number).
    arch_of: Vec<usize>,
    nworkers_per_arch: [usize; NARCH],
}

fn env_flag(name: &str) -> Result<bool> {
    match std::env::var(name) {
        Ok(v) => match v.trim().parse::<i64>() {
            Ok(n) => Ok(n != 0),
            Err(_) => Err(Error::invalid(format!(
                "{name}='{v}' is not a number (0 or 1)"
            ))),
        },
        Err(_) => Ok(false),
    }
}

impl Heteroprio {
    /// The policy for `workers`, with the default lists.
    pub fn new(workers: &[Worker]) -> Result<Self> {
        for (var, what) in [
            ("STARPU_HETEROPRIO_USE_LA", "the locality-aware mode"),
            (
                "STARPU_HETEROPRIO_USE_AUTO_CALIBRATION",
                "the auto-calibration mode",
            ),
        ] {
            if env_flag(var)? {
                return Err(Error::invalid(format!(
                    "heteroprio: {what} ({var}) is not implemented in this build"
                )));
            }
        }
        let arch_of: Vec<usize> = workers
            .iter()
            .map(|w| w.kind.starpu_id() as usize)
            .collect();
        let mut nworkers_per_arch = [0; NARCH];
        for &a in &arch_of {
            nworkers_per_arch[a] += 1;
        }
        let mut state = State {
            buckets: vec![Bucket::new(); MAX_PRIO],
            nb_prios: [0; NARCH],
            mapping: [[0; MAX_PRIO]; NARCH],
            customised: false,
            orphans: VecDeque::new(),
            warned_orphan: false,
        };
        // The default: one level per priority, level p = bucket p, for every
        // architecture that has workers.
        for (arch, &n) in nworkers_per_arch.iter().enumerate() {
            if n == 0 {
                continue;
            }
            state.nb_prios[arch] = MAX_PRIO;
            for p in 0..MAX_PRIO {
                state.mapping[arch][p] = p;
                state.buckets[p].valid_archs |= 1 << arch;
            }
        }
        Ok(Heteroprio {
            state: Mutex::new(state),
            ntasks: AtomicUsize::new(0),
            arch_of,
            nworkers_per_arch,
        })
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The state to change: on the application's first change, the default lists go.
    fn configure(&self) -> MutexGuard<'_, State> {
        let mut s = self.lock();
        if !s.customised {
            s.customised = true;
            s.nb_prios = [0; NARCH];
            for b in &mut s.buckets {
                b.valid_archs = 0;
            }
            for arch in 0..NARCH {
                for p in 0..MAX_PRIO {
                    s.mapping[arch][p] = p;
                }
            }
        }
        s
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
        self.configure().nb_prios[a] = nb;
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
        let mut s = self.configure();
        s.mapping[a][level] = bucket;
        s.buckets[bucket].valid_archs |= 1 << a;
        Ok(())
    }

    /// `arch` is the fastest for the tasks of `bucket` (`starpu_heteroprio_set_faster_arch`).
    pub fn set_faster_arch(&self, arch: u32, bucket: usize) -> Result<()> {
        let what = "starpu_heteroprio_set_faster_arch";
        let a = Self::check_arch(arch, what)?;
        Self::check_bucket(bucket, what)?;
        let mut s = self.configure();
        let b = &mut s.buckets[bucket];
        b.faster_arch = Some(a);
        b.slow_factors[a] = 0.0;
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
        self.configure().buckets[bucket].slow_factors[a] = factor;
        Ok(())
    }

    /// The buckets `arch` takes from, in order (its levels' mapping).
    pub fn levels(&self, arch: u32) -> Vec<usize> {
        let s = self.lock();
        let a = (arch as usize).min(NARCH - 1);
        s.mapping[a][..s.nb_prios[a]].to_vec()
    }

    fn takes_from(&self, b: &Bucket, arch: usize) -> bool {
        match b.faster_arch {
            None => true,
            Some(f) if f == arch => true,
            // Nobody faster can take them: holding tasks back would leave them forever.
            Some(f) if self.nworkers_per_arch[f] == 0 => true,
            Some(f) => {
                let nfast = self.nworkers_per_arch[f] as f32;
                b.tasks.len() as f32 / nfast >= b.slow_factors[arch]
            }
        }
    }
}

fn take_first(q: &mut VecDeque<TaskRef>, can_run: &dyn Fn(&Task) -> bool) -> Option<TaskRef> {
    let i = q.iter().position(|t| can_run(t))?;
    q.remove(i)
}

impl Policy for Heteroprio {
    fn name(&self) -> &'static str {
        "heteroprio"
    }

    fn push(&self, task: TaskRef, _from: Option<usize>, _view: &dyn SchedView) -> Option<usize> {
        let prio = task.priority();
        let mut s = self.lock();
        let bucket = usize::try_from(prio).ok().filter(|&b| b < MAX_PRIO);
        match bucket {
            Some(b) if s.buckets[b].valid_archs != 0 => s.buckets[b].tasks.push_back(task),
            _ => {
                if !s.warned_orphan {
                    s.warned_orphan = true;
                    eprintln!(
                        "[starpu] warning: heteroprio: a task of priority {prio} has no bucket \
                         that an architecture takes from (priorities are 0 to {}, each mapped \
                         with starpu_heteroprio_set_mapping); such tasks run after the others",
                        MAX_PRIO - 1
                    );
                }
                s.orphans.push_back(task);
            }
        }
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
        let mut found = None;
        for level in 0..s.nb_prios[arch] {
            let b = s.mapping[arch][level];
            let bucket = &mut s.buckets[b];
            if bucket.tasks.is_empty() || !self.takes_from(bucket, arch) {
                continue;
            }
            if let Some(t) = take_first(&mut bucket.tasks, can_run) {
                found = Some(t);
                break;
            }
        }
        if found.is_none() {
            found = take_first(&mut s.orphans, can_run);
        }
        if found.is_some() {
            self.ntasks.fetch_sub(1, Ordering::SeqCst);
        }
        found
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

impl Runtime {
    /// Runs `f` on the heteroprio policy of context `ctx` (the calls of
    /// `starpu_heteroprio_*`); an error if that context is scheduled by another policy.
    pub fn with_heteroprio<R>(
        &self,
        ctx: u32,
        f: impl FnOnce(&Heteroprio) -> Result<R>,
    ) -> Result<R> {
        self.with_context_policy(ctx, |p| {
            match p.as_any().and_then(|a| a.downcast_ref::<Heteroprio>()) {
                Some(h) => f(h),
                None => Err(Error::invalid(format!(
                    "scheduling context {ctx} is scheduled by '{}', not heteroprio",
                    p.name()
                ))),
            }
        })?
    }
}
