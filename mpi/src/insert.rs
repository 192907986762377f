//! Task insertion across processes (`starpu_mpi_task_insert`): every process inserts
//! the same tasks in the same order; the owner of the data a task writes runs it
//! ("owner computes"), the owners of the data it reads send them there first, and data it
//! wrote on another process go back to their owner after it.
//!
//! The communication cache remembers which copies are still valid (a process received
//! the value and nobody wrote it since; an owner sent it to a process), so the same value
//! is not sent twice.

use crate::comm::Comm;
use crate::context::Mpi;
use crate::data::PER_NODE;
use crate::p2p::Transfer;
use crate::select::DataAccess;
use starpu_core::{AccessMode, DataHandle, Error, Result};

/// Who runs a task (`STARPU_EXECUTE_ON_NODE`, `STARPU_EXECUTE_ON_DATA`).
#[derive(Clone)]
pub enum ExecuteOn {
    Node(i32),
    /// The owner of this data.
    Data(DataHandle),
}

/// Where a task runs, as every process decides it alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The rank that runs the task (`PER_NODE`: every process).
    pub xrank: i32,
    /// Whether this process runs it.
    pub do_execute: bool,
}

fn redux(mode: AccessMode) -> bool {
    mode.is_redux() || mode.base() == AccessMode::MPI_REDUX
}

fn plain_write(mode: AccessMode) -> bool {
    mode.contains(AccessMode::W) && !redux(mode)
}

fn plain_read(mode: AccessMode) -> bool {
    mode.reads() && !redux(mode)
}

/// What happens after a task to data it wrote, owned by `owner` (`me`: this process).
#[derive(PartialEq, Eq)]
enum Back {
    /// The owner ran the task, or every process did: nothing moves.
    Stays,
    /// This process owns the data and another ran the task: the value comes back.
    Receive,
    /// This process ran the task on data another owns: the value goes back.
    Send,
}

fn written_back(owner: i32, me: i32, p: &Placement) -> Back {
    if owner == me && p.xrank != PER_NODE && p.xrank != me {
        Back::Receive
    } else if owner != me && p.do_execute {
        Back::Send
    } else {
        Back::Stays
    }
}

impl Mpi {
    /// Decides where a task over `data` runs. Each datum read or written must have an
    /// owner; an explicit choice wins, then the owner of the data written (when one
    /// process owns them all), then the node selection policy (`policy`, or the current
    /// one for `CURRENT_POLICY`).
    pub fn place(
        &self,
        comm: Comm,
        data: &[DataAccess],
        execute_on: Option<&ExecuteOn>,
        policy: i32,
    ) -> Result<Placement> {
        let info = self.info(comm)?;
        let (me, size) = (info.rank, info.size);
        let owner = |h: &DataHandle| {
            self.data_rank(h).ok_or_else(|| {
                Error::invalid(format!(
                    "data {} is not registered with StarPU-MPI: starpu_mpi_data_register gives \
                     it a tag and an owner rank",
                    h.label()
                ))
            })
        };
        // One look-up per datum: checking each owner also finds the owner of the data
        // written, for when nothing else chooses. An error about the data written counts
        // only then, and after every datum's check: it waits in `written`.
        let mut written: Result<Option<i32>> = Ok(None);
        let mut consistent = true;
        for a in data {
            let writes = a.mode.contains(AccessMode::W) || redux(a.mode);
            let rank = match (&a.handle, a.mode.reads() || writes) {
                (Some(h), true) => Some(owner(h)?),
                _ => None,
            };
            if !writes {
                continue;
            }
            let Ok(xrank) = &mut written else {
                continue;
            };
            let Some(r) = rank else {
                written = Err(Error::invalid(
                    "a task writes a NULL data handle: no process can run it",
                ));
                continue;
            };
            match *xrank {
                None => *xrank = Some(r),
                Some(x) if x == r => {}
                Some(x) if x == PER_NODE || r == PER_NODE => {
                    written = Err(Error::invalid(format!(
                        "a task writes per-node data and data owned by rank {}: a task \
                         replicated on every process may only write per-node data",
                        if x == PER_NODE { r } else { x }
                    )));
                }
                Some(_) => consistent = false,
            }
        }
        let chosen = match execute_on {
            Some(ExecuteOn::Node(-1)) | None => None,
            Some(ExecuteOn::Node(r)) => Some(*r),
            Some(ExecuteOn::Data(h)) => Some(owner(h)?),
        };
        let xrank = match chosen {
            Some(r) => r,
            None => match written? {
                Some(x) if consistent => x,
                _ => self.select_node(me, size, data, policy)?,
            },
        };
        if xrank != PER_NODE {
            info.check_rank(xrank, "executing")?;
        }
        Ok(Placement {
            xrank,
            do_execute: xrank == PER_NODE || xrank == me,
        })
    }

