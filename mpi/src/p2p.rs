//! Point-to-point transfers of data handles (`starpu_mpi_isend`, `irecv`, `send`,
//! `recv`, `issend`, the detached variants), barriers and waiting for everything.
//!
//! A send holds its data for reading and a receive for writing, from the call (in the
//! order of the task graph, like a task accessing the data) until the transfer ends; the
//! holds are asked for here, on the calling thread, and the progression thread takes over
//! once the runtime grants them.

use crate::comm::{self, Comm};
use crate::context::Mpi;
use crate::engine::{check_not_progression_thread, Cmd};
use crate::request::{Kind, Op, Request, Status, Then};
use starpu_core::data::AcquireNode;
use starpu_core::memory::MAIN_RAM;
use starpu_core::{AccessMode, DataHandle, Error, Result};
use std::sync::Arc;

/// Options of a transfer.
#[derive(Clone, Copy, Debug)]
pub struct Transfer {
    pub comm: Comm,
    /// StarPU's priority argument (`_prio` variants). Transfers start as soon as their
    /// data is available, so it does not reorder them here.
    pub prio: i32,
    /// Synchronous send (`starpu_mpi_issend`): it ends once the receiver posted its receive.
    pub sync: bool,
    /// Order the transfer after earlier accesses to the data (and later ones after it).
    pub sequential: bool,
}

impl Transfer {
    pub fn on(comm: Comm) -> Transfer {
        Transfer {
            comm,
            prio: 0,
            sync: false,
            sequential: true,
        }
    }

    /// A transfer on `comm` at priority `prio`.
    pub fn with_prio(comm: Comm, prio: i32) -> Transfer {
        Transfer {
            prio,
            ..Transfer::on(comm)
        }
    }
}

impl Default for Transfer {
    fn default() -> Transfer {
        Transfer::on(Comm::world())
    }
}

impl Mpi {
    fn post_send(
        &self,
        h: &DataHandle,
        dest: i32,
        tag: i64,
        t: &Transfer,
        detached: bool,
        then: Option<Then>,
    ) -> Result<Arc<Op>> {
        let info = self.info(t.comm)?;
        info.check_rank(dest, "destination")?;
        let kind = Kind::Send { dest, sync: t.sync };
        let op = Op::new(kind, Some(h.clone()), info, tag, detached, then);
        self.shared.begin();
        self.hold(&op, AccessMode::R, t.sequential, Cmd::Send)?;
        Ok(op)
    }

    fn post_recv(
        &self,
        h: &DataHandle,
        source: i32,
        tag: i64,
        t: &Transfer,
        detached: bool,
        then: Option<Then>,
    ) -> Result<Arc<Op>> {
        let info = self.info(t.comm)?;
        if source != comm::any_source() {
            info.check_rank(source, "source")?;
        }
        if !h.is_registered() {
            return Err(Error::invalid(format!(
                "data {} is not registered",
                h.label()
            )));
        }
        let op = Op::new(
            Kind::Recv { source },
            Some(h.clone()),
            info,
            tag,
            detached,
            then,
        );
        self.shared.begin();
        // Posted first, so that the grant (maybe on this thread, right now) finds it.
        self.shared.push(Cmd::Recv(op.clone()));
        if let Err(e) = self.hold(&op, AccessMode::W, t.sequential, Cmd::Granted) {
            self.shared.push(Cmd::Withdraw(op));
            return Err(e);
        }
        Ok(op)
    }

    /// Asks the runtime for `op`'s data in `mode`; `next(op)` goes to the progression
    /// thread once it is granted. On an error the request no longer counts as pending.
    fn hold(
        &self,
        op: &Arc<Op>,
        mode: AccessMode,
        sequential: bool,
        next: fn(Arc<Op>) -> Cmd,
    ) -> Result<()> {
        let (ready, shared) = (op.clone(), self.shared.clone());
        let granted = Box::new(move || shared.push(next(ready)));
        let node = AcquireNode::Node(MAIN_RAM);
        match self
            .rt
            .acquire_exact(op.handle(), node, mode, sequential, granted)
        {
            Ok(a) => {
                op.store(&self.rt, a);
                Ok(())
            }
            Err(e) => {
                self.shared.end();
                Err(e)
            }
        }
    }

    /// Sends `h` to rank `dest` under `tag` (`starpu_mpi_isend`, `_issend` with `sync`).
    pub fn isend(&self, h: &DataHandle, dest: i32, tag: i64, t: &Transfer) -> Result<Request> {
        self.post_send(h, dest, tag, t, false, None).map(Request)
    }

    /// Receives `h` from rank `source` (or `comm::any_source()`) (`starpu_mpi_irecv`).
    pub fn irecv(&self, h: &DataHandle, source: i32, tag: i64, t: &Transfer) -> Result<Request> {
        self.post_recv(h, source, tag, t, false, None).map(Request)
    }

    /// `isend` nobody waits for; `then` runs at the end, on the progression thread
    /// (`starpu_mpi_isend_detached`). Errors are reported on stderr.
    pub fn isend_detached(
        &self,
        h: &DataHandle,
        dest: i32,
        tag: i64,
        t: &Transfer,
        then: Option<Then>,
    ) -> Result<()> {
        self.post_send(h, dest, tag, t, true, then).map(drop)
    }

    /// `irecv` nobody waits for (`starpu_mpi_irecv_detached`).
    pub fn irecv_detached(
        &self,
        h: &DataHandle,
        source: i32,
        tag: i64,
        t: &Transfer,
        then: Option<Then>,
    ) -> Result<()> {
        self.post_recv(h, source, tag, t, true, then).map(drop)
    }

    /// Sends and waits for the end of the send (`starpu_mpi_send`).
    pub fn send(&self, h: &DataHandle, dest: i32, tag: i64, t: &Transfer) -> Result<()> {
        check_not_progression_thread("a blocking send")?;
        self.isend(h, dest, tag, t)?.wait().map(drop)
    }

    /// Receives and waits for the data (`starpu_mpi_recv`).
    pub fn recv(&self, h: &DataHandle, source: i32, tag: i64, t: &Transfer) -> Result<Status> {
        check_not_progression_thread("a blocking receive")?;
        self.irecv(h, source, tag, t)?.wait()
    }

    /// Blocks until every process of `comm` called it (`starpu_mpi_barrier`).
    pub fn barrier(&self, comm: Comm) -> Result<()> {
        check_not_progression_thread("a barrier")?;
        let info = self.info(comm)?;
        let op = Op::new(Kind::Barrier, None, info, 0, false, None);
        self.shared.begin();
        self.shared.push(Cmd::Barrier(op.clone()));
        Request(op).wait().map(drop)
    }

    /// Waits until every communication and every task ended, including those that
    /// communications and tasks start meanwhile (`starpu_mpi_wait_for_all`). Pending
    /// distributed reductions are made first.
    pub fn wait_for_all(&self) -> Result<()> {
        check_not_progression_thread("waiting for all communications")?;
        if !self.rt.is_running() {
            // The application stopped the runtime first (StarPU's Fortran examples do):
            // no task is left, only communications.
            self.shared.wait_idle();
            return Ok(());
        }
        self.wrap_up_reductions()?;
        loop {
            self.shared.wait_idle();
            self.shared.take_newer();
            self.rt.wait_for_all()?;
            if self.shared.pending() == 0 && !self.shared.take_newer() {
                return Ok(());
            }
        }
    }
}
