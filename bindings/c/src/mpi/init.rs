//! Starting and stopping StarPU-MPI, communicators, ranks.

use super::{call, comm, mpi};
use crate::abi::starpu_conf;
use crate::ffi::{self, int_call};
use crate::init::{starpu_conf_init, starpu_init, starpu_shutdown};
use libc::{c_char, c_int, c_void};
use starpu_core::{Error, Result};
use starpu_mpi::ffi::{self as mpi_ffi, MPI_Comm};
use starpu_mpi::StartOptions;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

/// StarPU-MPI started the runtime (`starpu_mpi_init_conf`), so its shutdown stops it.
static STARTED_RUNTIME: AtomicBool = AtomicBool::new(false);

fn start(initialize_mpi: c_int, c: MPI_Comm) -> Result<()> {
    let rt = ffi::runtime().map_err(|_| {
        Error::invalid(
            "the runtime is not running: call starpu_init before starpu_mpi_init (or use \
             starpu_mpi_init_conf, which starts both)",
        )
    })?;
    let opts = StartOptions {
        initialize_mpi: initialize_mpi != 0,
        comm: Some(comm(c)),
    };
    let m = starpu_mpi::init(rt, opts)?;
    super::datatype::install_provider(&m);
    Ok(())
}

/// `starpu_mpi_init_conf`: starts the runtime with `conf` (NULL: the defaults), keeping a
/// core for the progression thread unless the number of CPUs is set, then StarPU-MPI.
///
/// # Safety
/// `conf` is NULL or points to a `struct starpu_conf`.
#[no_mangle]
pub unsafe extern "C" fn starpu_mpi_init_conf(
    _argc: *mut c_int,
    _argv: *mut *mut *mut c_char,
    initialize_mpi: c_int,
    c: MPI_Comm,
    conf: *mut starpu_conf,
) -> c_int {
    let mut local: starpu_conf = std::mem::zeroed();
    let conf = if conf.is_null() {
        starpu_conf_init(&mut local);
        &mut local as *mut starpu_conf
    } else {
        conf
    };
    let pinned = std::env::var_os("STARPU_MPI_THREAD_CPUID").is_some()
        || std::env::var_os("STARPU_MPI_THREAD_COREID").is_some();
    if !pinned && (*conf).ncpus == -1 && std::env::var_os("STARPU_NCPU").is_none() {
        (*conf).reserve_ncpus = (*conf).reserve_ncpus.max(0) + 1;
    }
    (*conf).will_use_mpi = 1;
    let ret = starpu_init(conf);
    if ret < 0 {
        return ret;
    }
    let ret = int_call("starpu_mpi_init_conf", || start(initialize_mpi, c));
    if ret == 0 {
        STARTED_RUNTIME.store(true, Ordering::SeqCst);
    } else {
        starpu_shutdown();
    }
    ret
}

/// `starpu_mpi_init_comm`: StarPU-MPI over the running runtime, on `comm`.
#[no_mangle]
pub extern "C" fn starpu_mpi_init_comm(
    _argc: *mut c_int,
    _argv: *mut *mut *mut c_char,
    initialize_mpi: c_int,
    c: MPI_Comm,
) -> c_int {
    int_call("starpu_mpi_init_comm", || start(initialize_mpi, c))
}

/// `starpu_mpi_init`: `starpu_mpi_init_comm` on `MPI_COMM_WORLD`.
#[no_mangle]
pub extern "C" fn starpu_mpi_init(
    argc: *mut c_int,
    argv: *mut *mut *mut c_char,
    initialize_mpi: c_int,
) -> c_int {
    // SAFETY: reads a constant handle of the MPI library.
    starpu_mpi_init_comm(argc, argv, initialize_mpi, unsafe {
        mpi_ffi::RSMPI_COMM_WORLD
    })
}

/// `starpu_mpi_initialize` (deprecated): the application initialised MPI.
#[no_mangle]
pub extern "C" fn starpu_mpi_initialize() -> c_int {
    starpu_mpi_init(std::ptr::null_mut(), std::ptr::null_mut(), 0)
}

/// `starpu_mpi_initialize_extended` (deprecated): StarPU-MPI initialises MPI.
///
/// # Safety
/// `rank` and `world_size` point to writable ints.
#[no_mangle]
pub unsafe extern "C" fn starpu_mpi_initialize_extended(
    rank: *mut c_int,
    world_size: *mut c_int,
) -> c_int {
    let ret = starpu_mpi_init(std::ptr::null_mut(), std::ptr::null_mut(), 1);
    if ret == 0 {
        if let Ok(m) = mpi() {
            if !rank.is_null() {
                *rank = m.world_rank();
            }
            if !world_size.is_null() {
                *world_size = m.world_size();
            }
        }
    }
    ret
}

/// `starpu_mpi_shutdown`: waits for every communication, stops StarPU-MPI (and MPI if
/// it started it, and the runtime if `starpu_mpi_init_conf` did).
#[no_mangle]
pub extern "C" fn starpu_mpi_shutdown() -> c_int {
    let ret = int_call("starpu_mpi_shutdown", starpu_mpi::shutdown);
    if STARTED_RUNTIME.swap(false, Ordering::SeqCst) {
        starpu_shutdown();
    }
    ret
}

