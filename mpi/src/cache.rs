//! The communication cache (`starpu_mpi_cached_*`, `starpu_mpi_cache_flush*`): a process
//! that received a piece of data keeps using its copy until somebody writes the data, and
//! its owner does not send it to that process again meanwhile. Every process updates its
//! cache at the same points of the (identical) task insertion sequence, so they agree
//! without talking. Data not registered with StarPU-MPI is never cached.

use crate::comm::Comm;
use crate::context::Mpi;
use crate::data::Entry;
use starpu_core::{DataHandle, Result};

/// Forgets both sides of the cache for written data; returns whether this process held a
/// received copy.
fn forget_copies(e: &mut Entry) -> bool {
    e.sent.clear();
    std::mem::replace(&mut e.received, false)
}

impl Mpi {
    /// Whether this process holds a valid copy of `h` received from its owner.
    pub fn cached_receive(&self, h: &DataHandle) -> bool {
        self.cache_enabled() && self.data.with(h, |e| e.received).unwrap_or(false)
    }

    /// Notes that `h` is (being) received; returns whether it was already.
    pub fn cached_receive_set(&self, h: &DataHandle) -> bool {
        if !self.cache_enabled() {
            return false;
        }
        self.data
            .with(h, |e| std::mem::replace(&mut e.received, true))
            .unwrap_or(false)
    }

    /// Forgets the received copy of `h`, which is invalidated.
    pub fn cached_receive_clear(&self, h: &DataHandle) -> Result<()> {
        let had = self.cache_enabled()
            && self
                .data
                .with(h, |e| std::mem::replace(&mut e.received, false))
                .unwrap_or(false);
        if had {
            self.rt.invalidate_submit(h)?;
        }
        Ok(())
    }

    /// Whether `h` was sent to `dest` and not written since.
    pub fn cached_send(&self, h: &DataHandle, dest: i32) -> bool {
        self.cache_enabled()
            && self
                .data
                .with(h, |e| e.sent.contains(&dest))
                .unwrap_or(false)
    }

    /// Notes that `h` is (being) sent to `dest`; returns whether it was already.
    pub fn cached_send_set(&self, h: &DataHandle, dest: i32) -> bool {
        self.cache_enabled() && self.data.with(h, |e| !e.sent.insert(dest)).unwrap_or(false)
    }

    /// `cached_send_clear` then `cached_receive_clear` (with the cache on), with one
    /// look-up: `h` was written.
    pub(crate) fn cached_clear(&self, h: &DataHandle) -> Result<()> {
        let had = self.data.with(h, forget_copies).unwrap_or(false);
        self.invalidate_if(had, h)
    }

    /// The owner of `h` (as `data_rank`) and, when `clear(owner)` holds, `cached_clear`'s
    /// update of the cache in the same look-up (`Some(had)`; the caller ends it with
    /// `invalidate_if`): task insertion asks both of each datum written.
    pub(crate) fn data_rank_then_clear(
        &self,
        h: &DataHandle,
        clear: impl FnOnce(i32) -> bool,
    ) -> (Option<i32>, Option<bool>) {
        self.data
            .with(h, |e| match e.rank {
                -1 => (None, None),
                r => (Some(r), clear(r).then(|| forget_copies(e))),
            })
            .unwrap_or((None, None))
    }

    /// Invalidates this process's copy of `h` when it held one received (`had`).
    pub(crate) fn invalidate_if(&self, had: bool, h: &DataHandle) -> Result<()> {
        if had {
            self.rt.invalidate_submit(h)?;
        }
        Ok(())
    }

    /// Forgets where `h` was sent.
    pub fn cached_send_clear(&self, h: &DataHandle) {
        self.data.with(h, |e| e.sent.clear());
    }

    /// Clears the cache for `h` and invalidates the copy of a process that does not own
    /// it (`starpu_mpi_cache_flush`). Every process calls it at the same point.
    pub fn cache_flush(&self, comm: Comm, h: &DataHandle) -> Result<()> {
        if !self.cache_enabled() {
            return Ok(());
        }
        let me = self.comm_rank(comm)?;
        let owner = self.data.with(h, |e| {
            e.sent.clear();
            e.received = false;
            e.rank
        });
        if owner.is_some_and(|r| r != me && r >= 0) {
            self.rt.invalidate_submit(h)?;
        }
        Ok(())
    }

    /// `cache_flush` for every piece of data the cache holds (`starpu_mpi_cache_flush_all_data`).
    pub fn cache_flush_all_data(&self, comm: Comm) -> Result<()> {
        for h in self.data.handles(|e| e.received || !e.sent.is_empty()) {
            self.cache_flush(comm, &h)?;
        }
        Ok(())
    }
}
