//! Point-to-point transfers of data handles, requests, barriers.

use super::{call, comm, handle, Callback};
use crate::abi::{starpu_data_handle_t, starpu_tag_t};
use crate::ffi;
use libc::{c_int, c_uint, c_void};
use starpu_core::{Error, Result};
use starpu_mpi::ffi::{MPI_Comm, MPI_Status};
use starpu_mpi::{Request, Status, Then, Transfer};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// `starpu_mpi_req`: a boxed `Request`, freed by the wait or test that sees its end.
pub type starpu_mpi_req = *mut c_void;
/// `starpu_mpi_tag_t`.
pub type starpu_mpi_tag_t = i64;
type CCallback = Option<unsafe extern "C" fn(*mut c_void)>;

fn transfer(c: MPI_Comm, prio: c_int, sync: bool) -> Transfer {
    Transfer {
        prio,
        sync,
        ..Transfer::on(comm(c))
    }
}

/// Fills an `MPI_Status` (unless `MPI_STATUS_IGNORE`) from a transfer's status.
unsafe fn fill(status: *mut MPI_Status, s: &Status) {
    if let Some(st) = status.as_mut() {
        st.MPI_SOURCE = s.source;
        st.MPI_TAG = s.tag as c_int;
        st.MPI_ERROR = 0;
        st._ucount = s.size;
    }
}

unsafe fn store(req: *mut starpu_mpi_req, r: Request) -> Result<()> {
    ffi::non_null(req, "request pointer")?;
    *req = Box::into_raw(Box::new(r)) as starpu_mpi_req;
    Ok(())
}

/// A transfer's direction.
#[derive(Clone, Copy)]
enum Dir {
    Send,
    Recv,
}

/// Posts a send or a receive whose request goes to `*req`.
unsafe fn post(
    name: &str,
    dir: Dir,
    h: starpu_data_handle_t,
    req: *mut starpu_mpi_req,
    peer: c_int,
    tag: starpu_mpi_tag_t,
    t: Transfer,
) -> c_int {
    call(name, |m| {
        ffi::non_null(req, "request pointer")?;
        let h = handle(h)?;
        let r = match dir {
            Dir::Send => m.isend(&h, peer, tag, &t)?,
            Dir::Recv => m.irecv(&h, peer, tag, &t)?,
        };
        store(req, r)
    })
}

fn send(
    name: &str,
    h: starpu_data_handle_t,
    dest: c_int,
    tag: starpu_mpi_tag_t,
    t: Transfer,
) -> c_int {
    call(name, |m| m.send(&handle(h)?, dest, tag, &t))
}

unsafe fn recv(
    name: &str,
    h: starpu_data_handle_t,
    source: c_int,
    tag: starpu_mpi_tag_t,
    t: Transfer,
    status: *mut MPI_Status,
) -> c_int {
    call(name, |m| {
        let s = m.recv(&handle(h)?, source, tag, &t)?;
        fill(status, &s);
        Ok(())
    })
}

fn isend_detached(
    name: &str,
    h: starpu_data_handle_t,
    dest: c_int,
    tag: starpu_mpi_tag_t,
    t: Transfer,
    then: Option<Then>,
) -> c_int {
    call(name, |m| m.isend_detached(&handle(h)?, dest, tag, &t, then))
}

fn then(f: CCallback, arg: *mut c_void) -> Option<Then> {
    Callback::new(f, arg).map(Callback::then)
}

fn irecv_detached(
    name: &str,
    h: starpu_data_handle_t,
    source: c_int,
    tag: starpu_mpi_tag_t,
    t: Transfer,
    then: Option<Then>,
) -> c_int {
    call(name, |m| {
        m.irecv_detached(&handle(h)?, source, tag, &t, then)
    })
}

/// Ends of transfers that notify StarPU tag `tag` once `n` of them happened.
fn unlock_tag(tag: starpu_tag_t, n: usize) -> impl Fn() -> Option<Then> {
    let left = Arc::new(AtomicUsize::new(n));
    move || {
        let left = left.clone();
        Some(Box::new(move |_| {
            if left.fetch_sub(1, Ordering::AcqRel) == 1 {
                if let Ok(rt) = ffi::runtime() {
                    rt.tag_notify(tag);
                }
            }
        }) as Then)
    }
}

