//! Data registered with StarPU-MPI (`starpu_mpi_data_register`): its tag, the rank that
//! owns it, the communicator, and what the communication cache and distributed
//! reductions remember about it.
//!
//! Entries are keyed by handle and keep a clone of it, so a handle's address is not
//! reused while an entry names it; entries of handles unregistered since are ignored and
//! dropped as they are met (the core has no unregistration hook).

use crate::comm::Comm;
use crate::context::Mpi;
use starpu_core::data::registry::AddrMap;
use starpu_core::{DataHandle, Error, Result};
use std::collections::hash_map::Entry as Slot;
use std::collections::{BTreeSet, HashMap};
use std::sync::{Mutex, MutexGuard};

/// The owner rank of data every process has its own copy of (`STARPU_MPI_PER_NODE`):
/// tasks writing it run everywhere, tasks reading it take the local value.
pub const PER_NODE: i32 = -2;

pub(crate) struct Entry {
    handle: DataHandle,
    /// -1: none yet.
    pub tag: i64,
    /// -1: none yet.
    pub rank: i32,
    pub comm: Comm,
    /// Ranks this process sent the current value to (the cache's send side).
    pub sent: BTreeSet<i32>,
    /// This process holds a copy received from the owner, still valid.
    pub received: bool,
    /// Ranks that ran REDUX tasks on the data since its last reduction.
    pub redux: BTreeSet<i32>,
    /// This process (not the owner) set its copy to the neutral element for the
    /// contributions of the current reduction.
    pub redux_started: bool,
}

#[derive(Default)]
pub(crate) struct Registry {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    /// Looked up several times per inserted task: keyed by address with a cheap hash.
    by_handle: AddrMap<Entry>,
    by_tag: HashMap<(Comm, i64), usize>,
    /// Size of `by_handle` after the last sweep of dead entries.
    swept: usize,
}

fn key(h: &DataHandle) -> usize {
    h.as_ptr() as usize
}

impl Inner {
    fn sweep_if_grown(&mut self) {
        if self.by_handle.len() < 2 * self.swept.max(64) {
            return;
        }
        self.by_handle.retain(|_, e| e.handle.is_registered());
        let live = &self.by_handle;
        self.by_tag.retain(|_, k| live.contains_key(k));
        self.swept = self.by_handle.len();
    }

    fn live(&mut self, h: &DataHandle) -> Option<&mut Entry> {
        // One look-up: this runs several times for each inserted task.
        match self.by_handle.entry(key(h)) {
            Slot::Occupied(o) if o.get().handle.ptr_eq(h) && o.get().handle.is_registered() => {
                Some(o.into_mut())
            }
            Slot::Occupied(o) => {
                o.remove();
                None
            }
            Slot::Vacant(_) => None,
        }
    }
}

impl Registry {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `f` on the entry of `h`, if `h` is registered with StarPU-MPI.
    pub(crate) fn with<R>(&self, h: &DataHandle, f: impl FnOnce(&mut Entry) -> R) -> Option<R> {
        self.lock().live(h).map(f)
    }

    /// Every live entry's handle for which `keep` holds.
    pub(crate) fn handles(&self, mut keep: impl FnMut(&Entry) -> bool) -> Vec<DataHandle> {
        self.lock()
            .by_handle
            .values()
            .filter(|e| e.handle.is_registered() && keep(e))
            .map(|e| e.handle.clone())
            .collect()
    }

    pub(crate) fn forget_cache(&self) {
        for e in self.lock().by_handle.values_mut() {
            e.sent.clear();
            e.received = false;
        }
    }

    pub(crate) fn clear(&self) {
        let mut g = self.lock();
        g.by_handle.clear();
        g.by_tag.clear();
    }

