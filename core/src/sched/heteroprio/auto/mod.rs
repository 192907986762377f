//! Heteroprio's auto-calibration mode (`STARPU_HETEROPRIO_USE_AUTO_CALIBRATION`, StarPU's
//! "AutoHeteroprio"): the policy ignores task priorities and makes one bucket per codelet
//! (grouped by performance-model symbol or by name), appended to the list of every
//! architecture that may run it. It gathers, per bucket: expected lengths per
//! architecture (from the codelet's performance model, when a worker of that architecture
//! takes a task), where its tasks ran, how often it is submitted, and from the task graph
//! at push how many successors a task frees (NOD) and how much work it releases per
//! architecture (URT). Every `STARPU_AUTOHETEROPRIO_ORDERING_INTERVAL` pushes it sorts each
//! architecture's list by a score (one of StarPU's 28 heuristics, [`ordering`]), and sets
//! each bucket's fastest architecture and the others' slow factors from the lengths. What
//! it learned is kept in a data file between runs ([`datafile`]).
//!
//! With CPU workers only, the comparison between architectures has one side: every
//! bucket's "other" architecture is the worst possible one, and the default heuristic
//! orders the CPU list by expected length, shortest first (then by released work).

pub mod datafile;
pub mod ordering;

use super::lists::Lists;
use super::options::{AutoOptions, Grouping};
use super::{MAX_PRIO, NARCH};
use crate::task::codelet::where_mask;
use crate::task::{Task, TaskRef};
use std::collections::HashMap;
use std::time::Instant;

/// Samples after which older ones weigh less (`AUTOHETEROPRIO_RELEVANT_TASK_LIFE`).
const RELEVANT_TASK_LIFE: u32 = 256;
/// Length samples wanted per bucket on the CPU before its score stops being boosted
/// (`AUTOHETEROPRIO_RELEVANT_SAMPLE_SIZE`).
pub const RELEVANT_SAMPLE_SIZE: u32 = 16;
pub const EXTREMELY_LONG_TIME: f64 = 999_999_999_999_999.0;
pub const LONG_TIME: f64 = 100_000_000.0;
/// The length assumed when nothing is known (microseconds).
pub const FAIR_TIME: f64 = 1000.0;
/// Busy and free times are scaled down to stay below this (microseconds).
const MAX_WORKER_PROFILING_TIME: f64 = 1_000_000_000.0;
/// Longest codelet name kept (`CODELET_MAX_NAME_LENGTH`).
const MAX_NAME: usize = 32;

/// One of StarPU's `enum starpu_autoheteroprio_priority_ordering_policy` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OrderingPolicy(pub u32);

impl OrderingPolicy {
    pub const COUNT: u32 = 28;
    /// `STARPU_HETEROPRIO_URT_DOT_DIFF_4`.
    pub const DEFAULT: OrderingPolicy = OrderingPolicy(12);

    pub fn new(v: u32) -> Option<Self> {
        (v < Self::COUNT).then_some(OrderingPolicy(v))
    }
}

/// A running mean that forgets slowly once it has `RELEVANT_TASK_LIFE` samples.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Mean {
    pub value: f64,
    pub count: u32,
}

impl Mean {
    pub fn add(&mut self, x: f64) {
        if self.count < RELEVANT_TASK_LIFE {
            self.count += 1;
        }
        let c = self.count as f64;
        self.value = self.value * (c - 1.0) / c + x / c;
    }

    pub fn or(&self, default: f64) -> f64 {
        if self.count > 0 {
            self.value
        } else {
            default
        }
    }
}

/// What auto-calibration knows of one bucket (one codelet).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Stats {
    /// Successors freed per task, each counting 1 / its number of predecessors.
    pub nod: Mean,
    /// Work released per task, per architecture (normalised lengths).
    pub urt: [f64; NARCH],
    pub urt_count: u32,
    /// Expected length per architecture.
    pub time: [Mean; NARCH],
    /// Lengths measured in this run (those read from the data file do not count).
    pub has_time: [bool; NARCH],
    /// Share of the submitted tasks.
    pub proportion: f64,
    pub proportion_count: u32,
    /// Share of this bucket's tasks each architecture took.
    pub arch_proportion: [f64; NARCH],
    pub arch_proportion_count: u32,
    /// Sum of the successors' best lengths.
    pub succ_best: Mean,
    /// Best length over the architectures.
    pub best: Mean,
}

