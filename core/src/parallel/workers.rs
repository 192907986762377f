//! Parallel workers (StarPU 1.4's "clusters", `starpu_parallel_worker_*`): the CPU workers
//! are grouped per object of one level of the machine's hierarchy (package, NUMA node,
//! cache...), each group is split into parallel workers, and each parallel worker becomes
//! a scheduling context whose tasks run on its first worker, the *master*, while its other
//! workers are reserved: they take no task, so the threads the master's kernel starts
//! (OpenMP, a parallel BLAS) have their cores ([`Runtime::available_cpuids`](crate::Runtime::available_cpuids)).
//!
//! A *machine context* over the masters, with the policy asked for, takes the tasks
//! submitted afterwards from the calling thread (it becomes its current context), so the
//! policy spreads them over the parallel workers, one master each.
//!
//! How many parallel workers a group gets follows StarPU's parameters: `nb`, else
//! `min_nb`/`max_nb` (`prefere_min`, `keep_homogeneous`), else one; partitions
//! (`STARPU_PARALLEL_WORKER_PARTITION_ONE`) give the i-th object its own parameters and
//! preset parallel workers of a given size (`_NEW`, `_NCORES`) that are carved first.

use crate::sched::PolicyFactory;
use std::sync::Arc;

/// What runs once on each parallel worker's master when it is created (StarPU's
/// `CREATE_FUNC`, or the OpenMP prologue of the parallel worker's type): it gets the
/// parallel worker's context and CPUs.
pub type CreateFn = Arc<dyn Fn(u32, &[usize]) + Send + Sync>;

/// Parameters of the machine, of a partition or of one preset parallel worker (StarPU's
/// `STARPU_PARALLEL_WORKER_*` options); 0 means "not given" for the counts.
#[derive(Clone, Default)]
pub struct ParallelWorkerParams {
    pub min_nb: usize,
    pub max_nb: usize,
    pub nb: usize,
    pub prefere_min: bool,
    pub keep_homogeneous: bool,
    /// The machine context's policy by name (default: the runtime's).
    pub policy: Option<String>,
    /// An application policy for the machine context; wins over `policy`.
    pub custom_policy: Option<PolicyFactory>,
    /// Leave the non-master workers taking tasks (StarPU's `AWAKE_WORKERS`); no
    /// `create` call is made then, as in StarPU.
    pub awake_workers: bool,
    pub create: Option<CreateFn>,
}

/// A parallel worker asked for explicitly (`STARPU_PARALLEL_WORKER_NEW`), of `ncores`
/// workers (0: left out).
#[derive(Clone, Default)]
pub struct PresetWorker {
    pub params: ParallelWorkerParams,
    pub ncores: usize,
}

/// The parameters of one object of the level (`STARPU_PARALLEL_WORKER_PARTITION_ONE`):
/// the first partition goes to the first object, and so on.
#[derive(Clone, Default)]
pub struct Partition {
    pub params: ParallelWorkerParams,
    pub presets: Vec<PresetWorker>,
}

/// How to build the parallel workers.
#[derive(Clone, Default)]
pub struct ParallelWorkerSpec {
    pub params: ParallelWorkerParams,
    pub partitions: Vec<Partition>,
}

/// One parallel worker: its context, its workers (the master first) and their CPUs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParallelWorker {
    pub ctx: u32,
    pub workers: Vec<usize>,
    pub cpuids: Vec<usize>,
    pub awake: bool,
}

impl ParallelWorker {
    pub fn master(&self) -> usize {
        self.workers[0]
    }
}

/// The parallel workers built by one [`Runtime::parallel_workers_init`](crate::Runtime::parallel_workers_init).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParallelWorkers {
    /// The context over the masters that takes the calling thread's tasks.
    pub machine_ctx: u32,
    pub workers: Vec<ParallelWorker>,
    /// How many objects of the level were grouped.
    pub ngroups: usize,
}

/// How many parallel workers `npus` workers are split into
/// (StarPU's `_starpu_parallel_worker_analyze_parameters`).
pub fn count_for(params: &ParallelWorkerParams, npus: usize) -> usize {
    if params.nb > 0 {
        return params.nb.min(npus);
    }
    if params.min_nb > 0 && params.max_nb > 0 {
        if !params.keep_homogeneous {
            let n = if params.prefere_min {
                params.min_nb
            } else {
                params.max_nb
            };
            return n.min(npus);
        }
        // Homogeneous: the first count from the preferred end that divides the workers
        // evenly, else the one that leaves the fewest out.
        let candidates: Vec<usize> = if params.prefere_min {
            (params.min_nb..=params.max_nb).collect()
        } else {
            (params.min_nb..=params.max_nb).rev().collect()
        };
        let mut second = 0;
        let mut loss = usize::MAX;
        for j in candidates.into_iter().filter(|&j| j > 0) {
            if npus.is_multiple_of(j) {
                return j;
            }
            if npus % j < loss {
                loss = npus % j;
                second = j;
            }
        }
        if second > 0 {
            return second;
        }
    }
    1
}

/// The sizes of the parallel workers of one group of `npus` workers: the presets first
/// (each cut to what is left), then the automatic ones.
pub fn split_group(partition: &Partition, npus: usize) -> Vec<(usize, ParallelWorkerParams)> {
    let mut out = Vec::new();
    let mut avail = npus;
    for p in &partition.presets {
        let n = p.ncores.min(avail);
        if n > 0 {
            out.push((n, p.params.clone()));
            avail -= n;
        }
    }
    let count = count_for(&partition.params, avail);
    for i in 0..count {
        if avail == 0 {
            break;
        }
        // An even share of what is left (the last one takes the rest).
        let n = avail / (count - i);
        if n == 0 {
            continue;
        }
        out.push((n, partition.params.clone()));
        avail -= n;
    }
    out
}
