//! The copy, map and allocation helpers data interfaces are written with
//! (`starpu_interface_copy*`, `starpu_interface_map`...). A copy goes through the core's
//! transfer engine between the two nodes. Called from an interface's `any_to_any` method
//! with the `async_data` the runtime passed, its regions join the runtime's transfer
//! (asynchronous, as in StarPU); with NULL it is done before returning.

use libc::{c_int, c_uint, c_void, size_t, uintptr_t};
use starpu_core::memory::{Copier, Loc, NodeKind};

/// The `async_data` the core passes to an interface's `any_to_any`: the copier of the
/// transfer being made (StarPU passes its `struct _starpu_async_channel`, which
/// applications only hand back to `starpu_interface_copy*`).
pub struct AsyncCopy<'a>(pub &'a mut dyn Copier);

/// Whether `node` is a memory node of this runtime.
fn node_ok(call: &str, node: c_uint) -> bool {
    let ok = crate::nodes::kind(node as usize).is_some();
    if !ok {
        let e = starpu_core::Error::invalid(format!("memory node {node} does not exist"));
        crate::ffi::report(call, &e);
    }
    ok
}

/// Copies `numblocks` blocks of `blocksize` bytes from `src` + `src_offset` on `src_node`
/// to `dst` + `dst_offset` on `dst_node`: into the caller's transfer (`async_data`), or
/// now.
///
/// # Safety
/// Both regions are valid for that layout; `async_data` is NULL or the core's.
#[allow(clippy::too_many_arguments)]
unsafe fn copy_region(
    call: &str,
    (src, src_offset, src_node): (uintptr_t, size_t, c_uint),
    (dst, dst_offset, dst_node): (uintptr_t, size_t, c_uint),
    (blocksize, numblocks, ld_src, ld_dst): (size_t, size_t, size_t, size_t),
    async_data: *mut c_void,
) -> c_int {
    if !node_ok(call, src_node) || !node_ok(call, dst_node) {
        return -libc::EINVAL;
    }
    // The core's copy2d refuses overlapping blocks (memory::driver::Region::check).
    // StarPU's (handle, offset) pairs: an address in RAM, the device's buffer elsewhere.
    let (s, d) = (Loc::new(0, src, src_offset), Loc::new(0, dst, dst_offset));
    let r = match (async_data as *mut AsyncCopy).as_mut() {
        Some(AsyncCopy(c)) => c.copy2d(s, d, blocksize, numblocks, ld_src, ld_dst),
        None => crate::nodes::memory()
            .transfer(src_node as usize, dst_node as usize, |c| {
                c.copy2d(s, d, blocksize, numblocks, ld_src, ld_dst)
            })
            .and_then(|t| t.wait()),
    };
    match r {
        Ok(()) => 0,
        Err(e) => {
            crate::ffi::report(call, &e);
            -e.errno()
        }
    }
}

/// `starpu_interface_copy`: copies `size` bytes.
///
/// # Safety
/// `src + src_offset` and `dst + dst_offset` are valid for `size` bytes on their nodes.
#[no_mangle]
pub unsafe extern "C" fn starpu_interface_copy(
    src: uintptr_t,
    src_offset: size_t,
    src_node: c_uint,
    dst: uintptr_t,
    dst_offset: size_t,
    dst_node: c_uint,
    size: size_t,
    async_data: *mut c_void,
) -> c_int {
    copy_region(
        "starpu_interface_copy",
        (src, src_offset, src_node),
        (dst, dst_offset, dst_node),
        (size, 1, size, size),
        async_data,
    )
}