pub struct Auto {
    pub opts: AutoOptions,
    /// Bucket b's codelet name.
    pub names: Vec<String>,
    /// Levels each architecture has (buckets it may run).
    pub on_arch: [usize; NARCH],
    pub busy: [f64; NARCH],
    pub free: [f64; NARCH],
    pub stats: Vec<Stats>,
    last_ordering: i64,
    /// Expected lengths per architecture of the queued tasks, taken at push (a worker
    /// records its architecture's when it takes the task).
    expected: HashMap<u64, [Option<f64>; NARCH]>,
    /// This run's busy time per architecture (measured kernel lengths) and its start.
    run_busy: [f64; NARCH],
    started: Instant,
    warned_full: bool,
}

/// Architectures a task may run on (bit = StarPU's archtype number).
pub fn task_archs(task: &Task) -> u32 {
    let Some(spec) = task.spec() else { return 0 };
    let Some(cl) = spec.codelet.as_ref() else {
        return 0;
    };
    let w = spec.where_mask.unwrap_or_else(|| cl.effective_where());
    [where_mask::CPU, where_mask::CUDA, where_mask::OPENCL]
        .iter()
        .enumerate()
        .filter(|(_, &bit)| w & bit != 0)
        .fold(0, |m, (arch, _)| m | 1 << arch)
}

fn truncate(name: &str) -> String {
    let mut end = name.len().min(MAX_NAME);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    name[..end].to_string()
}

impl Auto {
    pub fn new(opts: AutoOptions) -> Self {
        Auto {
            opts,
            names: Vec::new(),
            on_arch: [0; NARCH],
            busy: [0.0; NARCH],
            free: [0.0; NARCH],
            stats: vec![Stats::default(); MAX_PRIO],
            last_ordering: 0,
            expected: HashMap::new(),
            run_busy: [0.0; NARCH],
            started: Instant::now(),
            warned_full: false,
        }
    }

    /// The name tasks are grouped by.
    fn group_name(&self, task: &Task) -> Option<String> {
        let cl = task.spec()?.codelet.as_ref()?;
        let by_model = cl.model.as_ref().and_then(|m| m.symbol.clone());
        let name = match self.opts.grouping {
            Grouping::ByPerfModelOrName => by_model.or_else(|| cl.name.clone()),
            Grouping::ByNameOnly => cl.name.clone(),
        };
        Some(truncate(name.as_deref().unwrap_or("NO_NAME")))
    }

    /// Appends a bucket for codelet `name`, runnable on `archs`, to the lists of those
    /// architectures.
    pub fn add_codelet(&mut self, lists: &mut Lists, name: &str, archs: u32) {
        let b = self.names.len();
        for arch in (0..NARCH).filter(|a| archs & (1 << a) != 0) {
            lists.set_mapping(arch, self.on_arch[arch], b);
            self.on_arch[arch] += 1;
            lists.nb_prios[arch] = self.on_arch[arch];
        }
        self.names.push(truncate(name));
    }

    /// The bucket of `task`: its codelet's, made on first sight. `None` for a task that
    /// runs nowhere, or when all the buckets are taken.
    pub fn bucket_of(&mut self, lists: &mut Lists, task: &Task) -> Option<usize> {
        let archs = task_archs(task);
        if archs == 0 {
            return None;
        }
        let name = self.group_name(task)?;
        if let Some(b) = (0..self.names.len())
            .find(|&b| self.names[b] == name && lists.buckets[b].valid_archs == archs)
        {
            return Some(b);
        }
        if self.names.len() == MAX_PRIO {
            if !self.warned_full {
                self.warned_full = true;
                eprintln!(
                    "[starpu] warning: heteroprio: auto-calibration has a bucket for each of \
                     {MAX_PRIO} codelets already; tasks of codelet {name} run after the others"
                );
            }
            return None;
        }
        let model = task
            .spec()
            .and_then(|s| s.codelet.as_ref())
            .is_some_and(|c| c.model.is_some());
        if !model {
            eprintln!(
                "[starpu] warning: heteroprio: codelet {name} has no performance model; \
                 auto-calibration assumes a default length for it"
            );
        }
        self.add_codelet(lists, &name, archs);
        Some(self.names.len() - 1)
    }

