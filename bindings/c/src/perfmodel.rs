//! Performance models in C: `struct starpu_perfmodel` read into the core's `PerfModel`
//! (its cost functions wrapped), and the `starpu_perfmodel_*` / `starpu_task_expected_*`
//! entry points. The models themselves (history, regressions, files) live in the core.

use crate::abi::starpu_perfmodel_device;
use crate::abi::{starpu_perfmodel, starpu_perfmodel_arch, starpu_task};
use crate::ffi::{self, guard, int_call, value_call};
use crate::job::CTask;
use libc::size_t;
use libc::{c_char, c_int, c_uint};
use starpu_core::perfmodel::{
    self, multiple, state, ArchCostFn, CostFn, FootprintFn, ParamsFn, PerfArch, PerfDevice,
    PerfModel, PerfModelType, SizeBaseFn, WorkerCostFn,
};
use starpu_core::task::TaskSpec;
use starpu_core::worker::WorkerKind;
use starpu_core::Error;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

/// StarPU's `enum starpu_perfmodel_type` values.
fn kind_of(v: c_uint) -> PerfModelType {
    match v {
        2 => PerfModelType::PerArch,
        3 => PerfModelType::Common,
        4 => PerfModelType::HistoryBased,
        5 => PerfModelType::RegressionBased,
        6 => PerfModelType::NonLinearRegressionBased,
        7 => PerfModelType::MultipleRegressionBased,
        1 => PerfModelType::PerWorker,
        _ => PerfModelType::Invalid,
    }
}

fn value_of(k: PerfModelType) -> c_uint {
    match k {
        PerfModelType::Invalid => 0,
        PerfModelType::PerWorker => 1,
        PerfModelType::PerArch | PerfModelType::PerArchCommon => 2,
        PerfModelType::Common => 3,
        PerfModelType::HistoryBased => 4,
        PerfModelType::RegressionBased => 5,
        PerfModelType::NonLinearRegressionBased => 6,
        PerfModelType::MultipleRegressionBased => 7,
    }
}

/// The C task a core description belongs to (NULL for tasks of other faces).
pub(crate) fn c_task(spec: &TaskSpec) -> *mut starpu_task {
    spec.payload_as::<CTask>()
        .map_or(std::ptr::null_mut(), CTask::ptr)
}

/// A C view of `arch`, valid while `devices` lives.
pub(crate) fn c_arch(
    arch: &PerfArch,
    devices: &mut Vec<starpu_perfmodel_device>,
) -> starpu_perfmodel_arch {
    devices.clear();
    devices.extend(arch.devices.iter().map(|d| starpu_perfmodel_device {
        r#type: d.kind.starpu_id() as c_int,
        devid: d.devid as c_int,
        ncores: d.ncores as c_int,
    }));
    starpu_perfmodel_arch {
        ndevices: devices.len() as c_int,
        devices: devices.as_mut_ptr(),
    }
}

