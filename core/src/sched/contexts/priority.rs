//! A worker's priority in each of its scheduling contexts (`starpu_sched_ctx_set_priority`,
//! `starpu_sched_ctx_get_priority`, used by the hypervisor): a worker that belongs to
//! several contexts looks for work in the context of highest priority first, as StarPU's
//! per-worker context list is ordered. Equal priorities keep the order of context ids
//! (the global context first). A worker joins a context at priority 0, as in StarPU.
//!
//! Pops read one flag until an application sets a priority other than 0, so the order
//! costs nothing to programs that never use it.

use super::{Contexts, MAX_CONTEXTS};
use crate::error::{Error, Result};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

/// Per worker, its priority in each context slot.
pub(super) struct WorkerPriorities {
    prio: Box<[[AtomicU32; MAX_CONTEXTS]]>,
    /// Some priority was set to a value other than 0.
    used: AtomicBool,
}

impl WorkerPriorities {
    pub(super) fn new(nworkers: usize) -> Self {
        WorkerPriorities {
            prio: (0..nworkers)
                .map(|_| std::array::from_fn(|_| AtomicU32::new(0)))
                .collect(),
            used: AtomicBool::new(false),
        }
    }

    /// Worker `w` just joined context `c`: it starts at priority 0.
    pub(super) fn joined(&self, w: usize, c: u32) {
        self.prio[w][c as usize].store(0, Ordering::SeqCst);
    }

    /// The contexts of `mask` (bit c: context c) in the order worker `w` visits them, and
    /// how many there are.
    pub(super) fn order(&self, w: usize, mask: u32) -> ([u8; MAX_CONTEXTS], usize) {
        let mut out = [0u8; MAX_CONTEXTS];
        let mut n = 0;
        for c in (0..MAX_CONTEXTS).filter(|&c| mask & (1 << c) != 0) {
            out[n] = c as u8;
            n += 1;
        }
        if self.used.load(Ordering::Relaxed) {
            let p = &self.prio[w];
            // Stable: equal priorities stay in id order.
            out[..n].sort_by_key(|&c| std::cmp::Reverse(p[c as usize].load(Ordering::Relaxed)));
        }
        (out, n)
    }
}

impl Contexts {
    fn check_member(&self, w: usize, id: u32, what: &str) -> Result<()> {
        if self.get(id).is_none() {
            return Err(Error::invalid(format!(
                "{what}: scheduling context {id} does not exist"
            )));
        }
        if w >= self.nworkers || self.worker_ctxs[w].load(Ordering::SeqCst) & (1 << id) == 0 {
            return Err(Error::invalid(format!(
                "{what}: worker {w} is not in scheduling context {id}"
            )));
        }
        Ok(())
    }
}

pub(crate) fn set_context_worker_priority(
    cs: &Contexts,
    id: u32,
    workers: &[usize],
    prio: u32,
) -> Result<()> {
    let what = "setting a worker's priority in a scheduling context";
    let _g = cs.change.lock().unwrap_or_else(|e| e.into_inner());
    let basic: Vec<usize> = workers
        .iter()
        .copied()
        .filter(|&w| w < cs.nworkers)
        .collect();
    for &w in &basic {
        cs.check_member(w, id, what)?;
    }
    for &w in &basic {
        cs.priorities.prio[w][id as usize].store(prio, Ordering::SeqCst);
    }
    if prio != 0 {
        cs.priorities.used.store(true, Ordering::SeqCst);
    }
    Ok(())
}

pub(crate) fn context_worker_priority(cs: &Contexts, w: usize, id: u32) -> Result<u32> {
    cs.check_member(w, id, "a worker's priority in a scheduling context")?;
    Ok(cs.priorities.prio[w][id as usize].load(Ordering::SeqCst))
}
