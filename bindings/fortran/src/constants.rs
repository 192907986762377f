//! The values of the module's `FSTARPU_*` constants, looked up by name by `fstarpu_init`.
//!
//! Fortran cannot see C's enums and macros, so the module declares its constants as
//! `type(c_ptr)` variables (they go into `c_ptr` argument arrays) and `fstarpu_init` asks
//! for each value here. Every value is the C face's own constant; the size constants
//! (`FSTARPU_SZ_*`) are computed in Fortran with `c_sizeof`.

use crate::consts::*;
use crate::types::STARPU_NMAXBUFS;
use libc::{c_char, c_int};
use starpu_core::AccessMode;
use std::ffi::CStr;

// The access modes, from the core's own list (the C header's enum starpu_data_access_mode
// has the same values).
const fn mode(m: AccessMode) -> isize {
    m.bits() as isize
}
const R: isize = mode(AccessMode::R);
const W: isize = mode(AccessMode::W);
const SCRATCH: isize = mode(AccessMode::SCRATCH);
const REDUX: isize = mode(AccessMode::REDUX);
const COMMUTE: isize = mode(AccessMode::COMMUTE);
const SSEND: isize = mode(AccessMode::SSEND);
const LOCALITY: isize = mode(AccessMode::LOCALITY);
const MPI_REDUX: isize = mode(AccessMode::MPI_REDUX);

/// What a constant is, for `fstarpu_task_insert`'s messages.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A `fstarpu_task_insert` key.
    Key,
    /// Anything else: a mode, a worker type, a where mask, a flag.
    Value,
}

/// The entry of C's constant `$c` under the name `F$c`: `key!` for a
/// `fstarpu_task_insert` key, `value!` for any other.
macro_rules! key {
    ($c:ident) => {
        (concat!("F", stringify!($c)), Kind::Key, $c as isize)
    };
}
macro_rules! value {
    ($c:ident) => {
        (concat!("F", stringify!($c)), Kind::Value, $c as isize)
    };
}

/// Name, kind and value of every constant (StarPU's 98, less the `FSTARPU_SZ_*` sizes,
/// plus the task_insert keys StarPU's decoder accepts that its module forgot).
const TABLE: &[(&str, Kind, isize)] = &[
    // Access modes.
    ("FSTARPU_NONE", Kind::Value, 0),
    ("FSTARPU_R", Kind::Value, R),
    ("FSTARPU_W", Kind::Value, W),
    ("FSTARPU_RW", Kind::Value, R | W),
    ("FSTARPU_SCRATCH", Kind::Value, SCRATCH),
    ("FSTARPU_REDUX", Kind::Value, REDUX),
    ("FSTARPU_MPI_REDUX", Kind::Value, MPI_REDUX),
    ("FSTARPU_COMMUTE", Kind::Value, COMMUTE),
    ("FSTARPU_SSEND", Kind::Value, SSEND),
    ("FSTARPU_LOCALITY", Kind::Value, LOCALITY),
    // "Same data on every MPI rank": a mode flag that changes nothing in one process, so
    // OR-ing it into a mode leaves the mode as it is.
    ("FSTARPU_MPI_SAME", Kind::Value, 0),
    // fstarpu_task_insert keys.
    key!(STARPU_VALUE),
    key!(STARPU_CALLBACK),
    key!(STARPU_CALLBACK_WITH_ARG),
    key!(STARPU_CALLBACK_WITH_ARG_NFREE),
    key!(STARPU_CALLBACK_ARG),
    key!(STARPU_CALLBACK_ARG_NFREE),
    key!(STARPU_PRIORITY),
    key!(STARPU_EXECUTE_ON_NODE),
    key!(STARPU_EXECUTE_ON_DATA),
    key!(STARPU_DATA_ARRAY),
    key!(STARPU_DATA_MODE_ARRAY),
    key!(STARPU_TAG),
    key!(STARPU_HYPERVISOR_TAG),
    key!(STARPU_FLOPS),
    key!(STARPU_SCHED_CTX),
    key!(STARPU_PROLOGUE_CALLBACK),
    key!(STARPU_PROLOGUE_CALLBACK_ARG),
    key!(STARPU_PROLOGUE_CALLBACK_ARG_NFREE),
    key!(STARPU_PROLOGUE_CALLBACK_POP),
    key!(STARPU_PROLOGUE_CALLBACK_POP_ARG),
    key!(STARPU_PROLOGUE_CALLBACK_POP_ARG_NFREE),
    key!(STARPU_EXECUTE_ON_WORKER),
    key!(STARPU_EXECUTE_WHERE),
    key!(STARPU_TAG_ONLY),
    key!(STARPU_POSSIBLY_PARALLEL),
    key!(STARPU_WORKER_ORDER),
    key!(STARPU_NODE_SELECTION_POLICY),
    key!(STARPU_NAME),
    key!(STARPU_CL_ARGS),
    key!(STARPU_CL_ARGS_NFREE),
    key!(STARPU_TASK_DEPS_ARRAY),
    key!(STARPU_TASK_COLOR),
    key!(STARPU_HANDLES_SEQUENTIAL_CONSISTENCY),
    key!(STARPU_TASK_SYNCHRONOUS),
    key!(STARPU_TASK_END_DEPS_ARRAY),
    key!(STARPU_TASK_END_DEP),
    key!(STARPU_TASK_WORKERIDS),
    key!(STARPU_SEQUENTIAL_CONSISTENCY),
    key!(STARPU_TASK_PROFILING_INFO),
    key!(STARPU_TASK_NO_SUBMITORDER),
    key!(STARPU_TASK_SCHED_DATA),
    key!(STARPU_EPILOGUE_CALLBACK),
    key!(STARPU_EPILOGUE_CALLBACK_ARG),
    key!(STARPU_TASK_FILE),
    key!(STARPU_TASK_LINE),
    key!(STARPU_TRANSACTION),
    key!(STARPU_SOON_CALLBACK),
    key!(STARPU_SOON_CALLBACK_ARG),
    key!(STARPU_SOON_CALLBACK_ARG_NFREE),
    // Worker types (enum starpu_worker_archtype).
    ("FSTARPU_CPU_WORKER", Kind::Value, 0),
    ("FSTARPU_CUDA_WORKER", Kind::Value, 1),
    ("FSTARPU_OPENCL_WORKER", Kind::Value, 2),
    ("FSTARPU_ANY_WORKER", Kind::Value, 255),
    ("FSTARPU_NARCH", Kind::Value, 9),
    // Integers.
    value!(STARPU_NMAXBUFS),
    value!(STARPU_DEFAULT_PRIO),
    // fstarpu_sched_ctx_create keys (StarPU's values: keys of starpu_sched_ctx_create).
    ("FSTARPU_SCHED_CTX_POLICY_NAME", Kind::Value, 1 << 16),
    ("FSTARPU_SCHED_CTX_POLICY_STRUCT", Kind::Value, 2 << 16),
    ("FSTARPU_SCHED_CTX_POLICY_MIN_PRIO", Kind::Value, 3 << 16),
    ("FSTARPU_SCHED_CTX_POLICY_MAX_PRIO", Kind::Value, 4 << 16),
    ("FSTARPU_SCHED_CTX_HIERARCHY_LEVEL", Kind::Value, 5 << 16),
    ("FSTARPU_SCHED_CTX_NESTED", Kind::Value, 6 << 16),
    ("FSTARPU_SCHED_CTX_AWAKE_WORKERS", Kind::Value, 7 << 16),
    ("FSTARPU_SCHED_CTX_POLICY_INIT", Kind::Value, 8 << 16),
    ("FSTARPU_SCHED_CTX_USER_DATA", Kind::Value, 9 << 16),
    // Where a codelet or task may run.
    value!(STARPU_NOWHERE),
    value!(STARPU_CPU),
    value!(STARPU_CUDA),
    value!(STARPU_OPENCL),
    // Codelet flags.
    value!(STARPU_CODELET_SIMGRID_EXECUTE),
    value!(STARPU_CODELET_SIMGRID_EXECUTE_AND_INJECT),
    value!(STARPU_CUDA_ASYNC),
    value!(STARPU_OPENCL_ASYNC),
    // Performance model types (enum starpu_perfmodel_type).
    ("FSTARPU_PER_WORKER", Kind::Value, 1),
    ("FSTARPU_PER_ARCH", Kind::Value, 2),
    ("FSTARPU_COMMON", Kind::Value, 3),
    ("FSTARPU_HISTORY_BASED", Kind::Value, 4),
    ("FSTARPU_REGRESSION_BASED", Kind::Value, 5),
    ("FSTARPU_NL_REGRESSION_BASED", Kind::Value, 6),
    ("FSTARPU_MULTIPLE_REGRESSION_BASED", Kind::Value, 7),
    // Codelet types (enum starpu_codelet_type).
    ("FSTARPU_SEQ", Kind::Value, 0),
    ("FSTARPU_SPMD", Kind::Value, 1),
    ("FSTARPU_FORKJOIN", Kind::Value, 2),
];

