//! Allocation on a device node: a cache of freed buffers by size (StarPU's memory chunks),
//! the bytes in use counted against the node's limit, and eviction of the least recently
//! used data when an allocation does not fit.
//!
//! The node does not know data handles: the data side registers each replica it allocates
//! on a device as a [`Resident`], which the node asks to leave (writing its value back
//! first when it is the only copy) or to write back its value (to keep enough buffers
//! clean, `STARPU_MINIMUM_CLEAN_BUFFERS`).

use super::driver::NodeDriver;
use super::Limits;
use crate::error::{Error, ErrorKind, Result};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::Duration;

/// How long a task's fetch waits for room on a full node whose data cannot leave yet.
const EVICTION_PATIENCE: Duration = Duration::from_secs(2);

/// Data with a buffer on a device node, as the node's allocator sees it. Every method
/// must return at once (never wait for a lock another thread may hold while allocating).
pub trait Resident: Send + Sync {
    /// When the data was last used on `node` (a tick of the data side's clock).
    fn last_used(&self, node: usize) -> u64;
    /// Whether the value on `node` is also somewhere else (evicting it loses nothing).
    fn is_clean(&self, node: usize) -> bool;
    /// Frees the data's buffer on `node` if nothing uses it, after writing its value
    /// elsewhere when it is the only copy; the bytes freed, or `None` if it must stay.
    fn evict(&self, node: usize) -> Option<usize>;
    /// Copies the value on `node` to the data's home so the buffer becomes clean; true if
    /// it now is.
    fn write_back(&self, node: usize) -> bool;
    /// Starts the data request queued for `node` at `level` (see `requests.rs`).
    fn issue(&self, node: usize, level: super::Level) -> super::requests::Issue;
    /// Whether the transfer started by `issue` is over (and recorded as such).
    fn poll(&self, node: usize) -> bool;
}

