//! Memory nodes and allocation on them.
//!
//! Node 0 is main RAM (`STARPU_MAIN_RAM`). Accelerator nodes (OpenCL, CUDA) will be added
//! with their drivers; everything that moves data already names the node it works on.

use crate::error::{Error, ErrorKind, Result};

pub type NodeId = usize;

/// `STARPU_MAIN_RAM`.
pub const MAIN_RAM: NodeId = 0;

/// Alignment of buffers the runtime allocates (a cache line; enough for any SIMD load).
pub const ALIGNMENT: usize = 64;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeKind {
    CpuRam,
}

impl NodeKind {
    /// StarPU's value for this kind (`enum starpu_node_kind`: `STARPU_CPU_RAM` is 1).
    pub fn starpu_id(self) -> u32 {
        match self {
            NodeKind::CpuRam => 1,
        }
    }
}

/// The memory nodes of this machine. Only main RAM for now.
pub fn node_count() -> usize {
    1
}

/// Checks that memory node `node` exists.
pub fn check_node(node: NodeId) -> crate::error::Result<()> {
    if node < node_count() {
        Ok(())
    } else {
        Err(crate::error::Error::invalid(format!(
            "memory node {node} does not exist"
        )))
    }
}

pub fn node_kind(node: NodeId) -> Option<NodeKind> {
    (node == MAIN_RAM).then_some(NodeKind::CpuRam)
}

/// Allocates `size` bytes on `node`, zero-filled. The result is freed with `free`
/// (RAM buffers are plain `malloc` memory, so C's `free` also works on them).
pub fn alloc(node: NodeId, size: usize) -> Result<usize> {
    match node_kind(node) {
        Some(NodeKind::CpuRam) => alloc_ram(size),
        None => Err(Error::invalid(format!("no memory node {node}"))),
    }
}

pub fn free(node: NodeId, ptr: usize) {
    if ptr != 0 && node_kind(node) == Some(NodeKind::CpuRam) {
        // SAFETY: RAM buffers come from posix_memalign in alloc_ram (or the application's
        // malloc for starpu_malloc'd memory), both released by free.
        unsafe { libc::free(ptr as *mut libc::c_void) };
    }
}

/// Aligned, zeroed RAM allocation; a zero size still yields a unique pointer.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ram_allocation_is_aligned_and_zeroed() {
        let p = alloc(MAIN_RAM, 100).unwrap();
        assert_eq!(p % ALIGNMENT, 0);
        let bytes = unsafe { std::slice::from_raw_parts(p as *const u8, 100) };
        assert!(bytes.iter().all(|&b| b == 0));
        free(MAIN_RAM, p);
        assert!(alloc(7, 10).is_err());
    }
}
