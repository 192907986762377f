//! The C-ABI helpers behind `fstarpu_mpi_mod.f90`, StarPU-MPI's Fortran module.
//!
//! Fortran names a communicator by an `integer` (`MPI_Fint`): each helper turns it into the
//! C `MPI_Comm` (`MPI_Comm_f2c`) and calls the C face. `fstarpu_mpi_task_insert`'s
//! argument array starts with `c_loc(comm)` and the codelet, then the keys as for
//! `fstarpu_task_insert` (read by the same translation, with StarPU-MPI's convention for
//! `FSTARPU_EXECUTE_ON_NODE`: `c_loc` of the rank).

use super::insert::translate_reported;
use super::report;
use crate::mpi::collective::*;
use crate::mpi::init::*;
use crate::mpi::insert::{
    _starpu_mpi_task_insert_args, _STARPU_MPI_BUILD, _STARPU_MPI_INSERT, _STARPU_MPI_POST_BUILD,
};
use crate::mpi::p2p::*;
use crate::mpi::registration::*;
use crate::types::{starpu_data_handle_t, starpu_tag_t, starpu_task};
use libc::{c_int, c_uint, c_void};
use starpu_mpi::ffi::{self, MPI_Comm, MPI_Status};

/// `MPI_Fint`.
pub type MPI_Fint = ffi::RSMPI_Fint;
type CCallback = Option<unsafe extern "C" fn(*mut c_void)>;

fn f2c(c: MPI_Fint) -> MPI_Comm {
    // SAFETY: MPI's conversion of a Fortran communicator handle.
    unsafe { ffi::RSMPI_Comm_f2c(c) }
}

/// Starts StarPU-MPI over the running runtime (`fstarpu_mpi_init` in the module): on
/// `comm` when `comm_present`, else on `MPI_COMM_WORLD`.
#[no_mangle]
pub extern "C" fn fstarpu_mpi_init_fcomm(
    initialize_mpi: c_int,
    comm_present: c_int,
    comm: MPI_Fint,
) -> c_int {
    if comm_present != 0 {
        starpu_mpi_init_comm(
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            initialize_mpi,
            f2c(comm),
        )
    } else {
        starpu_mpi_init(std::ptr::null_mut(), std::ptr::null_mut(), initialize_mpi)
    }
}

/// `MPI_COMM_WORLD`, as Fortran names it.
#[no_mangle]
pub extern "C" fn fstarpu_mpi_world_comm() -> MPI_Fint {
    // SAFETY: MPI's conversion of a constant handle.
    unsafe { ffi::RSMPI_Comm_c2f(ffi::RSMPI_COMM_WORLD) }
}

/// Room for one `starpu_mpi_req`, for `fstarpu_mpi_isend` and friends.
#[no_mangle]
pub extern "C" fn fstarpu_mpi_req_alloc() -> *mut c_void {
    Box::into_raw(Box::new(std::ptr::null_mut::<c_void>())) as *mut c_void
}

/// Frees what `fstarpu_mpi_req_alloc` gave.
///
/// # Safety
/// `req` is NULL or came from `fstarpu_mpi_req_alloc`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_mpi_req_free(req: *mut c_void) {
    if !req.is_null() {
        drop(Box::from_raw(req as *mut *mut c_void));
    }
}

/// Room for one `MPI_Status`.
#[no_mangle]
pub extern "C" fn fstarpu_mpi_status_alloc() -> *mut MPI_Status {
    // SAFETY: MPI_Status is plain data.
    Box::into_raw(Box::new(unsafe { std::mem::zeroed::<MPI_Status>() }))
}

/// Frees what `fstarpu_mpi_status_alloc` gave.
///
/// # Safety
/// `st` is NULL or came from `fstarpu_mpi_status_alloc`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_mpi_status_free(st: *mut MPI_Status) {
    if !st.is_null() {
        drop(Box::from_raw(st));
    }
}