/// The core's architecture for a C one (NULL: the CPU architecture).
///
/// # Safety
/// `arch` is NULL or a valid architecture with `ndevices` devices.
pub(crate) unsafe fn core_arch(
    arch: *const starpu_perfmodel_arch,
) -> starpu_core::Result<PerfArch> {
    let Some(a) = arch.as_ref() else {
        return Ok(PerfArch::cpu());
    };
    if a.ndevices < 1 || a.devices.is_null() {
        return Err(Error::invalid("perfmodel arch has no device"));
    }
    let devices = std::slice::from_raw_parts(a.devices, a.ndevices as usize)
        .iter()
        .map(|d| {
            let kind = WorkerKind::from_starpu_id(d.r#type as u32).ok_or_else(|| {
                Error::invalid(format!("{} is not a worker type of this build", d.r#type))
            })?;
            Ok(PerfDevice {
                kind,
                devid: d.devid.max(0) as u32,
                ncores: d.ncores.max(1) as u32,
            })
        })
        .collect::<starpu_core::Result<Vec<_>>>()?;
    Ok(PerfArch { devices })
}

/// The core model for a C one: kind, symbol and the application's functions.
///
/// # Safety
/// `m` is NULL or a valid `struct starpu_perfmodel` whose functions stay callable.
pub(crate) unsafe fn convert(m: *const starpu_perfmodel) -> Option<PerfModel> {
    let m = m.as_ref()?;
    let cost_function: Option<CostFn> = m.cost_function.map(|f| -> CostFn {
        Arc::new(move |spec: &TaskSpec, nimpl: usize| unsafe { f(c_task(spec), nimpl as c_uint) })
    });
    let arch_cost_function: Option<ArchCostFn> = m.arch_cost_function.map(|f| -> ArchCostFn {
        Arc::new(move |spec: &TaskSpec, arch: &PerfArch, nimpl: usize| {
            let mut devices = Vec::new();
            let mut a = c_arch(arch, &mut devices);
            // SAFETY: the application's function, given its task and a live arch.
            unsafe { f(c_task(spec), &mut a, nimpl as c_uint) }
        })
    });
    let size_base: Option<SizeBaseFn> = m.size_base.map(|f| -> SizeBaseFn {
        Arc::new(move |spec: &TaskSpec, nimpl: usize| unsafe { f(c_task(spec), nimpl as c_uint) })
    });
    let footprint: Option<FootprintFn> = m
        .footprint
        .map(|f| -> FootprintFn { Arc::new(move |spec: &TaskSpec| unsafe { f(c_task(spec)) }) });
    let worker_cost_function: Option<WorkerCostFn> =
        m.worker_cost_function.map(|f| -> WorkerCostFn {
            Arc::new(move |spec: &TaskSpec, worker: usize, nimpl: usize| unsafe {
                f(c_task(spec), worker as c_uint, nimpl as c_uint)
            })
        });
    let nparameters = m.nparameters as usize;
    let parameters: Option<ParamsFn> = m.parameters.map(|f| -> ParamsFn {
        Arc::new(move |spec: &TaskSpec| {
            let mut values = vec![0.0f64; nparameters];
            // SAFETY: the application's function fills `nparameters` doubles.
            unsafe { f(c_task(spec), values.as_mut_ptr()) };
            values
        })
    });
    Some(PerfModel {
        per_devices: crate::perfmodel_per_arch::per_devices_of(m),
        worker_cost_function,
        parameters,
        mlr_layout: mlr_layout(m),
        kind: kind_of(m.r#type),
        symbol: ffi::string(m.symbol),
        cost_function,
        arch_cost_function,
        size_base,
        footprint,
        ..Default::default()
    })
}

/// The terms of a multiple-regression model: `ncombinations` rows of `nparameters`
/// exponents, and the parameters' names (NULL names become `P<k>` in files).
///
/// # Safety
/// `combinations` and `parameters_names` are NULL or hold that many valid entries.
unsafe fn mlr_layout(m: &starpu_perfmodel) -> multiple::Layout {
    let np = m.nparameters as usize;
    let combinations = if m.combinations.is_null() {
        Vec::new()
    } else {
        (0..m.ncombinations as usize)
            .filter_map(|i| {
                let row = *m.combinations.add(i);
                (!row.is_null()).then(|| std::slice::from_raw_parts(row, np).to_vec())
            })
            .collect()
    };
    let names = if m.parameters_names.is_null() {
        Vec::new()
    } else {
        (0..np)
            .map(|k| ffi::string(*m.parameters_names.add(k)).unwrap_or_else(|| format!("P{k}")))
            .collect()
    };
    multiple::Layout {
        nparameters: np,
        combinations,
        names,
    }
}

/// A core description of C task `t` for questions asked about it before (or without)
/// submission: its buffers, flops, and the task itself for the model's functions.
///
/// # Safety
/// `t` is a valid task.
unsafe fn probe_spec(t: *mut starpu_task) -> starpu_core::Result<TaskSpec> {
    let tr = &*t;
    let accesses = match tr.cl.as_ref() {
        Some(cl) => crate::task::accesses(tr, cl)?,
        None => Default::default(),
    };
    Ok(TaskSpec {
        accesses,
        flops: tr.flops,
        payload: Some(Arc::new(CTask::probe(t))),
        ..Default::default()
    })
}

/// `starpu_perfmodel_init`: prepares `model` (reads its file for learning models).
///
/// # Safety
/// `model` is NULL or a valid model.
#[no_mangle]
pub unsafe extern "C" fn starpu_perfmodel_init(model: *mut starpu_perfmodel) -> c_int {
    int_call("starpu_perfmodel_init", || {
        ffi::non_null(model, "model")?;
        if let Some(m) = convert(model) {
            let _ = m.state();
        }
        (*model).is_init = 1;
        Ok(())
    })
}

/// Symbols this library allocated for `starpu_perfmodel_load_symbol` (freed on unload;
/// a symbol the application set is never freed).
static OWN_SYMBOLS: Mutex<Option<HashSet<usize>>> = Mutex::new(None);

fn own_symbols<R>(f: impl FnOnce(&mut HashSet<usize>) -> R) -> R {
    f(OWN_SYMBOLS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert_with(HashSet::new))
}

/// `starpu_perfmodel_load_symbol`: reads the model file of `symbol` into `model`
/// (trying `a.b` then `a`, as StarPU). 0 when loaded, 1 when there is no such file.
///
/// # Safety
/// `symbol` is a C string, `model` a valid model.
#[no_mangle]
pub unsafe extern "C" fn starpu_perfmodel_load_symbol(
    symbol: *const c_char,
    model: *mut starpu_perfmodel,
) -> c_int {
    guard("starpu_perfmodel_load_symbol", -libc::EINVAL, || {
        let (Some(mut sym), Some(m)) = (ffi::string(symbol), model.as_mut()) else {
            ffi::report(
                "starpu_perfmodel_load_symbol",
                &Error::invalid("symbol and model must not be NULL"),
            );
            return -libc::EINVAL;
        };
        while !perfmodel::settings::model_path(&sym).exists() {
            match sym.rfind('.') {
                Some(dot) => sym.truncate(dot),
                None => {
                    eprintln!("[starpu] There is no performance model for symbol {sym}");
                    return 1;
                }
            }
        }
        let Ok(owned) = std::ffi::CString::new(sym.clone()) else {
            return -libc::EINVAL;
        };
        let p = libc::strdup(owned.as_ptr());
        own_symbols(|s| s.insert(p as usize));
        m.symbol = p;
        let st = state::state(&sym, kind_of(m.r#type));
        m.r#type = value_of(st.kind());
        m.is_loaded = 1;
        m.is_init = 1;
        0
    })
}

/// `starpu_perfmodel_unload_model`: forgets what `model` learned (saving new samples
/// first when calibrating, so nothing measured is lost).
///
/// # Safety
/// `model` is NULL or a valid model.
#[no_mangle]
pub unsafe extern "C" fn starpu_perfmodel_unload_model(model: *mut starpu_perfmodel) -> c_int {
    int_call("starpu_perfmodel_unload_model", || {
        ffi::non_null(model, "model")?;
        let m = &mut *model;
        if let Some(sym) = ffi::string(m.symbol) {
            state::unload(&sym);
        }
        if own_symbols(|s| s.remove(&(m.symbol as usize))) {
            libc::free(m.symbol as *mut libc::c_void);
            m.symbol = std::ptr::null();
        }
        m.is_loaded = 0;
        m.is_init = 0;
        Ok(())
    })
}

/// `starpu_save_history_based_model`: writes `model`'s file now.
///
/// # Safety
/// `model` is NULL or a valid model.
#[no_mangle]
pub unsafe extern "C" fn starpu_save_history_based_model(model: *mut starpu_perfmodel) {
    value_call("starpu_save_history_based_model", (), || {
        ffi::non_null(model, "model")?;
        if let Some(st) = convert(model).and_then(|m| m.state()) {
            state::save(&st);
        }
        Ok(())
    })
}

/// `starpu_perfmodel_update_history`: adds a measurement (microseconds) of `task` on
/// `arch`, as if a worker had measured it; the model is saved at shutdown.
///
/// # Safety
/// `model`, `task` and `arch` are valid (arch NULL: the CPU architecture).
#[no_mangle]
pub unsafe extern "C" fn starpu_perfmodel_update_history(
    model: *mut starpu_perfmodel,
    task: *mut starpu_task,
    arch: *mut starpu_perfmodel_arch,
    _cpuid: c_uint,
    nimpl: c_uint,
    measured: f64,
) {
    value_call("starpu_perfmodel_update_history", (), || {
        ffi::non_null(task, "task")?;
        if measured.is_nan() || measured < 0.0 {
            return Err(Error::invalid(format!(
                "measured time {measured} is negative"
            )));
        }
        let m = convert(model).ok_or_else(|| Error::invalid("model is NULL"))?;
        let st = m.state().ok_or_else(|| {
            Error::invalid("only history and regression models with a symbol learn")
        })?;
        let spec = probe_spec(task)?;
        perfmodel::update_history(&m, &st, &spec, &core_arch(arch)?, nimpl as usize, measured);
        Ok(())
    })
}

/// `starpu_task_expected_length`: microseconds `task` should take on `arch` with
/// implementation `nimpl`; 0 without a model, NaN when the model is not calibrated.
///
/// # Safety
/// `task` is a valid task; `arch` NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn starpu_task_expected_length(
    task: *mut starpu_task,
    arch: *mut starpu_perfmodel_arch,
    nimpl: c_uint,
) -> f64 {
    value_call("starpu_task_expected_length", f64::NAN, || {
        ffi::non_null(task, "task")?;
        let Some(m) = (*task).cl.as_ref().and_then(|cl| convert(cl.model)) else {
            return Ok(0.0);
        };
        let spec = probe_spec(task)?;
        Ok(perfmodel::expected_length(
            &m,
            &spec,
            &core_arch(arch)?,
            nimpl as usize,
        ))
    })
}

/// `starpu_task_footprint`: the key `task`'s timings are filed under in `model`.
///
/// # Safety
/// `task` is a valid task; `model` and `arch` NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn starpu_task_footprint(
    model: *mut starpu_perfmodel,
    task: *mut starpu_task,
    _arch: *mut starpu_perfmodel_arch,
    nimpl: c_uint,
) -> u32 {
    value_call("starpu_task_footprint", 0, || {
        ffi::non_null(task, "task")?;
        let m = convert(model);
        let spec = probe_spec(task)?;
        Ok(perfmodel::footprint(m.as_ref(), &spec, nimpl as usize))
    })
}

/// `starpu_task_expected_data_transfer_time`: 0, this build has one memory node (see
/// the core's `expected_transfer_time`).
///
/// # Safety
/// `task` is NULL or a valid task.
#[no_mangle]
pub unsafe extern "C" fn starpu_task_expected_data_transfer_time(
    memory_node: c_uint,
    task: *mut starpu_task,
) -> f64 {
    value_call("starpu_task_expected_data_transfer_time", 0.0, || {
        ffi::non_null(task, "task")?;
        let spec = probe_spec(task)?;
        Ok(perfmodel::expected_transfer_time(
            &spec,
            memory_node as usize,
        ))
    })
}

/// `starpu_perfmodel_history_based_expected_perf`: the calibrated mean for `footprint`
/// on `arch` (implementation 0), NaN when not calibrated.
///
/// # Safety
/// `model` is a valid model; `arch` NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn starpu_perfmodel_history_based_expected_perf(
    model: *mut starpu_perfmodel,
    arch: *mut starpu_perfmodel_arch,
    footprint: u32,
) -> f64 {
    value_call(
        "starpu_perfmodel_history_based_expected_perf",
        f64::NAN,
        || {
            let st = convert(model)
                .and_then(|m| m.state())
                .ok_or_else(|| Error::invalid("not a history-based model with a symbol"))?;
            Ok(st
                .history_mean(&core_arch(arch)?, 0, footprint)
                .unwrap_or(f64::NAN))
        },
    )
}

/// One C architecture per (kind, device) for `starpu_worker_get_perf_archtype`; they live
/// as long as the process, as StarPU's do.
/// (kind, device, cores) of an architecture.
type ArchKey = (u32, u32, u32);

static ARCHS: Mutex<Option<HashMap<ArchKey, usize>>> = Mutex::new(None);

/// `starpu_worker_get_perf_archtype`: the architecture of worker `workerid`.
#[no_mangle]
pub extern "C" fn starpu_worker_get_perf_archtype(
    workerid: c_int,
    _sched_ctx_id: c_uint,
) -> *mut starpu_perfmodel_arch {
    value_call(
        "starpu_worker_get_perf_archtype",
        std::ptr::null_mut(),
        || {
            let arch = ffi::with_runtime(|rt| {
                let w = usize::try_from(workerid)
                    .ok()
                    .filter(|&w| w < rt.workers().len())
                    .ok_or_else(|| Error::invalid(format!("no worker {workerid}")))?;
                Ok(starpu_core::sched::SchedView::worker_arch(&**rt, w))
            })?;
            Ok(c_arch_ptr(&arch))
        },
    )
}

/// The process-lived C description of `arch` (its first device: the architectures of
/// sequential workers have one).
fn c_arch_ptr(arch: &PerfArch) -> *mut starpu_perfmodel_arch {
    let d = arch.devices[0];
    let key = (d.kind.starpu_id(), d.devid, d.ncores);
    let mut map = ARCHS.lock().unwrap_or_else(|e| e.into_inner());
    let p = *map
        .get_or_insert_with(HashMap::new)
        .entry(key)
        .or_insert_with(|| {
            let dev = Box::leak(Box::new(starpu_perfmodel_device {
                r#type: d.kind.starpu_id() as c_int,
                devid: d.devid as c_int,
                ncores: d.ncores as c_int,
            }));
            Box::leak(Box::new(starpu_perfmodel_arch {
                ndevices: 1,
                devices: dev,
            })) as *mut starpu_perfmodel_arch as usize
        });
    p as *mut starpu_perfmodel_arch
}

/// `starpu_perfmodel_get_narch_combs`: how many distinct worker architectures the
/// running runtime has (0 when it is not running).
#[no_mangle]
pub extern "C" fn starpu_perfmodel_get_narch_combs() -> c_int {
    ffi::with_runtime(|rt| Ok(rt.arch_combinations().len() as c_int)).unwrap_or(0)
}

/// `starpu_perfmodel_arch_comb_fetch`: architecture combination `comb`, NULL when there
/// is no such combination.
#[no_mangle]
pub extern "C" fn starpu_perfmodel_arch_comb_fetch(comb: c_int) -> *mut starpu_perfmodel_arch {
    let arch = ffi::with_runtime(|rt| {
        Ok(usize::try_from(comb)
            .ok()
            .and_then(|i| rt.arch_combinations().into_iter().nth(i)))
    });
    match arch {
        Ok(Some(a)) => c_arch_ptr(&a),
        _ => std::ptr::null_mut(),
    }
}

/// `starpu_perfmodel_get_archtype_name`: "cpu", "cuda", "opencl".
#[no_mangle]
pub extern "C" fn starpu_perfmodel_get_archtype_name(archtype: c_uint) -> *const c_char {
    let name: &'static [u8] = match WorkerKind::from_starpu_id(archtype) {
        Some(WorkerKind::Cpu) => b"cpu\0",
        Some(WorkerKind::Cuda) => b"cuda\0",
        Some(WorkerKind::OpenCl) => b"opencl\0",
        None => b"unknown\0",
    };
    name.as_ptr() as *const c_char
}

