//! Main RAM's driver: aligned `malloc` buffers, synchronous `memcpy` copies.

use super::driver::{Completion, Direction, NodeDriver, Region};
use super::transfer::Loc;
use super::NodeKind;
use crate::error::Result;

pub(super) struct Ram;

impl NodeDriver for Ram {
    fn kind(&self) -> NodeKind {
        NodeKind::CpuRam
    }

    fn name(&self) -> String {
        "NUMA 0".into()
    }

    fn total_memory(&self) -> Option<usize> {
        None
    }

    fn alloc(&self, size: usize) -> Result<usize> {
        super::alloc_ram(size)
    }

    unsafe fn free(&self, handle: usize) {
        super::free_ram(handle)
    }

    fn ptr_of(&self, handle: usize) -> usize {
        handle
    }

    unsafe fn copy(
        &self,
        _dir: Direction,
        src: Loc,
        dst: Loc,
        r: Region,
    ) -> Result<Option<Box<dyn Completion>>> {
        copy_ram(src.addr(), dst.addr(), r);
        Ok(None)
    }
}

/// Copies a region between two RAM addresses.
///
/// # Safety
/// Both regions are valid for `r` and do not overlap (unless they are the same).
pub(crate) unsafe fn copy_ram(src: usize, dst: usize, r: Region) {
    if src == dst || r.bytes() == 0 {
        return;
    }
    if r.is_contiguous() {
        std::ptr::copy_nonoverlapping(src as *const u8, dst as *mut u8, r.bytes());
        return;
    }
    for b in 0..r.numblocks {
        std::ptr::copy_nonoverlapping(
            (src + b * r.ld_src) as *const u8,
            (dst + b * r.ld_dst) as *mut u8,
            r.blocksize,
        );
    }
}
