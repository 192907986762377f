//! CUDA status codes as errors: the driver's own text for each code, and the core's error
//! kind (running out of device memory is `OutOfMemory`, a missing or unusable device
//! `NoDevice`, the rest fails the work at hand).

use crate::error::{Error, ErrorKind};
use cudarc::driver::sys::{self, CUresult};

pub type CuResult<T> = std::result::Result<T, Error>;

/// The driver's name and text for `status` (`cuGetErrorName` / `cuGetErrorString`).
pub fn error_string(status: CUresult) -> String {
    let r = cudarc::driver::result::DriverError(status);
    let name = r.error_name().map(|s| s.to_string_lossy().into_owned());
    let text = r.error_string().map(|s| s.to_string_lossy().into_owned());
    match (name, text) {
        (Ok(n), Ok(t)) => format!("{n}: {t}"),
        (Ok(n), Err(_)) => n,
        _ => format!("CUDA error {}", status as i32),
    }
}

/// The core error for `status`, returned by `what`.
pub fn cu_error(status: CUresult, what: &str) -> Error {
    use CUresult::*;
    let kind = match status {
        CUDA_ERROR_OUT_OF_MEMORY => ErrorKind::OutOfMemory,
        CUDA_ERROR_NO_DEVICE | CUDA_ERROR_INVALID_DEVICE | CUDA_ERROR_NOT_INITIALIZED => {
            ErrorKind::NoDevice
        }
        _ => ErrorKind::TaskFailed,
    };
    Error::new(kind, format!("{what}: {}", error_string(status)))
}

/// `Ok` for `CUDA_SUCCESS`, the error of `what` otherwise.
pub(crate) fn check(status: CUresult, what: &str) -> CuResult<()> {
    match status {
        sys::CUresult::CUDA_SUCCESS => Ok(()),
        s => Err(cu_error(s, what)),
    }
}
