//! One memory node: its driver, its allocator and its request queue.

use super::alloc::{device_limit, Allocator, Resident};
use super::driver::NodeDriver;
use super::requests::{Level, Queue};
use super::Limits;
use super::NodeKind;
use crate::error::Result;
use std::sync::{Arc, Weak};

pub struct Node {
    id: usize,
    kind: NodeKind,
    /// The device number within its kind (StarPU's `devid`).
    devid: u32,
    driver: Arc<dyn NodeDriver>,
    /// Device nodes only: main RAM allocates directly, without cache or limit.
    alloc: Option<Allocator>,
    requests: Queue,
}

impl Node {
    pub(super) fn new(id: usize, driver: Arc<dyn NodeDriver>, devid: u32, limits: &Limits) -> Node {
        let kind = driver.kind();
        let alloc = (kind != NodeKind::CpuRam).then(|| {
            Allocator::new(
                device_limit(limits, kind, devid, driver.total_memory()),
                limits,
            )
        });
        Node {
            id,
            kind,
            devid,
            driver,
            alloc,
            requests: Queue::default(),
        }
    }

    pub fn id(&self) -> usize {
        self.id
    }

    pub fn kind(&self) -> NodeKind {
        self.kind
    }

    pub fn devid(&self) -> u32 {
        self.devid
    }

    pub fn is_ram(&self) -> bool {
        self.kind == NodeKind::CpuRam
    }

    pub(crate) fn driver(&self) -> &dyn NodeDriver {
        &*self.driver
    }

    /// StarPU's name of the node (`starpu_memory_node_get_name`), e.g. `OpenCL 0`.
    pub fn name(&self) -> String {
        format!("{} {}", self.kind.prefix(), self.devid)
    }

    /// A buffer of `size` bytes, evicting other data if the node is full (unless the
    /// caller runs under `with_eviction(false, ..)`).
    pub fn alloc(&self, size: usize) -> Result<usize> {
        self.alloc_with(size, super::may_evict())
    }

    /// A buffer of `size` bytes; without `may_evict`, only free memory is used.
    pub fn alloc_with(&self, size: usize, may_evict: bool) -> Result<usize> {
        match &self.alloc {
            None => self.driver.alloc(size),
            Some(a) => a.alloc(&*self.driver, self.id, size, may_evict),
        }
    }

    /// Gives back a buffer of `alloc` (`size` as asked): device buffers are kept for
    /// reuse until memory runs short or the node is tidied.
    pub fn free(&self, handle: usize, size: usize) {
        if handle == 0 {
            return;
        }
        match &self.alloc {
            // SAFETY: the buffer came from this node's alloc and its user is done with it.
            None => unsafe { self.driver.free(handle) },
            Some(a) => a.free(handle, size),
        }
    }

    /// The address the CPU may use for a buffer of this node (0 on opaque memory).
    pub fn ptr_of(&self, handle: usize) -> usize {
        self.driver.ptr_of(handle)
    }

    /// The byte limit the runtime keeps to on this node (`None`: none).
    pub fn limit(&self) -> Option<usize> {
        self.alloc.as_ref().and_then(|a| a.limit())
    }

    /// Bytes the runtime holds on this node (cached buffers included); 0 for main RAM.
    pub fn used(&self) -> usize {
        self.alloc.as_ref().map_or(0, |a| a.used())
    }

    /// Clean buffers and buffers of data on the node.
    pub fn clean_share(&self) -> (usize, usize) {
        self.alloc
            .as_ref()
            .map_or((0, 0), |a| a.clean_share(self.id))
    }

    /// Data the node may ask to leave when it is full.
    pub fn add_resident(&self, r: Weak<dyn Resident>) {
        if let Some(a) = &self.alloc {
            a.add_resident(r);
        }
    }

    pub fn remove_resident(&self, r: &Weak<dyn Resident>) {
        if let Some(a) = &self.alloc {
            a.remove_resident(r);
        }
    }

    /// Frees the cached buffers, and writes back dirty data if too few buffers are clean
    /// (`starpu_memchunk_tidy`).
    pub fn tidy(&self) {
        if let Some(a) = &self.alloc {
            a.drop_cache(&*self.driver);
            a.keep_clean(self.id);
        }
    }

    /// Frees the cached buffers (the runtime stops).
    pub fn release_cache(&self) {
        if let Some(a) = &self.alloc {
            a.drop_cache(&*self.driver);
        }
        self.requests.clear();
    }

    /// Queues a request to bring `r` here and starts what can start.
    pub fn request(&self, r: Weak<dyn Resident>, level: Level, prio: i32) {
        self.requests.push(r, level, prio);
        self.progress(false);
    }

    /// Follows a transfer started outside the queue until it is over.
    pub fn track(&self, r: Weak<dyn Resident>) {
        self.requests.track(r);
    }

    /// Requests queued or running here.
    pub fn pending_requests(&self) -> usize {
        self.requests.pending()
    }

    /// Requests queued here and not started yet.
    pub fn queued_requests(&self) -> usize {
        self.requests.queued()
    }

    /// Finishes the transfers that are over and starts queued requests; `idle` lets idle
    /// prefetches start.
    pub fn progress(&self, idle: bool) {
        self.requests.progress(self.id, idle);
    }
}
