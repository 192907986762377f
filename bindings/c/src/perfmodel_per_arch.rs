//! A model's per-architecture records (`struct starpu_perfmodel_per_arch`), as programs
//! reach them: `starpu_perfmodel_get_model_per_arch`, `..._per_devices` (both give the
//! record, whose `cost_function` the program then sets) and
//! `starpu_perfmodel_set_per_devices_cost_function`. The C model struct has no room for
//! them (StarPU keeps them in the model's internal state), so they live here, by model
//! address, at stable addresses; the core model reads each record's function when it
//! predicts (`STARPU_PER_ARCH`).

use crate::abi::starpu_perfmodel_per_arch;
use crate::abi::{starpu_perfmodel, starpu_perfmodel_arch, starpu_task};
use crate::ffi::{self, value_call};
use crate::perfmodel::{c_arch, c_task, core_arch};
use libc::{c_int, c_uint};
use starpu_core::perfmodel::{ArchCostFn, PerfArch, PerfDevice};
use starpu_core::task::TaskSpec;
use starpu_core::worker::WorkerKind;
use starpu_core::Error;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// One record: the architecture and implementation it is for, and the C struct (boxed:
/// programs keep its address).
struct Record {
    arch: PerfArch,
    nimpl: usize,
    c: Box<starpu_perfmodel_per_arch>,
}

// SAFETY: the records are only reached under `RECORDS`'s lock, or read (two function
// pointers) by the model's closures; programs write them before submitting tasks.
unsafe impl Send for Record {}

static RECORDS: Mutex<Option<HashMap<usize, Vec<Record>>>> = Mutex::new(None);
/// Any record made: models without any skip the lock.
static ANY: AtomicBool = AtomicBool::new(false);

/// The record of `model` for (`arch`, `nimpl`), made (zeroed) on first request.
fn record(
    model: *mut starpu_perfmodel,
    arch: PerfArch,
    nimpl: usize,
) -> *mut starpu_perfmodel_per_arch {
    let mut map = RECORDS.lock().unwrap_or_else(|e| e.into_inner());
    let list = map
        .get_or_insert_with(HashMap::new)
        .entry(model as usize)
        .or_default();
    ANY.store(true, Ordering::Release);
    if let Some(r) = list.iter_mut().find(|r| r.nimpl == nimpl && r.arch == arch) {
        return &mut *r.c;
    }
    // SAFETY: all-zero is a valid value of this plain C struct (NULL functions).
    let mut c: Box<starpu_perfmodel_per_arch> = Box::new(unsafe { std::mem::zeroed() });
    let p: *mut starpu_perfmodel_per_arch = &mut *c;
    list.push(Record { arch, nimpl, c });
    p
}

/// The core model's per-architecture functions for C model `m`: each reads its record's
/// `cost_function` when asked (NaN, "no prediction", while it is NULL).
pub(crate) fn per_devices_of(m: &starpu_perfmodel) -> Vec<(PerfArch, usize, ArchCostFn)> {
    if !ANY.load(Ordering::Acquire) {
        return Vec::new();
    }
    let map = RECORDS.lock().unwrap_or_else(|e| e.into_inner());
    let Some(list) = map
        .as_ref()
        .and_then(|m2| m2.get(&(m as *const _ as usize)))
    else {
        return Vec::new();
    };
    list.iter()
        .map(|r| {
            let rec = &*r.c as *const starpu_perfmodel_per_arch as usize;
            let cost: ArchCostFn =
                Arc::new(move |spec: &TaskSpec, arch: &PerfArch, nimpl: usize| {
                    // SAFETY: records are never freed; the program set the function, if any.
                    let f = unsafe { (*(rec as *const starpu_perfmodel_per_arch)).cost_function };
                    let Some(f) = f else { return f64::NAN };
                    let mut devices = Vec::new();
                    let mut a = c_arch(arch, &mut devices);
                    // SAFETY: the application's function, given its task and a live arch.
                    unsafe { f(c_task(spec), &mut a, nimpl as c_uint) }
                });
            (r.arch.clone(), r.nimpl, cost)
        })
        .collect()
}

/// `starpu_perfmodel_get_model_per_arch`: the record of `model` for `arch` and `impl`.
///
/// # Safety
/// `model` is NULL or a model that stays at its address; `arch` is NULL (the CPU) or a
/// valid architecture.
#[no_mangle]
pub unsafe extern "C" fn starpu_perfmodel_get_model_per_arch(
    model: *mut starpu_perfmodel,
    arch: *mut starpu_perfmodel_arch,
    imp: c_uint,
) -> *mut starpu_perfmodel_per_arch {
    value_call(
        "starpu_perfmodel_get_model_per_arch",
        std::ptr::null_mut(),
        || {
            ffi::non_null(model, "model")?;
            Ok(record(model, core_arch(arch)?, imp as usize))
        },
    )
}

/// The architecture of `ndevices` (type, id, cores) triplets.
///
/// # Safety
/// The arrays hold `ndevices` values.
unsafe fn devices_arch(
    ndevices: c_int,
    types: *const c_int,
    devids: *const c_int,
    ncores: *const c_int,
) -> starpu_core::Result<PerfArch> {
    if ndevices < 1 || types.is_null() || devids.is_null() || ncores.is_null() {
        return Err(Error::invalid(
            "no device: give (type, id, cores) triplets ended by -1",
        ));
    }
    let devices = (0..ndevices as usize)
        .map(|i| {
            let t = *types.add(i);
            let kind = WorkerKind::from_starpu_id(t as u32)
                .ok_or_else(|| Error::invalid(format!("{t} is not a worker type of this build")))?;
            Ok(PerfDevice {
                kind,
                devid: (*devids.add(i)).max(0) as u32,
                ncores: (*ncores.add(i)).max(1) as u32,
            })
        })
        .collect::<starpu_core::Result<Vec<_>>>()?;
    Ok(PerfArch { devices })
}

/// The body of `starpu_perfmodel_get_model_per_devices` and of
/// `starpu_perfmodel_set_per_devices_cost_function` (variadic, read in csrc/varargs.c):
/// the record of `model` for implementation `impl` on the architecture of the `ndevices`
/// devices, with `func` as its cost function when given. NULL on error.
///
/// # Safety
/// `model` is NULL or a valid model that stays at its address; the arrays hold
/// `ndevices` values.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn _starpu_c_perfmodel_per_devices(
    call: c_int,
    model: *mut starpu_perfmodel,
    imp: c_int,
    func: Option<unsafe extern "C" fn(*mut starpu_task, *mut starpu_perfmodel_arch, c_uint) -> f64>,
    ndevices: c_int,
    types: *const c_int,
    devids: *const c_int,
    ncores: *const c_int,
) -> *mut starpu_perfmodel_per_arch {
    let name = if call == 0 {
        "starpu_perfmodel_get_model_per_devices"
    } else {
        "starpu_perfmodel_set_per_devices_cost_function"
    };
    value_call(name, std::ptr::null_mut(), || {
        ffi::non_null(model, "model")?;
        if call != 0 && func.is_none() {
            return Err(Error::invalid("no cost function"));
        }
        let nimpl =
            usize::try_from(imp).map_err(|_| Error::invalid(format!("implementation {imp}")))?;
        let arch = devices_arch(ndevices, types, devids, ncores)?;
        let rec = record(model, arch, nimpl);
        if func.is_some() {
            (*rec).cost_function = func;
        }
        Ok(rec)
    })
}