/// Defines `fstarpu_mpi_X(args..., comm: MPI_Fint, more...)` calling `starpu_mpi_X` with
/// the C communicator.
macro_rules! with_fortran_comm {
    ($( $(#[$doc:meta])* fn $f:ident => $c:ident ( $($a:ident : $t:ty),* ; comm ; $($b:ident : $u:ty),* ) -> $r:ty; )*) => {
        $(
            $(#[$doc])*
            ///
            /// # Safety
            /// As the C call.
            #[no_mangle]
            pub unsafe extern "C" fn $f($($a: $t,)* comm: MPI_Fint, $($b: $u),*) -> $r {
                $c($($a,)* f2c(comm), $($b),*)
            }
        )*
    };
}

with_fortran_comm! {
    /// `starpu_mpi_isend`.
    fn fstarpu_mpi_isend => starpu_mpi_isend(h: starpu_data_handle_t, req: *mut starpu_mpi_req, dst: c_int, tag: starpu_mpi_tag_t; comm;) -> c_int;
    /// `starpu_mpi_isend_prio`.
    fn fstarpu_mpi_isend_prio => starpu_mpi_isend_prio(h: starpu_data_handle_t, req: *mut starpu_mpi_req, dst: c_int, tag: starpu_mpi_tag_t, prio: c_int; comm;) -> c_int;
    /// `starpu_mpi_irecv`.
    fn fstarpu_mpi_irecv => starpu_mpi_irecv(h: starpu_data_handle_t, req: *mut starpu_mpi_req, src: c_int, tag: starpu_mpi_tag_t; comm;) -> c_int;
    /// `starpu_mpi_send`.
    fn fstarpu_mpi_send => starpu_mpi_send(h: starpu_data_handle_t, dst: c_int, tag: starpu_mpi_tag_t; comm;) -> c_int;
    /// `starpu_mpi_send_prio`.
    fn fstarpu_mpi_send_prio => starpu_mpi_send_prio(h: starpu_data_handle_t, dst: c_int, tag: starpu_mpi_tag_t, prio: c_int; comm;) -> c_int;
    /// `starpu_mpi_recv`.
    fn fstarpu_mpi_recv => starpu_mpi_recv(h: starpu_data_handle_t, src: c_int, tag: starpu_mpi_tag_t; comm; status: *mut MPI_Status) -> c_int;
    /// `starpu_mpi_isend_detached`.
    fn fstarpu_mpi_isend_detached => starpu_mpi_isend_detached(h: starpu_data_handle_t, dst: c_int, tag: starpu_mpi_tag_t; comm; callback: CCallback, arg: *mut c_void) -> c_int;
    /// `starpu_mpi_isend_detached_prio`.
    fn fstarpu_mpi_isend_detached_prio => starpu_mpi_isend_detached_prio(h: starpu_data_handle_t, dst: c_int, tag: starpu_mpi_tag_t, prio: c_int; comm; callback: CCallback, arg: *mut c_void) -> c_int;
    /// `starpu_mpi_irecv_detached`.
    fn fstarpu_mpi_irecv_detached => starpu_mpi_irecv_detached(h: starpu_data_handle_t, src: c_int, tag: starpu_mpi_tag_t; comm; callback: CCallback, arg: *mut c_void) -> c_int;
    /// `starpu_mpi_irecv_detached` (the name StarPU's module binds).
    fn fstarpu_mpi_recv_detached => starpu_mpi_irecv_detached(h: starpu_data_handle_t, src: c_int, tag: starpu_mpi_tag_t; comm; callback: CCallback, arg: *mut c_void) -> c_int;
    /// `starpu_mpi_irecv_detached_sequential_consistency`.
    fn fstarpu_mpi_irecv_detached_sequential_consistency => starpu_mpi_irecv_detached_sequential_consistency(h: starpu_data_handle_t, src: c_int, tag: starpu_mpi_tag_t; comm; callback: CCallback, arg: *mut c_void, seq: c_int) -> c_int;
    /// `starpu_mpi_issend`.
    fn fstarpu_mpi_issend => starpu_mpi_issend(h: starpu_data_handle_t, req: *mut starpu_mpi_req, dst: c_int, tag: starpu_mpi_tag_t; comm;) -> c_int;
    /// `starpu_mpi_issend_prio`.
    fn fstarpu_mpi_issend_prio => starpu_mpi_issend_prio(h: starpu_data_handle_t, req: *mut starpu_mpi_req, dst: c_int, tag: starpu_mpi_tag_t, prio: c_int; comm;) -> c_int;
    /// `starpu_mpi_issend_detached`.
    fn fstarpu_mpi_issend_detached => starpu_mpi_issend_detached(h: starpu_data_handle_t, dst: c_int, tag: starpu_mpi_tag_t; comm; callback: CCallback, arg: *mut c_void) -> c_int;
    /// `starpu_mpi_issend_detached_prio`.
    fn fstarpu_mpi_issend_detached_prio => starpu_mpi_issend_detached_prio(h: starpu_data_handle_t, dst: c_int, tag: starpu_mpi_tag_t, prio: c_int; comm; callback: CCallback, arg: *mut c_void) -> c_int;
    /// `starpu_mpi_barrier`.
    fn fstarpu_mpi_barrier => starpu_mpi_barrier(; comm;) -> c_int;
    /// `starpu_mpi_wait_for_all`.
    fn fstarpu_mpi_wait_for_all => starpu_mpi_wait_for_all(; comm;) -> c_int;
    /// `starpu_mpi_comm_size`.
    fn fstarpu_mpi_comm_size => starpu_mpi_comm_size(; comm; size: *mut c_int) -> c_int;
    /// `starpu_mpi_comm_rank`.
    fn fstarpu_mpi_comm_rank => starpu_mpi_comm_rank(; comm; rank: *mut c_int) -> c_int;
    /// `starpu_mpi_data_register_comm`.
    fn fstarpu_mpi_data_register_comm => starpu_mpi_data_register_comm(h: starpu_data_handle_t, tag: starpu_mpi_tag_t, rank: c_int; comm;) -> ();
    /// `starpu_mpi_data_set_rank_comm`.
    fn fstarpu_mpi_data_set_rank_comm => starpu_mpi_data_set_rank_comm(h: starpu_data_handle_t, rank: c_int; comm;) -> ();
    /// `starpu_mpi_scatter_detached`.
    fn fstarpu_mpi_scatter_detached => starpu_mpi_scatter_detached(h: *mut starpu_data_handle_t, count: c_int, root: c_int; comm; scallback: CCallback, sarg: *mut c_void, rcallback: CCallback, rarg: *mut c_void) -> c_int;
    /// `starpu_mpi_gather_detached`.
    fn fstarpu_mpi_gather_detached => starpu_mpi_gather_detached(h: *mut starpu_data_handle_t, count: c_int, root: c_int; comm; scallback: CCallback, sarg: *mut c_void, rcallback: CCallback, rarg: *mut c_void) -> c_int;
}

/// Defines `fstarpu_mpi_X(comm: MPI_Fint, args...)` calling `starpu_mpi_X`.
macro_rules! comm_first {
    ($( $(#[$doc:meta])* fn $f:ident => $c:ident ( $($a:ident : $t:ty),* ) -> $r:ty; )*) => {
        $(
            $(#[$doc])*
            #[no_mangle]
            pub extern "C" fn $f(comm: MPI_Fint, $($a: $t),*) -> $r {
                $c(f2c(comm), $($a),*)
            }
        )*
    };
}

comm_first! {
    /// `starpu_mpi_get_data_on_node`.
    fn fstarpu_mpi_get_data_on_node => starpu_mpi_get_data_on_node(h: starpu_data_handle_t, node: c_int) -> c_int;
    /// `starpu_mpi_get_data_on_node_detached`.
    fn fstarpu_mpi_get_data_on_node_detached => starpu_mpi_get_data_on_node_detached(h: starpu_data_handle_t, node: c_int, callback: CCallback, arg: *mut c_void) -> c_int;
    /// `starpu_mpi_get_data_on_all_nodes_detached`.
    fn fstarpu_mpi_get_data_on_all_nodes_detached => starpu_mpi_get_data_on_all_nodes_detached(h: starpu_data_handle_t) -> ();
    /// `starpu_mpi_redux_data`.
    fn fstarpu_mpi_redux_data => starpu_mpi_redux_data(h: starpu_data_handle_t) -> c_int;
    /// `starpu_mpi_redux_data_prio`.
    fn fstarpu_mpi_redux_data_prio => starpu_mpi_redux_data_prio(h: starpu_data_handle_t, prio: c_int) -> c_int;
    /// `starpu_mpi_redux_data_tree`.
    fn fstarpu_mpi_redux_data_tree => starpu_mpi_redux_data_tree(h: starpu_data_handle_t, arity: c_int) -> c_int;
    /// `starpu_mpi_redux_data_prio_tree`.
    fn fstarpu_mpi_redux_data_prio_tree => starpu_mpi_redux_data_prio_tree(h: starpu_data_handle_t, prio: c_int, arity: c_int) -> c_int;
    /// `starpu_mpi_cache_flush`.
    fn fstarpu_mpi_cache_flush => starpu_mpi_cache_flush(h: starpu_data_handle_t) -> ();
    /// `starpu_mpi_cache_flush_all_data`.
    fn fstarpu_mpi_cache_flush_all_data => starpu_mpi_cache_flush_all_data() -> ();
    /// `starpu_mpi_data_migrate`.
    fn fstarpu_mpi_data_migrate => starpu_mpi_data_migrate(h: starpu_data_handle_t, rank: c_int) -> ();
}

/// `starpu_mpi_data_register` (the C macro) on `MPI_COMM_WORLD`.
#[no_mangle]
pub extern "C" fn fstarpu_mpi_data_register(
    h: starpu_data_handle_t,
    tag: starpu_mpi_tag_t,
    rank: c_int,
) {
    // SAFETY: reads a constant handle of the MPI library.
    starpu_mpi_data_register_comm(h, tag, rank, unsafe { ffi::RSMPI_COMM_WORLD })
}

/// `starpu_mpi_data_set_rank` (the C macro) on `MPI_COMM_WORLD`.
#[no_mangle]
pub extern "C" fn fstarpu_mpi_data_set_rank(h: starpu_data_handle_t, rank: c_int) {
    // SAFETY: as above.
    starpu_mpi_data_set_rank_comm(h, rank, unsafe { ffi::RSMPI_COMM_WORLD })
}

/// `starpu_mpi_comm_stats_enable`.
#[no_mangle]
pub extern "C" fn fstarpu_mpi_comm_stats_enable() {
    starpu_mpi_comm_stats_enable()
}

/// `starpu_mpi_comm_stats_disable`.
#[no_mangle]
pub extern "C" fn fstarpu_mpi_comm_stats_disable() {
    starpu_mpi_comm_stats_disable()
}

/// `starpu_mpi_isend_detached_unlock_tag` (the StarPU tag by reference, as Fortran passes it).
///
/// # Safety
/// `tag` points to a `starpu_tag_t`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_mpi_isend_detached_unlock_tag(
    h: starpu_data_handle_t,
    dst: c_int,
    data_tag: starpu_mpi_tag_t,
    comm: MPI_Fint,
    tag: *const starpu_tag_t,
) -> c_int {
    with_tag("fstarpu_mpi_isend_detached_unlock_tag", tag, |t| {
        starpu_mpi_isend_detached_unlock_tag(h, dst, data_tag, f2c(comm), t)
    })
}

/// `starpu_mpi_isend_detached_unlock_tag_prio`.
///
/// # Safety
/// `tag` points to a `starpu_tag_t`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_mpi_isend_detached_unlock_tag_prio(
    h: starpu_data_handle_t,
    dst: c_int,
    data_tag: starpu_mpi_tag_t,
    prio: c_int,
    comm: MPI_Fint,
    tag: *const starpu_tag_t,
) -> c_int {
    with_tag("fstarpu_mpi_isend_detached_unlock_tag_prio", tag, |t| {
        starpu_mpi_isend_detached_unlock_tag_prio(h, dst, data_tag, prio, f2c(comm), t)
    })
}

/// `starpu_mpi_irecv_detached_unlock_tag`.
///
/// # Safety
/// `tag` points to a `starpu_tag_t`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_mpi_irecv_detached_unlock_tag(
    h: starpu_data_handle_t,
    src: c_int,
    data_tag: starpu_mpi_tag_t,
    comm: MPI_Fint,
    tag: *const starpu_tag_t,
) -> c_int {
    with_tag("fstarpu_mpi_irecv_detached_unlock_tag", tag, |t| {
        starpu_mpi_irecv_detached_unlock_tag(h, src, data_tag, f2c(comm), t)
    })
}

/// `starpu_mpi_irecv_detached_unlock_tag` (the name StarPU's module binds).
///
/// # Safety
/// As `fstarpu_mpi_irecv_detached_unlock_tag`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_mpi_recv_detached_unlock_tag(
    h: starpu_data_handle_t,
    src: c_int,
    data_tag: starpu_mpi_tag_t,
    comm: MPI_Fint,
    tag: *const starpu_tag_t,
) -> c_int {
    fstarpu_mpi_irecv_detached_unlock_tag(h, src, data_tag, comm, tag)
}

/// Calls `f` with the StarPU tag `tag` points to (Fortran passes it by reference).
unsafe fn with_tag(
    routine: &str,
    tag: *const starpu_tag_t,
    f: impl FnOnce(starpu_tag_t) -> c_int,
) -> c_int {
    match tag.as_ref() {
        Some(&t) => f(t),
        None => null_tag(routine),
    }
}

fn null_tag(routine: &str) -> c_int {
    report(routine, "the StarPU tag is C_NULL_PTR");
    -libc::EINVAL
}

/// The C communicators of `n` Fortran ones.
unsafe fn comms(n: c_int, fcomms: *const MPI_Fint) -> Option<Vec<MPI_Comm>> {
    if n > 0 && fcomms.is_null() {
        return None;
    }
    Some(
        (0..n.max(0) as usize)
            .map(|i| f2c(*fcomms.add(i)))
            .collect(),
    )
}

/// `starpu_mpi_isend_array_detached_unlock_tag_prio`; `prio` may be NULL.
///
/// # Safety
/// Each array holds `n` entries; `tag` points to a `starpu_tag_t`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_mpi_isend_array_detached_unlock_tag_prio(
    n: c_int,
    h: *mut starpu_data_handle_t,
    dsts: *mut c_int,
    data_tags: *mut starpu_mpi_tag_t,
    prio: *mut c_int,
    fcomms: *const MPI_Fint,
    tag: *const starpu_tag_t,
) -> c_int {
    let routine = "fstarpu_mpi_isend_array_detached_unlock_tag";
    let (Some(mut cs), Some(&t)) = (comms(n, fcomms), tag.as_ref()) else {
        report(
            routine,
            "the communicator array or the StarPU tag is C_NULL_PTR",
        );
        return -libc::EINVAL;
    };
    starpu_mpi_isend_array_detached_unlock_tag_prio(
        n.max(0) as c_uint,
        h,
        dsts,
        data_tags,
        prio,
        cs.as_mut_ptr(),
        t,
    )
}

/// `starpu_mpi_isend_array_detached_unlock_tag`.
///
/// # Safety
/// As `fstarpu_mpi_isend_array_detached_unlock_tag_prio`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_mpi_isend_array_detached_unlock_tag(
    n: c_int,
    h: *mut starpu_data_handle_t,
    dsts: *mut c_int,
    data_tags: *mut starpu_mpi_tag_t,
    fcomms: *const MPI_Fint,
    tag: *const starpu_tag_t,
) -> c_int {
    fstarpu_mpi_isend_array_detached_unlock_tag_prio(
        n,
        h,
        dsts,
        data_tags,
        std::ptr::null_mut(),
        fcomms,
        tag,
    )
}

