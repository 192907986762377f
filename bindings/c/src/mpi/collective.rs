//! Data movements built on transfers: to a process, migration, reductions, scatter and
//! gather, copies.

use super::{call, comm, handle, Callback};
use crate::abi::starpu_data_handle_t;
use crate::ffi;
use libc::{c_int, c_void};
use starpu_core::Result;
use starpu_mpi::ffi::MPI_Comm;

type CCallback = Option<unsafe extern "C" fn(*mut c_void)>;

/// `starpu_mpi_get_data_on_node`.
#[no_mangle]
pub extern "C" fn starpu_mpi_get_data_on_node(
    c: MPI_Comm,
    h: starpu_data_handle_t,
    node: c_int,
) -> c_int {
    call("starpu_mpi_get_data_on_node", |m| {
        m.get_data_on_node(comm(c), &handle(h)?, node)
    })
}

/// `starpu_mpi_get_data_on_node_detached`: `callback(arg)` runs on `node` once the data is there.
#[no_mangle]
pub extern "C" fn starpu_mpi_get_data_on_node_detached(
    c: MPI_Comm,
    h: starpu_data_handle_t,
    node: c_int,
    callback: CCallback,
    arg: *mut c_void,
) -> c_int {
    call("starpu_mpi_get_data_on_node_detached", |m| {
        let then = Callback::new(callback, arg).map(Callback::then);
        m.get_data_on_node_detached(comm(c), &handle(h)?, node, then)
    })
}

/// `starpu_mpi_get_data_on_all_nodes_detached`.
#[no_mangle]
pub extern "C" fn starpu_mpi_get_data_on_all_nodes_detached(c: MPI_Comm, h: starpu_data_handle_t) {
    call("starpu_mpi_get_data_on_all_nodes_detached", |m| {
        m.get_data_on_all_nodes_detached(comm(c), &handle(h)?)
    });
}

/// `starpu_mpi_data_migrate`.
#[no_mangle]
pub extern "C" fn starpu_mpi_data_migrate(c: MPI_Comm, h: starpu_data_handle_t, new_rank: c_int) {
    call("starpu_mpi_data_migrate", |m| {
        m.data_migrate(comm(c), &handle(h)?, new_rank)
    });
}

/// `starpu_mpi_redux_data`.
#[no_mangle]
pub extern "C" fn starpu_mpi_redux_data(c: MPI_Comm, h: starpu_data_handle_t) -> c_int {
    starpu_mpi_redux_data_prio(c, h, 0)
}

/// `starpu_mpi_redux_data_prio`.
#[no_mangle]
pub extern "C" fn starpu_mpi_redux_data_prio(
    c: MPI_Comm,
    h: starpu_data_handle_t,
    prio: c_int,
) -> c_int {
    call("starpu_mpi_redux_data", |m| {
        m.redux_data(comm(c), &handle(h)?, prio)
    })
}

/// `starpu_mpi_redux_data_tree`.
#[no_mangle]
pub extern "C" fn starpu_mpi_redux_data_tree(
    c: MPI_Comm,
    h: starpu_data_handle_t,
    arity: c_int,
) -> c_int {
    starpu_mpi_redux_data_prio_tree(c, h, 0, arity)
}

/// `starpu_mpi_redux_data_prio_tree`.
#[no_mangle]
pub extern "C" fn starpu_mpi_redux_data_prio_tree(
    c: MPI_Comm,
    h: starpu_data_handle_t,
    prio: c_int,
    arity: c_int,
) -> c_int {
    call("starpu_mpi_redux_data_tree", |m| {
        m.redux_data_tree(comm(c), &handle(h)?, prio, arity.max(0) as usize)
    })
}

/// The handles of an array of `count`; NULL entries (data a process does not have) are
/// left out, as StarPU does.
unsafe fn handles(
    h: *mut starpu_data_handle_t,
    count: c_int,
) -> Result<Vec<starpu_core::DataHandle>> {
    if count <= 0 {
        return Ok(Vec::new());
    }
    ffi::non_null(h, "handle array")?;
    std::slice::from_raw_parts(h, count as usize)
        .iter()
        .filter(|x| !x.is_null())
        .map(|&x| handle(x))
        .collect()
}

/// `starpu_mpi_scatter_detached`.
///
/// # Safety
/// `h` holds `count` handles.
#[no_mangle]
pub unsafe extern "C" fn starpu_mpi_scatter_detached(
    h: *mut starpu_data_handle_t,
    count: c_int,
    root: c_int,
    c: MPI_Comm,
    scallback: CCallback,
    sarg: *mut c_void,
    rcallback: CCallback,
    rarg: *mut c_void,
) -> c_int {
    call("starpu_mpi_scatter_detached", |m| {
        let s = Callback::new(scallback, sarg).map(Callback::boxed);
        let r = Callback::new(rcallback, rarg).map(Callback::boxed);
        m.scatter_detached(&handles(h, count)?, root, comm(c), s, r)
    })
}

/// `starpu_mpi_gather_detached`: `rcallback` runs on `root`, `scallback` on the others.
///
/// # Safety
/// `h` holds `count` handles.
#[no_mangle]
pub unsafe extern "C" fn starpu_mpi_gather_detached(
    h: *mut starpu_data_handle_t,
    count: c_int,
    root: c_int,
    c: MPI_Comm,
    scallback: CCallback,
    sarg: *mut c_void,
    rcallback: CCallback,
    rarg: *mut c_void,
) -> c_int {
    call("starpu_mpi_gather_detached", |m| {
        let s = Callback::new(scallback, sarg).map(Callback::boxed);
        let r = Callback::new(rcallback, rarg).map(Callback::boxed);
        m.gather_detached(&handles(h, count)?, root, comm(c), r, s)
    })
}

/// `starpu_mpi_data_cpy`.
#[no_mangle]
pub extern "C" fn starpu_mpi_data_cpy(
    dst: starpu_data_handle_t,
    src: starpu_data_handle_t,
    c: MPI_Comm,
    asynchronous: c_int,
    callback: CCallback,
    arg: *mut c_void,
) -> c_int {
    starpu_mpi_data_cpy_priority(dst, src, c, asynchronous, callback, arg, 0)
}

/// `starpu_mpi_data_cpy_priority`.
#[no_mangle]
pub extern "C" fn starpu_mpi_data_cpy_priority(
    dst: starpu_data_handle_t,
    src: starpu_data_handle_t,
    c: MPI_Comm,
    asynchronous: c_int,
    callback: CCallback,
    arg: *mut c_void,
    _priority: c_int,
) -> c_int {
    call("starpu_mpi_data_cpy", |m| {
        let then = Callback::new(callback, arg).map(Callback::boxed);
        m.data_cpy(
            &handle(dst)?,
            &handle(src)?,
            comm(c),
            asynchronous == 0,
            then,
        )
    })
}
