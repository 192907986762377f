//! Packing task arguments (`starpu_codelet_pack_arg*`, `starpu_codelet_unpack_arg*`), in
//! the core's format so every language reads what another packed.

use crate::abi::starpu_codelet_pack_arg_data;
use crate::ffi::report;
use libc::{c_char, c_void, size_t};
use starpu_core::task::args::{self, ArgPacker};
use starpu_core::Error;

/// `starpu_codelet_pack_arg_init`.
///
/// # Safety
/// `state` points to writable memory for the state.
#[no_mangle]
pub unsafe extern "C" fn starpu_codelet_pack_arg_init(state: *mut starpu_codelet_pack_arg_data) {
    if state.is_null() {
        return;
    }
    // The packer lives in arg_buffer until fini turns it into the packed bytes.
    let packer = Box::into_raw(Box::new(ArgPacker::new()));
    *state = starpu_codelet_pack_arg_data {
        arg_buffer: packer as *mut c_char,
        arg_buffer_size: 0,
        current_offset: 0,
        nargs: 0,
    };
}

/// `starpu_codelet_pack_arg`: appends `arg_size` bytes at `ptr`.
///
/// # Safety
/// `state` was initialised by `starpu_codelet_pack_arg_init`; `ptr` holds `arg_size` bytes.
#[no_mangle]
pub unsafe extern "C" fn starpu_codelet_pack_arg(
    state: *mut starpu_codelet_pack_arg_data,
    ptr: *const c_void,
    arg_size: size_t,
) {
    let Some(s) = state.as_mut() else { return };
    let packer = &mut *(s.arg_buffer as *mut ArgPacker);
    let bytes = if arg_size == 0 {
        &[][..]
    } else {
        std::slice::from_raw_parts(ptr as *const u8, arg_size)
    };
    packer.push(bytes);
    s.nargs = packer.nargs();
}

/// `starpu_codelet_pack_arg_fini`: the packed buffer (`malloc`ed, for `cl_arg`).
///
/// # Safety
/// `state` was initialised by `starpu_codelet_pack_arg_init`.
#[no_mangle]
pub unsafe extern "C" fn starpu_codelet_pack_arg_fini(
    state: *mut starpu_codelet_pack_arg_data,
    cl_arg: *mut *mut c_void,
    cl_arg_size: *mut size_t,
) {
    let Some(s) = state.as_mut() else { return };
    let packer = Box::from_raw(s.arg_buffer as *mut ArgPacker);
    let bytes = packer.finish();
    let buf = crate::ffi::malloc_copy(&bytes);
    if !cl_arg.is_null() {
        *cl_arg = buf;
    } else {
        libc::free(buf);
    }
    if !cl_arg_size.is_null() {
        *cl_arg_size = bytes.len();
    }
    s.arg_buffer = std::ptr::null_mut();
}

/// `starpu_codelet_unpack_arg_init`: starts reading a packed buffer (`cl_arg_size` may be
/// `(size_t)-1` when unknown).
///
/// # Safety
/// `cl_arg` is a packed argument buffer.
#[no_mangle]
pub unsafe extern "C" fn starpu_codelet_unpack_arg_init(
    state: *mut starpu_codelet_pack_arg_data,
    cl_arg: *mut c_void,
    cl_arg_size: size_t,
) {
    let Some(s) = state.as_mut() else { return };
    let nargs = if cl_arg.is_null() {
        0
    } else {
        args::count(cl_arg as *const u8)
    };
    *s = starpu_codelet_pack_arg_data {
        arg_buffer: cl_arg as *mut c_char,
        arg_buffer_size: cl_arg_size,
        current_offset: args::FIRST_ARG,
        nargs,
    };
}