/// Defines each StarPU-MPI call and its `_prio` twin (a priority before the
/// communicator), from one body over the call's transfer `t` and its name `n`.
macro_rules! with_prio_twin {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident, $prio:ident ($($a:ident: $at:ty),*; $($b:ident: $bt:ty),*), sync: $sync:literal
            => |$t:ident, $n:ident| $body:expr;
    )*) => {
        $(
            $(#[doc = $doc])*
            ///
            /// # Safety
            /// Its pointers are valid as StarPU-MPI documents them.
            #[no_mangle]
            pub unsafe extern "C" fn $name($($a: $at,)* c: MPI_Comm, $($b: $bt),*) -> c_int {
                let ($t, $n) = (transfer(c, 0, $sync), stringify!($name));
                $body
            }

            #[doc = concat!("`", stringify!($prio), "`: `", stringify!($name), "` at priority `prio`.")]
            ///
            /// # Safety
            /// As the call without priority.
            #[no_mangle]
            pub unsafe extern "C" fn $prio(
                $($a: $at,)*
                prio: c_int,
                c: MPI_Comm,
                $($b: $bt),*
            ) -> c_int {
                let ($t, $n) = (transfer(c, prio, $sync), stringify!($prio));
                $body
            }
        )*
    };
}

with_prio_twin! {
    /// `starpu_mpi_isend`.
    starpu_mpi_isend, starpu_mpi_isend_prio
        (h: starpu_data_handle_t, req: *mut starpu_mpi_req, dest: c_int, tag: starpu_mpi_tag_t;), sync: false
        => |t, n| post(n, Dir::Send, h, req, dest, tag, t);
    /// `starpu_mpi_issend`: a synchronous send, over once the receiver posted its receive.
    starpu_mpi_issend, starpu_mpi_issend_prio
        (h: starpu_data_handle_t, req: *mut starpu_mpi_req, dest: c_int, tag: starpu_mpi_tag_t;), sync: true
        => |t, n| post(n, Dir::Send, h, req, dest, tag, t);
    /// `starpu_mpi_irecv` (StarPU declares `starpu_mpi_irecv_prio` in its internal headers
    /// only).
    starpu_mpi_irecv, starpu_mpi_irecv_prio
        (h: starpu_data_handle_t, req: *mut starpu_mpi_req, source: c_int, tag: starpu_mpi_tag_t;), sync: false
        => |t, n| post(n, Dir::Recv, h, req, source, tag, t);
    /// `starpu_mpi_send`.
    starpu_mpi_send, starpu_mpi_send_prio
        (h: starpu_data_handle_t, dest: c_int, tag: starpu_mpi_tag_t;), sync: false
        => |t, n| send(n, h, dest, tag, t);
    /// `starpu_mpi_recv` (`status` may be `MPI_STATUS_IGNORE`).
    starpu_mpi_recv, starpu_mpi_recv_prio
        (h: starpu_data_handle_t, source: c_int, tag: starpu_mpi_tag_t; status: *mut MPI_Status), sync: false
        => |t, n| recv(n, h, source, tag, t, status);
    /// `starpu_mpi_isend_detached`: `callback(arg)` runs once the data is sent.
    starpu_mpi_isend_detached, starpu_mpi_isend_detached_prio
        (h: starpu_data_handle_t, dest: c_int, tag: starpu_mpi_tag_t; callback: CCallback, arg: *mut c_void), sync: false
        => |t, n| isend_detached(n, h, dest, tag, t, then(callback, arg));
    /// `starpu_mpi_issend_detached`.
    starpu_mpi_issend_detached, starpu_mpi_issend_detached_prio
        (h: starpu_data_handle_t, dest: c_int, tag: starpu_mpi_tag_t; callback: CCallback, arg: *mut c_void), sync: true
        => |t, n| isend_detached(n, h, dest, tag, t, then(callback, arg));
    /// `starpu_mpi_irecv_detached`: `callback(arg)` runs once the data arrived.
    starpu_mpi_irecv_detached, starpu_mpi_irecv_detached_prio
        (h: starpu_data_handle_t, source: c_int, tag: starpu_mpi_tag_t; callback: CCallback, arg: *mut c_void), sync: false
        => |t, n| irecv_detached(n, h, source, tag, t, then(callback, arg));
    /// `starpu_mpi_isend_detached_unlock_tag`: tag `tag` is notified once the data is sent.
    starpu_mpi_isend_detached_unlock_tag, starpu_mpi_isend_detached_unlock_tag_prio
        (h: starpu_data_handle_t, dest: c_int, data_tag: starpu_mpi_tag_t; tag: starpu_tag_t), sync: false
        => |t, n| isend_detached(n, h, dest, data_tag, t, unlock_tag(tag, 1)());
}

