//! What a memory node's driver does: the per-kind table of node operations. Main RAM has
//! one (`ram.rs`), each OpenCL device one (`drivers/opencl`), CUDA devices will have theirs.
//! A device's own types (`cl_mem`, `cl_event`...) stay inside its driver: buffers are
//! opaque handles (`usize`, StarPU's `dev_handle`), completions are trait objects.

use super::transfer::Loc;
use super::NodeKind;
use crate::error::{Error, Result};

/// Which way a copy a driver makes goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// From main RAM to the driver's node.
    ToDevice,
    /// From the driver's node to main RAM.
    FromDevice,
    /// Between two buffers of the driver's node.
    Within,
}

/// A strided region: `numblocks` blocks of `blocksize` bytes, `ld_src` bytes apart in the
/// source and `ld_dst` bytes apart in the destination (a contiguous copy is one block).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Region {
    pub blocksize: usize,
    pub numblocks: usize,
    pub ld_src: usize,
    pub ld_dst: usize,
}

impl Region {
    pub fn contiguous(size: usize) -> Region {
        Region {
            blocksize: size,
            numblocks: 1,
            ld_src: size,
            ld_dst: size,
        }
    }

    pub fn bytes(&self) -> usize {
        self.blocksize * self.numblocks
    }

    /// Refuses blocks that would overlap on either side (a leading dimension smaller than
    /// the block), as StarPU's copies require.
    pub fn check(&self) -> Result<()> {
        let Region {
            blocksize,
            numblocks,
            ld_src,
            ld_dst,
        } = *self;
        if numblocks > 1 && (ld_src < blocksize || ld_dst < blocksize) {
            return Err(Error::invalid(format!(
                "copy of {numblocks} blocks of {blocksize} bytes with leading dimensions \
                 {ld_src} and {ld_dst}: blocks would overlap"
            )));
        }
        Ok(())
    }

    /// Whether both sides are one contiguous run.
    pub fn is_contiguous(&self) -> bool {
        self.numblocks <= 1 || (self.ld_src == self.blocksize && self.ld_dst == self.blocksize)
    }
}

/// The end of an asynchronous operation a driver started (an OpenCL event).
pub trait Completion: Send + Sync {
    /// Blocks until the operation is over; its error if it failed.
    fn wait(&self) -> Result<()>;
    /// Whether the operation is over, without blocking.
    fn is_done(&self) -> bool;
}

/// The operations on one memory node. Buffers are the driver's handles: an address for
/// memory the CPU can read, an opaque object for the others.
pub trait NodeDriver: Send + Sync {
    fn kind(&self) -> NodeKind;

    /// A name for messages and statistics, e.g. `OpenCL 0 (pthread-skylake)`.
    fn name(&self) -> String;

    /// The device's memory in bytes, if known (bounds what the node lends).
    fn total_memory(&self) -> Option<usize>;

    /// A new buffer of `size` bytes.
    fn alloc(&self, size: usize) -> Result<usize>;

    /// Releases a buffer of `alloc`.
    ///
    /// # Safety
    /// `handle` came from this driver's `alloc` and nothing uses it any more.
    unsafe fn free(&self, handle: usize);

    /// The address the CPU may use for a buffer (StarPU's `ptr` beside `dev_handle`): the
    /// handle itself for addressable memory, 0 for opaque buffers.
    fn ptr_of(&self, handle: usize) -> usize;

    /// Starts copying `region` from `src` to `dst` in `dir`; `None` when the copy is
    /// already complete (synchronous drivers, or nothing to copy).
    ///
    /// # Safety
    /// Both locations are valid for the region on their nodes, and stay so (and the source
    /// unchanged) until the returned completion is over.
    unsafe fn copy(
        &self,
        dir: Direction,
        src: Loc,
        dst: Loc,
        region: Region,
    ) -> Result<Option<Box<dyn Completion>>>;

    /// Whether this driver copies directly to and from `other`'s node (two buffers of one
    /// device: `Within`). Other pairs of devices go through main RAM.
    fn same_device(&self, other: &dyn NodeDriver) -> bool {
        std::ptr::addr_eq(self as *const Self, other as *const dyn NodeDriver)
    }
}
