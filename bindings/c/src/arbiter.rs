//! Arbiters (`starpu_arbiter_create`, `starpu_data_assign_arbiter`,
//! `starpu_arbiter_destroy`): the C value owns one reference to the core's arbiter.

use crate::abi::*;
use crate::ffi::{handle, int_call, value_call};
use starpu_core::data::Arbiter;
use starpu_core::Error;

/// What C holds: `starpu_arbiter_t` points to one.
pub struct starpu_arbiter(Arbiter);
pub type starpu_arbiter_t = *mut starpu_arbiter;

/// `starpu_arbiter_create`.
#[no_mangle]
pub extern "C" fn starpu_arbiter_create() -> starpu_arbiter_t {
    value_call("starpu_arbiter_create", std::ptr::null_mut(), || {
        Ok(Box::into_raw(Box::new(starpu_arbiter(Arbiter::new()))))
    })
}

/// `starpu_data_assign_arbiter`: the commuting accesses to `h` are arbitrated by
/// `arbiter` (before any task uses `h` in commute mode).
///
/// # Safety
/// `arbiter` is null or a value returned by `starpu_arbiter_create`, not destroyed.
#[no_mangle]
pub unsafe extern "C" fn starpu_data_assign_arbiter(
    h: starpu_data_handle_t,
    arbiter: starpu_arbiter_t,
) {
    let _ = int_call("starpu_data_assign_arbiter", || {
        let a = arbiter
            .as_ref()
            .ok_or_else(|| Error::invalid("the arbiter is NULL"))?;
        handle(h)?.assign_arbiter(&a.0)
    });
}

/// `starpu_arbiter_destroy`: StarPU requires the arbiter's data to be unregistered
/// first; if some are not, they keep the arbitration (the core shares it) and this says so.
///
/// # Safety
/// `arbiter` is null or a value returned by `starpu_arbiter_create`, not destroyed.
#[no_mangle]
pub unsafe extern "C" fn starpu_arbiter_destroy(arbiter: starpu_arbiter_t) {
    let _ = int_call("starpu_arbiter_destroy", || {
        if arbiter.is_null() {
            return Err(Error::invalid("the arbiter is NULL"));
        }
        let a = Box::from_raw(arbiter);
        match a.0.handles() {
            0 => Ok(()),
            n => Err(Error::invalid(format!(
                "{n} data still assigned to the arbiter: unregister them before destroying \
                 it (the arbiter goes with them)"
            ))),
        }
    });
}
