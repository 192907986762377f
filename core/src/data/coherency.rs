//! Keeping a handle's replicas coherent across memory nodes, in StarPU's MSI protocol:
//! each replica is invalid, shared (valid, maybe elsewhere too) or owner (the only valid
//! copy). A read on a node brings the value there from a valid replica (through main RAM
//! when two devices have no direct path); a write makes its node the owner and the others
//! invalid. Transfers run asynchronously: a task's fetch waits for its own, prefetch
//! requests (`request`) start them ahead and the node's queue finishes them.
//!
//! With main RAM as the only node (CPU workers only) none of this moves data: a read finds
//! its replica valid, and the fast paths below cost what they cost before nodes existed.
//!
//! Locking: the handle's coherency lock serialises allocation, copies and state changes.
//! While it is held, an allocation may ask other handles to leave a node: they only
//! `try_lock` theirs. Replicas in use are pinned (`busy`): eviction checks the count after
//! invalidating the replica, and a user pins before checking the state, so one of the two
//! sees the other.

use super::handle::HandleInner;
use super::{AccessMode, DataHandle};
use crate::error::{Error, Result};
use crate::memory::{self, Level, NodeId, Resident, Transfer};
use std::ffi::c_void;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{MutexGuard, Weak};

/// Replica states.
pub(crate) mod msi {
    pub const INVALID: u8 = 0;
    pub const SHARED: u8 = 1;
    pub const OWNER: u8 = 2;
}

/// Requests for nodes the value is not on yet (kept under the coherency lock).
#[derive(Default)]
pub(crate) struct Coherency {
    pending: Vec<Pending>,
}

struct Pending {
    node: NodeId,
    level: Level,
    running: Option<Running>,
}

struct Running {
    transfer: Transfer,
    src: NodeId,
}

impl Coherency {
    fn find(&self, node: NodeId) -> Option<usize> {
        self.pending.iter().position(|p| p.node == node)
    }
}

/// What starting a replica's update did.
enum Step {
    /// The replica holds the value.
    Valid,
    /// A transfer is bringing it (see `Coherency::pending`).
    Running,
    /// No room on the node, and the request may not evict.
    NoRoom,
}

/// The data side's clock for LRU: bumped on each use of a replica on a runtime with
/// devices.
static CLOCK: AtomicU64 = AtomicU64::new(1);

fn tick() -> u64 {
    CLOCK.fetch_add(1, Ordering::Relaxed)
}

impl HandleInner {
    pub(crate) fn lock_coherency(&self) -> MutexGuard<'_, Coherency> {
        self.coherency.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn multi(&self) -> bool {
        self.replicas.len() > 1
    }

    fn resident(&self) -> Weak<dyn Resident> {
        self.me.clone()
    }

    /// Gives the replica on `node` a buffer (evicting other data if `may_evict`).
    fn allocate(&self, node: NodeId, may_evict: bool) -> Result<()> {
        let r = &self.replicas[node];
        let n = self.mem.check(node)?;
        // SAFETY: the description is of ops's type; no task uses this replica yet.
        memory::with_eviction(may_evict, || unsafe { self.ops.allocate(r.desc.ptr(), n) })?;
        r.owned.store(true, Ordering::SeqCst);
        r.allocated.store(true, Ordering::SeqCst);
        n.add_resident(self.resident());
        Ok(())
    }

    /// Frees the runtime's buffer of the replica on `node`.
    fn free_replica(&self, node: NodeId) {
        let r = &self.replicas[node];
        if r.owned.swap(false, Ordering::SeqCst) {
            if let Some(n) = self.mem.node(node) {
                // SAFETY: the runtime allocated this buffer; nothing uses it any more.
                unsafe { self.ops.free(r.desc.ptr(), n) };
                n.remove_resident(&self.resident());
            }
            r.allocated.store(false, Ordering::SeqCst);
        }
    }

    /// The valid replica to copy from to `node`: main RAM if valid, else any with a
    /// direct path, else any (the copy then goes through main RAM).
    fn source_for(&self, node: NodeId) -> Option<NodeId> {
        let valid = |n: &NodeId| *n != node && self.replicas[*n].is_valid();
        let all = 0..self.replicas.len();
        all.clone()
            .filter(valid)
            .find(|&n| n == memory::MAIN_RAM)
            .or_else(|| {
                all.clone()
                    .filter(valid)
                    .find(|&n| self.mem.direct_path(n, node))
            })
            .or_else(|| all.clone().find(valid))
    }

