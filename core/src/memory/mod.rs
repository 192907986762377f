//! Memory nodes: main RAM (node 0, `STARPU_MAIN_RAM`) and one node per accelerator device.
//!
//! Each runtime decides its node table at start ([`Memory`]) and keeps it until it stops.
//! A node has a kind, the driver that owns its memory (a [`NodeDriver`]: allocate, free,
//! copy asynchronously, wait), an allocator that caches freed buffers, counts the bytes in
//! use against the node's limit and evicts the least recently used data when the node is
//! full ([`Resident`]), and a queue of data requests by priority ([`requests`]). The data
//! side (`data/`) keeps one replica per handle and node and asks this module for buffers
//! and transfers; the drivers (`drivers/`) are the only code that sees a device's API.

mod alloc;
mod bus;
pub mod driver;
mod node;
mod ram;
pub mod requests;
mod stats;
pub mod transfer;

pub use crate::config::MemoryLimits as Limits;
pub use alloc::Resident;
pub use bus::BusCosts;
pub use driver::{Completion, Direction, NodeDriver};
pub use node::Node;
pub use requests::Level;
pub use stats::BusStats;
pub use transfer::{Copier, Loc, Transfer};

use crate::error::{Error, ErrorKind, Result};
use std::sync::Arc;

pub type NodeId = usize;

/// `STARPU_MAIN_RAM`.
pub const MAIN_RAM: NodeId = 0;

/// Alignment of buffers the runtime allocates (a cache line; enough for any SIMD load).
pub const ALIGNMENT: usize = 64;

/// Most memory nodes a runtime has (`STARPU_MAXNODES`).
pub const MAX_NODES: usize = 4;

/// What a memory node is (StarPU's `enum starpu_node_kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeKind {
    CpuRam,
    Cuda,
    OpenCl,
}

impl NodeKind {
    /// StarPU's value for this kind (`STARPU_CPU_RAM` is 1, `STARPU_CUDA_RAM` 2,
    /// `STARPU_OPENCL_RAM` 3).
    pub fn starpu_id(self) -> u32 {
        match self {
            NodeKind::CpuRam => 1,
            NodeKind::Cuda => 2,
            NodeKind::OpenCl => 3,
        }
    }

    /// The name StarPU prints for nodes of this kind (`starpu_memory_node_get_name`).
    pub fn prefix(self) -> &'static str {
        match self {
            NodeKind::CpuRam => "NUMA",
            NodeKind::Cuda => "CUDA",
            NodeKind::OpenCl => "OpenCL",
        }
    }
}

/// The memory nodes of one runtime.
pub struct Memory {
    nodes: Vec<Node>,
    /// Bytes moved between each pair of nodes (`STARPU_BUS_STATS`).
    pub stats: BusStats,
    /// What transfers cost, once measured or read (`perfmodel/bus.rs`).
    bus: std::sync::OnceLock<BusCosts>,
    /// Told of every finished transfer (the runtime's trace recorder), once set.
    observer: std::sync::OnceLock<TransferObserver>,
}

/// A finished transfer, as the memory subsystem tells its observer: `bytes` of the data
/// at `handle` (its address) moved from node `src` to `dst` in `micros` µs, ending now.
pub type TransferObserver = Box<dyn Fn(NodeId, NodeId, u64, u64, f64) + Send + Sync>;

impl Memory {
    /// Main RAM alone: the node table of a runtime with CPU workers only.
    pub fn ram_only() -> Memory {
        Memory::new(Vec::new(), Limits::default())
    }

    /// Main RAM, then one node per device driver given (in order: node `i + 1` is
    /// `devices[i]`).
    pub fn new(devices: Vec<Arc<dyn NodeDriver>>, limits: Limits) -> Memory {
        let mut nodes = vec![Node::new(MAIN_RAM, Arc::new(ram::Ram), 0, &limits)];
        let mut per_kind = [0u32; 3];
        for d in devices.into_iter().take(MAX_NODES - 1) {
            let k = d.kind() as usize;
            let id = nodes.len();
            nodes.push(Node::new(id, d, per_kind[k], &limits));
            per_kind[k] += 1;
        }
        let n = nodes.len();
        Memory {
            nodes,
            stats: BusStats::new(n),
            bus: std::sync::OnceLock::new(),
            observer: std::sync::OnceLock::new(),
        }
    }

    /// How many memory nodes there are (`starpu_memory_nodes_get_count`).
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Whether any node is not main RAM: data may then move.
    pub fn has_devices(&self) -> bool {
        self.nodes.len() > 1
    }

    pub fn node(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(id)
    }

    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    pub fn kind(&self, id: NodeId) -> Option<NodeKind> {
        self.nodes.get(id).map(|n| n.kind())
    }

    /// Checks that memory node `id` exists.
    pub fn check(&self, id: NodeId) -> Result<&Node> {
        self.nodes
            .get(id)
            .ok_or_else(|| Error::invalid(format!("memory node {id} does not exist")))
    }

    /// Starts copying what `f` describes from node `src` to node `dst` and returns the
    /// transfer (to wait for, or poll). Fails when the two nodes have no direct path (two
    /// devices of different drivers): go through main RAM.
    pub fn transfer(
        &self,
        src: NodeId,
        dst: NodeId,
        f: impl FnOnce(&mut dyn Copier) -> Result<()>,
    ) -> Result<Transfer> {
        let (s, d) = (self.check(src)?, self.check(dst)?);
        let mut c = transfer::NodeCopier::new(s, d)?;
        f(&mut c)?;
        let t = c.finish();
        self.stats.record(src, dst, t.bytes());
        Ok(t)
    }

