//! Transactions (StarPU's `starpu_transaction_*`): tasks grouped in epochs, where a start
//! function decides, when an epoch begins, whether its tasks run or are cancelled.
//!
//! As in StarPU, ordering comes from data: a transaction owns a small piece of data; each
//! epoch begins with a task that writes it (and asks the start function), each task of
//! the epoch reads it, so the epoch's tasks run together after their epoch began and
//! before the next one begins. A cancelled epoch's tasks go through their whole life cycle
//! (dependencies, callbacks, end) but their kernel does not run.
//!
//! ```
//! use starpu_core::{AccessMode, Codelet, Config, Runtime};
//! use std::sync::Arc;
//! let rt = Runtime::start(Config { ncpus: Some(2), silent: true, ..Config::default() })?;
//! let x = rt.register_variable(0i64)?;
//! let inc = Arc::new(Codelet::new("inc").variable_buffers().cpu(|call| {
//!     *call.variable_mut::<i64>(0)? += 1;
//!     Ok(())
//! }));
//! let trs = rt.transaction_open(|| true)?; // epoch 1: confirmed
//! rt.task(&inc).buffer(&x, AccessMode::RW).transaction(&trs).submit()?;
//! trs.next_epoch(&rt, || false)?; // epoch 2: cancelled
//! rt.task(&inc).buffer(&x, AccessMode::RW).transaction(&trs).submit()?;
//! trs.close(&rt)?;
//! rt.wait_for_all()?;
//! assert_eq!(rt.unregister_take::<i64>(&x)?, 1);
//! rt.shutdown();
//! # Ok::<(), starpu_core::Error>(())
//! ```

use super::{Access, Codelet, TaskRef, TaskSpec};
use crate::data::{AccessMode, DataHandle};
use crate::error::{Error, Result};
use crate::runtime::Runtime;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// Decides, when its epoch begins, whether the epoch's tasks run (`true`) or not.
pub type StartFn = Box<dyn FnOnce() -> bool + Send>;

const INACTIVE: u8 = 0;
const CONFIRMED: u8 = 1;
const CANCELLED: u8 = 2;

/// One epoch: its start function until it began, then whether it was confirmed.
pub(crate) struct Epoch {
    state: AtomicU8,
    start: Mutex<Option<StartFn>>,
}

impl Epoch {
    fn new(start: StartFn) -> Arc<Epoch> {
        Arc::new(Epoch {
            state: AtomicU8::new(INACTIVE),
            start: Mutex::new(Some(start)),
        })
    }

    /// Asks the start function; a start function that panics cancels the epoch.
    fn begin(&self) {
        let start = self.start.lock().unwrap_or_else(|e| e.into_inner()).take();
        let confirmed = match start {
            Some(f) => std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or(false),
            None => true,
        };
        let state = if confirmed { CONFIRMED } else { CANCELLED };
        self.state.store(state, Ordering::Release);
    }

    /// Whether tasks of this epoch skip their kernel.
    pub(crate) fn cancelled(&self) -> bool {
        self.state.load(Ordering::Acquire) == CANCELLED
    }
}

struct Inner {
    handle: DataHandle,
    /// Epochs opened and not yet over, oldest first; tasks join the newest.
    epochs: Mutex<VecDeque<Arc<Epoch>>>,
    closed: AtomicBool,
}

/// An open transaction (`struct starpu_transaction`). Cloning gives another reference.
#[derive(Clone)]
pub struct Transaction(Arc<Inner>);

