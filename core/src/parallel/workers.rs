//! Parallel workers (StarPU 1.4's "clusters", `starpu_parallel_worker_*`): the CPU workers
//! are grouped per object of one level of the machine's hierarchy (package, NUMA node,
//! cache...), each group is split into parallel workers, and each parallel worker becomes
//! a scheduling context whose tasks run on its first worker, the *master*, while its other
//! workers are reserved: they take no task, so the threads the master's kernel starts
//! (OpenMP, a parallel BLAS) have their cores ([`Runtime::available_cpuids`]).
//!
//! A *machine context* over the masters, with the policy asked for, takes the tasks
//! submitted afterwards from the calling thread (it becomes its current context), so the
//! policy spreads them over the parallel workers, one master each.
//!
//! How many parallel workers a group gets follows StarPU's parameters: `nb`, else
//! `min_nb`/`max_nb` (`prefere_min`, `keep_homogeneous`), else one; partitions
//! (`STARPU_PARALLEL_WORKER_PARTITION_ONE`) give the i-th object its own parameters and
//! preset parallel workers of a given size (`_NEW`, `_NCORES`) that are carved first.

use crate::error::{Error, Result};
use crate::sched::contexts::{set_current_context, ContextOptions};
use crate::sched::PolicyFactory;
use crate::topology::TopologyLevel;
use crate::worker::WorkerKind;
use crate::Runtime;
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

/// The parallel workers built by one [`Runtime::parallel_workers_init`].
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

impl Runtime {
    /// The CPU workers grouped per object of `level`, in topology order.
    fn worker_groups(&self, level: TopologyLevel) -> Vec<Vec<usize>> {
        let cpus: Vec<usize> = (0..self.workers.len())
            .filter(|&w| self.workers[w].kind == WorkerKind::Cpu)
            .collect();
        let bound = cpus.iter().all(|&w| self.workers[w].cpu.is_some());
        let objects = if bound {
            self.topology.cpus_per_object(level)
        } else {
            None
        };
        match objects {
            Some(objs) => objs
                .into_iter()
                .map(|set| {
                    cpus.iter()
                        .copied()
                        .filter(|&w| self.workers[w].cpu.is_some_and(|c| set.contains(&c)))
                        .collect::<Vec<usize>>()
                })
                .filter(|g| !g.is_empty())
                .collect(),
            None if level.per_core() => cpus.iter().map(|&w| vec![w]).collect(),
            None if cpus.is_empty() => Vec::new(),
            None => vec![cpus],
        }
    }

    /// Builds parallel workers over the CPU workers, one group per object of `level`
    /// (`starpu_parallel_worker_init`), and makes their machine context the calling
    /// thread's current context. Fails with `NoDevice` when there is no CPU worker.
    pub fn parallel_workers_init(
        &self,
        level: TopologyLevel,
        spec: &ParallelWorkerSpec,
    ) -> Result<ParallelWorkers> {
        self.check_accepting()?;
        let groups = self.worker_groups(level);
        if groups.is_empty() {
            return Err(Error::no_device(
                "parallel workers: there is no CPU worker to group",
            ));
        }
        let mut built: Vec<ParallelWorker> = Vec::new();
        let undo = |rt: &Runtime, built: &[ParallelWorker]| {
            for pw in built {
                rt.drop_parallel_worker(pw);
            }
        };
        let mut creates: Vec<Option<CreateFn>> = Vec::new();
        for (i, group) in groups.iter().enumerate() {
            let partition = spec
                .partitions
                .get(i)
                .cloned()
                .unwrap_or_else(|| Partition {
                    params: spec.params.clone(),
                    presets: Vec::new(),
                });
            let mut next = 0;
            for (n, params) in split_group(&partition, group.len()) {
                let workers = group[next..next + n].to_vec();
                next += n;
                let options = ContextOptions {
                    master_only: true,
                    ..ContextOptions::named("parallel_worker").policy("eager")
                };
                let ctx = match self.create_context(&workers, options) {
                    Ok(c) => c,
                    Err(e) => {
                        undo(self, &built);
                        return Err(e);
                    }
                };
                let cpuids = workers.iter().map(|&w| self.worker_cpuid(w)).collect();
                let pw = ParallelWorker {
                    ctx,
                    workers,
                    cpuids,
                    awake: params.awake_workers,
                };
                if !pw.awake {
                    self.reserve_workers(&pw.workers[1..]);
                }
                creates.push(if pw.awake {
                    None
                } else {
                    params.create.clone()
                });
                built.push(pw);
            }
        }
        // The machine context over the masters: its policy spreads the tasks.
        let masters: Vec<usize> = built.iter().map(|pw| pw.master()).collect();
        // StarPU gives the machine context the global context's policy.
        let global_policy = self.policy.name().to_string();
        let mut options = ContextOptions::named("main sched ctx");
        options.custom_policy = spec.params.custom_policy.clone();
        options.policy = spec.params.policy.clone();
        if options.policy.is_none() && options.custom_policy.is_none() {
            options.policy = Some(global_policy);
        }
        let mut made = self.create_context(&masters, options.clone());
        if made.is_err() && spec.params.policy.is_none() && options.custom_policy.is_none() {
            // The runtime's policy is not one made by name (an application's): the
            // default one then.
            options.policy = None;
            made = self.create_context(&masters, options);
        }
        let machine_ctx = match made {
            Ok(c) => c,
            Err(e) => {
                undo(self, &built);
                return Err(e);
            }
        };
        // Nest each parallel worker in the machine context, so that a master running
        // one of its tasks sees its group's CPUs.
        for pw in &built {
            self.set_context_nesting(pw.ctx, machine_ctx)?;
        }
        for (pw, create) in built.iter().zip(creates) {
            if let Some(create) = create {
                self.run_on_master(pw, create)?;
            }
        }
        set_current_context(Some(machine_ctx));
        Ok(ParallelWorkers {
            machine_ctx,
            workers: built,
            ngroups: groups.len(),
        })
    }

    /// Runs `create` once on `pw`'s master, in a task of its context, and waits for it.
    fn run_on_master(&self, pw: &ParallelWorker, create: CreateFn) -> Result<()> {
        let ctx = pw.ctx;
        let cpuids = pw.cpuids.clone();
        let cl = Arc::new(
            crate::Codelet::new("parallel_worker_create").cpu(move |_call| {
                create(ctx, &cpuids);
                Ok(())
            }),
        );
        self.task(&cl).sched_ctx(ctx).synchronous(true).submit()?;
        Ok(())
    }

    /// Deletes a parallel worker's context and frees its reserved workers.
    fn drop_parallel_worker(&self, pw: &ParallelWorker) {
        let _ = self.delete_context(pw.ctx);
        if !pw.awake {
            self.release_workers(&pw.workers[1..]);
        }
    }

    /// Undoes [`Runtime::parallel_workers_init`] (`starpu_parallel_worker_shutdown`):
    /// the machine context and the parallel workers' contexts are deleted (tasks still
    /// queued go to the global context), the reserved workers take tasks again, and the
    /// calling thread's current context is the global one (set explicitly, as StarPU does).
    pub fn parallel_workers_shutdown(&self, pws: &ParallelWorkers) -> Result<()> {
        self.delete_context(pws.machine_ctx)?;
        for pw in &pws.workers {
            self.drop_parallel_worker(pw);
        }
        set_current_context(Some(crate::sched::contexts::GLOBAL));
        Ok(())
    }
}
