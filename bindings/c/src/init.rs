//! `starpu_init` / `starpu_shutdown` and `struct starpu_conf`.

use crate::abi::*;
use crate::consts::MAGIC;
use crate::ffi::{self, int_call};
use libc::{c_char, c_int};
use starpu_core::config::{Binding, Config};
use starpu_core::Error;

/// `starpu_conf_init`: a configuration where everything is "as the environment says".
///
/// # Safety
/// `conf` points to writable memory for a `struct starpu_conf`.
#[no_mangle]
pub unsafe extern "C" fn starpu_conf_init(conf: *mut starpu_conf) -> c_int {
    if conf.is_null() {
        return -libc::EINVAL;
    }
    std::ptr::write_bytes(conf, 0, 1);
    let c = &mut *conf;
    c.magic = MAGIC;
    for n in [
        &mut c.ncpus,
        &mut c.reserve_ncpus,
        &mut c.ncuda,
        &mut c.nopencl,
        &mut c.nmax_fpga,
        &mut c.nmpi_sc,
        &mut c.ntcpip_sc,
        &mut c.nhip,
        &mut c.nsycl,
        &mut c.nmic,
        &mut c.nmpi_ms,
        &mut c.ntcpip_ms,
        &mut c.calibrate,
        &mut c.bus_calibrate,
        &mut c.single_combined_worker,
        &mut c.disable_asynchronous_copy,
        &mut c.disable_asynchronous_cuda_copy,
        &mut c.disable_asynchronous_opencl_copy,
        &mut c.disable_asynchronous_hip_copy,
        &mut c.disable_asynchronous_sycl_copy,
        &mut c.disable_asynchronous_max_fpga_copy,
        &mut c.disable_asynchronous_mpi_sc_copy,
        &mut c.disable_asynchronous_tcpip_sc_copy,
        &mut c.disable_asynchronous_mpi_ms_copy,
        &mut c.disable_asynchronous_tcpip_ms_copy,
        &mut c.enable_map,
        &mut c.catch_signals,
        &mut c.data_locality_enforce,
    ] {
        *n = -1;
    }
    c.global_sched_ctx_min_priority = c_int::MAX;
    c.global_sched_ctx_max_priority = c_int::MIN;
    0
}

/// `starpu_conf_noworker`: no worker of any kind (the application adds what it wants).
///
/// # Safety
/// `conf` was initialised by `starpu_conf_init`.
#[no_mangle]
pub unsafe extern "C" fn starpu_conf_noworker(conf: *mut starpu_conf) -> c_int {
    let Some(c) = conf.as_mut() else {
        return -libc::EINVAL;
    };
    c.ncpus = 0;
    c.ncuda = 0;
    c.nopencl = 0;
    c.nmax_fpga = 0;
    c.nmpi_sc = 0;
    c.ntcpip_sc = 0;
    c.nhip = 0;
    c.nsycl = 0;
    c.nmic = 0;
    c.nmpi_ms = 0;
    c.ntcpip_ms = 0;
    0
}

fn count(v: c_int) -> Option<usize> {
    (v >= 0).then_some(v as usize)
}

/// What `conf` asks for, before the environment is applied.
unsafe fn config_from(conf: Option<&starpu_conf>) -> starpu_core::Result<Config> {
    let mut cfg = Config::default();
    let Some(c) = conf else { return Ok(cfg) };
    if c.magic != MAGIC {
        return Err(Error::invalid(
            "struct starpu_conf was not initialised with starpu_conf_init",
        ));
    }
    if !c.sched_policy.is_null() {
        cfg.custom_policy = Some(crate::sched_policy::factory(c.sched_policy, Some(0))?);
    }
    if c.n_not_launched_drivers > 0 {
        return Err(Error::unsupported(
            "drivers run by the application (conf.not_launched_drivers) are not supported yet",
        ));
    }
    cfg.sched_policy = ffi::string(c.sched_policy_name);
    cfg.ncpus = count(c.ncpus);
    cfg.reserve_ncpus = count(c.reserve_ncpus).unwrap_or(0);
    cfg.ncuda = count(c.ncuda);
    cfg.nopencl = count(c.nopencl);
    if c.use_explicit_workers_cuda_gpuid != 0 {
        // As many devices as asked for (all of the list when ncuda is -1).
        let n = cfg
            .ncuda
            .unwrap_or(STARPU_NMAXWORKERS)
            .min(STARPU_NMAXWORKERS);
        cfg.cuda.devices = Some(
            c.workers_cuda_gpuid[..n]
                .iter()
                .map(|&x| x as usize)
                .collect(),
        );
    }
    if c.use_explicit_workers_bindid != 0 {
        let n = cfg
            .ncpus
            .unwrap_or(STARPU_NMAXWORKERS)
            .min(STARPU_NMAXWORKERS);
        cfg.binding =
            Binding::Explicit(c.workers_bindid[..n].iter().map(|&x| x as usize).collect());
    }
    if c.calibrate >= 0 {
        cfg.calibrate = c.calibrate;
    }
    if c.global_sched_ctx_min_priority <= c.global_sched_ctx_max_priority {
        cfg.min_priority = Some(c.global_sched_ctx_min_priority);
        cfg.max_priority = Some(c.global_sched_ctx_max_priority);
    }
    cfg.precedence_over_env = c.precedence_over_environment_variables != 0;
    cfg.perf_counters = c.start_perf_counter_collection > 0;
    cfg.single_combined_worker = c.single_combined_worker > 0;
    // starpu_conf_init leaves -1 ("not set"): only a program's 0 or 1 counts.
    let copies = &mut cfg.async_copy_disabled;
    for (set, flag) in [
        (c.disable_asynchronous_copy, &mut copies.all),
        (c.disable_asynchronous_cuda_copy, &mut copies.cuda),
        (c.disable_asynchronous_opencl_copy, &mut copies.opencl),
    ] {
        if set >= 0 {
            *flag = set > 0;
        }
    }
    Ok(cfg)
}

