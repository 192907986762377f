//! `starpu_perfmodel.h`: the model, the architectures it is asked about, and the
//! per-architecture records with their history and regression parts.

use super::*;
use libc::{c_char, c_int, c_uint, c_void, size_t};

/// `struct starpu_perfmodel_device`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct starpu_perfmodel_device {
    pub r#type: c_int,
    pub devid: c_int,
    pub ncores: c_int,
}

/// `struct starpu_perfmodel_arch` (a set of devices).
#[repr(C)]
pub struct starpu_perfmodel_arch {
    pub ndevices: c_int,
    pub devices: *mut starpu_perfmodel_device,
}

/// `struct starpu_perfmodel`.
#[repr(C)]
pub struct starpu_perfmodel {
    pub r#type: starpu_perfmodel_type,
    pub cost_function: Option<unsafe extern "C" fn(*mut starpu_task, c_uint) -> f64>,
    pub arch_cost_function:
        Option<unsafe extern "C" fn(*mut starpu_task, *mut starpu_perfmodel_arch, c_uint) -> f64>,
    pub worker_cost_function: Option<unsafe extern "C" fn(*mut starpu_task, c_uint, c_uint) -> f64>,
    pub size_base: Option<unsafe extern "C" fn(*mut starpu_task, c_uint) -> size_t>,
    pub footprint: Option<unsafe extern "C" fn(*mut starpu_task) -> u32>,
    pub symbol: *const c_char,
    pub path: *const c_char,
    pub is_loaded: c_uint,
    pub benchmarking: c_uint,
    pub is_init: c_uint,
    pub parameters: Option<unsafe extern "C" fn(*mut starpu_task, *mut f64)>,
    pub parameters_names: *mut *const c_char,
    pub nparameters: c_uint,
    pub combinations: *mut *mut c_uint,
    pub ncombinations: c_uint,
    pub state: *mut c_void,
    pub footprint_per_level: *mut c_void,
    pub recursive_graphs: *mut c_void,
    pub is_recorded_recursive: c_int,
}

/// `struct starpu_perfmodel_history_entry`: StarPU's history records; this library keeps
/// its history in the core, so programs only see the type.
pub struct starpu_perfmodel_history_entry(());

/// `struct starpu_perfmodel_history_table`: opaque in StarPU too.
pub struct starpu_perfmodel_history_table(());

/// `struct starpu_perfmodel_history_list`.
#[repr(C)]
pub struct starpu_perfmodel_history_list {
    pub next: *mut starpu_perfmodel_history_list,
    pub entry: *mut starpu_perfmodel_history_entry,
}

/// `struct starpu_perfmodel_regression_model`: StarPU's layout; the fitted values of this
/// library are in the core (and in the model files), not here.
#[repr(C)]
pub struct starpu_perfmodel_regression_model {
    pub sumlny: f64,
    pub sumlnx: f64,
    pub sumlnx2: f64,
    pub minx: libc::c_ulong,
    pub maxx: libc::c_ulong,
    pub sumlnxlny: f64,
    pub alpha: f64,
    pub beta: f64,
    pub valid: c_uint,
    pub a: f64,
    pub b: f64,
    pub c: f64,
    pub nl_valid: c_uint,
    pub nsample: c_uint,
    pub coeff: *mut f64,
    pub ncoeff: c_uint,
    pub multi_valid: c_uint,
}

/// `struct starpu_perfmodel_per_arch` (StarPU 1.4's layout): programs set `cost_function`
/// (and `size_base`) for one architecture and implementation.
#[repr(C)]
pub struct starpu_perfmodel_per_arch {
    pub cost_function:
        Option<unsafe extern "C" fn(*mut starpu_task, *mut starpu_perfmodel_arch, c_uint) -> f64>,
    pub size_base: Option<
        unsafe extern "C" fn(*mut starpu_task, *mut starpu_perfmodel_arch, c_uint) -> size_t,
    >,
    pub history: *mut starpu_perfmodel_history_table,
    pub list: *mut starpu_perfmodel_history_list,
    pub regression: starpu_perfmodel_regression_model,
    pub debug_path: [libc::c_char; 256],
}
