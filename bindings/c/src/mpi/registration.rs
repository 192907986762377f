//! Data registered with StarPU-MPI (tag, owner), the communication cache, tag ranges,
//! statistics.

use super::{call, comm, handle, mpi, value};
use crate::abi::starpu_data_handle_t;
use libc::{c_char, c_int, size_t};
use starpu_mpi::ffi::MPI_Comm;

use super::p2p::starpu_mpi_tag_t;

/// `starpu_mpi_data_register_comm` (`starpu_mpi_data_register` is a macro over it):
/// -1 leaves the tag or the rank unchanged.
#[no_mangle]
pub extern "C" fn starpu_mpi_data_register_comm(
    h: starpu_data_handle_t,
    tag: starpu_mpi_tag_t,
    rank: c_int,
    c: MPI_Comm,
) {
    call("starpu_mpi_data_register", |m| {
        m.data_register(&handle(h)?, tag, rank, comm(c))
    });
}

/// `starpu_mpi_data_set_rank_comm`.
#[no_mangle]
pub extern "C" fn starpu_mpi_data_set_rank_comm(h: starpu_data_handle_t, rank: c_int, c: MPI_Comm) {
    call("starpu_mpi_data_set_rank", |m| {
        m.data_register(&handle(h)?, -1, rank, comm(c))
    });
}

/// `starpu_mpi_data_set_tag`.
#[no_mangle]
pub extern "C" fn starpu_mpi_data_set_tag(h: starpu_data_handle_t, tag: starpu_mpi_tag_t) {
    call("starpu_mpi_data_set_tag", |m| {
        m.data_register(&handle(h)?, tag, -1, m.world())
    });
}

/// `starpu_mpi_data_get_rank`: -1 for data without an owner.
#[no_mangle]
pub extern "C" fn starpu_mpi_data_get_rank(h: starpu_data_handle_t) -> c_int {
    value("starpu_mpi_data_get_rank", -1, |m| {
        Ok(m.data_rank(&handle(h)?).unwrap_or(-1))
    })
}

/// `starpu_mpi_data_get_tag`: -1 for data without a tag.
#[no_mangle]
pub extern "C" fn starpu_mpi_data_get_tag(h: starpu_data_handle_t) -> starpu_mpi_tag_t {
    value("starpu_mpi_data_get_tag", -1, |m| {
        Ok(m.data_tag(&handle(h)?).unwrap_or(-1))
    })
}

/// `starpu_mpi_data_get_redux_map`: not kept as an array here (the contributors of a
/// pending reduction are internal state): NULL, as for data with no reduction pending.
#[no_mangle]
pub extern "C" fn starpu_mpi_data_get_redux_map(_h: starpu_data_handle_t) -> *mut c_char {
    std::ptr::null_mut()
}

/// `starpu_mpi_cache_is_enabled`.
#[no_mangle]
pub extern "C" fn starpu_mpi_cache_is_enabled() -> c_int {
    mpi().map_or(0, |m| m.cache_enabled() as c_int)
}

/// `starpu_mpi_cache_set`.
#[no_mangle]
pub extern "C" fn starpu_mpi_cache_set(enabled: c_int) -> c_int {
    call("starpu_mpi_cache_set", |m| {
        m.set_cache_enabled(enabled != 0);
        Ok(())
    })
}

/// `starpu_mpi_cache_flush`.
#[no_mangle]
pub extern "C" fn starpu_mpi_cache_flush(c: MPI_Comm, h: starpu_data_handle_t) {
    call("starpu_mpi_cache_flush", |m| {
        m.cache_flush(comm(c), &handle(h)?)
    });
}

/// `starpu_mpi_cache_flush_all_data`.
#[no_mangle]
pub extern "C" fn starpu_mpi_cache_flush_all_data(c: MPI_Comm) {
    call("starpu_mpi_cache_flush_all_data", |m| {
        m.cache_flush_all_data(comm(c))
    });
}

/// `starpu_mpi_cached_receive`.
#[no_mangle]
pub extern "C" fn starpu_mpi_cached_receive(h: starpu_data_handle_t) -> c_int {
    value("starpu_mpi_cached_receive", 0, |m| {
        Ok(m.cached_receive(&handle(h)?) as c_int)
    })
}

/// `starpu_mpi_cached_receive_set`: returns whether it was cached already.
#[no_mangle]
pub extern "C" fn starpu_mpi_cached_receive_set(h: starpu_data_handle_t) -> c_int {
    value("starpu_mpi_cached_receive_set", 0, |m| {
        Ok(m.cached_receive_set(&handle(h)?) as c_int)
    })
}