/// `starpu_mpi_irecv_detached_sequential_consistency`: with 0, the receive is not
/// ordered after the data's earlier accesses.
#[no_mangle]
pub extern "C" fn starpu_mpi_irecv_detached_sequential_consistency(
    h: starpu_data_handle_t,
    source: c_int,
    tag: starpu_mpi_tag_t,
    c: MPI_Comm,
    callback: CCallback,
    arg: *mut c_void,
    sequential_consistency: c_int,
) -> c_int {
    let t = Transfer {
        sequential: sequential_consistency != 0,
        ..transfer(c, 0, false)
    };
    irecv_detached(
        "starpu_mpi_irecv_detached_sequential_consistency",
        h,
        source,
        tag,
        t,
        then(callback, arg),
    )
}

/// `starpu_mpi_irecv_detached_unlock_tag`: tag `tag` is notified once the data arrived.
#[no_mangle]
pub extern "C" fn starpu_mpi_irecv_detached_unlock_tag(
    h: starpu_data_handle_t,
    source: c_int,
    data_tag: starpu_mpi_tag_t,
    c: MPI_Comm,
    tag: starpu_tag_t,
) -> c_int {
    irecv_detached(
        "starpu_mpi_irecv_detached_unlock_tag",
        h,
        source,
        data_tag,
        transfer(c, 0, false),
        unlock_tag(tag, 1)(),
    )
}

/// One transfer of an `_array_detached_unlock_tag` call.
struct Entry {
    handle: starpu_core::DataHandle,
    peer: c_int,
    tag: starpu_mpi_tag_t,
    transfer: Transfer,
}

/// The transfers the arrays of an `_array_detached_unlock_tag` call describe.
unsafe fn entries(
    n: c_uint,
    h: *mut starpu_data_handle_t,
    peers: *mut c_int,
    tags: *mut starpu_mpi_tag_t,
    prio: *mut c_int,
    comms: *mut MPI_Comm,
) -> Result<Vec<Entry>> {
    if n == 0 {
        return Ok(Vec::new());
    }
    for (p, what) in [
        (h as *const u8, "handle array"),
        (peers as *const u8, "rank array"),
        (tags as *const u8, "tag array"),
        (comms as *const u8, "communicator array"),
    ] {
        ffi::non_null(p, what)?;
    }
    (0..n as usize)
        .map(|i| {
            let p = if prio.is_null() { 0 } else { *prio.add(i) };
            Ok(Entry {
                handle: handle(*h.add(i))?,
                peer: *peers.add(i),
                tag: *tags.add(i),
                transfer: transfer(*comms.add(i), p, false),
            })
        })
        .collect()
}

#[allow(clippy::too_many_arguments)]
unsafe fn array_unlock(
    name: &str,
    send: bool,
    n: c_uint,
    h: *mut starpu_data_handle_t,
    peers: *mut c_int,
    data_tags: *mut starpu_mpi_tag_t,
    prio: *mut c_int,
    comms: *mut MPI_Comm,
    tag: starpu_tag_t,
) -> c_int {
    call(name, |m| {
        let all = entries(n, h, peers, data_tags, prio, comms)?;
        let done = unlock_tag(tag, all.len());
        if all.is_empty() {
            m.runtime().tag_notify(tag);
        }
        for e in all {
            if send {
                m.isend_detached(&e.handle, e.peer, e.tag, &e.transfer, done())?;
            } else {
                m.irecv_detached(&e.handle, e.peer, e.tag, &e.transfer, done())?;
            }
        }
        Ok(())
    })
}

/// `starpu_mpi_isend_array_detached_unlock_tag`: tag `tag` is notified once all are sent.
///
/// # Safety
/// Each array holds `array_size` entries.
#[no_mangle]
pub unsafe extern "C" fn starpu_mpi_isend_array_detached_unlock_tag(
    array_size: c_uint,
    h: *mut starpu_data_handle_t,
    dest: *mut c_int,
    data_tag: *mut starpu_mpi_tag_t,
    comms: *mut MPI_Comm,
    tag: starpu_tag_t,
) -> c_int {
    array_unlock(
        "starpu_mpi_isend_array_detached_unlock_tag",
        true,
        array_size,
        h,
        dest,
        data_tag,
        std::ptr::null_mut(),
        comms,
        tag,
    )
}