/// `starpu_interface_copy2d`: `numblocks` blocks of `blocksize` bytes, `ld_src` / `ld_dst`
/// bytes apart.
///
/// # Safety
/// Both regions are valid for that layout.
#[no_mangle]
pub unsafe extern "C" fn starpu_interface_copy2d(
    src: uintptr_t,
    src_offset: size_t,
    src_node: c_uint,
    dst: uintptr_t,
    dst_offset: size_t,
    dst_node: c_uint,
    blocksize: size_t,
    numblocks: size_t,
    ld_src: size_t,
    ld_dst: size_t,
    async_data: *mut c_void,
) -> c_int {
    copy_region(
        "starpu_interface_copy2d",
        (src, src_offset, src_node),
        (dst, dst_offset, dst_node),
        (blocksize, numblocks, ld_src, ld_dst),
        async_data,
    )
}

/// Runs `copy(src_offset, dst_offset)` for each of `n` groups `ld_src` / `ld_dst` bytes
/// apart (from `first`), up to the first error.
fn each_group(
    (n, ld_src, ld_dst): (size_t, size_t, size_t),
    (src_first, dst_first): (size_t, size_t),
    mut copy: impl FnMut(size_t, size_t) -> c_int,
) -> c_int {
    (0..n)
        .map(|i| copy(src_first + i * ld_src, dst_first + i * ld_dst))
        .find(|&r| r < 0)
        .unwrap_or(0)
}

/// `starpu_interface_copy3d`: `numblocks2` groups, `ld2_*` bytes apart, of the 2D copy.
///
/// # Safety
/// Both regions are valid for that layout.
#[no_mangle]
pub unsafe extern "C" fn starpu_interface_copy3d(
    src: uintptr_t,
    src_offset: size_t,
    src_node: c_uint,
    dst: uintptr_t,
    dst_offset: size_t,
    dst_node: c_uint,
    blocksize: size_t,
    numblocks1: size_t,
    ld1_src: size_t,
    ld1_dst: size_t,
    numblocks2: size_t,
    ld2_src: size_t,
    ld2_dst: size_t,
    async_data: *mut c_void,
) -> c_int {
    let groups = (numblocks2, ld2_src, ld2_dst);
    each_group(groups, (src_offset, dst_offset), |s, d| {
        starpu_interface_copy2d(
            src, s, src_node, dst, d, dst_node, blocksize, numblocks1, ld1_src, ld1_dst, async_data,
        )
    })
}

/// `starpu_interface_copy4d`: `numblocks3` groups, `ld3_*` bytes apart, of the 3D copy.
///
/// # Safety
/// Both regions are valid for that layout.
#[no_mangle]
pub unsafe extern "C" fn starpu_interface_copy4d(
    src: uintptr_t,
    src_offset: size_t,
    src_node: c_uint,
    dst: uintptr_t,
    dst_offset: size_t,
    dst_node: c_uint,
    blocksize: size_t,
    numblocks1: size_t,
    ld1_src: size_t,
    ld1_dst: size_t,
    numblocks2: size_t,
    ld2_src: size_t,
    ld2_dst: size_t,
    numblocks3: size_t,
    ld3_src: size_t,
    ld3_dst: size_t,
    async_data: *mut c_void,
) -> c_int {
    let groups = (numblocks3, ld3_src, ld3_dst);
    each_group(groups, (src_offset, dst_offset), |s, d| {
        starpu_interface_copy3d(
            src, s, src_node, dst, d, dst_node, blocksize, numblocks1, ld1_src, ld1_dst,
            numblocks2, ld2_src, ld2_dst, async_data,
        )
    })
}

/// `starpu_interface_data_copy`: records a copy for traces; this build records none.
#[no_mangle]
pub extern "C" fn starpu_interface_data_copy(src_node: c_uint, dst_node: c_uint, size: size_t) {
    let _ = (src_node, dst_node, size);
}

/// `starpu_interface_start_driver_copy_async`: tracing bracket of an asynchronous copy.
///
/// # Safety
/// `start` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn starpu_interface_start_driver_copy_async(
    _src_node: c_uint,
    _dst_node: c_uint,
    start: *mut f64,
) {
    if let Some(s) = start.as_mut() {
        *s = 0.0;
    }
}