/// The byte limit of device `devid` of `kind` with `total` bytes of memory.
pub(super) fn device_limit(
    limits: &Limits,
    kind: super::NodeKind,
    devid: u32,
    total: Option<usize>,
) -> Option<usize> {
    let (own, kind_wide) = match kind {
        super::NodeKind::OpenCl => (&limits.opencl_devices, limits.opencl),
        super::NodeKind::Cuda => (&limits.cuda_devices, limits.cuda),
        super::NodeKind::CpuRam => return None,
    };
    let own = own.iter().find(|(d, _)| *d == devid).map(|e| e.1);
    own.or(kind_wide).or_else(|| total.map(|t| t / 10 * 9))
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The allocator of one device node.
pub(super) struct Allocator {
    limit: Option<usize>,
    /// Bytes the runtime holds on the node, cached buffers included.
    used: AtomicUsize,
    /// Freed buffers kept for reuse: (size, handle).
    cache: Mutex<Vec<(usize, usize)>>,
    residents: Mutex<Vec<Weak<dyn Resident>>>,
    minimum_clean: u32,
    target_clean: u32,
}

impl Allocator {
    pub(super) fn new(limit: Option<usize>, limits: &Limits) -> Allocator {
        Allocator {
            limit,
            used: AtomicUsize::new(0),
            cache: Mutex::new(Vec::new()),
            residents: Mutex::new(Vec::new()),
            minimum_clean: limits.minimum_clean,
            target_clean: limits.target_clean,
        }
    }

    pub(super) fn limit(&self) -> Option<usize> {
        self.limit
    }

    pub(super) fn used(&self) -> usize {
        self.used.load(Ordering::Acquire)
    }

    fn fits(&self, size: usize) -> bool {
        self.limit.is_none_or(|l| self.used() + size <= l)
    }

    /// A buffer of `size` bytes from `driver`: a cached one of that size, else a new one,
    /// making room first (cached buffers, then with `may_evict` the least recently used
    /// data) when the node is full.
    pub(super) fn alloc(
        &self,
        driver: &dyn NodeDriver,
        node: usize,
        size: usize,
        may_evict: bool,
    ) -> Result<usize> {
        if let Some(h) = self.take_cached(size) {
            return Ok(h);
        }
        let mut last_err = None;
        let (mut waited, mut nap) = (Duration::ZERO, Duration::from_micros(50));
        loop {
            if self.fits(size) {
                // Counted first, so that concurrent allocations do not both fit.
                self.used.fetch_add(size, Ordering::AcqRel);
                match driver.alloc(size) {
                    Ok(h) => return Ok(h),
                    Err(e) => {
                        self.used.fetch_sub(size, Ordering::AcqRel);
                        last_err = Some(e);
                    }
                }
            }
            if self.drop_cache(driver) > 0 {
                continue;
            }
            if may_evict && self.evict_lru(node) > 0 {
                continue;
            }
            // What holds the node may be leaving: data being copied out for a task on
            // another worker, a task about to release its buffers, a handle another thread
            // has locked for a moment (eviction only tries its lock). A task's fetch waits
            // for that, as StarPU retries the request, but not for ever: data that can never
            // fit (a task asking more than the node holds) fails rather than hangs.
            if may_evict && waited < EVICTION_PATIENCE {
                std::thread::sleep(nap);
                waited += nap;
                nap = (nap * 2).min(Duration::from_millis(5));
                continue;
            }
            return Err(last_err.unwrap_or_else(|| {
                Error::new(
                    ErrorKind::OutOfMemory,
                    format!(
                        "memory node {node} is full: {size} bytes asked, {} of {} in use and \
                         nothing can be evicted",
                        self.used(),
                        self.limit.unwrap_or(0)
                    ),
                )
            }));
        }
    }

    /// Keeps a freed buffer for reuse.
    pub(super) fn free(&self, handle: usize, size: usize) {
        lock(&self.cache).push((size, handle));
    }

    fn take_cached(&self, size: usize) -> Option<usize> {
        let mut c = lock(&self.cache);
        let i = c.iter().position(|&(s, _)| s == size)?;
        Some(c.swap_remove(i).1)
    }

    /// Releases every cached buffer; the bytes freed.
    pub(super) fn drop_cache(&self, driver: &dyn NodeDriver) -> usize {
        let cached = std::mem::take(&mut *lock(&self.cache));
        let mut freed = 0;
        for (size, h) in cached {
            // SAFETY: cached buffers came from this driver and nothing uses them.
            unsafe { driver.free(h) };
            self.used.fetch_sub(size, Ordering::AcqRel);
            freed += size;
        }
        freed
    }

    pub(super) fn add_resident(&self, r: Weak<dyn Resident>) {
        lock(&self.residents).push(r);
    }

    pub(super) fn remove_resident(&self, r: &Weak<dyn Resident>) {
        lock(&self.residents).retain(|o| !Weak::ptr_eq(o, r) && o.strong_count() > 0);
    }

    /// The live residents, least recently used first.
    fn residents_lru(&self, node: usize) -> Vec<Arc<dyn Resident>> {
        let mut v: Vec<Arc<dyn Resident>> = {
            let mut rs = lock(&self.residents);
            rs.retain(|r| r.strong_count() > 0);
            rs.iter().filter_map(|r| r.upgrade()).collect()
        };
        v.sort_by_key(|r| r.last_used(node));
        v
    }

    /// Evicts the least recently used data that may go; the bytes freed (one resident's
    /// worth: the caller tries again and comes back if that was not enough).
    fn evict_lru(&self, node: usize) -> usize {
        for r in self.residents_lru(node) {
            if let Some(bytes) = r.evict(node) {
                return bytes.max(1);
            }
        }
        0
    }

    /// How many of the residents are clean, and how many there are.
    pub(super) fn clean_share(&self, node: usize) -> (usize, usize) {
        let rs = self.residents_lru(node);
        (rs.iter().filter(|r| r.is_clean(node)).count(), rs.len())
    }

    /// Writes back dirty data, least recently used first, when fewer than
    /// `minimum_clean`% of the buffers are clean, until `target_clean`% are.
    pub(super) fn keep_clean(&self, node: usize) {
        let rs = self.residents_lru(node);
        let total = rs.len();
        let mut clean = rs.iter().filter(|r| r.is_clean(node)).count();
        // StarPU's integer shares: a few buffers round to no requirement.
        if clean >= total * self.minimum_clean as usize / 100 {
            return;
        }
        for r in rs {
            if clean >= total * self.target_clean as usize / 100 {
                break;
            }
            if !r.is_clean(node) && r.write_back(node) {
                clean += 1;
            }
        }
    }
}