/// `starpu_init`: starts the runtime (or counts one more user of a running one).
/// Returns 0, `-ENODEV` without any worker, `-EINVAL` for a bad configuration.
///
/// # Safety
/// `conf` is NULL or an initialised configuration.
#[no_mangle]
pub unsafe extern "C" fn starpu_init(conf: *mut starpu_conf) -> c_int {
    int_call("starpu_init", || {
        let mut cfg = config_from(conf.as_ref())?;
        cfg.apply_env()?;
        cfg.profiling |= crate::profiling::requested_before_init();
        let requested_cuda = cfg.ncuda.unwrap_or(0);
        let requested_opencl = cfg.nopencl.unwrap_or(0);
        let custom = conf
            .as_ref()
            .map_or(std::ptr::null_mut(), |c| c.sched_policy);
        let started = starpu_core::runtime::init(cfg);
        if started.is_err() {
            crate::sched_policy::clear_pending();
        }
        let rt = started?;
        crate::sched_ctx::reset_all(custom);
        // The application's policy of the global context starts once the runtime is
        // reachable (its init_sched may ask for the context's workers).
        crate::sched_policy::start(0);
        if requested_cuda > rt.devices().ncuda() {
            rt.info(&format!(
                "{requested_cuda} CUDA worker(s) asked for, {} CUDA device(s) usable",
                rt.devices().ncuda()
            ));
        }
        if requested_opencl > rt.devices().nopencl() {
            rt.info(&format!(
                "{requested_opencl} OpenCL worker(s) asked for, {} OpenCL device(s) usable \
                 (CPU devices such as PoCL need STARPU_OPENCL_ON_CPUS=1)",
                rt.devices().nopencl()
            ));
        }
        // Called once the policy of the global context (id 0) is in place, as in StarPU.
        let callback = conf
            .as_ref()
            .and_then(|c| c.sched_policy_callback.or(c.sched_policy_init));
        if let Some(cb) = callback {
            cb(0);
        }
        Ok(())
    })
}

/// `starpu_initialize`: `starpu_init` for programs that pass their command line.
///
/// # Safety
/// As `starpu_init`.
#[no_mangle]
pub unsafe extern "C" fn starpu_initialize(
    conf: *mut starpu_conf,
    _argc: *mut c_int,
    _argv: *mut *mut *mut c_char,
) -> c_int {
    starpu_init(conf)
}

/// `starpu_is_initialized`.
#[no_mangle]
pub extern "C" fn starpu_is_initialized() -> c_int {
    starpu_core::runtime::is_initialized() as c_int
}

/// `starpu_wait_initialized`: init is synchronous here, so there is nothing to wait for.
#[no_mangle]
pub extern "C" fn starpu_wait_initialized() {}

/// `starpu_shutdown`: waits for the tasks, stops the workers.
#[no_mangle]
pub extern "C" fn starpu_shutdown() {
    let _ = int_call("starpu_shutdown", starpu_core::runtime::shutdown);
}

/// `starpu_is_paused`: 1 while workers are paused (`starpu_pause` not yet matched by
/// `starpu_resume`), 0 otherwise or without a runtime.
#[no_mangle]
pub extern "C" fn starpu_is_paused() -> c_int {
    ffi::runtime().is_ok_and(|rt| rt.is_paused()) as c_int
}

/// `starpu_pause`: workers take no new task until `starpu_resume`.
#[no_mangle]
pub extern "C" fn starpu_pause() {
    let _ = int_call("starpu_pause", || {
        ffi::runtime()?.pause();
        Ok(())
    });
}

/// `starpu_resume`.
#[no_mangle]
pub extern "C" fn starpu_resume() {
    let _ = int_call("starpu_resume", || {
        ffi::runtime()?.resume();
        Ok(())
    });
}

/// Sends a C function and its argument to the workers.
struct EachWorker(unsafe extern "C" fn(*mut libc::c_void), *mut libc::c_void);
// SAFETY: the application asks for the function to run on every worker thread.
unsafe impl Send for EachWorker {}
unsafe impl Sync for EachWorker {}

/// `starpu_execute_on_each_worker`: runs `func(arg)` once on each worker whose kind is in
/// `where_`, on that worker's thread, and returns when all have.
#[no_mangle]
pub extern "C" fn starpu_execute_on_each_worker(
    func: Option<unsafe extern "C" fn(*mut libc::c_void)>,
    arg: *mut libc::c_void,
    where_: u32,
) {
    let _ = int_call("starpu_execute_on_each_worker", || {
        let rt = ffi::runtime()?;
        let f = func.ok_or_else(|| Error::invalid("func is NULL"))?;
        let call = std::sync::Arc::new(EachWorker(f, arg));
        // SAFETY: a C function called with the argument the application gave for it.
        rt.execute_on_workers_of(
            where_,
            std::sync::Arc::new(move |_| unsafe { (call.0)(call.1) }),
        )
    });
}

/// `starpu_execute_on_each_worker_ex`: `starpu_execute_on_each_worker`; `name` would name
/// the tasks StarPU makes for it in traces, and this library runs `func` without tasks.
#[no_mangle]
pub extern "C" fn starpu_execute_on_each_worker_ex(
    func: Option<unsafe extern "C" fn(*mut libc::c_void)>,
    arg: *mut libc::c_void,
    where_: u32,
    _name: *const libc::c_char,
) {
    starpu_execute_on_each_worker(func, arg, where_);
}