/// `starpu_mpi_cached_cp_receive_set` (checkpoints): as `starpu_mpi_cached_receive_set`.
#[no_mangle]
pub extern "C" fn starpu_mpi_cached_cp_receive_set(h: starpu_data_handle_t) -> c_int {
    starpu_mpi_cached_receive_set(h)
}

/// `starpu_mpi_cached_receive_clear`.
#[no_mangle]
pub extern "C" fn starpu_mpi_cached_receive_clear(h: starpu_data_handle_t) {
    call("starpu_mpi_cached_receive_clear", |m| {
        m.cached_receive_clear(&handle(h)?)
    });
}

/// `starpu_mpi_cached_send`.
#[no_mangle]
pub extern "C" fn starpu_mpi_cached_send(h: starpu_data_handle_t, dest: c_int) -> c_int {
    value("starpu_mpi_cached_send", 0, |m| {
        Ok(m.cached_send(&handle(h)?, dest) as c_int)
    })
}

/// `starpu_mpi_cached_send_set`: returns whether it was cached already.
#[no_mangle]
pub extern "C" fn starpu_mpi_cached_send_set(h: starpu_data_handle_t, dest: c_int) -> c_int {
    value("starpu_mpi_cached_send_set", 0, |m| {
        Ok(m.cached_send_set(&handle(h)?, dest) as c_int)
    })
}

/// `starpu_mpi_cached_send_clear`.
#[no_mangle]
pub extern "C" fn starpu_mpi_cached_send_clear(h: starpu_data_handle_t) {
    call("starpu_mpi_cached_send_clear", |m| {
        m.cached_send_clear(&handle(h)?);
        Ok(())
    });
}

/// `starpu_mpi_tags_allocate`: -1 when no room is left.
#[no_mangle]
pub extern "C" fn starpu_mpi_tags_allocate(nbtags: i64) -> i64 {
    value("starpu_mpi_tags_allocate", -1, |m| m.tags_allocate(nbtags))
}

/// `starpu_mpi_tags_free`.
#[no_mangle]
pub extern "C" fn starpu_mpi_tags_free(mintag: i64) {
    call("starpu_mpi_tags_free", |m| m.tags_free(mintag));
}

/// `starpu_mpi_comm_stats_enable`: counts the bytes sent to each rank from now on.
#[no_mangle]
pub extern "C" fn starpu_mpi_comm_stats_enable() {
    call("starpu_mpi_comm_stats_enable", |m| {
        m.comm_stats_enable();
        Ok(())
    });
}

/// `starpu_mpi_comm_stats_disable`.
#[no_mangle]
pub extern "C" fn starpu_mpi_comm_stats_disable() {
    call("starpu_mpi_comm_stats_disable", |m| {
        m.comm_stats_disable();
        Ok(())
    });
}

/// `starpu_mpi_comm_stats_retrieve`: the bytes sent to each rank, into an array of at
/// least the world's size.
///
/// # Safety
/// `comm_stats` has room for `starpu_mpi_world_size()` entries.
#[no_mangle]
pub unsafe extern "C" fn starpu_mpi_comm_stats_retrieve(comm_stats: *mut size_t) {
    call("starpu_mpi_comm_stats_retrieve", |m| {
        crate::ffi::non_null(comm_stats, "comm_stats")?;
        let world = m.world_size().max(0) as usize;
        for (i, b) in m.comm_stats().into_iter().take(world).enumerate() {
            *comm_stats.add(i) = b;
        }
        Ok(())
    });
}

/// `starpu_mpi_coop_sends_set_use`: cooperative sends (broadcast trees for data sent to
/// many processes) are not implemented; each send goes directly, so this changes nothing.
#[no_mangle]
pub extern "C" fn starpu_mpi_coop_sends_set_use(_use_coop_sends: c_int) {}

/// `starpu_mpi_coop_sends_get_use`: 0 (see `starpu_mpi_coop_sends_set_use`).
#[no_mangle]
pub extern "C" fn starpu_mpi_coop_sends_get_use() -> c_int {
    0
}

/// `starpu_mpi_coop_sends_data_handle_nb_sends`: a hint for cooperative sends, unused.
#[no_mangle]
pub extern "C" fn starpu_mpi_coop_sends_data_handle_nb_sends(
    _h: starpu_data_handle_t,
    _nb_sends: c_int,
) {
}
