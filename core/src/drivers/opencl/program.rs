//! OpenCL programs built for the devices, with StarPU's rules: where a source file is
//! found (as given, then under `STARPU_OPENCL_PROGRAM_DIR`), its directory added to the
//! include path (`-I dir`, so that `#include "x.h"` beside it works), compiled binaries
//! kept under `$STARPU_HOME/.starpu/opencl/<name>.<type>.vendor_id_<v>_device_id_<d>`.

use super::device::Device;
use super::error::{cl_error, ClResult};
use crate::error::Error;
use cl3::types::{cl_kernel, cl_program};
use std::ffi::CString;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// One program per device (`struct starpu_opencl_program`): null where none was built.
pub type Programs = Vec<usize>;

/// Finds source file `name` as StarPU does: the path as given, else under
/// `STARPU_OPENCL_PROGRAM_DIR`. Returns the file and its directory (with a trailing
/// `/`, empty for a bare name).
pub fn locate_source(name: &str) -> Option<(PathBuf, String)> {
    let readable = |p: &Path| std::fs::File::open(p).is_ok();
    let mut candidates = vec![PathBuf::from(name)];
    if let Some(dir) = crate::env::env_var("STARPU_OPENCL_PROGRAM_DIR") {
        candidates.push(Path::new(&dir).join(name));
    }
    let file = candidates.into_iter().find(|p| readable(p))?;
    let s = file.to_string_lossy();
    let dir = match s.rfind('/') {
        Some(i) => s[..=i].to_string(),
        None => String::new(),
    };
    Some((file, dir))
}

/// Reads a source file found by `locate_source`; the options to build it with (its
/// directory first in the include path).
pub fn read_source(name: &str, options: &str) -> ClResult<(String, String)> {
    let (file, dir) = locate_source(name)
        .ok_or_else(|| Error::invalid(format!("cannot locate OpenCL source file <{name}>")))?;
    let source = std::fs::read_to_string(&file).map_err(|e| {
        Error::invalid(format!(
            "cannot read OpenCL source file {}: {e}",
            file.display()
        ))
    })?;
    let options = if dir.is_empty() {
        options.to_string()
    } else {
        format!("-I {dir} {options}")
    };
    Ok((source, options))
}

/// The build log of `program` for `device`, if it says anything.
fn build_log(program: cl_program, device: &Device) -> String {
    cl3::program::get_program_build_data(program, device.id, super::cl::CL_PROGRAM_BUILD_LOG)
        .map(|b| {
            String::from_utf8_lossy(&b)
                .trim_end_matches('\0')
                .trim()
                .to_string()
        })
        .unwrap_or_default()
}

/// Builds `program` (made from source or binary) for `device`; the build log (as StarPU,
/// printed when it says something) goes into the error.
fn build(program: cl_program, device: &Device, options: &str) -> ClResult<()> {
    let opts = CString::new(options)
        .map_err(|_| Error::invalid("OpenCL build options contain a NUL byte"))?;
    let r = cl3::program::build_program(program, &[device.id], &opts, None, std::ptr::null_mut());
    let log = build_log(program, device);
    if log.len() > 2 && r.is_ok() {
        eprintln!("[starpu] Compilation output\n{log}");
    }
    r.map_err(|e| {
        // SAFETY: the program was created above and is released once.
        unsafe {
            let _ = cl3::program::release_program(program);
        }
        let mut err = cl_error(
            e,
            &format!("building an OpenCL program for {}", device.name),
        );
        if !log.is_empty() {
            err.message = format!("{}\n{log}", err.message);
        }
        err
    })
}

/// `source` built for `device`: the raw `cl_program`.
pub fn build_source(device: &Device, source: &str, options: &str) -> ClResult<usize> {
    let ctx = device.opened()?.context;
    let program = cl3::program::create_program_with_source(ctx, &[source])
        .map_err(|e| cl_error(e, "clCreateProgramWithSource"))?;
    build(program, device, options)?;
    Ok(program as usize)
}

/// `source` built for every device (`starpu_opencl_load_opencl_from_string`).
pub fn build_all(devices: &[Arc<Device>], source: &str, options: &str) -> ClResult<Programs> {
    let mut out = Vec::with_capacity(devices.len());
    for d in devices {
        match build_source(d, source, options) {
            Ok(p) => out.push(p),
            Err(e) => {
                release_all(&out);
                return Err(e);
            }
        }
    }
    Ok(out)
}

/// Releases programs of `build_all` (`starpu_opencl_unload_opencl`).
pub fn release_all(programs: &[usize]) {
    for &p in programs.iter().filter(|&&p| p != 0) {
        // SAFETY: each program was built here and is released once.
        unsafe {
            let _ = cl3::program::release_program(p as cl_program);
        }
    }
}

/// Where the binary of program `name` for device `devid` is kept.
pub fn binary_path(home: &Path, name: &str, devid: usize, device: &Device) -> PathBuf {
    let base = Path::new(name)
        .file_name()
        .map_or_else(|| name.to_string(), |f| f.to_string_lossy().into_owned());
    let stem = match base.find(".cl") {
        Some(i) => &base[..i],
        None => &base[..],
    };
    home.join(".starpu").join("opencl").join(format!(
        "{stem}.{}.vendor_id_{}_device_id_{devid}",
        device.kind.short_name(),
        device.vendor_id
    ))
}

