//! Parallel workers (`starpu_parallel_worker_*`): groups of workers as contexts.

use crate::error::{Error, Result};
use crate::parallel::workers::{split_group, CreateFn};
use crate::parallel::{
    CombinedWorker, ParallelWorker, ParallelWorkerSpec, ParallelWorkers, Partition,
};
use crate::runtime::Runtime;
use crate::sched::contexts::{set_current_context, ContextOptions};
use crate::task::Task;
use crate::topology::TopologyLevel;
use crate::worker::WorkerKind;
use std::sync::Arc;

impl Runtime {
    /// The CPU workers grouped per object of `level`, in topology order.
    pub(crate) fn worker_groups(&self, level: TopologyLevel) -> Vec<Vec<usize>> {
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
    pub(crate) fn run_on_master(&self, pw: &ParallelWorker, create: CreateFn) -> Result<()> {
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
    pub(crate) fn drop_parallel_worker(&self, pw: &ParallelWorker) {
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

impl Runtime {
    /// The combined workers: those the parallel policies (`peager`, `pheft`) built at
    /// start, then those the application added. Ids follow the basic workers'.
    ///
    /// ```
    /// use starpu_core::{Config, Runtime};
    /// let rt = Runtime::start(Config { ncpus: Some(2), sched_policy: Some("peager".into()),
    ///                                  binding: starpu_core::config::Binding::None,
    ///                                  silent: true, ..Config::default() })?;
    /// let all = rt.combined_workers();
    /// assert_eq!(all.len(), 1);
    /// assert_eq!((all[0].id, all[0].members.clone()), (2, vec![0, 1]));
    /// rt.shutdown();
    /// # Ok::<(), starpu_core::Error>(())
    /// ```
    pub fn combined_workers(&self) -> Vec<CombinedWorker> {
        self.parallel.combined_workers()
    }

    /// Combined worker `id` (a worker id from `workers().len()` on).
    pub fn combined_worker(&self, id: usize) -> Option<CombinedWorker> {
        self.parallel.combined_worker(id)
    }

    /// Adds a combined worker of `members` (`starpu_combined_worker_assign_workerid`) and
    /// returns its id. Policies choose their combined workers at start: one added later
    /// is described and checked (`combined_worker_can_execute`), not used by them.
    pub fn add_combined_worker(&self, members: &[usize]) -> Result<usize> {
        self.parallel.assign(members)
    }

    /// Whether worker `id`, basic or combined, may run implementation `nimpl` of `task`
    /// (`starpu_combined_worker_can_execute_task`).
    pub fn combined_worker_can_execute(&self, id: usize, task: &Task, nimpl: usize) -> bool {
        if id < self.workers.len() {
            return self.impl_allowed(task, id, nimpl);
        }
        self.combined_worker(id)
            .is_some_and(|c| crate::parallel::combined_can_execute(&c, task, nimpl))
    }
}