    /// Counts a push toward the next ordering; true when the lists are to be ordered now
    /// (the first push, then every `interval` pushes while gathering).
    pub fn ordering_due(&mut self) -> bool {
        if !self.opts.freeze {
            if self.last_ordering >= self.opts.interval {
                self.last_ordering = 0;
            } else {
                self.last_ordering += 1;
            }
        }
        if self.last_ordering == 0 {
            self.last_ordering += 1;
            return true;
        }
        false
    }

    /// Records what a push teaches: `task` of bucket `b`, with its expected lengths per
    /// architecture, and its successors in the task graph with their pending
    /// predecessors.
    pub fn pushed(
        &mut self,
        lists: &mut Lists,
        task: &TaskRef,
        b: usize,
        expected: [Option<f64>; NARCH],
        successors: &[(TaskRef, usize)],
    ) {
        self.expected.insert(task.id(), expected);
        if self.opts.freeze {
            return;
        }
        // Share of the submitted tasks.
        let s = &mut self.stats[b];
        if s.proportion_count < RELEVANT_TASK_LIFE {
            s.proportion_count += 1;
        }
        let total: u32 = self.stats.iter().map(|s| s.proportion_count).sum();
        self.stats[b].proportion += 1.0 / total as f64;
        let sum: f64 = self.stats.iter().map(|s| s.proportion).sum();
        for s in &mut self.stats {
            s.proportion /= sum;
        }
        // What the task frees and releases.
        let mut nod = 0.0;
        let mut urt = [0.0; NARCH];
        let mut succ_best = 0.0;
        for (succ, incoming) in successors {
            let incoming = (*incoming).max(1) as f64;
            nod += 1.0 / incoming;
            match self.bucket_of(lists, succ) {
                Some(sb) => {
                    for (arch, u) in urt.iter_mut().enumerate() {
                        *u += self.arch_proportion(sb, arch)
                            * self.normalized_time(lists, sb, arch)
                            / incoming;
                    }
                    succ_best += self.best_time(lists, sb);
                }
                None => succ_best += FAIR_TIME,
            }
        }
        self.stats[b].nod.add(nod);
        let s = &mut self.stats[b];
        if s.urt_count < RELEVANT_TASK_LIFE {
            s.urt_count += 1;
        }
        let c = s.urt_count as f64;
        for (arch, u) in urt.iter().enumerate() {
            s.urt[arch] = s.urt[arch] * (c - 1.0) / c + u / c;
        }
        s.succ_best.add(succ_best);
        let best = self.best_time(lists, b);
        self.stats[b].best.add(best);
        ordering::update_slow_factors(self, lists);
        if self.opts.print_on_update {
            self.print_data(lists);
        }
    }

    /// A worker of `arch` took `task` of bucket `b`.
    pub fn popped(&mut self, task: &Task, b: usize, arch: usize) {
        let expected = self.expected.remove(&task.id());
        if self.opts.freeze {
            return;
        }
        let s = &mut self.stats[b];
        if s.arch_proportion_count < RELEVANT_TASK_LIFE {
            s.arch_proportion_count += 1;
        }
        let count = s.arch_proportion_count;
        let count = if count >= 2 { count - 1 } else { count };
        s.arch_proportion[arch] += 1.0 / count as f64;
        let sum: f64 = s.arch_proportion.iter().sum();
        for p in &mut s.arch_proportion {
            *p /= sum;
        }
        if let Some(t) = expected
            .and_then(|e| e[arch])
            .filter(|&t| t != 0.0 && !t.is_nan())
        {
            s.time[arch].add(t);
            s.has_time[arch] = true;
        }
    }

    /// A task of `arch` ran for `measured` microseconds (counted as busy time).
    pub fn ran(&mut self, arch: usize, measured: f64) {
        self.run_busy[arch] += measured;
    }

    /// The run is over: adds its busy and free time per architecture (free = the run's
    /// length on each worker minus the busy time), scaled down to stay below StarPU's cap.
    pub fn finish_run(&mut self, nworkers_per_arch: &[usize; NARCH]) {
        if self.opts.freeze {
            return;
        }
        let elapsed = self.started.elapsed().as_secs_f64() * 1e6;
        for (arch, &n) in nworkers_per_arch.iter().enumerate() {
            let busy = self.run_busy[arch];
            let free = (elapsed * n as f64 - busy).max(0.0);
            let b = self.busy[arch] + busy;
            let f = self.free[arch] + free;
            let max = b.max(f);
            let scale = if max > MAX_WORKER_PROFILING_TIME {
                MAX_WORKER_PROFILING_TIME / max
            } else {
                1.0
            };
            self.busy[arch] = b * scale;
            self.free[arch] = f * scale;
        }
    }

