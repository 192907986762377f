//! Parallel workers (`starpu_parallel_worker.h`; StarPU 1.4's `starpu_cluster_*` in
//! `starpu_clusters.h`): the options of `starpu_parallel_worker_init` (read by the C walker
//! in csrc/parallel_workers.c) become a `ParallelWorkerSpec`, and the core builds the
//! contexts (`starpu_core::parallel::workers`). The configuration handed to C is opaque.

use crate::abi::_starpu_pw_option;
use crate::abi::{starpu_sched_policy, starpu_task};
use crate::ffi;
use crate::sched_policy;
use libc::{c_char, c_int, c_void};
use starpu_core::parallel::workers::CreateFn;
use starpu_core::parallel::{
    ParallelWorkerParams, ParallelWorkerSpec, ParallelWorkers, Partition, PresetWorker,
};
use starpu_core::topology::TopologyLevel;
use starpu_core::Error;
use std::mem::MaybeUninit;
use std::sync::{Arc, Mutex};

const SHIFT: c_int = crate::consts::STARPU_MODE_SHIFT;
const MIN_NB: c_int = 1 << SHIFT;
const MAX_NB: c_int = 2 << SHIFT;
const NB: c_int = 3 << SHIFT;
const PREFERE_MIN: c_int = 4 << SHIFT;
const KEEP_HOMOGENEOUS: c_int = 5 << SHIFT;
const POLICY_NAME: c_int = 6 << SHIFT;
const POLICY_STRUCT: c_int = 7 << SHIFT;
const CREATE_FUNC: c_int = 8 << SHIFT;
const CREATE_FUNC_ARG: c_int = 9 << SHIFT;
const TYPE: c_int = 10 << SHIFT;
const AWAKE_WORKERS: c_int = 11 << SHIFT;
const PARTITION_ONE: c_int = 12 << SHIFT;
const NEW: c_int = 13 << SHIFT;
const NCORES: c_int = 14 << SHIFT;

/// `enum starpu_parallel_worker_types`.
const TYPE_OPENMP: c_int = 0;
const TYPE_INTEL_OPENMP_MKL: c_int = 1;
const TYPE_GNU_OPENMP_MKL: c_int = 2;

/// The parameters of one level (machine, partition, preset) with the C-only parts.
#[derive(Clone)]
struct CParams {
    core: ParallelWorkerParams,
    func: Option<unsafe extern "C" fn(*mut c_void)>,
    arg: usize,
    kind: c_int,
}

impl CParams {
    /// The core's parameters, with the create call StarPU makes: the application's
    /// `CREATE_FUNC(CREATE_FUNC_ARG)`, else the OpenMP prologue of the type.
    fn resolve(&self) -> starpu_core::Result<ParallelWorkerParams> {
        let mut p = self.core.clone();
        let create: CreateFn = match self.func {
            Some(f) => {
                let arg = self.arg;
                Arc::new(move |ctx, _| {
                    // StarPU calls the function as the pop prologue of a task it submits
                    // to the parallel worker's context, and programs read that task
                    // (`starpu_task_get_current()->sched_ctx`); the core runs it in a task
                    // of its own, which C sees through this stand-in.
                    let mut stand_in = MaybeUninit::<starpu_task>::uninit();
                    let t = stand_in.as_mut_ptr();
                    // SAFETY: `t` is written whole by `starpu_task_init` before use, lives
                    // until the call returns, and owns nothing to release; the
                    // application's function gets its argument, as StarPU calls it.
                    unsafe {
                        crate::task::starpu_task_init(t);
                        (*t).sched_ctx = ctx;
                        (*t).possibly_parallel = 1;
                        crate::task::with_current_stand_in(t, || f(arg as *mut c_void));
                    }
                })
            }
            None => match self.kind {
                TYPE_OPENMP | TYPE_INTEL_OPENMP_MKL => {
                    // SAFETY: the prologue ignores its argument.
                    Arc::new(|_, _| unsafe { _starpu_c_openmp_prologue(std::ptr::null_mut()) })
                }
                TYPE_GNU_OPENMP_MKL => {
                    return Err(Error::invalid(
                        "STARPU_PARALLEL_WORKER_GNU_OPENMP_MKL needs MKL, which this build \
                         does not use (STARPU_MKL is not defined)",
                    ))
                }
                k => {
                    return Err(Error::invalid(format!(
                        "unknown parallel worker type {k} (STARPU_PARALLEL_WORKER_TYPE)"
                    )))
                }
            },
        };
        p.create = Some(create);
        Ok(p)
    }
}