    /// Starts bringing the value to `node` (the lock held): allocates the replica, then
    /// copies from a valid one. `Running` leaves a transfer in `co.pending` for `finish`.
    fn start(&self, co: &mut Coherency, node: NodeId, level: Level) -> Result<Step> {
        let r = &self.replicas[node];
        if r.is_valid() {
            return Ok(Step::Valid);
        }
        if co
            .find(node)
            .is_some_and(|i| co.pending[i].running.is_some())
        {
            return Ok(Step::Running);
        }
        if !r.is_allocated() {
            match self.allocate(node, level.may_evict()) {
                Ok(()) => {}
                Err(_) if !level.may_evict() => return Ok(Step::NoRoom),
                Err(e) => return Err(e),
            }
        }
        let Some(mut src) = self.source_for(node) else {
            // Never written anywhere (no home, no writer yet): the new buffer is the value.
            r.state.store(msi::OWNER, Ordering::SeqCst);
            return Ok(Step::Valid);
        };
        if !self.mem.direct_path(src, node) {
            // Two devices without a direct copy: through main RAM first.
            if let Step::Running = self.start(co, memory::MAIN_RAM, level)? {
                self.finish(co, memory::MAIN_RAM, true)?;
            }
            src = memory::MAIN_RAM;
        }
        let s = &self.replicas[src];
        let ops = self.ops;
        let transfer = self.mem.transfer(src, node, |c| {
            // SAFETY: both replicas are allocated descriptions of the same shape; the
            // source stays pinned and unchanged until the transfer is over.
            unsafe { ops.copy(s.desc.ptr(), r.desc.ptr(), c) }
        })?;
        s.busy.fetch_add(1, Ordering::SeqCst);
        let running = Some(Running { transfer, src });
        match co.find(node) {
            Some(i) => co.pending[i].running = running,
            None => {
                co.pending.push(Pending {
                    node,
                    level,
                    running,
                });
                self.npending.fetch_add(1, Ordering::SeqCst);
            }
        }
        Ok(Step::Running)
    }

    /// Ends the transfer running to `node` if it is over (or, with `wait`, once it is):
    /// the replica becomes shared. True if no transfer is left running there.
    fn finish(&self, co: &mut Coherency, node: NodeId, wait: bool) -> Result<bool> {
        let Some(i) = co.find(node) else {
            return Ok(true);
        };
        let Some(run) = &co.pending[i].running else {
            return Ok(false);
        };
        let outcome = if wait {
            run.transfer.wait()
        } else if run.transfer.done() {
            // A finished transfer may still carry an error.
            run.transfer.wait()
        } else {
            return Ok(false);
        };
        let p = co.pending.swap_remove(i);
        self.npending.fetch_sub(1, Ordering::SeqCst);
        let run = p.running.expect("checked above");
        let s = &self.replicas[run.src];
        s.busy.fetch_sub(1, Ordering::SeqCst);
        self.mem
            .transfer_done(&run.transfer, self as *const HandleInner as u64);
        outcome.map_err(|e| {
            Error::new(
                e.kind,
                format!(
                    "data {}: copy from memory node {} to {node} failed: {}",
                    self.label_of(),
                    run.src,
                    e.message
                ),
            )
        })?;
        let _ =
            s.state
                .compare_exchange(msi::OWNER, msi::SHARED, Ordering::SeqCst, Ordering::SeqCst);
        self.replicas[node]
            .state
            .store(msi::SHARED, Ordering::SeqCst);
        Ok(true)
    }

    /// Waits for every running transfer and drops the queued requests (before a write,
    /// or before the replicas are forgotten).
    fn settle(&self, co: &mut Coherency) -> Result<()> {
        let mut first_err = None;
        while let Some(p) = co.pending.iter().find(|p| p.running.is_some()) {
            let node = p.node;
            if let Err(e) = self.finish(co, node, true) {
                first_err.get_or_insert(e);
            }
        }
        let dropped = co.pending.len();
        co.pending.clear();
        self.npending.fetch_sub(dropped, Ordering::SeqCst);
        first_err.map_or(Ok(()), Err)
    }

    /// Makes the replica on `node` usable for `mode` (the lock held): a write waits for
    /// the transfers in flight, a read brings the value, any access gets a buffer.
    fn make_usable(&self, co: &mut Coherency, node: NodeId, mode: AccessMode) -> Result<()> {
        if mode.writes() && !co.pending.is_empty() {
            self.settle(co)?;
        }
        let r = &self.replicas[node];
        if !mode.reads() {
            if !r.is_allocated() {
                self.allocate(node, true)?;
            }
            return Ok(());
        }
        match self.start(co, node, Level::Fetch)? {
            Step::Valid => Ok(()),
            Step::Running => self.finish(co, node, true).map(drop),
            Step::NoRoom => unreachable!("fetches may evict"),
        }
    }

