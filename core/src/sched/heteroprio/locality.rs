//! Heteroprio's locality-aware mode (`STARPU_HETEROPRIO_USE_LA`, StarPU's
//! "LAHeteroprio"). Workers form one group per memory node; each bucket keeps one task
//! list per group. A pushed task goes to the list of the memory node its push strategy
//! picks (where most of its data is, by one measure or another); a worker visits the
//! (level, group) pairs of its group's access order: its own node's lists for the first
//! `STARPU_LAHETEROPRIO_PRIO_STEP_<ARCH>` levels, then those of the
//! `STARPU_LAHETEROPRIO_S_<ARCH>` nearest nodes, block after block of levels, then the
//! farther nodes. There is no per-worker queue in this mode: a worker takes one task at a
//! time. With the `AUTO` strategy every strategy votes at push, and at pop the ones whose
//! node is still the best score a point; the leader is used for the next pushes.
//!
//! With a single memory node (this build: CPU workers, all in main RAM) the mode
//! degenerates: there is one group, every strategy picks node 0, the access order is the
//! architecture's levels in order, and tasks are taken in bucket order as without the
//! mode, only one at a time. The code below is written for several nodes all the same.

use super::options::LaOptions;
use super::{MAX_PRIO, NARCH};
use crate::data::AccessMode;
use crate::memory::NodeId;
use crate::perfmodel;
use crate::task::Task;

/// Groups (memory nodes) the mode handles (`LAHETEROPRIO_MAX_WORKER_GROUPS`).
pub const MAX_WORKER_GROUPS: usize = 10;
/// The strategies the `AUTO` strategy chooses from.
pub const NB_AUTO: usize = 4;

/// Where a pushed task's list is (`STARPU_LAHETEROPRIO_PUSH`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PushStrategy {
    /// The node holding the most bytes of the task's data.
    LsSdh = 0,
    /// As `LsSdh`, written data counting as its size squared.
    LsSdh2 = 1,
    /// The node with the fewest bytes missing, written ones weighted by
    /// `2 - written / buffers` (StarPU's default under `AUTO`).
    LsSdhb = 2,
    /// The node with the most bytes read plus 1000 x written bytes x written buffers,
    /// counting only data not present everywhere.
    LcSmwb = 3,
    /// The node with the smallest predicted transfer time.
    LcS = 4,
    /// The pushing worker's node (the first CPU's for the application thread).
    Worker = 5,
    /// Each of the first four votes; the one whose choices held best is used.
    Auto = 6,
}

impl PushStrategy {
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "WORKER" => PushStrategy::Worker,
            "LcS" => PushStrategy::LcS,
            "LS_SDH" => PushStrategy::LsSdh,
            "LS_SDH2" => PushStrategy::LsSdh2,
            "LS_SDHB" => PushStrategy::LsSdhb,
            "LC_SMWB" => PushStrategy::LcSmwb,
            "AUTO" => PushStrategy::Auto,
            _ => return None,
        })
    }

    fn voter(i: usize) -> PushStrategy {
        [
            PushStrategy::LsSdh,
            PushStrategy::LsSdh2,
            PushStrategy::LsSdhb,
            PushStrategy::LcSmwb,
        ][i]
    }
}

/// The node each voting strategy chose for a task, kept with it until it is popped.
pub type Votes = [u8; NB_AUTO];

pub struct Locality {
    pub opts: LaOptions,
    pub nb_groups: usize,
    /// Each worker's group (its memory node).
    group_of: Vec<usize>,
    /// The group tasks pushed by the application thread go to.
    master_group: usize,
    /// The architecture of each group's workers.
    arch_of_group: Vec<usize>,
    /// For each group, the (level, group) pairs its workers visit, in order.
    access: Vec<Vec<(usize, usize)>>,
    /// The strategy in use (the leader under `AUTO`).
    pub to_use: PushStrategy,
    history: [u64; NB_AUTO],
}

/// Per-buffer facts the strategies weigh.
struct Buffer {
    size: f64,
    read_only: bool,
    on: Vec<bool>,
}

impl Locality {
    /// Groups for workers computing in `nodes` (one entry per worker) of architectures
    /// `arch_of`.
    pub fn new(opts: LaOptions, nodes: &[NodeId], arch_of: &[usize]) -> Self {
        let nb_groups = nodes
            .iter()
            .map(|&n| n + 1)
            .max()
            .unwrap_or(1)
            .clamp(1, MAX_WORKER_GROUPS);
        let group_of: Vec<usize> = nodes.iter().map(|&n| n.min(nb_groups - 1)).collect();
        // A node's architecture is its workers'; main RAM (node 0) is the CPUs'.
        let mut arch_of_group = vec![0; nb_groups];
        for (w, &g) in group_of.iter().enumerate().rev() {
            arch_of_group[g] = arch_of[w];
        }
        let master_group = (0..nodes.len())
            .find(|&w| arch_of[w] == 0)
            .map_or(0, |w| group_of[w]);
        let to_use = match opts.push {
            PushStrategy::Auto => PushStrategy::LsSdhb,
            s => s,
        };
        Locality {
            opts,
            nb_groups,
            group_of,
            master_group,
            arch_of_group,
            access: vec![Vec::new(); nb_groups],
            to_use,
            history: [0; NB_AUTO],
        }
    }