/// The next argument of an unpack: its bytes, or an error once all were read.
unsafe fn next(s: &mut starpu_codelet_pack_arg_data) -> Result<&'static [u8], Error> {
    if s.arg_buffer.is_null() || s.nargs <= 0 {
        return Err(Error::invalid("no more packed arguments to unpack"));
    }
    let (bytes, next) = args::arg_at(s.arg_buffer as *const u8, s.current_offset);
    if s.arg_buffer_size != usize::MAX && next > s.arg_buffer_size {
        return Err(Error::invalid("packed argument runs past cl_arg_size"));
    }
    s.current_offset = next;
    s.nargs -= 1;
    Ok(bytes)
}

/// Hands the next argument of an unpack to `f`; reports a missing one for `call`.
unsafe fn with_next(call: &str, state: *mut starpu_codelet_pack_arg_data, f: impl FnOnce(&[u8])) {
    let Some(s) = state.as_mut() else { return };
    match next(s) {
        Ok(bytes) => f(bytes),
        Err(e) => report(call, &e),
    }
}

/// `starpu_codelet_unpack_arg`: copies the next argument (of `size` bytes) into `ptr`.
///
/// # Safety
/// `ptr` has room for `size` bytes.
#[no_mangle]
pub unsafe extern "C" fn starpu_codelet_unpack_arg(
    state: *mut starpu_codelet_pack_arg_data,
    ptr: *mut c_void,
    size: size_t,
) {
    with_next("starpu_codelet_unpack_arg", state, |bytes| {
        if bytes.len() != size {
            report(
                "starpu_codelet_unpack_arg",
                &Error::invalid(format!(
                    "argument was packed with {} bytes, {size} asked",
                    bytes.len()
                )),
            );
        }
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), ptr as *mut u8, bytes.len().min(size));
    });
}

/// Copies the next argument, whatever its size, into `ptr` (for `starpu_codelet_unpack_args`).
///
/// # Safety
/// `ptr` has room for the packed argument.
#[no_mangle]
pub unsafe extern "C" fn _starpu_codelet_unpack_arg_any(
    state: *mut starpu_codelet_pack_arg_data,
    ptr: *mut c_void,
) {
    with_next("starpu_codelet_unpack_args", state, |bytes| {
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), ptr as *mut u8, bytes.len())
    });
}

/// `starpu_codelet_dup_arg`: the next argument in a fresh `malloc`ed copy.
///
/// # Safety
/// `ptr` and `size` are writable.
#[no_mangle]
pub unsafe extern "C" fn starpu_codelet_dup_arg(
    state: *mut starpu_codelet_pack_arg_data,
    ptr: *mut *mut c_void,
    size: *mut size_t,
) {
    with_next("starpu_codelet_dup_arg", state, |bytes| {
        *ptr = crate::ffi::malloc_copy(bytes);
        *size = bytes.len();
    });
}

/// `starpu_codelet_pick_arg`: a pointer to the next argument inside the packed buffer.
///
/// # Safety
/// `ptr` and `size` are writable.
#[no_mangle]
pub unsafe extern "C" fn starpu_codelet_pick_arg(
    state: *mut starpu_codelet_pack_arg_data,
    ptr: *mut *mut c_void,
    size: *mut size_t,
) {
    with_next("starpu_codelet_pick_arg", state, |bytes| {
        *ptr = bytes.as_ptr() as *mut c_void;
        *size = bytes.len();
    });
}

/// `starpu_codelet_unpack_discard_arg`: skips the next argument.
///
/// # Safety
/// `state` is an unpack state.
#[no_mangle]
pub unsafe extern "C" fn starpu_codelet_unpack_discard_arg(
    state: *mut starpu_codelet_pack_arg_data,
) {
    if let Some(s) = state.as_mut() {
        let _ = next(s);
    }
}

/// `starpu_codelet_unpack_arg_fini`.
///
/// # Safety
/// `state` is an unpack state.
#[no_mangle]
pub unsafe extern "C" fn starpu_codelet_unpack_arg_fini(state: *mut starpu_codelet_pack_arg_data) {
    if let Some(s) = state.as_mut() {
        s.nargs = 0;
    }
}