    /// A name for messages (the handle's label needs a `DataHandle`).
    fn label_of(&self) -> String {
        format!("{:p}", self as *const HandleInner)
    }

    /// Writes the only valid copy on `node` back to the home node (main RAM for data
    /// without home), the lock held. False if it cannot go anywhere.
    fn write_back_from(&self, co: &mut Coherency, node: NodeId) -> bool {
        let target = self.home.unwrap_or(memory::MAIN_RAM);
        if target == node {
            return false;
        }
        match self.start(co, target, Level::Fetch) {
            Ok(Step::Valid) => true,
            Ok(Step::Running) => self.finish(co, target, true).is_ok(),
            _ => false,
        }
    }

    /// Frees the replica on `node` if nothing needs it there; its value goes home first
    /// when it is the only copy. The bytes freed.
    fn evict_locked(&self, co: &mut Coherency, node: NodeId) -> Option<usize> {
        let r = self.replicas.get(node)?;
        if !r.owned.load(Ordering::SeqCst)
            || !r.is_allocated()
            || r.busy.load(Ordering::SeqCst) != 0
            || co.find(node).is_some()
            || self.plan_links.get().is_some()
        {
            return None;
        }
        // Children of a partition point into the buffer.
        match self.children.try_lock() {
            Ok(c) if c.is_empty() => {}
            _ => return None,
        }
        let only_copy = r.is_valid()
            && !self
                .replicas
                .iter()
                .enumerate()
                .any(|(n, o)| n != node && o.is_valid());
        if only_copy && !self.write_back_from(co, node) {
            return None;
        }
        let prev = r.state.swap(msi::INVALID, Ordering::SeqCst);
        r.allocated.store(false, Ordering::SeqCst);
        if r.busy.load(Ordering::SeqCst) != 0 {
            // A user pinned it meanwhile: it stays.
            r.state.store(prev, Ordering::SeqCst);
            r.allocated.store(true, Ordering::SeqCst);
            return None;
        }
        r.allocated.store(true, Ordering::SeqCst);
        self.promote_last_copy();
        let bytes = r.desc.alloc_size();
        self.free_replica(node);
        Some(bytes)
    }

    /// When a single valid replica is left, it is the owner.
    fn promote_last_copy(&self) {
        let mut valid = self.replicas.iter().filter(|o| o.is_valid());
        if let (Some(only), None) = (valid.next(), valid.next()) {
            only.state.store(msi::OWNER, Ordering::SeqCst);
        }
    }
}

impl Resident for HandleInner {
    fn last_used(&self, node: NodeId) -> u64 {
        self.replicas
            .get(node)
            .map_or(0, |r| r.last_used.load(Ordering::Relaxed))
    }

    fn is_clean(&self, node: NodeId) -> bool {
        self.replicas
            .get(node)
            .is_none_or(|r| r.state.load(Ordering::SeqCst) != msi::OWNER)
    }

    fn evict(&self, node: NodeId) -> Option<usize> {
        let mut co = self.coherency.try_lock().ok()?;
        self.evict_locked(&mut co, node)
    }

    fn write_back(&self, node: NodeId) -> bool {
        let Ok(mut co) = self.coherency.try_lock() else {
            return false;
        };
        let r = &self.replicas[node];
        if r.busy.load(Ordering::SeqCst) != 0 || r.state.load(Ordering::SeqCst) != msi::OWNER {
            return false;
        }
        self.write_back_from(&mut co, node)
    }

    fn issue(&self, node: NodeId, _level: Level) -> memory::requests::Issue {
        use memory::requests::Issue;
        // A thread holding the lock may be waiting for a transfer: come back later rather
        // than wait with it.
        let Ok(mut co) = self.coherency.try_lock() else {
            return Issue::Busy;
        };
        let Some(i) = co.find(node) else {
            return Issue::Nothing;
        };
        if co.pending[i].running.is_some() {
            return Issue::Nothing;
        }
        let level = co.pending[i].level;
        let drop_entry = |co: &mut Coherency| {
            if let Some(i) = co.find(node) {
                co.pending.swap_remove(i);
                self.npending.fetch_sub(1, Ordering::SeqCst);
            }
        };
        match self.start(&mut co, node, level) {
            Ok(Step::Running) => Issue::Started,
            Ok(Step::NoRoom) => Issue::NoRoom,
            Ok(Step::Valid) => {
                drop_entry(&mut co);
                Issue::Nothing
            }
            Err(e) => {
                drop_entry(&mut co);
                eprintln!("[starpu] warning: a data request failed: {}", e.message);
                Issue::Nothing
            }
        }
    }