    /// Sets who hears of every finished transfer (once; later calls change nothing).
    pub fn observe(&self, f: TransferObserver) {
        let _ = self.observer.set(f);
    }

    /// A transfer is over: its time goes to the bus statistics, and the observer hears of
    /// it (the route's two nodes, its size, the handle it was for).
    pub fn transfer_done(&self, t: &Transfer, handle: u64) {
        let (from, to) = t.route();
        let micros = t.elapsed_us();
        self.stats.add_time(from, to, micros);
        if let Some(f) = self.observer.get() {
            f(from, to, t.bytes() as u64, handle, micros);
        }
    }

    /// The transfer costs, once known (none with main RAM alone).
    pub fn bus(&self) -> Option<&BusCosts> {
        self.bus.get()
    }

    /// Records the transfer costs (set once).
    pub fn set_bus(&self, costs: BusCosts) {
        let _ = self.bus.set(costs);
    }

    /// µs to move `bytes` from `src` to `dst`, through main RAM when there is no direct
    /// path; 0 while costs are unknown.
    pub fn predict_transfer(&self, src: NodeId, dst: NodeId, bytes: usize) -> f64 {
        let Some(b) = self.bus() else { return 0.0 };
        if src == dst || self.direct_path(src, dst) {
            b.predict(src, dst, bytes)
        } else {
            b.predict(src, MAIN_RAM, bytes) + b.predict(MAIN_RAM, dst, bytes)
        }
    }

    /// Whether data can go from `src` to `dst` in one copy.
    pub fn direct_path(&self, src: NodeId, dst: NodeId) -> bool {
        match (self.node(src), self.node(dst)) {
            (Some(s), Some(d)) => transfer::direct(s, d),
            _ => false,
        }
    }

    /// Frees the cached buffers of `node` and writes back dirty data until the clean
    /// share reaches the target (`starpu_memchunk_tidy`).
    pub fn tidy(&self, node: NodeId) -> Result<()> {
        self.check(node)?.tidy();
        Ok(())
    }
}

impl Default for Memory {
    fn default() -> Self {
        Memory::ram_only()
    }
}

thread_local! {
    /// Whether allocations on this thread may evict data (see [`with_eviction`]).
    static MAY_EVICT: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
}

/// Runs `f`, whose allocations evict other data to make room only if `may_evict` (a
/// prefetch waits for free memory instead of pushing out data a task may need).
pub fn with_eviction<R>(may_evict: bool, f: impl FnOnce() -> R) -> R {
    let before = MAY_EVICT.with(|m| m.replace(may_evict));
    let r = f();
    MAY_EVICT.with(|m| m.set(before));
    r
}

pub(crate) fn may_evict() -> bool {
    MAY_EVICT.with(|m| m.get())
}

/// Aligned, zeroed RAM allocation; a zero size still yields a unique pointer. Freed with
/// [`free_ram`] (or C's `free`).
pub fn alloc_ram(size: usize) -> Result<usize> {
    let mut p: *mut libc::c_void = std::ptr::null_mut();
    // SAFETY: posix_memalign writes a valid pointer into p on success.
    let rc = unsafe { libc::posix_memalign(&mut p, ALIGNMENT, size.max(1)) };
    if rc != 0 || p.is_null() {
        return Err(Error::new(
            ErrorKind::OutOfMemory,
            format!("cannot allocate {size} bytes"),
        ));
    }
    // SAFETY: p points to at least size bytes.
    unsafe { std::ptr::write_bytes(p as *mut u8, 0, size) };
    Ok(p as usize)
}

/// Frees a buffer of [`alloc_ram`] (0 is ignored).
pub fn free_ram(ptr: usize) {
    if ptr != 0 {
        // SAFETY: RAM buffers come from posix_memalign in alloc_ram (or the application's
        // malloc for starpu_malloc'd memory), both released by free.
        unsafe { libc::free(ptr as *mut libc::c_void) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ram_allocation_is_aligned_and_zeroed() {
        let mem = Memory::ram_only();
        let ram = mem.node(MAIN_RAM).unwrap();
        let p = ram.alloc(100).unwrap();
        assert_eq!(p % ALIGNMENT, 0);
        let bytes = unsafe { std::slice::from_raw_parts(p as *const u8, 100) };
        assert!(bytes.iter().all(|&b| b == 0));
        ram.free(p, 100);
        assert!(mem.check(7).is_err());
        assert_eq!(mem.node_count(), 1);
        assert!(!mem.has_devices());
    }

    #[test]
    fn ram_to_ram_transfers_copy_strided_regions() {
        let mem = Memory::ram_only();
        let src: Vec<u8> = (0..12).collect();
        let mut dst = vec![0u8; 18];
        let t = mem
            .transfer(MAIN_RAM, MAIN_RAM, |c| {
                c.copy2d(
                    Loc::ptr(src.as_ptr() as usize),
                    Loc::ptr(dst.as_mut_ptr() as usize),
                    4,
                    3,
                    4,
                    6,
                )
            })
            .unwrap();
        assert!(t.done());
        assert_eq!(&dst[6..10], &[4, 5, 6, 7]);
        assert_eq!(&dst[4..6], &[0, 0]);
    }
}
