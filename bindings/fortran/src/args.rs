//! Task arguments and the arrays Fortran hands to `fstarpu_task_insert`:
//! `fstarpu_unpack_arg` (what a kernel reads back of its FSTARPU_VALUE arguments),
//! `fstarpu_codelet_pack_args`, and the handle / descriptor arrays of
//! FSTARPU_DATA_ARRAY and FSTARPU_DATA_MODE_ARRAY.
//!
//! Packing and unpacking go through the C API's incremental calls, so the bytes are the
//! ones `starpu_codelet_unpack_args` reads in C and every other face reads.

use super::capi;
use super::report;
use crate::consts::STARPU_VALUE;
use crate::types::{starpu_codelet_pack_arg_data, starpu_data_descr, starpu_data_handle_t};
use libc::{c_int, c_void, size_t};

fn empty_state() -> starpu_codelet_pack_arg_data {
    starpu_codelet_pack_arg_data {
        arg_buffer: std::ptr::null_mut(),
        arg_buffer_size: 0,
        current_offset: 0,
        nargs: 0,
    }
}

/// `fstarpu_unpack_arg(cl_args, (/ c_loc(a), c_loc(b), ... /))`: copies the packed
/// arguments, in order, into the variables; stops at the first C_NULL_PTR or at the end
/// of the list (`n` elements), whichever comes first.
///
/// # Safety
/// `cl_arg` is a packed argument buffer; `targets` holds `n` pointers, each to a variable
/// as large as the argument packed at its place.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_unpack_arg_list(
    cl_arg: *mut c_void,
    targets: *const *mut c_void,
    n: c_int,
) {
    const ROUTINE: &str = "fstarpu_unpack_arg";
    let wanted = if targets.is_null() {
        0
    } else {
        std::slice::from_raw_parts(targets, n.max(0) as usize)
            .iter()
            .take_while(|t| !t.is_null())
            .count()
    };
    if wanted == 0 {
        return;
    }
    if cl_arg.is_null() {
        report(
            ROUTINE,
            "the task carries no packed arguments (cl_args is NULL)",
        );
        return;
    }
    let mut state = empty_state();
    capi::starpu_codelet_unpack_arg_init(&mut state, cl_arg, size_t::MAX);
    let packed = state.nargs.max(0) as usize;
    if wanted > packed {
        report(
            ROUTINE,
            format_args!("{wanted} variables given but only {packed} arguments were packed; the first {packed} are filled"),
        );
    }
    for k in 0..wanted.min(packed) {
        let mut p: *mut c_void = std::ptr::null_mut();
        let mut size: size_t = 0;
        capi::starpu_codelet_pick_arg(&mut state, &mut p, &mut size);
        if !p.is_null() {
            std::ptr::copy_nonoverlapping(p as *const u8, *targets.add(k) as *mut u8, size);
        }
    }
    capi::starpu_codelet_unpack_arg_fini(&mut state);
}

/// `fstarpu_codelet_pack_args(cl_arg, cl_arg_size, (/ FSTARPU_VALUE, c_loc(x), FSTARPU_SZ_..., ...,
/// C_NULL_PTR /))`: C's `starpu_codelet_pack_args`; the buffer is `malloc`ed (give it to a
/// task with FSTARPU_CL_ARGS, which frees it). 0, or -EINVAL when the list is malformed
/// (nothing is allocated then).
///
/// # Safety
/// `list` holds `n` elements: FSTARPU_VALUE, pointer, size triples and a terminator.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_codelet_pack_args_list(
    cl_arg: *mut *mut c_void,
    cl_arg_size: *mut size_t,
    list: *const *mut c_void,
    n: c_int,
) -> c_int {
    const ROUTINE: &str = "fstarpu_codelet_pack_args";
    let list = if list.is_null() {
        &[][..]
    } else {
        std::slice::from_raw_parts(list, n.max(0) as usize)
    };
    // Check the whole list before packing anything.
    let mut values = Vec::new();
    let mut at = 0;
    loop {
        match list.get(at) {
            None => {
                report(
                    ROUTINE,
                    format_args!(
                        "no C_NULL_PTR terminator within the {} elements",
                        list.len()
                    ),
                );
                return -libc::EINVAL;
            }
            Some(k) if k.is_null() => break,
            Some(&k) if k as isize == STARPU_VALUE as isize && at + 2 < list.len() => {
                values.push((list[at + 1], list[at + 2] as usize));
                at += 3;
            }
            Some(_) => {
                report(
                    ROUTINE,
                    format_args!(
                        "element {}: expected FSTARPU_VALUE, c_loc(variable), its size",
                        at + 1
                    ),
                );
                return -libc::EINVAL;
            }
        }
    }
    let mut state = empty_state();
    capi::starpu_codelet_pack_arg_init(&mut state);
    for (p, size) in values {
        capi::starpu_codelet_pack_arg(&mut state, p, size);
    }
    capi::starpu_codelet_pack_arg_fini(&mut state, cl_arg, cl_arg_size);
    0
}