/// `starpu_interface_end_driver_copy_async`.
#[no_mangle]
pub extern "C" fn starpu_interface_end_driver_copy_async(
    _src_node: c_uint,
    _dst_node: c_uint,
    _start: f64,
) {
}

/// `starpu_interface_map`: makes `src` readable from `dst_node` without a copy: main
/// memory to main memory is the same address; device memory is not mappable here
/// (`*ret` = `-ENOSYS`, the runtime then copies, as StarPU does).
///
/// # Safety
/// `ret` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn starpu_interface_map(
    src: uintptr_t,
    src_offset: size_t,
    src_node: c_uint,
    dst_node: c_uint,
    _size: size_t,
    ret: *mut c_int,
) -> uintptr_t {
    let ok = node_ok("starpu_interface_map", src_node) && node_ok("starpu_interface_map", dst_node);
    let ram = |n: c_uint| crate::nodes::kind(n as usize) == Some(NodeKind::CpuRam);
    let mappable = ok && ram(src_node) && ram(dst_node);
    if let Some(r) = ret.as_mut() {
        *r = match (ok, mappable) {
            (false, _) => -libc::EINVAL,
            (true, false) => -libc::ENOSYS,
            (true, true) => 0,
        };
    }
    if mappable {
        src + src_offset
    } else {
        0
    }
}

/// `starpu_interface_unmap`: nothing to undo for main memory.
#[no_mangle]
pub extern "C" fn starpu_interface_unmap(
    _src: uintptr_t,
    _src_offset: size_t,
    src_node: c_uint,
    _dst: uintptr_t,
    dst_node: c_uint,
    _size: size_t,
) -> c_int {
    if node_ok("starpu_interface_unmap", src_node) && node_ok("starpu_interface_unmap", dst_node) {
        0
    } else {
        -libc::EINVAL
    }
}

/// `starpu_interface_update_map`: a mapping of main memory is always up to date.
#[no_mangle]
pub extern "C" fn starpu_interface_update_map(
    _src: uintptr_t,
    _src_offset: size_t,
    src_node: c_uint,
    _dst: uintptr_t,
    _dst_offset: size_t,
    dst_node: c_uint,
    _size: size_t,
) -> c_int {
    if node_ok("starpu_interface_update_map", src_node)
        && node_ok("starpu_interface_update_map", dst_node)
    {
        0
    } else {
        -libc::EINVAL
    }
}

/// `starpu_node_needs_offset`: whether buffers on `node` are handles plus an offset
/// (OpenCL); main memory buffers are plain pointers.
#[no_mangle]
pub extern "C" fn starpu_node_needs_offset(node: c_uint) -> c_int {
    (crate::nodes::kind(node as usize) == Some(NodeKind::OpenCl)) as c_int
}

/// `starpu_hash_crc32c_be_n`.
///
/// # Safety
/// `input` is valid for `n` bytes.
#[no_mangle]
pub unsafe extern "C" fn starpu_hash_crc32c_be_n(
    input: *const c_void,
    n: size_t,
    inputcrc: u32,
) -> u32 {
    if input.is_null() || n == 0 {
        return inputcrc;
    }
    let bytes = std::slice::from_raw_parts(input as *const u8, n);
    starpu_core::data::hash::crc32c_be_n(bytes, inputcrc)
}

/// `starpu_hash_crc32c_be`.
#[no_mangle]
pub extern "C" fn starpu_hash_crc32c_be(input: u32, inputcrc: u32) -> u32 {
    starpu_core::data::hash::crc32c_be(input, inputcrc)
}

/// `starpu_hash_crc32c_string`.
///
/// # Safety
/// `s` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn starpu_hash_crc32c_string(s: *const libc::c_char, inputcrc: u32) -> u32 {
    if s.is_null() {
        return inputcrc;
    }
    starpu_core::data::hash::crc32c_be_n(std::ffi::CStr::from_ptr(s).to_bytes(), inputcrc)
}