/// Items cbindgen must not see (declarations of C functions starpu.h does not declare).
macro_rules! unseen_by_cbindgen {
    ($($i:item)*) => { $($i)* };
}

/// Where the options that follow apply.
enum Target {
    Machine,
    Partition,
    Preset,
}

/// hwloc 2's `hwloc_obj_type_t` values to the core's levels.
fn level_of(t: c_int) -> starpu_core::Result<TopologyLevel> {
    Ok(match t {
        0 => TopologyLevel::Machine,
        1 => TopologyLevel::Package,
        2 => TopologyLevel::Core,
        3 => TopologyLevel::Pu,
        4 => TopologyLevel::L1Cache,
        5 => TopologyLevel::L2Cache,
        6 => TopologyLevel::L3Cache,
        12 => TopologyLevel::Group,
        13 => TopologyLevel::NumaNode,
        19 => TopologyLevel::Die,
        _ => {
            return Err(Error::invalid(format!(
                "parallel workers cannot be built at hwloc object type {t}: it holds no CPUs \
                 (or is a cache level hwloc does not report here)"
            )))
        }
    })
}

/// Reads the option list as StarPU does: options apply to the machine, then to the last
/// `PARTITION_ONE`, then to the last `NEW` (each starting as a copy of its parent).
unsafe fn spec_of(opts: &[_starpu_pw_option]) -> starpu_core::Result<ParallelWorkerSpec> {
    let mut machine = CParams {
        core: ParallelWorkerParams::default(),
        func: None,
        arg: 0,
        kind: TYPE_OPENMP,
    };
    let mut parts: Vec<(CParams, Vec<(CParams, usize)>)> = Vec::new();
    let mut target = Target::Machine;
    let count = |v: c_int, name: &str| -> starpu_core::Result<usize> {
        usize::try_from(v)
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| Error::invalid(format!("{name} must be positive, not {v}")))
    };
    for o in opts {
        if o.key == PARTITION_ONE {
            parts.push((machine.clone(), Vec::new()));
            target = Target::Partition;
            continue;
        }
        if o.key == NEW {
            if parts.is_empty() {
                parts.push((machine.clone(), Vec::new()));
            }
            let last = parts.last_mut().expect("a partition");
            last.1.push((last.0.clone(), 0));
            target = Target::Preset;
            continue;
        }
        if o.key == NCORES {
            let Some((_, presets)) = parts.last_mut() else {
                return Err(Error::invalid(
                    "STARPU_PARALLEL_WORKER_NCORES needs a STARPU_PARALLEL_WORKER_NEW before it",
                ));
            };
            let Some(last) = presets.last_mut() else {
                return Err(Error::invalid(
                    "STARPU_PARALLEL_WORKER_NCORES needs a STARPU_PARALLEL_WORKER_NEW before it",
                ));
            };
            last.1 = usize::try_from(o.value).unwrap_or(0);
            continue;
        }
        let p = match target {
            Target::Machine => &mut machine,
            Target::Partition => &mut parts.last_mut().expect("a partition").0,
            Target::Preset => {
                let last = parts.last_mut().expect("a partition");
                &mut last.1.last_mut().expect("a preset").0
            }
        };
        match o.key {
            MIN_NB => p.core.min_nb = count(o.value, "STARPU_PARALLEL_WORKER_MIN_NB")?,
            MAX_NB => p.core.max_nb = count(o.value, "STARPU_PARALLEL_WORKER_MAX_NB")?,
            NB => p.core.nb = count(o.value, "STARPU_PARALLEL_WORKER_NB")?,
            PREFERE_MIN => p.core.prefere_min = o.value != 0,
            KEEP_HOMOGENEOUS => p.core.keep_homogeneous = o.value != 0,
            POLICY_NAME => p.core.policy = ffi::string(o.ptr as *const c_char),
            POLICY_STRUCT => {
                p.core.custom_policy = if o.ptr.is_null() {
                    None
                } else {
                    Some(sched_policy::factory(
                        o.ptr as *mut starpu_sched_policy,
                        None,
                    )?)
                }
            }
            CREATE_FUNC => {
                p.func = std::mem::transmute::<*mut c_void, Option<unsafe extern "C" fn(*mut c_void)>>(
                    o.ptr,
                )
            }
            CREATE_FUNC_ARG => p.arg = o.ptr as usize,
            TYPE => p.kind = o.value,
            AWAKE_WORKERS => p.core.awake_workers = o.value != 0,
            k => {
                return Err(Error::invalid(format!(
                    "unknown option {k:#x} (is the list terminated by 0?)"
                )))
            }
        }
    }
    Ok(ParallelWorkerSpec {
        params: machine.resolve()?,
        partitions: parts
            .into_iter()
            .map(|(p, presets)| {
                Ok(Partition {
                    params: p.resolve()?,
                    presets: presets
                        .into_iter()
                        .map(|(pp, ncores)| {
                            Ok(PresetWorker {
                                params: pp.resolve()?,
                                ncores,
                            })
                        })
                        .collect::<starpu_core::Result<Vec<_>>>()?,
                })
            })
            .collect::<starpu_core::Result<Vec<_>>>()?,
    })
}