    fn poll(&self, node: NodeId) -> bool {
        let Ok(mut co) = self.coherency.try_lock() else {
            return false;
        };
        match self.finish(&mut co, node, false) {
            Ok(done) => done,
            Err(e) => {
                eprintln!("[starpu] warning: a data prefetch failed: {}", e.message);
                true
            }
        }
    }
}

impl DataHandle {
    /// Makes the replica on `node` usable for an access in `mode` and returns its
    /// description: allocates it if needed, and brings the current value in when the
    /// access reads. Not pinned: for the runtime's own uses (partitioning, reductions).
    pub(crate) fn fetch(&self, node: NodeId, mode: AccessMode) -> Result<*mut c_void> {
        let h = &*self.0;
        let r = &h.replicas[node];
        let ptr = r.desc.ptr() as *mut c_void;
        let reads = mode.reads();
        if ((reads && r.is_valid()) || (!reads && r.is_allocated()))
            && !(mode.writes() && h.npending.load(Ordering::SeqCst) != 0)
        {
            return Ok(ptr);
        }
        h.make_usable(&mut h.lock_coherency(), node, mode)?;
        Ok(ptr)
    }

    /// `fetch` for a task or an acquisition: the replica stays pinned on `node` (never
    /// evicted) until `unpin`.
    pub(crate) fn pin(&self, node: NodeId, mode: AccessMode) -> Result<*mut c_void> {
        let h = &*self.0;
        if !h.multi() {
            return self.fetch(node, mode);
        }
        let r = &h.replicas[node];
        r.busy.fetch_add(1, Ordering::SeqCst);
        r.last_used.store(tick(), Ordering::Relaxed);
        self.fetch(node, mode).inspect_err(|_| {
            r.busy.fetch_sub(1, Ordering::SeqCst);
        })
    }

    /// Ends an access made through `pin`: a write makes `node` the only valid replica.
    pub(crate) fn unpin(&self, node: NodeId, mode: AccessMode) {
        self.after_access(node, mode);
        if self.0.multi() {
            self.0.replicas[node].busy.fetch_sub(1, Ordering::SeqCst);
        }
    }

    /// Records the effect of an access that just ended on `node`: a write makes `node` the
    /// owner and every other replica invalid, then copies it to the write-through nodes.
    pub(crate) fn after_access(&self, node: NodeId, mode: AccessMode) {
        if !mode.writes() {
            return;
        }
        let h = &*self.0;
        let r = &h.replicas[node];
        if !h.multi() {
            // (Written only when it changes: the common case is a read of the line.)
            if r.state.load(Ordering::Relaxed) != msi::OWNER {
                r.state.store(msi::OWNER, Ordering::SeqCst);
            }
            return;
        }
        {
            let _co = h.lock_coherency();
            for (n, other) in h.replicas.iter().enumerate() {
                let s = if n == node { msi::OWNER } else { msi::INVALID };
                other.state.store(s, Ordering::SeqCst);
            }
        }
        let mask = self.wt_mask();
        for n in (0..h.replicas.len()).filter(|&n| n != node && mask & (1 << n) != 0) {
            let _ = self.request(n, Level::TaskPrefetch, 0);
        }
    }

    /// Asks for the value on `node` without waiting (a prefetch at `level`, ordered by
    /// `prio` among the node's requests). Requests for the same node merge; the most
    /// urgent level wins.
    pub fn request(&self, node: NodeId, level: Level, prio: i32) -> Result<()> {
        let h = &*self.0;
        let n = h.mem.check(node)?;
        let r = &h.replicas[node];
        if r.is_valid() {
            return Ok(());
        }
        {
            let mut co = h.lock_coherency();
            if r.is_valid() {
                return Ok(());
            }
            match co.find(node) {
                Some(i) if co.pending[i].level <= level => return Ok(()),
                Some(i) => co.pending[i].level = level,
                None => {
                    co.pending.push(Pending {
                        node,
                        level,
                        running: None,
                    });
                    h.npending.fetch_add(1, Ordering::SeqCst);
                }
            }
        }
        n.request(h.resident(), level, prio);
        Ok(())
    }