    /// The transfers before a task (`starpu_mpi_task_build`'s part): owners send what it
    /// reads to the executing process, which receives what it does not hold already.
    pub fn exchange_before(
        &self,
        comm: Comm,
        data: &[DataAccess],
        p: &Placement,
        prio: i32,
    ) -> Result<()> {
        let me = self.comm_rank(comm)?;
        let t = Transfer::with_prio(comm, prio);
        for a in data {
            let Some(h) = &a.handle else { continue };
            let (owner, pending_reduction) = self.owner_and_pending_reduction(h);
            if p.xrank == PER_NODE && owner != Some(PER_NODE) {
                return Err(Error::invalid(format!(
                    "a task replicated on every process accesses data {} which is not per-node",
                    h.label()
                )));
            }
            if a.mode.reads() && pending_reduction && !redux(a.mode) {
                self.redux_data(comm, h, prio)?;
            }
            if redux(a.mode) && p.do_execute {
                self.start_contribution(h, me)?;
            }
            if !plain_read(a.mode) {
                continue;
            }
            let Some(owner) = owner else {
                continue;
            };
            if owner == PER_NODE {
                continue;
            }
            if p.do_execute && owner != me && !self.cached_receive_set(h) {
                let (_, tag) = self.owner_and_tag(h, "receiving data for a task")?;
                self.irecv_detached(h, owner, tag, &t, None)?;
            }
            if !p.do_execute && owner == me && !self.cached_send_set(h, p.xrank) {
                let (_, tag) = self.owner_and_tag(h, "sending data for a task")?;
                let sync = a.mode.contains(AccessMode::SSEND);
                self.isend_detached(h, p.xrank, tag, &Transfer { sync, ..t }, None)?;
            }
        }
        Ok(())
    }

    /// The transfers after a task (`starpu_mpi_task_post_build`): what it wrote on a
    /// process other than the owner goes back to the owner; caches forget written data.
    pub fn exchange_after(
        &self,
        comm: Comm,
        data: &[DataAccess],
        p: &Placement,
        prio: i32,
    ) -> Result<()> {
        let me = self.comm_rank(comm)?;
        let t = Transfer::with_prio(comm, prio);
        let cache_on = self.cache_enabled();
        for a in data {
            let Some(h) = &a.handle else { continue };
            if redux(a.mode) {
                self.note_contribution(h, p.xrank);
            }
            // `Some(had)`: the cache forgot the copies of `h` already (below otherwise).
            let mut cleared = None;
            if plain_write(a.mode) {
                let local = |r: i32| if r == PER_NODE { me } else { r };
                // Where no transfer follows, the look-up of the owner also updates the cache.
                let (rank, done) = self.data_rank_then_clear(h, |r| {
                    cache_on && written_back(local(r), me, p) == Back::Stays
                });
                cleared = done;
                let Some(owner) = rank.map(local) else {
                    continue;
                };
                match written_back(owner, me, p) {
                    Back::Stays => {}
                    Back::Receive => {
                        let (_, tag) = self.owner_and_tag(h, "receiving data a task wrote")?;
                        self.irecv_detached(h, p.xrank, tag, &t, None)?;
                    }
                    Back::Send => {
                        let (_, tag) = self.owner_and_tag(h, "sending back data a task wrote")?;
                        let sync = a.mode.contains(AccessMode::SSEND);
                        self.isend_detached(h, owner, tag, &Transfer { sync, ..t }, None)?;
                    }
                }
            }
            if cache_on {
                if a.mode.contains(AccessMode::W) || redux(a.mode) {
                    match cleared {
                        Some(had) => self.invalidate_if(had, h)?,
                        None => self.cached_clear(h)?,
                    }
                }
            } else if plain_read(a.mode) && p.do_execute {
                // Without the cache, a received copy serves this one task.
                if self.data_rank(h).is_some_and(|r| r != me && r != PER_NODE) {
                    self.rt.invalidate_submit(h)?;
                }
            }
        }
        Ok(())
    }

    /// Inserts a task on every process (`starpu_mpi_task_insert`): `submit` is called on
    /// the process that runs it, between the transfers before and after. An error of
    /// `submit` is returned after the transfers after it.
    pub fn task_insert(
        &self,
        comm: Comm,
        data: &[DataAccess],
        execute_on: Option<&ExecuteOn>,
        policy: i32,
        prio: i32,
        submit: impl FnOnce() -> Result<()>,
    ) -> Result<Placement> {
        let p = self.place(comm, data, execute_on, policy)?;
        self.exchange_before(comm, data, &p, prio)?;
        // The transfers after the task are made even when it could not be submitted: the
        // other processes expect them (the data goes back unchanged).
        let submitted = if p.do_execute { submit() } else { Ok(()) };
        self.exchange_after(comm, data, &p, prio)?;
        submitted.map(|()| p)
    }
}