/// Builds `source` for every device and keeps the binaries under `home` as `name`
/// (`starpu_opencl_compile_opencl_from_string`).
pub fn compile_to_binaries(
    devices: &[Arc<Device>],
    home: &Path,
    source: &str,
    name: &str,
    options: &str,
) -> ClResult<()> {
    for (devid, d) in devices.iter().enumerate() {
        let p = build_source(d, source, options)? as cl_program;
        let binary = cl3::program::get_program_info(p, super::cl::CL_PROGRAM_BINARIES);
        // SAFETY: built above, released once.
        unsafe {
            let _ = cl3::program::release_program(p);
        }
        let binary = match binary {
            Ok(cl3::info_type::InfoType::VecVecUchar(mut v)) if !v.is_empty() => v.remove(0),
            Ok(_) => return Err(Error::invalid("the OpenCL driver returned no binary")),
            Err(e) => return Err(cl_error(e, "clGetProgramInfo(CL_PROGRAM_BINARIES)")),
        };
        let path = binary_path(home, name, devid, d);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| Error::invalid(format!("cannot create {}: {e}", dir.display())))?;
        }
        std::fs::write(&path, binary)
            .map_err(|e| Error::invalid(format!("cannot write {}: {e}", path.display())))?;
    }
    Ok(())
}

/// Builds, for every device, the binary `compile_to_binaries` kept as `name`
/// (`starpu_opencl_load_binary_opencl`).
pub fn load_binaries(devices: &[Arc<Device>], home: &Path, name: &str) -> ClResult<Programs> {
    let mut out = Vec::with_capacity(devices.len());
    for (devid, d) in devices.iter().enumerate() {
        let path = binary_path(home, name, devid, d);
        let loaded = std::fs::read(&path)
            .map_err(|e| Error::invalid(format!("cannot read {}: {e}", path.display())))
            .and_then(|bin| {
                let ctx = d.opened()?.context;
                // SAFETY: the device belongs to the context.
                let p = unsafe { cl3::program::create_program_with_binary(ctx, &[d.id], &[&bin]) }
                    .map_err(|e| cl_error(e, "clCreateProgramWithBinary"))?;
                build(p, d, "")?;
                Ok(p as usize)
            });
        match loaded {
            Ok(p) => out.push(p),
            Err(e) => {
                release_all(&out);
                return Err(e);
            }
        }
    }
    Ok(out)
}

/// Kernel `name` of raw program `program` (`starpu_opencl_load_kernel`).
pub fn create_kernel(program: usize, name: &str) -> ClResult<usize> {
    if program == 0 {
        return Err(cl_error(
            super::cl::CL_INVALID_PROGRAM,
            "no program for this device",
        ));
    }
    let cname = CString::new(name).map_err(|_| Error::invalid("kernel name contains a NUL"))?;
    cl3::kernel::create_kernel(program as cl_program, &cname)
        .map(|k| k as usize)
        .map_err(|e| cl_error(e, &format!("clCreateKernel({name})")))
}

/// Releases a kernel of `create_kernel`.
pub fn release_kernel(kernel: usize) -> ClResult<()> {
    // SAFETY: the caller gives a kernel it created and no longer uses.
    unsafe { cl3::kernel::release_kernel(kernel as cl_kernel) }
        .map_err(|e| cl_error(e, "clReleaseKernel"))
}

/// OpenCL source for Rust codelets, built for each device the first time a task runs
/// there (a build error fails that task with the compiler's log).
pub struct Program {
    source: String,
    options: String,
    /// (device, its program or the build error), per device seen.
    built: Mutex<Vec<(usize, Result<usize, Error>)>>,
}

impl Program {
    /// A program made of `source`, to be built with no options.
    pub fn from_source(source: impl Into<String>) -> Program {
        Program {
            source: source.into(),
            options: String::new(),
            built: Mutex::new(Vec::new()),
        }
    }

    /// The same, built with `options` (`-D N=4`...).
    pub fn with_options(mut self, options: impl Into<String>) -> Program {
        self.options = options.into();
        self
    }

    /// The program built for `device` (built now if it was not yet).
    pub(crate) fn for_device(&self, device: &Device) -> ClResult<usize> {
        let key = device as *const Device as usize;
        let mut built = self.built.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, r)) = built.iter().find(|(k, _)| *k == key) {
            return r.clone();
        }
        let r = build_source(device, &self.source, &self.options);
        built.push((key, r.clone()));
        r
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        let built = self.built.get_mut().unwrap_or_else(|e| e.into_inner());
        let programs: Vec<usize> = built.iter().filter_map(|(_, r)| r.clone().ok()).collect();
        release_all(&programs);
    }
}

impl std::fmt::Debug for Program {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Program")
            .field("options", &self.options)
            .finish()
    }
}