/// `starpu_mpi_irecv_array_detached_unlock_tag`.
///
/// # Safety
/// As `fstarpu_mpi_isend_array_detached_unlock_tag_prio`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_mpi_irecv_array_detached_unlock_tag(
    n: c_int,
    h: *mut starpu_data_handle_t,
    srcs: *mut c_int,
    data_tags: *mut starpu_mpi_tag_t,
    fcomms: *const MPI_Fint,
    tag: *const starpu_tag_t,
) -> c_int {
    let Some(mut cs) = comms(n, fcomms) else {
        return null_tag("fstarpu_mpi_irecv_array_detached_unlock_tag");
    };
    match tag.as_ref() {
        Some(&t) => starpu_mpi_irecv_array_detached_unlock_tag(
            n.max(0) as c_uint,
            h,
            srcs,
            data_tags,
            cs.as_mut_ptr(),
            t,
        ),
        None => null_tag("fstarpu_mpi_irecv_array_detached_unlock_tag"),
    }
}

/// `fstarpu_mpi_task_insert((/ c_loc(comm), cl, KEY, value..., C_NULL_PTR /))`, with the
/// array's length (from the module's wrapper).
unsafe fn mpi_insert(
    routine: &str,
    action: c_int,
    list: *const *mut c_void,
    n: c_int,
    out: *mut *mut starpu_task,
) -> c_int {
    if list.is_null() || n < 2 {
        report(
            routine,
            "the argument array must start with c_loc(comm) and the codelet",
        );
        return -libc::EINVAL;
    }
    let list = std::slice::from_raw_parts(list, n as usize);
    if list[0].is_null() {
        report(routine, "element 1: c_loc(comm) is C_NULL_PTR");
        return -libc::EINVAL;
    }
    let comm = f2c(*(list[0] as *const MPI_Fint));
    // Elements are counted from the codelet, one less than from the array's start.
    let consequence = "elements counted from the codelet; no task was inserted";
    let check = action == _STARPU_MPI_INSERT;
    let Some((cl, args)) = translate_reported(routine, &list[1..], check, true, consequence) else {
        return -libc::EINVAL;
    };
    _starpu_mpi_task_insert_args(action, comm, cl, args.as_ptr(), args.len() as c_int, out)
}

