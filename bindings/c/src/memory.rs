//! Memory allocation helpers (`starpu_stdlib.h`). Main-RAM buffers are plain `malloc`
//! memory (aligned), so `free` also releases them.

use crate::ffi::{int_call, value_call};
use libc::{c_int, c_uint, c_void, size_t, uintptr_t};
use starpu_core::memory;
use starpu_core::Error;
use std::sync::atomic::{AtomicUsize, Ordering};

/// `starpu_malloc_hook`: allocates `dim` bytes on `dst_node` into `*A`; 0 or `-ENOMEM`.
pub type starpu_malloc_hook = Option<
    unsafe extern "C" fn(dst_node: c_uint, a: *mut *mut c_void, dim: size_t, flags: c_int) -> c_int,
>;
/// `starpu_free_hook`: frees what the malloc hook gave.
pub type starpu_free_hook = Option<
    unsafe extern "C" fn(dst_node: c_uint, a: *mut c_void, dim: size_t, flags: c_int) -> c_int,
>;

/// The application's allocation functions (`starpu_malloc_set_hooks`), as addresses (0:
/// none): `starpu_malloc*` and `starpu_free*` on main RAM call them instead of ours.
static MALLOC_HOOK: AtomicUsize = AtomicUsize::new(0);
static FREE_HOOK: AtomicUsize = AtomicUsize::new(0);

fn malloc_hook() -> starpu_malloc_hook {
    let f = MALLOC_HOOK.load(Ordering::Acquire);
    // SAFETY: the address was stored from a function pointer of this very type.
    (f != 0).then(|| unsafe {
        std::mem::transmute::<
            usize,
            unsafe extern "C" fn(c_uint, *mut *mut c_void, size_t, c_int) -> c_int,
        >(f)
    })
}

fn free_hook() -> starpu_free_hook {
    let f = FREE_HOOK.load(Ordering::Acquire);
    // SAFETY: the address was stored from a function pointer of this very type.
    (f != 0).then(|| unsafe {
        std::mem::transmute::<
            usize,
            unsafe extern "C" fn(c_uint, *mut c_void, size_t, c_int) -> c_int,
        >(f)
    })
}

/// `starpu_malloc_set_hooks`: from now on `starpu_malloc*` (and `starpu_malloc_on_node*`
/// for main RAM) allocate with `malloc_hook` and `starpu_free*` free with `free_hook`; NULL
/// goes back to the library's allocator. As in StarPU, set them before allocating, since a
/// buffer must be freed by the allocator that made it. Buffers the runtime allocates for
/// data handles keep the library's allocator (see README, "Not there yet").
#[no_mangle]
pub extern "C" fn starpu_malloc_set_hooks(
    malloc_hook: starpu_malloc_hook,
    free_hook: starpu_free_hook,
) {
    MALLOC_HOOK.store(malloc_hook.map_or(0, |f| f as usize), Ordering::Release);
    FREE_HOOK.store(free_hook.map_or(0, |f| f as usize), Ordering::Release);
}

unsafe fn malloc_into(a: *mut *mut c_void, dim: size_t, flags: c_int) -> starpu_core::Result<()> {
    if a.is_null() {
        return Err(Error::invalid("destination pointer is NULL"));
    }
    if let Some(hook) = malloc_hook() {
        let r = hook(memory::MAIN_RAM as c_uint, a, dim, flags);
        if r != 0 {
            return Err(Error::new(
                starpu_core::ErrorKind::OutOfMemory,
                format!("the application's malloc hook failed ({r}) for {dim} bytes"),
            ));
        }
        return Ok(());
    }
    let pinned = flags as u64 & crate::consts::STARPU_MALLOC_PINNED != 0 && cuda_workers();
    *a = if pinned {
        whole_pages(dim)?
    } else {
        memory::alloc_ram(dim)?
    } as *mut c_void;
    if pinned {
        // Page-locked for asynchronous transfers, where there are CUDA devices.
        if let Err(e) = pin(*a as usize, dim) {
            memory::free_ram(*a as usize);
            *a = std::ptr::null_mut();
            return Err(e);
        }
    }
    Ok(())
}

/// Whether a runtime with CUDA workers runs (pinned memory is only for them, as in StarPU).
fn cuda_workers() -> bool {
    crate::ffi::runtime().is_ok_and(|rt| rt.devices().ncuda() > 0)
}

/// A zeroed main-RAM buffer of whole pages (freed by `free`, as `alloc_ram`'s): CUDA pins
/// whole pages, and two buffers sharing one could not both be pinned.
fn whole_pages(dim: usize) -> starpu_core::Result<usize> {
    // SAFETY: sysconf has no preconditions.
    let page = (unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).max(4096) as usize;
    let size = dim.max(1).div_ceil(page) * page;
    let mut p: *mut c_void = std::ptr::null_mut();
    // SAFETY: posix_memalign writes a valid pointer into p on success.
    if unsafe { libc::posix_memalign(&mut p, page, size) } != 0 || p.is_null() {
        return Err(Error::new(
            starpu_core::ErrorKind::OutOfMemory,
            format!("cannot allocate {dim} bytes of pinned memory"),
        ));
    }
    // SAFETY: p points to size bytes.
    unsafe { std::ptr::write_bytes(p as *mut u8, 0, size) };
    Ok(p as usize)
}