/// `starpu_mpi_isend_array_detached_unlock_tag_prio`.
///
/// # Safety
/// Each array holds `array_size` entries.
#[no_mangle]
pub unsafe extern "C" fn starpu_mpi_isend_array_detached_unlock_tag_prio(
    array_size: c_uint,
    h: *mut starpu_data_handle_t,
    dest: *mut c_int,
    data_tag: *mut starpu_mpi_tag_t,
    prio: *mut c_int,
    comms: *mut MPI_Comm,
    tag: starpu_tag_t,
) -> c_int {
    array_unlock(
        "starpu_mpi_isend_array_detached_unlock_tag_prio",
        true,
        array_size,
        h,
        dest,
        data_tag,
        prio,
        comms,
        tag,
    )
}

/// `starpu_mpi_irecv_array_detached_unlock_tag`: tag `tag` is notified once all arrived.
///
/// # Safety
/// Each array holds `array_size` entries.
#[no_mangle]
pub unsafe extern "C" fn starpu_mpi_irecv_array_detached_unlock_tag(
    array_size: c_uint,
    h: *mut starpu_data_handle_t,
    source: *mut c_int,
    data_tag: *mut starpu_mpi_tag_t,
    comms: *mut MPI_Comm,
    tag: starpu_tag_t,
) -> c_int {
    array_unlock(
        "starpu_mpi_irecv_array_detached_unlock_tag",
        false,
        array_size,
        h,
        source,
        data_tag,
        std::ptr::null_mut(),
        comms,
        tag,
    )
}

/// Takes back the request behind `*req` (clearing it).
unsafe fn take(req: *mut starpu_mpi_req) -> Result<Box<Request>> {
    ffi::non_null(req, "request pointer")?;
    if (*req).is_null() {
        return Err(Error::invalid(
            "the request is NULL (already waited for or tested complete)",
        ));
    }
    let r = Box::from_raw(*req as *mut Request);
    *req = std::ptr::null_mut();
    Ok(r)
}

/// `starpu_mpi_wait`: blocks until the transfer ends; frees the request.
///
/// # Safety
/// `req` holds a request from `starpu_mpi_isend` / `irecv`; `status` as in `starpu_mpi_recv`.
#[no_mangle]
pub unsafe extern "C" fn starpu_mpi_wait(
    req: *mut starpu_mpi_req,
    status: *mut MPI_Status,
) -> c_int {
    call("starpu_mpi_wait", |_| {
        let r = take(req)?;
        let s = r.wait()?;
        fill(status, &s);
        Ok(())
    })
}

/// `starpu_mpi_test`: sets `*flag` to 1 (and frees the request) if the transfer ended.
///
/// # Safety
/// As `starpu_mpi_wait`; `flag` points to a writable int.
#[no_mangle]
pub unsafe extern "C" fn starpu_mpi_test(
    req: *mut starpu_mpi_req,
    flag: *mut c_int,
    status: *mut MPI_Status,
) -> c_int {
    call("starpu_mpi_test", |_| {
        ffi::non_null(flag, "flag")?;
        ffi::non_null(req, "request pointer")?;
        let r = (*req as *const Request)
            .as_ref()
            .ok_or_else(|| Error::invalid("the request is NULL"))?;
        match r.test() {
            None => *flag = 0,
            Some(outcome) => {
                *flag = 1;
                drop(take(req)?);
                fill(status, &outcome?);
            }
        }
        Ok(())
    })
}

/// `starpu_mpi_barrier`.
#[no_mangle]
pub extern "C" fn starpu_mpi_barrier(c: MPI_Comm) -> c_int {
    call("starpu_mpi_barrier", |m| m.barrier(comm(c)))
}

/// `starpu_mpi_wait_for_all`: every communication and task.
#[no_mangle]
pub extern "C" fn starpu_mpi_wait_for_all(_c: MPI_Comm) -> c_int {
    call("starpu_mpi_wait_for_all", |m| m.wait_for_all())
}