/// `fstarpu_mpi_task_insert`: 0 or StarPU's negative error code.
///
/// # Safety
/// `list` holds `n` elements following StarPU-MPI's Fortran convention.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_mpi_task_insert_array(
    list: *const *mut c_void,
    n: c_int,
) -> c_int {
    mpi_insert(
        "fstarpu_mpi_task_insert",
        _STARPU_MPI_INSERT,
        list,
        n,
        std::ptr::null_mut(),
    )
}

/// `fstarpu_mpi_task_build`: the task on the process that runs it, NULL elsewhere.
///
/// # Safety
/// As `fstarpu_mpi_task_insert_array`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_mpi_task_build_array(
    list: *const *mut c_void,
    n: c_int,
) -> *mut starpu_task {
    let mut task = std::ptr::null_mut();
    mpi_insert(
        "fstarpu_mpi_task_build",
        _STARPU_MPI_BUILD,
        list,
        n,
        &mut task,
    );
    task
}

/// `fstarpu_mpi_task_post_build`.
///
/// # Safety
/// As `fstarpu_mpi_task_insert_array`.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_mpi_task_post_build_array(
    list: *const *mut c_void,
    n: c_int,
) -> c_int {
    mpi_insert(
        "fstarpu_mpi_task_post_build",
        _STARPU_MPI_POST_BUILD,
        list,
        n,
        std::ptr::null_mut(),
    )
}
