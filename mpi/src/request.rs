//! Communication requests: what the application posted (a send, a receive, a barrier),
//! what it can wait on or test (`starpu_mpi_req`), and what happens at the end (the data
//! is released, then the callback of a detached request runs).

use crate::comm::CommInfo;
use starpu_core::runtime::Acquisition;
use starpu_core::{DataHandle, Error, Result, Runtime};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// What a completed receive (or send) reports, as `MPI_Status` would.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Status {
    /// The rank of the sender (of the receiver, for a send).
    pub source: i32,
    /// The application's tag.
    pub tag: i64,
    /// Bytes transferred.
    pub size: usize,
}

/// Runs when a detached request ends, with its outcome.
pub type Then = Box<dyn FnOnce(Result<Status>) + Send>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Send { dest: i32, sync: bool },
    Recv { source: i32 },
    Barrier,
}

/// The data a transfer holds, from its acquisition until its end.
enum Hold {
    /// Asked for, not handed back by the runtime yet.
    Asked,
    Held(Acquisition),
    /// The transfer ended before the acquisition was stored: release it when it is.
    ReleaseWhenStored,
    Released,
}

pub(crate) struct Op {
    pub id: u64,
    pub kind: Kind,
    pub handle: Option<DataHandle>,
    pub comm: CommInfo,
    pub tag: i64,
    /// Nobody waits for it: its errors are reported on stderr.
    pub detached: bool,
    hold: Mutex<Hold>,
    outcome: Mutex<Option<Result<Status>>>,
    ended: Condvar,
    then: Mutex<Option<Then>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Op {
    pub(crate) fn new(
        kind: Kind,
        handle: Option<DataHandle>,
        comm: CommInfo,
        tag: i64,
        detached: bool,
        then: Option<Then>,
    ) -> Arc<Op> {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        Arc::new(Op {
            id: NEXT.fetch_add(1, Ordering::Relaxed),
            kind,
            handle,
            comm,
            tag,
            detached,
            hold: Mutex::new(Hold::Asked),
            outcome: Mutex::new(None),
            ended: Condvar::new(),
            then: Mutex::new(then),
        })
    }

    pub(crate) fn handle(&self) -> &DataHandle {
        self.handle.as_ref().expect("transfers carry a handle")
    }

    /// Stores the acquisition `acquire_exact` returned.
    pub(crate) fn store(&self, rt: &Runtime, a: Acquisition) {
        let mut h = lock(&self.hold);
        match *h {
            Hold::ReleaseWhenStored => {
                *h = Hold::Released;
                drop(h);
                rt.release_acquired(a);
            }
            _ => *h = Hold::Held(a),
        }
    }

    /// Gives the data back to the runtime (now, or once the acquisition is stored).
    fn release(&self, rt: &Runtime) {
        let mut h = lock(&self.hold);
        match std::mem::replace(&mut *h, Hold::Released) {
            Hold::Held(a) => {
                drop(h);
                rt.release_acquired(a);
            }
            Hold::Asked => *h = Hold::ReleaseWhenStored,
            other => *h = other,
        }
    }

    /// Ends the request: releases its data, publishes the outcome, runs its callback.
    pub(crate) fn finish(&self, rt: &Runtime, outcome: Result<Status>) {
        if self.handle.is_some() {
            self.release(rt);
        }
        if let (true, Err(e)) = (self.detached, &outcome) {
            eprintln!("[starpu][starpu_mpi] {e}");
        }
        *lock(&self.outcome) = Some(outcome.clone());
        self.ended.notify_all();
        if let Some(f) = lock(&self.then).take() {
            if std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(outcome))).is_err() {
                eprintln!("[starpu][starpu_mpi] a communication callback panicked");
            }
        }
    }
}

/// A communication the application may wait for or test (`starpu_mpi_req`).
pub struct Request(pub(crate) Arc<Op>);

impl Request {
    /// Blocks until the communication ends (`starpu_mpi_wait`).
    pub fn wait(&self) -> Result<Status> {
        crate::engine::check_not_progression_thread("waiting for a communication")?;
        let mut o = lock(&self.0.outcome);
        loop {
            if let Some(r) = o.as_ref() {
                return r.clone();
            }
            o = self.0.ended.wait(o).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// The outcome if the communication ended (`starpu_mpi_test`). When it has not, the
    /// calling thread yields its core first: programs test in a loop, and with more
    /// threads than cores the progression thread needs that core to move things on.
    pub fn test(&self) -> Option<Result<Status>> {
        let outcome = lock(&self.0.outcome).clone();
        if outcome.is_none() {
            std::thread::yield_now();
        }
        outcome
    }

    pub fn tag(&self) -> i64 {
        self.0.tag
    }
}

impl std::fmt::Debug for Request {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Request({:?}, tag {})", self.0.kind, self.0.tag)
    }
}

/// The error of a transfer that could not start or complete, naming it.
pub(crate) fn transfer_error(op: &Op, what: &str) -> Error {
    let dir = match op.kind {
        Kind::Send { dest, .. } => format!("send to rank {dest}"),
        Kind::Recv { source } => format!("receive from rank {source}"),
        Kind::Barrier => "barrier".into(),
    };
    Error::invalid(format!(
        "rank {}: {dir} (tag {}): {what}",
        op.comm.rank, op.tag
    ))
}
