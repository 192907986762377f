//! Pinned (page-locked) main memory: what `starpu_malloc` gives with
//! `STARPU_MALLOC_PINNED` when there are CUDA devices, so that copies to and from them
//! run asynchronously through DMA. Buffers are ordinary aligned allocations registered
//! with the driver (`cuMemHostRegister`, portable to every context), so `free` still
//! releases them once unregistered.

use super::error::check;
use crate::error::Result;
use cudarc::driver::sys;
use std::collections::HashSet;
use std::sync::Mutex;

/// The addresses registered here, to unregister before they are freed.
static PINNED: Mutex<Option<HashSet<usize>>> = Mutex::new(None);

/// Pins `size` bytes at `addr`; false (and nothing done) without a CUDA device, or when
/// they are pinned already.
///
/// # Safety
/// `addr` holds `size` bytes until `unpin`.
pub unsafe fn pin(addr: usize, size: usize) -> Result<bool> {
    let Some(d) = super::all().first() else {
        return Ok(false);
    };
    if addr == 0 || size == 0 {
        return Ok(false);
    }
    d.bind()?;
    let flags = sys::CU_MEMHOSTREGISTER_PORTABLE;
    let r = sys::cuMemHostRegister_v2(addr as *mut std::ffi::c_void, size, flags);
    // Pages pinned already (another buffer of the application in the same pages): the
    // copies are asynchronous all the same, and that pinning is not ours to undo.
    if r == sys::CUresult::CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED {
        return Ok(false);
    }
    check(r, &format!("pinning {size} bytes of main memory"))?;
    PINNED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert_with(HashSet::new)
        .insert(addr);
    Ok(true)
}

/// Unpins memory `pin` pinned at `addr`; false if it was not pinned here.
pub fn unpin(addr: usize) -> bool {
    let was = PINNED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_mut()
        .is_some_and(|s| s.remove(&addr));
    if was {
        if let Some(d) = super::all().first() {
            if d.bind().is_ok() {
                // SAFETY: registered by `pin`, unregistered once.
                unsafe {
                    let _ = sys::cuMemHostUnregister(addr as *mut std::ffi::c_void);
                }
            }
        }
    }
    was
}
