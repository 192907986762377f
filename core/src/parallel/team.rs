//! Running one parallel task on a combined worker: the master hands a part to every other
//! member, waits until all of them have stopped taking other work, then
//! - SPMD: every member runs the kernel with its rank, the master waits for all of them;
//! - FORKJOIN: the master runs the kernel once, the members wait until it returns.
//!
//! The members' parts travel through their mailboxes in `Parallel`; a member finishing a
//! task of its own first only delays the start (its master is the only one that sends it
//! parts, and runs one team at a time, so nothing waits in a cycle).

use super::{with_team, CombinedWorker, Parallel};
use crate::error::{Error, ErrorKind};
use crate::task::{Codelet, CodeletType, KernelCall, KernelError, KernelResult, TaskRef};
use crate::topology::Topology;
use crate::worker::{self, Worker};
use std::ffi::c_void;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

#[derive(Default)]
struct Progress {
    /// Members (not counting the master) that stopped to join the team.
    arrived: u32,
    /// Every member is there: the kernel may start.
    started: bool,
    /// SPMD members whose kernel returned.
    finished: u32,
    /// The master is done: FORKJOIN members may leave.
    over: bool,
    /// The first failure of a member's kernel.
    failure: Option<Error>,
}

pub(crate) struct Team {
    task: TaskRef,
    codelet: Arc<Codelet>,
    /// The buffers' descriptions, fetched by the master for the whole team.
    buffers: Vec<usize>,
    nimpl: usize,
    size: u32,
    /// The combined worker's id.
    id: usize,
    spmd: bool,
    progress: Mutex<Progress>,
    changed: Condvar,
}

impl Team {
    fn lock(&self) -> MutexGuard<'_, Progress> {
        self.progress.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn wait_until(&self, mut ready: impl FnMut(&Progress) -> bool) -> MutexGuard<'_, Progress> {
        let mut p = self.lock();
        while !ready(&p) {
            p = self.changed.wait(p).unwrap_or_else(|e| e.into_inner());
        }
        p
    }

    /// Runs the kernel as `rank` on `worker`.
    fn kernel(&self, worker: usize, rank: u32) -> Result<KernelResult, Error> {
        let spec = self.task.spec().expect("team tasks were submitted");
        let buffers: Vec<*mut c_void> = self.buffers.iter().map(|&p| p as *mut c_void).collect();
        let call = KernelCall::new(&buffers, &self.task, spec, worker, self.nimpl)
            .in_team(self.size, rank, self.spmd);
        let f = &self.codelet.cpu_funcs[self.nimpl];
        with_team((self.size, rank, self.id), || {
            worker::as_callback(
                "the kernel",
                Some(self.task.clone() as worker::CurrentTask),
                || f(&call),
            )
        })
    }

    /// A member's side: join, run its rank (SPMD) or wait for the master (FORKJOIN).
    pub(crate) fn member(&self, worker: usize, rank: u32) {
        {
            let mut p = self.lock();
            p.arrived += 1;
            self.changed.notify_all();
        }
        drop(self.wait_until(|p| p.started));
        if self.spmd {
            let r = self.kernel(worker, rank);
            let mut p = self.lock();
            p.finished += 1;
            if p.failure.is_none() {
                p.failure = match r {
                    Ok(Ok(())) => None,
                    Ok(Err(e)) => Some(rank_failure(rank, e)),
                    Err(e) => Some(e),
                };
            }
            self.changed.notify_all();
        } else {
            drop(self.wait_until(|p| p.over));
        }
    }
}

fn rank_failure(rank: u32, e: KernelError) -> Error {
    let e = e.into_error();
    let message = format!("rank {rank}: {}", e.message);
    Error::new(ErrorKind::TaskFailed, message).with_cause(e.cause().cloned())
}

impl Parallel {
    /// The master's side: runs implementation `nimpl` of `task`'s codelet on combined
    /// worker `c`, from the calling thread, its master (first member) among `workers`.
    /// Returns what the kernel returned, the first failure of any rank.
    pub(crate) fn run_team(
        &self,
        workers: &[Worker],
        topology: &Topology,
        c: &CombinedWorker,
        task: &TaskRef,
        buffers: &[*mut c_void],
        nimpl: usize,
    ) -> Result<KernelResult, Error> {
        let worker = c.members[0];
        let spec = task.spec().expect("team tasks were submitted");
        let codelet = spec.codelet.as_ref().expect("team tasks have a codelet");
        let team = Arc::new(Team {
            task: task.clone(),
            codelet: codelet.clone(),
            buffers: buffers.iter().map(|&p| p as usize).collect(),
            nimpl,
            size: c.size() as u32,
            id: c.id,
            spmd: codelet.kind == CodeletType::Spmd,
            progress: Mutex::new(Progress::default()),
            changed: Condvar::new(),
        });
        let others = c.size() as u32 - 1;
        for (rank, &m) in c.members.iter().enumerate().skip(1) {
            self.give_part(m, team.clone(), rank as u32);
            workers[m].wake();
        }
        {
            let mut p = team.wait_until(|p| p.arrived == others);
            p.started = true;
            team.changed.notify_all();
        }
        // A FORKJOIN kernel's own threads inherit the master's binding: widen it to the
        // members' cores meanwhile (StarPU does the same), then narrow it back.
        let widened = !team.spmd && bind_to_members(workers, topology, c);
        let mine = team.kernel(worker, 0);
        if widened {
            if let Some(cpu) = workers[worker].cpu {
                if let Err(e) = topology.bind_current_thread(cpu) {
                    eprintln!("[starpu] warning: worker {worker}: {e}");
                }
            }
        }
        let mut p = if team.spmd {
            team.wait_until(|p| p.finished == others)
        } else {
            team.lock()
        };
        p.over = true;
        team.changed.notify_all();
        let theirs = p.failure.take();
        drop(p);
        match (mine, theirs) {
            (Ok(Ok(())), Some(e)) => Err(e),
            (mine, _) => mine,
        }
    }
}

/// Binds the calling master to the cores of all of `c`'s members, when they are bound.
fn bind_to_members(workers: &[Worker], topology: &Topology, c: &CombinedWorker) -> bool {
    let cpus: Option<Vec<usize>> = c.members.iter().map(|&m| workers[m].cpu).collect();
    match cpus {
        Some(cpus) => match topology.bind_current_thread_to(&cpus) {
            Ok(()) => true,
            Err(e) => {
                eprintln!("[starpu] warning: combined worker {}: {e}", c.id);
                false
            }
        },
        None => false,
    }
}