/// The value of constant `name`.
pub fn value(name: &str) -> Option<isize> {
    TABLE
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|&(_, _, v)| v)
}

/// The name of the `fstarpu_task_insert` key `key`, for messages.
pub fn key_name(key: c_int) -> Option<&'static str> {
    TABLE
        .iter()
        .find(|&&(_, kind, v)| kind == Kind::Key && v == key as isize)
        .map(|&(n, _, _)| n)
}

/// `fstarpu_get_constant`: the value of the constant named by the C string `name`.
/// An unknown name is reported and gives -1 (fstarpu_init then fails: see its code).
///
/// # Safety
/// `name` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn fstarpu_get_constant(name: *const c_char) -> isize {
    let name = if name.is_null() {
        None
    } else {
        CStr::from_ptr(name).to_str().ok()
    };
    match name.and_then(value) {
        Some(v) => v,
        None => {
            super::report(
                "fstarpu_init",
                format_args!("unknown constant {}", name.unwrap_or("(not UTF-8 or NULL)")),
            );
            -1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every constant the module looks up by name exists here: none stays unset.
    #[test]
    fn every_constant_of_the_module_has_a_value() {
        let module = include_str!("../fstarpu_mod.f90");
        let looked_up: Vec<&str> = module
            .split("constant(\"")
            .skip(1)
            .map(|rest| &rest[..rest.find('"').unwrap()])
            .collect();
        assert!(
            looked_up.len() > 70,
            "found only {} lookups",
            looked_up.len()
        );
        for name in looked_up {
            assert!(value(name).is_some(), "{name} has no value");
        }
    }

    #[test]
    fn keys_are_named_and_modes_are_not_keys() {
        assert_eq!(key_name(STARPU_PRIORITY), Some("FSTARPU_PRIORITY"));
        assert_eq!(key_name(R as c_int), None);
        assert_eq!(value("FSTARPU_RW"), Some(3));
        assert_eq!(value("FSTARPU_NO_SUCH_THING"), None);
    }
}