/// The configurations handed out and not shut down yet (addresses of their boxes).
static LIVE: Mutex<Vec<usize>> = Mutex::new(Vec::new());

/// The body of `starpu_parallel_worker_init` / `starpu_cluster_machine` once the C walker
/// has copied the options (`nopts` -1: too many options). NULL on error, reported.
///
/// # Safety
/// `opts` holds `nopts` options.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn _starpu_parallel_worker_init_with(
    level: c_int,
    opts: *const _starpu_pw_option,
    nopts: c_int,
    call: *const c_char,
) -> *mut c_void {
    let call = ffi::string(call).unwrap_or_else(|| "starpu_parallel_worker_init".into());
    ffi::value_call(&call, std::ptr::null_mut(), || {
        if nopts < 0 {
            return Err(Error::invalid("too many options (at most 255)"));
        }
        let opts = if nopts == 0 || opts.is_null() {
            &[][..]
        } else {
            std::slice::from_raw_parts(opts, nopts as usize)
        };
        let level = level_of(level)?;
        let spec = spec_of(opts)?;
        let rt = ffi::runtime()?;
        let pws = rt.parallel_workers_init(level, &spec)?;
        for pw in &pws.workers {
            crate::sched_ctx::refresh_collection(pw.ctx);
        }
        crate::sched_ctx::refresh_collection(pws.machine_ctx);
        // An application policy for the machine context starts now, as for
        // starpu_sched_ctx_create.
        sched_policy::start(pws.machine_ctx);
        let ptr = Box::into_raw(Box::new(pws)) as usize;
        LIVE.lock().unwrap_or_else(|e| e.into_inner()).push(ptr);
        Ok(ptr as *mut c_void)
    })
}

/// The live configuration behind `config`, if it is one.
fn live(config: *mut c_void, call: &str) -> starpu_core::Result<&'static ParallelWorkers> {
    let live = LIVE.lock().unwrap_or_else(|e| e.into_inner());
    if !live.contains(&(config as usize)) {
        return Err(Error::invalid(format!(
            "{call}: {config:?} is not a parallel worker configuration (or was shut down)"
        )));
    }
    // SAFETY: the address of a box this module made and has not freed.
    Ok(unsafe { &*(config as *const ParallelWorkers) })
}

fn shutdown(config: *mut c_void, call: &str) -> c_int {
    if config.is_null() {
        return -1;
    }
    ffi::int_call(call, || {
        live(config, call)?;
        LIVE.lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|&p| p != config as usize);
        // SAFETY: removed from LIVE above: this is the only owner.
        let pws = unsafe { Box::from_raw(config as *mut ParallelWorkers) };
        let rt = ffi::runtime()?;
        rt.parallel_workers_shutdown(&pws)?;
        for id in std::iter::once(pws.machine_ctx).chain(pws.workers.iter().map(|p| p.ctx)) {
            crate::sched_ctx::forget(id);
            crate::sched_ctx::refresh_collection(id);
        }
        crate::sched_ctx::refresh_collection(0);
        Ok(())
    })
}

