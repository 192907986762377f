//! Parallel tasks: combined workers (groups of CPU workers that run one task together) and
//! the codelet types that use them (StarPU's `STARPU_SPMD` and `STARPU_FORKJOIN`).
//!
//! A parallel-aware policy (`peager`, `pheft`) gives a parallel task to the *master* of a
//! combined worker, its first member, and records which combined worker it chose
//! ([`Parallel::assign`]). When the master runs the task, it hands a part of it to every
//! other member (`team.rs`): the members stop taking other tasks, and
//! - an SPMD kernel runs on every member at once, each seeing its rank
//!   ([`combined_rank`]) and the team's size ([`combined_size`]);
//! - a FORKJOIN kernel runs once, on the master, with the team's size, while the other
//!   members wait, reserved for the threads the kernel starts.
//!
//! Each worker has at most one master (`peager.rs` chooses them so), and a master runs one
//! team at a time, so two teams never wait for each other's members. Other policies, and
//! tasks pinned to a worker, run parallel tasks on one worker (size 1), as StarPU does.

mod combine;
pub(crate) mod policy;
mod team;
pub mod workers;

use crate::error::{Error, Result};
use crate::perfmodel::{PerfArch, PerfDevice};
use crate::task::{CodeletType, Task};
use crate::worker::WorkerKind;
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};

pub use combine::CombineSettings;
pub use workers::{
    ParallelWorker, ParallelWorkerParams, ParallelWorkerSpec, ParallelWorkers, Partition,
    PresetWorker,
};

/// A group of CPU workers that runs one parallel task together (StarPU's combined
/// worker). Its id follows the basic workers' ids.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CombinedWorker {
    /// StarPU's worker id of the combined worker (at least the number of basic workers).
    pub id: usize,
    /// The basic workers, the master (rank 0) first.
    pub members: Vec<usize>,
}

impl CombinedWorker {
    pub fn size(&self) -> usize {
        self.members.len()
    }

    /// The performance architecture of a task run by this combined worker: one CPU
    /// device with `size` cores (StarPU's `cpu0` with `ncores` set).
    pub fn arch(&self) -> PerfArch {
        PerfArch {
            devices: vec![PerfDevice {
                kind: WorkerKind::Cpu,
                devid: 0,
                ncores: self.members.len() as u32,
            }],
        }
    }
}

/// No combined worker runs a kernel on this thread.
const NO_TEAM: (u32, u32, usize) = (1, 0, usize::MAX);

thread_local! {
    /// (size, rank, combined worker id) of the team whose kernel runs on this thread.
    static TEAM: Cell<(u32, u32, usize)> = const { Cell::new(NO_TEAM) };
}

/// The number of workers running the current kernel together
/// (`starpu_combined_worker_get_size`): 1 for a sequential task or outside kernels.
pub fn combined_size() -> u32 {
    TEAM.with(|t| t.get().0)
}

/// The calling thread's rank within the workers running the current kernel
/// (`starpu_combined_worker_get_rank`): 0 for a sequential task or a FORKJOIN kernel.
pub fn combined_rank() -> u32 {
    TEAM.with(|t| t.get().1)
}

/// The combined worker running the current kernel, if one does
/// (`starpu_combined_worker_get_id`; StarPU answers the worker's own id otherwise).
pub fn combined_worker_id() -> Option<usize> {
    TEAM.with(|t| Some(t.get().2).filter(|&id| id != usize::MAX))
}

/// Sets (size, rank, combined worker id) for the duration of `f` on this thread.
pub(crate) fn with_team<R>(team: (u32, u32, usize), f: impl FnOnce() -> R) -> R {
    let prev = TEAM.with(|t| t.replace(team));
    // Restored even if `f` panics (the caller catches panics further out).
    struct Restore((u32, u32, usize));
    impl Drop for Restore {
        fn drop(&mut self) {
            TEAM.with(|t| t.set(self.0));
        }
    }
    let _restore = Restore(prev);
    f()
}

/// Whether tasks of this codelet type may run on several workers.
pub fn is_parallel(task: &Task) -> bool {
    task.spec()
        .and_then(|s| s.codelet.as_ref())
        .is_some_and(|cl| cl.kind != CodeletType::Seq)
}

/// One worker's mailbox: a part of a team's task it must run, and the combined worker
/// the policy chose for the task it just popped.
#[repr(align(128))] // each worker polls its own slot: keep them on separate lines
#[derive(Default)]
struct Slot {
    pending: AtomicBool,
    part: Mutex<Option<(Arc<team::Team>, u32)>>,
    /// Combined worker id + 1 chosen for the task this worker popped; 0 for none.
    assigned: AtomicUsize,
}

/// The runtime's combined workers and the mailboxes teams use.
pub struct Parallel {
    nworkers: usize,
    combined: RwLock<Vec<CombinedWorker>>,
    slots: Box<[Slot]>,
    /// `STARPU_SINGLE_COMBINED_WORKER`: one parallel task at a time.
    pub(crate) single: bool,
    /// A parallel task runs (only tracked with `single`).
    pub(crate) busy: AtomicBool,
}