/// `fstarpu_data_handle_array_alloc(nb)`: an array of `nb` NULL handles.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_data_handle_array_alloc(nb: c_int) -> *mut starpu_data_handle_t {
    libc::calloc(
        nb.max(1) as usize,
        std::mem::size_of::<starpu_data_handle_t>(),
    ) as *mut _
}

/// `fstarpu_data_handle_array_free`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_data_handle_array_free(handles: *mut starpu_data_handle_t) {
    libc::free(handles as *mut c_void);
}

/// `fstarpu_data_handle_array_set(handles, i, handle)` (`i` from 0, as in C).
///
/// # Safety
/// `handles` has more than `i` entries.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_data_handle_array_set(
    handles: *mut starpu_data_handle_t,
    i: c_int,
    h: starpu_data_handle_t,
) {
    if handles.is_null() || i < 0 {
        report(
            "fstarpu_data_handle_array_set",
            format_args!("no entry {i}"),
        );
        return;
    }
    *handles.add(i as usize) = h;
}

/// `fstarpu_data_descr_array_alloc(nb)`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_data_descr_array_alloc(nb: c_int) -> *mut starpu_data_descr {
    libc::calloc(nb.max(1) as usize, std::mem::size_of::<starpu_data_descr>()) as *mut _
}

/// `fstarpu_data_descr_alloc()`: one descriptor.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_data_descr_alloc() -> *mut starpu_data_descr {
    fstarpu_data_descr_array_alloc(1)
}

/// `fstarpu_data_descr_array_free`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_data_descr_array_free(descrs: *mut starpu_data_descr) {
    libc::free(descrs as *mut c_void);
}

/// `fstarpu_data_descr_free` (StarPU's module calls it `fstarpu_data_descrg_free`).
#[no_mangle]
pub unsafe extern "C" fn fstarpu_data_descr_free(descr: *mut starpu_data_descr) {
    libc::free(descr as *mut c_void);
}

/// `fstarpu_data_descr_array_set(descrs, i, handle, mode)` (`i` from 0).
///
/// # Safety
/// `descrs` has more than `i` entries.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_data_descr_array_set(
    descrs: *mut starpu_data_descr,
    i: c_int,
    h: starpu_data_handle_t,
    mode: isize,
) {
    if descrs.is_null() || i < 0 {
        report("fstarpu_data_descr_array_set", format_args!("no entry {i}"));
        return;
    }
    *descrs.add(i as usize) = starpu_data_descr {
        handle: h,
        mode: mode as u32,
    };
}

/// `fstarpu_data_descr_set(descr, handle, mode)`.
///
/// # Safety
/// `descr` points to a descriptor.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_data_descr_set(
    descr: *mut starpu_data_descr,
    h: starpu_data_handle_t,
    mode: isize,
) {
    fstarpu_data_descr_array_set(descr, 0, h, mode);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value_key() -> *mut c_void {
        STARPU_VALUE as isize as *mut c_void
    }

    #[test]
    fn packed_values_unpack_in_order_and_stop_at_null() {
        let a: i32 = 7;
        let b: f64 = 2.5;
        let list = [
            value_key(),
            &a as *const i32 as *mut c_void,
            4usize as *mut c_void,
            value_key(),
            &b as *const f64 as *mut c_void,
            8usize as *mut c_void,
            std::ptr::null_mut(),
        ];
        let mut buf: *mut c_void = std::ptr::null_mut();
        let mut size: size_t = 0;
        unsafe {
            assert_eq!(
                fstarpu_codelet_pack_args_list(
                    &mut buf,
                    &mut size,
                    list.as_ptr(),
                    list.len() as c_int
                ),
                0
            );
            let (mut x, mut y): (i32, f64) = (0, 0.0);
            let targets = [
                &mut x as *mut i32 as *mut c_void,
                &mut y as *mut f64 as *mut c_void,
            ];
            fstarpu_unpack_arg_list(buf, targets.as_ptr(), 2);
            assert_eq!((x, y), (7, 2.5));
            // Only the first: the list stops at NULL.
            let mut z: i32 = 0;
            let first = [&mut z as *mut i32 as *mut c_void, std::ptr::null_mut()];
            fstarpu_unpack_arg_list(buf, first.as_ptr(), 2);
            assert_eq!(z, 7);
            libc::free(buf);
        }
    }

    #[test]
    fn a_malformed_pack_list_allocates_nothing() {
        let a: i32 = 1;
        let list = [
            value_key(),
            &a as *const i32 as *mut c_void,
            4usize as *mut c_void,
        ];
        let mut buf: *mut c_void = std::ptr::null_mut();
        let mut size: size_t = 0;
        unsafe {
            assert_eq!(
                fstarpu_codelet_pack_args_list(&mut buf, &mut size, list.as_ptr(), 3),
                -libc::EINVAL
            );
        }
        assert!(buf.is_null());
    }
}