    fn register(
        &self,
        h: &DataHandle,
        tag: Option<i64>,
        rank: Option<i32>,
        comm: Comm,
    ) -> Result<()> {
        let mut g = self.lock();
        g.sweep_if_grown();
        if let Some(tag) = tag {
            if let Some(&other) = g.by_tag.get(&(comm, tag)) {
                if other != key(h) {
                    if let Some(e) = g.by_handle.get(&other).filter(|e| e.handle.is_registered()) {
                        return Err(Error::invalid(format!(
                            "tag {tag} is already the tag of data {} on this communicator: \
                             each piece of data needs its own tag",
                            e.handle.label()
                        )));
                    }
                }
            }
        }
        let k = key(h);
        let old_tag = g.live(h).map(|e| (e.comm, e.tag));
        let e = g.by_handle.entry(k).or_insert_with(|| Entry {
            handle: h.clone(),
            tag: -1,
            rank: -1,
            comm,
            sent: BTreeSet::new(),
            received: false,
            redux: BTreeSet::new(),
            redux_started: false,
        });
        if let Some(t) = tag {
            e.tag = t;
        }
        if let Some(r) = rank {
            e.rank = r;
            e.comm = comm;
        }
        let new_tag = (e.comm, e.tag);
        if let Some(old) = old_tag.filter(|o| *o != new_tag) {
            g.by_tag.remove(&old);
        }
        if tag.is_some() {
            g.by_tag.insert(new_tag, k);
        }
        Ok(())
    }
}

impl Mpi {
    /// Registers `h` with tag `tag` and owner `rank` on communicator `comm`
    /// (`starpu_mpi_data_register_comm`); -1 leaves the tag or the rank as it was. Each
    /// piece of data needs its own tag; the rank is one of `comm`'s or `PER_NODE`.
    pub fn data_register(&self, h: &DataHandle, tag: i64, rank: i32, comm: Comm) -> Result<()> {
        if !h.is_registered() {
            return Err(Error::invalid(format!(
                "data {} is not registered",
                h.label()
            )));
        }
        let info = self.info(comm)?;
        if rank != -1 && rank != PER_NODE {
            info.check_rank(rank, "owner")?;
        }
        if tag < -1 {
            return Err(Error::invalid(format!("tag {tag} is negative")));
        }
        self.data.register(
            h,
            (tag != -1).then_some(tag),
            (rank != -1).then_some(rank),
            comm,
        )
    }

    /// The owner rank of `h`, if it has one (`starpu_mpi_data_get_rank`).
    pub fn data_rank(&self, h: &DataHandle) -> Option<i32> {
        self.data.with(h, |e| e.rank).filter(|&r| r != -1)
    }

    /// The tag of `h`, if it has one (`starpu_mpi_data_get_tag`).
    pub fn data_tag(&self, h: &DataHandle) -> Option<i64> {
        self.data.with(h, |e| e.tag).filter(|&t| t != -1)
    }

    /// The communicator `h` was registered on.
    pub fn data_comm(&self, h: &DataHandle) -> Option<Comm> {
        self.data.with(h, |e| e.comm)
    }

    /// The owner and tag of `h`, both needed to move it between processes (`what`: the
    /// operation, for the message).
    pub(crate) fn owner_and_tag(&self, h: &DataHandle, what: &str) -> Result<(i32, i64)> {
        let (rank, tag) = self.data.with(h, |e| (e.rank, e.tag)).ok_or_else(|| {
            Error::invalid(format!(
                "{what}: data {} is not registered with StarPU-MPI (starpu_mpi_data_register \
                 gives it a tag and an owner rank)",
                h.label()
            ))
        })?;
        if rank == -1 {
            return Err(Error::invalid(format!(
                "{what}: data {} has no owner rank (starpu_mpi_data_register)",
                h.label()
            )));
        }
        if tag == -1 {
            return Err(Error::invalid(format!(
                "{what}: data {} has no tag (starpu_mpi_data_register)",
                h.label()
            )));
        }
        Ok((rank, tag))
    }
}