impl Parallel {
    /// `nworkers` basic workers and the combined workers `groups` (lists of members).
    pub(crate) fn new(nworkers: usize, groups: Vec<Vec<usize>>, single: bool) -> Parallel {
        let combined = groups
            .into_iter()
            .enumerate()
            .map(|(i, members)| CombinedWorker {
                id: nworkers + i,
                members,
            })
            .collect();
        Parallel {
            nworkers,
            combined: RwLock::new(combined),
            slots: (0..nworkers).map(|_| Slot::default()).collect(),
            single,
            busy: AtomicBool::new(false),
        }
    }

    /// The combined workers, in id order.
    pub fn combined_workers(&self) -> Vec<CombinedWorker> {
        self.combined
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Combined worker `id`, if there is one.
    pub fn combined_worker(&self, id: usize) -> Option<CombinedWorker> {
        let list = self.combined.read().unwrap_or_else(|e| e.into_inner());
        id.checked_sub(self.nworkers)
            .and_then(|i| list.get(i))
            .cloned()
    }

    /// Adds a combined worker made of `members` (`starpu_combined_worker_assign_workerid`)
    /// and returns its id. Members must be distinct basic workers, at least one.
    pub fn assign(&self, members: &[usize]) -> Result<usize> {
        if members.is_empty() {
            return Err(Error::invalid(
                "a combined worker needs at least one worker",
            ));
        }
        for (i, &m) in members.iter().enumerate() {
            if m >= self.nworkers {
                return Err(Error::invalid(format!(
                    "worker {m} is not a basic worker (there are {})",
                    self.nworkers
                )));
            }
            if members[..i].contains(&m) {
                return Err(Error::invalid(format!(
                    "worker {m} is given twice for one combined worker"
                )));
            }
        }
        let mut list = self.combined.write().unwrap_or_else(|e| e.into_inner());
        if self.nworkers + list.len() >= crate::worker::MAX_WORKERS * 2 {
            return Err(Error::invalid("too many combined workers"));
        }
        let id = self.nworkers + list.len();
        list.push(CombinedWorker {
            id,
            members: members.to_vec(),
        });
        Ok(id)
    }

    /// Records that `worker` runs the task it just popped as combined worker `combined`.
    pub(crate) fn set_assigned(&self, worker: usize, combined: usize) {
        self.slots[worker]
            .assigned
            .store(combined + 1, Ordering::Relaxed);
    }

    /// The combined worker the policy chose for the task `worker` runs now, if any
    /// (forgotten once asked).
    pub(crate) fn take_assigned(&self, worker: usize) -> Option<CombinedWorker> {
        let c = self.slots[worker].assigned.swap(0, Ordering::Relaxed);
        c.checked_sub(1).and_then(|id| self.combined_worker(id))
    }

    /// The team of a task assigned to a combined worker is over (or never started).
    pub(crate) fn team_done(&self) {
        if self.single {
            self.busy.store(false, Ordering::Release);
        }
    }

    /// Whether a team part waits for `worker` (cheap: one load on the worker's own line).
    #[inline]
    pub(crate) fn has_part(&self, worker: usize) -> bool {
        self.slots[worker].pending.load(Ordering::SeqCst)
    }

    fn give_part(&self, worker: usize, team: Arc<team::Team>, rank: u32) {
        let slot = &self.slots[worker];
        *slot.part.lock().unwrap_or_else(|e| e.into_inner()) = Some((team, rank));
        slot.pending.store(true, Ordering::SeqCst);
    }

    /// Runs the team part waiting for `worker`, if one does (called by the worker's loop).
    pub(crate) fn run_part(&self, worker: usize) {
        if let Some((team, rank)) = self.take_part(worker) {
            team.member(worker, rank);
        }
    }

    fn take_part(&self, worker: usize) -> Option<(Arc<team::Team>, u32)> {
        let slot = &self.slots[worker];
        let part = slot.part.lock().unwrap_or_else(|e| e.into_inner()).take();
        slot.pending.store(false, Ordering::SeqCst);
        part
    }
}

/// Whether combined worker `c` may run implementation `nimpl` of `task`
/// (`starpu_combined_worker_can_execute_task`): the codelet must be parallel, allow `c`'s
/// size (`max_parallelism`), and its master and `can_execute` (asked with `c`'s id) accept.
pub fn combined_can_execute(c: &CombinedWorker, task: &Task, nimpl: usize) -> bool {
    let Some(cl) = task.spec().and_then(|s| s.codelet.as_ref()) else {
        return false;
    };
    if cl.kind == CodeletType::Seq || (cl.max_parallelism.max(1) as usize) < c.size() {
        return false;
    }
    let Some(spec) = task.spec() else {
        return false;
    };
    if spec.worker.is_some() {
        return false;
    }
    let mask = spec.where_mask.unwrap_or_else(|| cl.effective_where());
    if mask & crate::task::where_mask::CPU == 0 || nimpl >= cl.cpu_funcs.len() {
        return false;
    }
    // A panicking can_execute refuses (the worker-level check reports the panic).
    cl.can_execute.as_ref().is_none_or(|can| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| can(c.id, task, nimpl)))
            .unwrap_or(false)
    })
}