    /// The share of bucket `b`'s tasks `arch` ran (0 when none ran).
    pub fn arch_proportion(&self, b: usize, arch: usize) -> f64 {
        let s = &self.stats[b];
        if s.arch_proportion_count > 0 {
            s.arch_proportion[arch]
        } else {
            0.0
        }
    }

    /// The expected length of bucket `b`'s tasks on `arch`.
    pub fn estimated_time(&self, lists: &Lists, b: usize, arch: usize) -> f64 {
        let s = &self.stats[b];
        if s.has_time[arch] {
            return s.time[arch].value;
        }
        if lists.names(arch, b) {
            return FAIR_TIME;
        }
        if self.opts.time_estimation == 0 {
            return LONG_TIME;
        }
        (0..NARCH)
            .filter(|&a| a != arch && lists.names(a, b))
            .map(|a| self.estimated_time(lists, b, a))
            .fold(EXTREMELY_LONG_TIME, f64::min)
    }

    /// The shortest expected length of bucket `b` over the architectures that run it.
    pub fn best_time(&self, lists: &Lists, b: usize) -> f64 {
        (0..NARCH)
            .filter(|&a| lists.names(a, b))
            .map(|a| self.estimated_time(lists, b, a))
            .fold(EXTREMELY_LONG_TIME, f64::min)
    }

    /// Bucket `b`'s length on `arch` relative to the mean best length of a submitted task.
    pub fn normalized_time(&self, lists: &Lists, b: usize, arch: usize) -> f64 {
        let sum: f64 = (0..self.names.len())
            .map(|q| {
                let s = &self.stats[q];
                let share = if s.proportion_count > 0 {
                    s.proportion
                } else {
                    0.0
                };
                share * self.best_time(lists, q)
            })
            .sum();
        if sum <= 0.0 {
            return 1.0;
        }
        self.estimated_time(lists, b, arch) / sum
    }

    /// `arch`'s busy share of the time (0 when unknown).
    pub fn busy_proportion(&self, arch: usize) -> f64 {
        let total = self.busy[arch] + self.free[arch];
        if total <= 0.0 {
            0.0
        } else {
            self.busy[arch] / total
        }
    }

    /// `STARPU_AUTOHETEROPRIO_PRINT_AFTER_ORDERING`: each architecture's list by name.
    pub fn print_order(&self, lists: &Lists) {
        eprintln!("Updated task priorities :");
        for arch in (0..NARCH).filter(|&a| self.on_arch[a] > 0) {
            let names: Vec<&str> = lists.mapping[arch][..self.on_arch[arch]]
                .iter()
                .map(|&b| self.names[b].as_str())
                .collect();
            eprintln!("\t{} : {}", arch_name(arch), names.join("  "));
        }
    }

    /// `STARPU_AUTOHETEROPRIO_PRINT_DATA_ON_UPDATE`: what each bucket's score uses.
    fn print_data(&self, lists: &Lists) {
        let used: Vec<usize> = (0..NARCH).filter(|&a| self.on_arch[a] > 0).collect();
        eprintln!("Updated values :");
        for b in 0..self.names.len() {
            let s = &self.stats[b];
            let per = |f: &dyn Fn(usize) -> f64| -> String {
                used.iter()
                    .map(|&a| format!("{} : {:.6}", arch_name(a), f(a)))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            eprintln!(
                "task {} :\n\tNOD = {:.6}\n\testimated time : {}\n\tnormalized time : {}\n\tbestsum={:.6}, proportion={:.6}",
                self.names[b],
                s.nod.or(1.0),
                per(&|a| self.estimated_time(lists, b, a)),
                per(&|a| self.normalized_time(lists, b, a)),
                s.succ_best.or(FAIR_TIME),
                if s.proportion_count > 0 { s.proportion } else { 0.0 },
            );
        }
    }
}

/// StarPU's name of an architecture in messages (`starpu_worker_get_type_as_string`).
pub fn arch_name(arch: usize) -> &'static str {
    match arch {
        0 => "CPU",
        1 => "CUDA",
        2 => "OpenCL",
        _ => "unknown",
    }
}