/// `starpu_mpi_shutdown_comm`.
#[no_mangle]
pub extern "C" fn starpu_mpi_shutdown_comm(_c: MPI_Comm) -> c_int {
    starpu_mpi_shutdown()
}

/// `starpu_mpi_comm_register`: every process of `comm` calls it.
#[no_mangle]
pub extern "C" fn starpu_mpi_comm_register(c: MPI_Comm) -> c_int {
    call("starpu_mpi_comm_register", |m| m.comm_register(comm(c)))
}

/// Answers a rank or size query: from StarPU-MPI, or from MPI directly when StarPU-MPI is
/// not running (before its start or after its shutdown, no progression thread exists).
unsafe fn query(name: &str, c: MPI_Comm, out: *mut c_int, rank: bool) -> c_int {
    int_call(name, || {
        ffi::non_null(out, "result pointer")?;
        *out = match mpi() {
            Ok(m) if rank => m.comm_rank(comm(c))?,
            Ok(m) => m.comm_size(comm(c))?,
            Err(e) => {
                let (mut init, mut fin) = (0, 0);
                mpi_ffi::MPI_Initialized(&mut init);
                mpi_ffi::MPI_Finalized(&mut fin);
                if init == 0 || fin != 0 {
                    return Err(e);
                }
                let mut v = 0;
                let code = if rank {
                    mpi_ffi::MPI_Comm_rank(c, &mut v)
                } else {
                    mpi_ffi::MPI_Comm_size(c, &mut v)
                };
                if code != 0 {
                    return Err(Error::invalid(format!("MPI error {code}")));
                }
                v
            }
        };
        Ok(())
    })
}

/// `starpu_mpi_comm_rank`.
///
/// # Safety
/// `rank` points to a writable int.
#[no_mangle]
pub unsafe extern "C" fn starpu_mpi_comm_rank(c: MPI_Comm, rank: *mut c_int) -> c_int {
    query("starpu_mpi_comm_rank", c, rank, true)
}

/// `starpu_mpi_comm_size`.
///
/// # Safety
/// `size` points to a writable int.
#[no_mangle]
pub unsafe extern "C" fn starpu_mpi_comm_size(c: MPI_Comm, size: *mut c_int) -> c_int {
    query("starpu_mpi_comm_size", c, size, false)
}

/// `starpu_mpi_world_rank`.
#[no_mangle]
pub extern "C" fn starpu_mpi_world_rank() -> c_int {
    let mut r = -1;
    // SAFETY: r is a local int; the world communicator is a constant.
    unsafe { starpu_mpi_comm_rank(mpi_ffi::RSMPI_COMM_WORLD, &mut r) };
    r
}

/// `starpu_mpi_world_size`.
#[no_mangle]
pub extern "C" fn starpu_mpi_world_size() -> c_int {
    let mut s = -1;
    // SAFETY: as above.
    unsafe { starpu_mpi_comm_size(mpi_ffi::RSMPI_COMM_WORLD, &mut s) };
    s
}

/// `STARPU_MPI_TAG_UB`'s value for `starpu_mpi_comm_get_attr`: tags are 64-bit.
static TAG_MAX: i64 = i64::MAX;

/// `starpu_mpi_comm_get_attr`: `STARPU_MPI_TAG_UB` (MPI's `MPI_TAG_UB` key) gives a
/// pointer to the largest tag, as an `int64_t`.
///
/// # Safety
/// `attribute_val` points to a writable pointer, `flag` to a writable int.
#[no_mangle]
pub unsafe extern "C" fn starpu_mpi_comm_get_attr(
    _c: MPI_Comm,
    keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    int_call("starpu_mpi_comm_get_attr", || {
        ffi::non_null(flag, "flag")?;
        if keyval == mpi_ffi::MPI_TAG_UB as c_int {
            ffi::non_null(attribute_val, "attribute_val")?;
            *(attribute_val as *mut *const i64) = &TAG_MAX;
            *flag = 1;
        } else {
            *flag = 0;
        }
        Ok(())
    })
}

/// `starpu_mpi_get_thread_cpuid`: the progression thread is not bound to a core.
#[no_mangle]
pub extern "C" fn starpu_mpi_get_thread_cpuid() -> c_int {
    -1
}

static COMMUNICATION_TAG: AtomicI32 = AtomicI32::new(42);

/// `starpu_mpi_get_communication_tag`: kept for compatibility; StarPU-MPI's messages
/// travel on private duplicates of the communicators, under tags of their own.
#[no_mangle]
pub extern "C" fn starpu_mpi_get_communication_tag() -> c_int {
    COMMUNICATION_TAG.load(Ordering::Relaxed)
}

/// `starpu_mpi_set_communication_tag`: see `starpu_mpi_get_communication_tag`.
#[no_mangle]
pub extern "C" fn starpu_mpi_set_communication_tag(tag: c_int) {
    COMMUNICATION_TAG.store(tag, Ordering::Relaxed);
}