/// `starpu_perfmodel_get_arch_name`: `cpu0_impl0 (Comb0)` into `archname`.
///
/// # Safety
/// `arch` is NULL or valid; `archname` has room for `maxlen` bytes.
#[no_mangle]
pub unsafe extern "C" fn starpu_perfmodel_get_arch_name(
    arch: *mut starpu_perfmodel_arch,
    archname: *mut c_char,
    maxlen: size_t,
    nimpl: c_uint,
) {
    value_call("starpu_perfmodel_get_arch_name", (), || {
        if archname.is_null() || maxlen == 0 {
            return Ok(());
        }
        let name = core_arch(arch)?.name(nimpl as usize, 0);
        let n = name.len().min(maxlen - 1);
        std::ptr::copy_nonoverlapping(name.as_ptr(), archname as *mut u8, n);
        *archname.add(n) = 0;
        Ok(())
    })
}

unsafe extern "C" fn nop_cost(
    _task: *mut starpu_task,
    _arch: *mut starpu_perfmodel_arch,
    _nimpl: c_uint,
) -> f64 {
    0.000001
}

/// `starpu_perfmodel_nop`: a model for codelets that do (almost) nothing, 1 ns
/// everywhere (a `STARPU_PER_ARCH` model, as StarPU's).
#[no_mangle]
pub static mut starpu_perfmodel_nop: starpu_perfmodel = starpu_perfmodel {
    r#type: 2,
    cost_function: None,
    arch_cost_function: Some(nop_cost),
    worker_cost_function: None,
    size_base: None,
    footprint: None,
    symbol: std::ptr::null(),
    path: std::ptr::null(),
    is_loaded: 0,
    benchmarking: 0,
    is_init: 0,
    parameters: None,
    parameters_names: std::ptr::null_mut(),
    nparameters: 0,
    combinations: std::ptr::null_mut(),
    ncombinations: 0,
    state: std::ptr::null_mut(),
    footprint_per_level: std::ptr::null_mut(),
    recursive_graphs: std::ptr::null_mut(),
    is_recorded_recursive: 0,
};

/// `starpu_perfmodel_dump_xml`: writes `model` (what it learned so far, read from its file
/// first if needed) on `output` in StarPU's XML form (the core's `perfmodel::xml`).
///
/// # Safety
/// `output` is NULL or an open C stream; `model` NULL or a valid model.
#[no_mangle]
pub unsafe extern "C" fn starpu_perfmodel_dump_xml(
    output: *mut libc::FILE,
    model: *mut starpu_perfmodel,
) {
    value_call("starpu_perfmodel_dump_xml", (), || {
        ffi::non_null(output, "output stream")?;
        let st = convert(model)
            .and_then(|m| m.state())
            .ok_or_else(|| Error::invalid("not a model that learns, or no symbol"))?;
        let text = std::ffi::CString::new(starpu_core::perfmodel::xml::to_xml(&st))
            .map_err(|_| Error::invalid("the model's symbol holds a NUL byte"))?;
        libc::fputs(text.as_ptr(), output);
        Ok(())
    })
}