    pub fn group_of(&self, w: usize) -> usize {
        self.group_of[w]
    }

    /// The pairs a worker of group `g` visits.
    pub fn access(&self, g: usize) -> &[(usize, usize)] {
        &self.access[g]
    }

    /// Builds every group's access order from the levels (StarPU's
    /// `starpu_heteroprio_map_wgroup_memory_nodes`): the other groups sorted by a distance
    /// measuring how differently their architecture orders the buckets.
    pub fn map(&mut self, nb_prios: &[usize; NARCH], mapping: &[[usize; MAX_PRIO]; NARCH]) {
        let n = self.nb_groups;
        // level of each bucket per architecture (StarPU's bucket_mapping_per_arch_index)
        let level_of = |arch: usize, bucket: usize| -> Option<usize> {
            mapping[arch][..nb_prios[arch]]
                .iter()
                .position(|&b| b == bucket)
        };
        // StarPU mixes in the distance between nodes (the predicted time to move 1 GiB,
        // normalised); this build has no bus model (every transfer predicts 0, see
        // perfmodel::expected_transfer_time), so only the lists' difference counts.
        let distance = |i: usize, j: usize| -> f64 {
            let p = if i == j {
                0.0
            } else {
                let (a1, a2) = (self.arch_of_group[i], self.arch_of_group[j]);
                let (mut diff, mut c1, mut c2) = (0.0f64, 0usize, 0usize);
                for b in 0..MAX_PRIO {
                    let l1 = level_of(a1, b);
                    let l2 = level_of(a2, b);
                    let v = |l: Option<usize>| l.map_or(0.0, |l| l as f64 + 1.0);
                    diff += (v(l1) - v(l2)).abs();
                    c1 += usize::from(l1.is_some());
                    c2 += usize::from(l2.is_some());
                }
                let c = c1.max(c2) as f64;
                diff / ((c + 1.0) * (c + 2.0) / 2.0)
            };
            (1.0 - p) * 0.5
        };
        let mut access = Vec::with_capacity(n);
        for g in 0..n {
            let arch = self.arch_of_group[g];
            let mut others: Vec<usize> = (0..n).filter(|&o| o != g).collect();
            others.sort_by(|&a, &b| distance(g, a).total_cmp(&distance(g, b)));
            let order: Vec<usize> = std::iter::once(g).chain(others).collect();
            let default_closed = if arch == 0 { n as u32 - 1 } else { 1 };
            let closed = self.opts.closed_nodes[arch].unwrap_or(default_closed) as usize;
            let levels = nb_prios[arch];
            let default_step = if arch == 0 { 1 } else { levels as u32 };
            let step = (self.opts.prio_step[arch].unwrap_or(default_step) as usize).max(1);
            let near_end = (closed + 1).min(n);
            let mut items = Vec::new();
            for block in (0..levels).step_by(step) {
                let end = (block + step).min(levels);
                items.extend((block..end).map(|l| (l, g)));
                for l in block..end {
                    items.extend(order[1..near_end].iter().map(|&o| (l, o)));
                }
            }
            for l in 0..levels {
                items.extend(order[near_end.max(1)..].iter().map(|&o| (l, o)));
            }
            access.push(items);
        }
        self.access = access;
    }

    fn buffers(&self, task: &Task) -> Vec<Buffer> {
        task.spec().map_or_else(Vec::new, |s| {
            s.accesses
                .iter()
                .map(|a| Buffer {
                    size: a.handle.size() as f64,
                    read_only: a.mode == AccessMode::R,
                    on: (0..self.nb_groups)
                        .map(|g| a.handle.is_valid_on(g))
                        .collect(),
                })
                .collect()
        })
    }