fn lock(m: &Mutex<VecDeque<Arc<Epoch>>>) -> MutexGuard<'_, VecDeque<Arc<Epoch>>> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Transaction {
    fn check_open(&self, what: &str) -> Result<()> {
        if self.0.closed.load(Ordering::Acquire) {
            return Err(Error::invalid(format!(
                "{what}: the transaction is closed already"
            )));
        }
        Ok(())
    }

    /// Ends the current epoch and opens the next, whose tasks run if `start` answers true
    /// (`starpu_transaction_next_epoch`).
    pub fn next_epoch(
        &self,
        rt: &Runtime,
        start: impl FnOnce() -> bool + Send + 'static,
    ) -> Result<()> {
        self.check_open("transaction next epoch")?;
        let epoch = Epoch::new(Box::new(start));
        lock(&self.0.epochs).push_back(epoch);
        let inner = self.0.clone();
        let next = Codelet::new("starpu_transaction_next_epoch")
            .modes([AccessMode::RW])
            .cpu(move |_| {
                // The previous epoch is over: every task of it read the data before this
                // task could write it.
                let next = {
                    let mut epochs = lock(&inner.epochs);
                    epochs.pop_front();
                    epochs.front().cloned()
                };
                if let Some(e) = next {
                    e.begin();
                }
                Ok(())
            });
        rt.task(&Arc::new(next))
            .buffer(&self.0.handle, AccessMode::RW)
            .submit()
            .map(|_| ())
    }

    /// Ends the last epoch and the transaction; its data is freed once its tasks are over
    /// (`starpu_transaction_close`).
    pub fn close(&self, rt: &Arc<Runtime>) -> Result<()> {
        self.check_open("transaction close")?;
        self.0.closed.store(true, Ordering::Release);
        let inner = self.0.clone();
        let end = Codelet::new("starpu_transaction_end")
            .modes([AccessMode::RW])
            .cpu(move |_| {
                lock(&inner.epochs).clear();
                Ok(())
            });
        rt.task(&Arc::new(end))
            .buffer(&self.0.handle, AccessMode::RW)
            .submit()?;
        rt.unregister_submit(&self.0.handle)
    }

    /// Makes the task described by `spec` a task of the current epoch: it reads the
    /// transaction's data (one more buffer, so its codelet must take a variable number of
    /// buffers, as in StarPU) and skips its kernel if the epoch is cancelled.
    /// Faces call it on the task and description they are about to submit.
    pub fn enlist(&self, task: &TaskRef, spec: &mut TaskSpec) -> Result<()> {
        self.check_open("task submission")?;
        if spec
            .codelet
            .as_ref()
            .is_some_and(|cl| cl.nbuffers.is_some())
        {
            return Err(Error::invalid(
                "task submission: a task of a transaction needs a codelet with a variable \
                 number of buffers (STARPU_VARIABLE_NBUFFERS): the transaction adds one",
            ));
        }
        let epoch = lock(&self.0.epochs)
            .back()
            .cloned()
            .ok_or_else(|| Error::invalid("task submission: the transaction has no epoch"))?;
        spec.accesses.push(Access {
            handle: self.0.handle.clone(),
            mode: AccessMode::R,
            sequential: true,
        });
        task.join_epoch(epoch);
        Ok(())
    }
}

/// Opens a transaction and its first epoch, whose tasks run if `start` answers true
/// (`starpu_transaction_open`).
pub(crate) fn open(
    rt: &Runtime,
    start: impl FnOnce() -> bool + Send + 'static,
) -> Result<Transaction> {
    let handle = rt.register_variable(0u8)?;
    let trs = Transaction(Arc::new(Inner {
        handle,
        epochs: Mutex::new(VecDeque::new()),
        closed: AtomicBool::new(false),
    }));
    let epoch = Epoch::new(Box::new(start));
    lock(&trs.0.epochs).push_back(epoch.clone());
    let begin = Codelet::new("starpu_transaction_begin")
        .modes([AccessMode::W])
        .cpu(move |_| {
            epoch.begin();
            Ok(())
        });
    let submitted = rt
        .task(&Arc::new(begin))
        .buffer(&trs.0.handle, AccessMode::W)
        .submit();
    if let Err(e) = submitted {
        let _ = rt.unregister(&trs.0.handle, false);
        return Err(e);
    }
    Ok(trs)
}
