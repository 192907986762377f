//! Memory allocation helpers (`starpu_stdlib.h`). Main-RAM buffers are plain `malloc`
//! memory (aligned), so `free` also releases them.

use crate::ffi::{int_call, value_call};
use libc::{c_int, c_uint, c_void, size_t, uintptr_t};
use starpu_core::memory;
use starpu_core::Error;

unsafe fn malloc_into(a: *mut *mut c_void, dim: size_t) -> starpu_core::Result<()> {
    if a.is_null() {
        return Err(Error::invalid("destination pointer is NULL"));
    }
    *a = memory::alloc_ram(dim)? as *mut c_void;
    Ok(())
}

/// `starpu_malloc`: allocates `dim` bytes suitable for data transfers.
///
/// # Safety
/// `a` is writable.
#[no_mangle]
pub unsafe extern "C" fn starpu_malloc(a: *mut *mut c_void, dim: size_t) -> c_int {
    int_call("starpu_malloc", || malloc_into(a, dim))
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
    let _ = flags;
    int_call("starpu_malloc_flags", || malloc_into(a, dim))
}

/// `starpu_free_noflag`.
///
/// # Safety
/// `a` is NULL or came from `starpu_malloc*`.
#[no_mangle]
pub unsafe extern "C" fn starpu_free_noflag(a: *mut c_void, dim: size_t) -> c_int {
    let _ = dim;
    memory::free(memory::MAIN_RAM, a as usize);
    0
}

/// `starpu_free_flags`.
///
/// # Safety
/// `a` is NULL or came from `starpu_malloc*`.
#[no_mangle]
pub unsafe extern "C" fn starpu_free_flags(a: *mut c_void, dim: size_t, flags: c_int) -> c_int {
    let _ = (dim, flags);
    memory::free(memory::MAIN_RAM, a as usize);
    0
}

/// `starpu_free` (StarPU 1.3): frees a buffer from `starpu_malloc`.
///
/// # Safety
/// `a` is NULL or came from `starpu_malloc*`.
#[no_mangle]
pub unsafe extern "C" fn starpu_free(a: *mut c_void) -> c_int {
    memory::free(memory::MAIN_RAM, a as usize);
    0
}

/// `starpu_malloc_on_node`: 0 on failure.
#[no_mangle]
pub extern "C" fn starpu_malloc_on_node(node: c_uint, size: size_t) -> uintptr_t {
    value_call("starpu_malloc_on_node", 0, || {
        memory::alloc(node as usize, size)
    })
}

/// `starpu_malloc_on_node_flags`.
#[no_mangle]
pub extern "C" fn starpu_malloc_on_node_flags(
    node: c_uint,
    size: size_t,
    flags: c_int,
) -> uintptr_t {
    let _ = flags;
    starpu_malloc_on_node(node, size)
}

/// `starpu_free_on_node`.
#[no_mangle]
pub extern "C" fn starpu_free_on_node(node: c_uint, addr: uintptr_t, size: size_t) {
    let _ = size;
    memory::free(node as usize, addr);
}

/// `starpu_free_on_node_flags`.
#[no_mangle]
pub extern "C" fn starpu_free_on_node_flags(
    node: c_uint,
    addr: uintptr_t,
    size: size_t,
    flags: c_int,
) {
    let _ = (size, flags);
    memory::free(node as usize, addr);
}

/// `starpu_memory_pin`: pinning speeds up accelerator transfers; with none it is not needed.
#[no_mangle]
pub extern "C" fn starpu_memory_pin(addr: *mut c_void, size: size_t) -> c_int {
    let _ = (addr, size);
    0
}

/// `starpu_memory_unpin`.
#[no_mangle]
pub extern "C" fn starpu_memory_unpin(addr: *mut c_void, size: size_t) -> c_int {
    let _ = (addr, size);
    0
}