    /// The node `strategy` picks for `task`, pushed by worker `pusher` (or the
    /// application); ties go to the pusher's own node.
    pub fn best_node(&self, strategy: PushStrategy, task: &Task, pusher: Option<usize>) -> usize {
        let own = pusher.map_or(self.master_group, |w| self.group_of[w]);
        let n = self.nb_groups;
        match strategy {
            PushStrategy::Worker | PushStrategy::Auto => own,
            PushStrategy::LcS => {
                let spec = task.spec();
                let cost = |g: usize| spec.map_or(0.0, |s| perfmodel::expected_transfer_time(s, g));
                (1..n).fold(0, |best, g| if cost(g) < cost(best) { g } else { best })
            }
            PushStrategy::LsSdh | PushStrategy::LsSdh2 => {
                let mut per_node = vec![0.0f64; n];
                let (mut best, mut max) = (0, 0.0f64);
                for b in self.buffers(task) {
                    let size = if strategy == PushStrategy::LsSdh || b.read_only {
                        b.size
                    } else {
                        b.size * b.size
                    };
                    for g in (0..n).filter(|&g| b.on[g]) {
                        per_node[g] += size;
                        if max < per_node[g] || (max == per_node[g] && g == own) {
                            max = per_node[g];
                            best = g;
                        }
                    }
                }
                best
            }
            PushStrategy::LcSmwb => {
                let mut read = vec![0.0f64; n];
                let mut written = vec![0.0f64; n];
                let mut nwritten = vec![0.0f64; n];
                for b in self
                    .buffers(task)
                    .into_iter()
                    .filter(|b| !b.on.iter().all(|&x| x))
                {
                    for g in (0..n).filter(|&g| b.on[g]) {
                        if b.read_only {
                            read[g] += b.size;
                        } else {
                            written[g] += b.size;
                            nwritten[g] += 1.0;
                        }
                    }
                }
                let (mut best, mut max) = (0, 0.0f64);
                for g in 0..n {
                    let score = read[g] + 1000.0 * (written[g] * nwritten[g]);
                    if max < score || (max == score && g == own) {
                        max = score;
                        best = g;
                    }
                }
                best
            }
            PushStrategy::LsSdhb => {
                let bufs = self.buffers(task);
                let nbuf = bufs.len() as f64;
                let nw = bufs.iter().filter(|b| !b.read_only).count() as f64;
                let total_read: f64 = bufs.iter().filter(|b| b.read_only).map(|b| b.size).sum();
                let total_written: f64 = bufs.iter().filter(|b| !b.read_only).map(|b| b.size).sum();
                let (mut best, mut min) = (0, f64::MAX);
                for g in 0..n {
                    let here = |ro: bool| -> f64 {
                        bufs.iter()
                            .filter(|b| b.read_only == ro && b.on[g])
                            .map(|b| b.size)
                            .sum()
                    };
                    // With no buffer the weight is NaN, as in StarPU: node 0 then.
                    let score = (total_read - here(true))
                        + (total_written - here(false)) * (2.0 - nw / nbuf);
                    if min > score || (min == score && g == own) {
                        min = score;
                        best = g;
                    }
                }
                best
            }
        }
    }

    /// The node a pushed task's list is, with each voting strategy's choice under `AUTO`.
    pub fn place(&self, task: &Task, pusher: Option<usize>) -> (usize, Option<Votes>) {
        if self.opts.push != PushStrategy::Auto {
            return (self.best_node(self.to_use, task, pusher), None);
        }
        let mut votes = [0u8; NB_AUTO];
        for (i, v) in votes.iter_mut().enumerate() {
            *v = self.best_node(PushStrategy::voter(i), task, pusher) as u8;
        }
        (votes[self.to_use as usize] as usize, Some(votes))
    }

    /// `task`, pushed with `votes`, was popped by `popper`: the strategies whose node is
    /// still the best for it score, and the leader is used from now on. (StarPU does this
    /// only when several scheduling contexts exist, which looks like a misplaced block;
    /// here it is done on every pop.)
    pub fn popped(&mut self, task: &Task, popper: usize, votes: Votes) {
        let mut lead = 0;
        for (i, &vote) in votes.iter().enumerate() {
            if self.best_node(PushStrategy::voter(i), task, Some(popper)) == vote as usize {
                self.history[i] += 1;
            }
            if self.history[i] >= self.history[lead] {
                lead = i;
            }
        }
        self.to_use = PushStrategy::voter(lead);
    }
}

impl Locality {
    /// The groups and their access orders as text (`starpu_heteroprio_print_wgroups`):
    /// each worker's group, then per group, for each level from the last, the rank at
    /// which its workers visit that level's list in every group (`XX`: never). StarPU
    /// prints the same group's rank in every column; here each column is its group's.
    pub fn report(
        &self,
        nb_prios: &[usize; NARCH],
        mapping: &[[usize; MAX_PRIO]; NARCH],
    ) -> String {
        use std::fmt::Write as _;
        let tag = "[STARPU-LAHETEROPRIO]";
        let mut out = format!("{tag} There are {} groups\n", self.nb_groups);
        let mut seen = [0usize; NARCH];
        for (w, &g) in self.group_of.iter().enumerate() {
            let arch = self.arch_of_group[g];
            let _ = writeln!(
                out,
                "{tag} Worker {w} => group {g} ({} {})",
                super::auto::arch_name(arch),
                seen[arch]
            );
            seen[arch] += 1;
        }
        out.push('\n');
        for g in 0..self.nb_groups {
            let arch = self.arch_of_group[g];
            let mut rank = vec![vec![None; MAX_PRIO]; self.nb_groups];
            for (i, &(level, group)) in self.access[g].iter().enumerate() {
                rank[group][level] = Some(i);
            }
            let _ = writeln!(
                out,
                "{tag} Access order for wgroup {g} (of arch type {arch}):"
            );
            for level in (0..nb_prios[arch]).rev() {
                let _ = write!(
                    out,
                    "{tag}     Prio {level:3} (Bucket {:3}) => ",
                    mapping[arch][level]
                );
                for r in rank.iter().map(|r| r[level]) {
                    match r {
                        Some(i) => {
                            let _ = write!(out, "[{i:2}] ");
                        }
                        None => out.push_str("[XX] "),
                    }
                }
                out.push('\n');
            }
            out.push('\n');
        }
        out
    }
}