/// Pins `size` bytes at `addr` for CUDA transfers, as StarPU: only while a runtime with
/// CUDA workers runs.
fn pin(addr: usize, size: usize) -> starpu_core::Result<()> {
    #[cfg(feature = "cuda")]
    if cuda_workers() {
        // SAFETY: the caller's buffer holds `size` bytes until it is unpinned.
        unsafe { starpu_core::drivers::cuda::pinned::pin(addr, size)? };
    }
    let _ = (addr, size);
    Ok(())
}

/// Unpins what `pin` pinned at `addr` (nothing otherwise).
fn unpin(addr: usize) {
    #[cfg(feature = "cuda")]
    starpu_core::drivers::cuda::pinned::unpin(addr);
    let _ = addr;
}

/// Frees a main-RAM buffer with the free hook, or ours.
unsafe fn free_ram(a: *mut c_void, dim: size_t, flags: c_int) -> c_int {
    unpin(a as usize);
    match free_hook() {
        Some(hook) => hook(memory::MAIN_RAM as c_uint, a, dim, flags),
        None => {
            memory::free_ram(a as usize);
            0
        }
    }
}

/// `starpu_malloc`: allocates `dim` bytes suitable for data transfers (page-locked while
/// a runtime with CUDA workers runs).
///
/// # Safety
/// `a` is writable.
#[no_mangle]
pub unsafe extern "C" fn starpu_malloc(a: *mut *mut c_void, dim: size_t) -> c_int {
    // StarPU's default: pinned where CUDA workers run.
    let pinned = crate::consts::STARPU_MALLOC_PINNED as c_int;
    int_call("starpu_malloc", || malloc_into(a, dim, pinned))
}

/// `starpu_malloc_flags`: pinning and accounting flags matter only with accelerators.
///
/// # Safety
/// `a` is writable.
#[no_mangle]
pub unsafe extern "C" fn starpu_malloc_flags(
    a: *mut *mut c_void,
    dim: size_t,
    flags: c_int,
) -> c_int {
    int_call("starpu_malloc_flags", || malloc_into(a, dim, flags))
}

/// `starpu_free_noflag`.
///
/// # Safety
/// `a` is NULL or came from `starpu_malloc*`.
#[no_mangle]
pub unsafe extern "C" fn starpu_free_noflag(a: *mut c_void, dim: size_t) -> c_int {
    free_ram(a, dim, 0)
}

/// `starpu_free_flags`.
///
/// # Safety
/// `a` is NULL or came from `starpu_malloc*`.
#[no_mangle]
pub unsafe extern "C" fn starpu_free_flags(a: *mut c_void, dim: size_t, flags: c_int) -> c_int {
    free_ram(a, dim, flags)
}

/// `starpu_free` (StarPU 1.3): frees a buffer from `starpu_malloc`.
///
/// # Safety
/// `a` is NULL or came from `starpu_malloc*`.
#[no_mangle]
pub unsafe extern "C" fn starpu_free(a: *mut c_void) -> c_int {
    // StarPU 1.3's call has no size: a free hook gets 0.
    free_ram(a, 0, 0)
}

/// `starpu_malloc_on_node`: 0 on failure.
#[no_mangle]
pub extern "C" fn starpu_malloc_on_node(node: c_uint, size: size_t) -> uintptr_t {
    starpu_malloc_on_node_flags(node, size, 0)
}

/// `starpu_malloc_on_node_flags`.
#[no_mangle]
pub extern "C" fn starpu_malloc_on_node_flags(
    node: c_uint,
    size: size_t,
    flags: c_int,
) -> uintptr_t {
    value_call("starpu_malloc_on_node", 0, || {
        if node as usize == memory::MAIN_RAM && malloc_hook().is_some() {
            let mut p: *mut c_void = std::ptr::null_mut();
            // SAFETY: `p` is a local the hook writes.
            unsafe { malloc_into(&mut p, size, flags)? };
            return Ok(p as uintptr_t);
        }
        crate::nodes::memory().check(node as usize)?.alloc(size)
    })
}

/// `starpu_free_on_node`.
#[no_mangle]
pub extern "C" fn starpu_free_on_node(node: c_uint, addr: uintptr_t, size: size_t) {
    starpu_free_on_node_flags(node, addr, size, 0)
}

/// `starpu_free_on_node_flags`.
#[no_mangle]
pub extern "C" fn starpu_free_on_node_flags(
    node: c_uint,
    addr: uintptr_t,
    size: size_t,
    flags: c_int,
) {
    if node as usize == memory::MAIN_RAM {
        // SAFETY: the caller passes a buffer from `starpu_malloc_on_node*` on main RAM.
        unsafe { free_ram(addr as *mut c_void, size, flags) };
    } else if let Some(n) = crate::nodes::memory().node(node as usize) {
        n.free(addr, size);
    }
}

/// `starpu_memory_pin`: page-locks memory of the application so that CUDA transfers
/// from and to it run asynchronously (nothing to do without a CUDA device).
#[no_mangle]
pub extern "C" fn starpu_memory_pin(addr: *mut c_void, size: size_t) -> c_int {
    int_call("starpu_memory_pin", || pin(addr as usize, size))
}

/// `starpu_memory_unpin`.
#[no_mangle]
pub extern "C" fn starpu_memory_unpin(addr: *mut c_void, size: size_t) -> c_int {
    let _ = size;
    unpin(addr as usize);
    0
}
