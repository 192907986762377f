//! OpenCL status codes as errors: StarPU's message for each code, and the core's error
//! kind (running out of device memory is `OutOfMemory`, the rest fails the work at hand).

use crate::error::{Error, ErrorKind};

pub type ClResult<T> = std::result::Result<T, Error>;

/// StarPU's text for an OpenCL status (`starpu_opencl_error_string`): "Success",
/// "Device not found", "Invalid kernel name"...
pub fn error_string(status: i32) -> String {
    if status == super::cl::CL_SUCCESS {
        return "Success".into();
    }
    let name = cl3::error_codes::error_text(status);
    let Some(words) = name.strip_prefix("CL_") else {
        return format!("Unknown error ({status})");
    };
    let mut s = words.replace('_', " ").to_lowercase();
    if let Some(first) = s.get(0..1) {
        let up = first.to_uppercase();
        s.replace_range(0..1, &up);
    }
    s.replace("Mem object", "Memory object")
}

/// The core error for OpenCL status `status` returned by `what`.
pub fn cl_error(status: i32, what: &str) -> Error {
    use super::cl::{CL_MEM_OBJECT_ALLOCATION_FAILURE, CL_OUT_OF_HOST_MEMORY, CL_OUT_OF_RESOURCES};
    let kind = match status {
        CL_MEM_OBJECT_ALLOCATION_FAILURE | CL_OUT_OF_RESOURCES | CL_OUT_OF_HOST_MEMORY => {
            ErrorKind::OutOfMemory
        }
        -2000 | -2001 => ErrorKind::NoDevice,
        _ => ErrorKind::TaskFailed,
    };
    Error::new(
        kind,
        format!("{what}: OpenCL error {status} ({})", error_string(status)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_read_like_starpus() {
        assert_eq!(error_string(0), "Success");
        assert_eq!(error_string(-1), "Device not found");
        assert_eq!(error_string(-4), "Memory object allocation failure");
        assert_eq!(error_string(-46), "Invalid kernel name");
        assert!(error_string(-12345).starts_with("Unknown"));
    }
}