fn print(config: *mut c_void, call: &str) -> c_int {
    if config.is_null() {
        return -1;
    }
    ffi::int_call(call, || {
        let pws = live(config, call)?;
        let mut out = format!(
            "Number of parallel workers created: {}\n",
            pws.workers.len()
        );
        for (i, pw) in pws.workers.iter().enumerate() {
            out.push_str(&format!(
                "Parallel worker {i} contains the following logical indexes:\n\t"
            ));
            for c in &pw.cpuids {
                out.push_str(&format!("{c} "));
            }
            out.push('\n');
        }
        let text = std::ffi::CString::new(out).unwrap_or_default();
        // Through C's stdout, in order with the application's printf.
        unsafe {
            libc::printf(c"%s".as_ptr(), text.as_ptr());
        }
        Ok(())
    })
}

/// `starpu_parallel_worker_shutdown`: deletes the parallel workers' contexts and their
/// machine context, frees the reserved workers; -1 for NULL.
/// Declared in starpu_parallel_worker.h / starpu_clusters.h.
/// cbindgen:ignore
#[no_mangle]
pub extern "C" fn starpu_parallel_worker_shutdown(config: *mut c_void) -> c_int {
    shutdown(config, "starpu_parallel_worker_shutdown")
}

/// `starpu_uncluster_machine`, StarPU 1.4's name of `starpu_parallel_worker_shutdown`.
/// Declared in starpu_parallel_worker.h / starpu_clusters.h.
/// cbindgen:ignore
#[no_mangle]
pub extern "C" fn starpu_uncluster_machine(config: *mut c_void) -> c_int {
    shutdown(config, "starpu_uncluster_machine")
}

/// `starpu_parallel_worker_print`: the parallel workers and their CPUs, on stdout.
/// Declared in starpu_parallel_worker.h / starpu_clusters.h.
/// cbindgen:ignore
#[no_mangle]
pub extern "C" fn starpu_parallel_worker_print(config: *mut c_void) -> c_int {
    print(config, "starpu_parallel_worker_print")
}

/// `starpu_cluster_print`, StarPU 1.4's name of `starpu_parallel_worker_print`.
/// Declared in starpu_parallel_worker.h / starpu_clusters.h.
/// cbindgen:ignore
#[no_mangle]
pub extern "C" fn starpu_cluster_print(config: *mut c_void) -> c_int {
    print(config, "starpu_cluster_print")
}

/// The CPUs the calling worker's kernels may use (for the OpenMP prologue): its parallel
/// worker's when it is a master, else its own. 0, or -1 outside a worker; `*cpuids` is
/// malloc'ed (the caller frees it).
///
/// # Safety
/// `cpuids` and `ncpuids` are valid for writing.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn _starpu_parallel_worker_current_cpuids(
    cpuids: *mut *mut c_int,
    ncpuids: *mut c_int,
) -> c_int {
    ffi::guard("starpu_parallel_worker_openmp_prologue", -1, || {
        *cpuids = std::ptr::null_mut();
        *ncpuids = 0;
        let Ok(rt) = ffi::runtime() else { return -1 };
        let Some(w) = starpu_core::worker::current_worker_id() else {
            return -1;
        };
        let cpus = match rt.master_context_of(w) {
            Some(ctx) => rt.available_cpuids(ctx).unwrap_or_default(),
            None => vec![rt.worker_cpuid(w)],
        };
        crate::sched_ctx::write_cpuids(&cpus, cpuids, ncpuids);
        0
    })
}

// The C bodies (the walkers declared without arguments: only their addresses are used),
// inside a macro so that cbindgen does not put these declarations in starpu.h.
unseen_by_cbindgen! {
    extern "C" {
        fn _starpu_c_parallel_worker_init();
        fn _starpu_c_cluster_machine();
        fn _starpu_c_openmp_prologue(arg: *mut c_void);
    }
}

// The variadic walkers and the OpenMP prologue are C: a jump gives them their public
// names (a C object's own symbols do not pass Rust's export list).
crate::varargs::jump_exports! {
    starpu_parallel_worker_init => _starpu_c_parallel_worker_init,
    starpu_cluster_machine => _starpu_c_cluster_machine,
    starpu_parallel_worker_openmp_prologue => _starpu_c_openmp_prologue,
    starpu_openmp_prologue => _starpu_c_openmp_prologue,
}