    /// Records that `node` holds the current value and no other node does (the children
    /// of a partition were gathered there).
    pub(crate) fn gathered_on(&self, node: NodeId) {
        let h = &*self.0;
        let mut co = h.lock_coherency();
        let _ = h.settle(&mut co);
        for (n, r) in h.replicas.iter().enumerate() {
            let s = if n == node { msi::OWNER } else { msi::INVALID };
            r.state.store(s, Ordering::SeqCst);
        }
    }

    /// Makes sure `node` has a buffer for the data, without bringing the value
    /// (`starpu_data_request_allocation`).
    pub fn allocate_on(&self, node: NodeId) -> Result<()> {
        let h = &*self.0;
        h.mem.check(node)?;
        if h.replicas[node].is_allocated() {
            return Ok(());
        }
        let _co = h.lock_coherency();
        if !h.replicas[node].is_allocated() {
            h.allocate(node, true)?;
        }
        Ok(())
    }

    /// Whether a transfer to `node` is queued or running (`starpu_data_query_status`'s
    /// "requested").
    pub fn is_requested_on(&self, node: NodeId) -> bool {
        self.0.npending.load(Ordering::SeqCst) != 0 && self.0.lock_coherency().find(node).is_some()
    }

    /// Whether a transfer to `node` is running.
    pub fn is_loading_on(&self, node: NodeId) -> bool {
        let co = self.0.lock_coherency();
        co.find(node)
            .is_some_and(|i| co.pending[i].running.is_some())
    }

    /// A new buffer shaped like this data, for a worker's SCRATCH buffer (`scratch.rs`).
    pub(crate) fn scratch(&self, node: NodeId) -> Result<super::interfaces::Description> {
        let d = self.0.replicas[node].desc.duplicate();
        let n = self.0.mem.check(node)?;
        // SAFETY: d is a private copy of a description of ops's type.
        unsafe {
            self.ops().clear_buffers(d.ptr());
            self.ops().allocate(d.ptr(), n)?;
        }
        Ok(d)
    }

    /// Makes sure the data has a buffer on `node` holding its value (used before
    /// partitioning, so children can point into it).
    pub(crate) fn materialize(&self, node: NodeId) -> Result<()> {
        self.fetch(node, AccessMode::R).map(|_| ())
    }

    /// Brings the current value back to the home node, if it is elsewhere.
    pub(crate) fn write_back(&self) {
        let Some(home) = self.home_node() else { return };
        if self.is_valid_on(home) {
            return;
        }
        if let Err(e) = self.fetch(home, AccessMode::R) {
            eprintln!(
                "[starpu] warning: data {}: bringing the value home failed: {}",
                self.label(),
                e.message
            );
        }
    }

    /// Forgets every replica's value (`starpu_data_invalidate`); buffers the runtime
    /// allocated are released.
    pub(crate) fn invalidate(&self) {
        self.forget_value(true);
    }

    /// Makes the value of `h` undefined on every node, keeping the buffers
    /// (`starpu_data_deinitialize`): the handle is as if registered without data, and its
    /// next access must write (or its init codelet runs) before anything reads.
    pub(crate) fn deinitialize(&self) {
        self.forget_value(false);
    }

    /// Marks every replica invalid; frees the runtime's buffers when `free`.
    fn forget_value(&self, free: bool) {
        // (partition plans) Children of plans point into the buffers: they stay.
        let keep = !free || self.nplans() > 0;
        let h = &*self.0;
        let mut co = h.lock_coherency();
        let _ = h.settle(&mut co);
        for (node, r) in h.replicas.iter().enumerate() {
            r.state.store(msi::INVALID, Ordering::SeqCst);
            if !keep {
                h.free_replica(node);
            }
        }
    }

    /// Frees the buffer the runtime allocated on `node` when nothing needs it there
    /// (`starpu_data_evict_from_node`): not the application's buffer, not while a task or
    /// an acquisition uses the handle or children of a partition live in it; a value
    /// found only there goes home first (it cannot leave the home node). True if freed.
    pub(crate) fn evict(&self, node: NodeId) -> bool {
        if self.0.in_flight.load(Ordering::SeqCst) != 0 {
            return false;
        }
        let mut co = self.0.lock_coherency();
        self.0.evict_locked(&mut co, node).is_some()
    }

    /// Tells where the value is wanted no more (`starpu_data_wont_use`): it goes home
    /// when the bus is idle, and its device replicas are the first to leave.
    pub fn wont_use(&self) {
        let h = &*self.0;
        for r in h.replicas.iter() {
            r.last_used.store(0, Ordering::Relaxed);
        }
        let home = self.main_node();
        if h.multi() && !self.is_valid_on(home) {
            let _ = self.request(home, Level::Idle, 0);
        }
    }
}
