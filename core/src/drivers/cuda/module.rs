//! CUDA kernels for Rust codelets: a module of PTX, or of CUDA C source that NVRTC
//! compiles for each device the first time a task runs there (for that device's compute
//! capability). A compilation or load error fails that task with NVRTC's log.

use super::device::Device;
use super::error::check;
use crate::error::{Error, ErrorKind, Result};
use cudarc::driver::sys::{self, CUfunction, CUmodule};
use std::ffi::CString;
use std::sync::Mutex;

#[derive(Debug, Clone)]
enum Source {
    Ptx(String),
    CudaC {
        source: String,
        options: Vec<String>,
    },
}

/// PTX or CUDA C source, loaded on each device on first use.
pub struct Module {
    source: Source,
    /// (device ordinal, its module or the error), per device seen.
    loaded: Mutex<Vec<(usize, Result<usize>)>>,
    /// (device ordinal, kernel name, function), per kernel looked up.
    functions: Mutex<Vec<(usize, String, usize)>>,
}

impl std::fmt::Debug for Module {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Module")
            .field("source", &self.source)
            .finish()
    }
}

impl Module {
    /// A module of PTX text (what `nvcc --ptx` writes).
    pub fn from_ptx(ptx: impl Into<String>) -> Module {
        Module::new(Source::Ptx(ptx.into()))
    }

    /// A module of CUDA C source, compiled by NVRTC (kernels declared `extern "C"`
    /// keep their names).
    pub fn from_source(source: impl Into<String>) -> Module {
        Module::new(Source::CudaC {
            source: source.into(),
            options: Vec::new(),
        })
    }

    /// The same source, compiled with NVRTC `options` (`-DN=4`, `--use_fast_math`...).
    pub fn with_options(mut self, options: impl IntoIterator<Item = impl Into<String>>) -> Self {
        if let Source::CudaC { options: o, .. } = &mut self.source {
            o.extend(options.into_iter().map(Into::into));
        }
        self
    }

    fn new(source: Source) -> Module {
        Module {
            source,
            loaded: Mutex::new(Vec::new()),
            functions: Mutex::new(Vec::new()),
        }
    }

    /// The module loaded on `device` (compiled and loaded now if it was not yet).
    fn for_device(&self, device: &Device) -> Result<CUmodule> {
        let mut loaded = self.loaded.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, r)) = loaded.iter().find(|(o, _)| *o == device.ordinal) {
            return r.clone().map(|m| m as CUmodule);
        }
        let r = self.load(device).map(|m| m as usize);
        loaded.push((device.ordinal, r.clone()));
        r.map(|m| m as CUmodule)
    }

    fn load(&self, device: &Device) -> Result<CUmodule> {
        let ptx = match &self.source {
            Source::Ptx(p) => p.clone(),
            Source::CudaC { source, options } => compile(source, options, device)?,
        };
        let image = CString::new(ptx).map_err(|_| Error::invalid("PTX contains a NUL byte"))?;
        device.bind()?;
        let mut m: CUmodule = std::ptr::null_mut();
        // SAFETY: a NUL-terminated PTX image; the device's context is current.
        check(
            unsafe { sys::cuModuleLoadData(&mut m, image.as_ptr() as *const _) },
            &format!("loading a CUDA module on {}", device.name),
        )?;
        Ok(m)
    }

    /// Kernel `name` of this module on `device`.
    pub(crate) fn function(&self, device: &Device, name: &str) -> Result<CUfunction> {
        {
            let fs = self.functions.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(f) = fs
                .iter()
                .find(|(o, n, _)| *o == device.ordinal && n == name)
            {
                return Ok(f.2 as CUfunction);
            }
        }
        let m = self.for_device(device)?;
        let cname = CString::new(name).map_err(|_| Error::invalid("kernel name contains a NUL"))?;
        let mut f: CUfunction = std::ptr::null_mut();
        // SAFETY: a module loaded in the device's context (bound by `for_device`).
        device.bind()?;
        check(
            unsafe { sys::cuModuleGetFunction(&mut f, m, cname.as_ptr()) },
            &format!("CUDA kernel {name}"),
        )?;
        let mut fs = self.functions.lock().unwrap_or_else(|e| e.into_inner());
        fs.push((device.ordinal, name.to_string(), f as usize));
        Ok(f)
    }
}

impl Drop for Module {
    fn drop(&mut self) {
        let loaded = self.loaded.get_mut().unwrap_or_else(|e| e.into_inner());
        for (ordinal, m) in loaded.drain(..) {
            let Ok(m) = m else { continue };
            if let Some(d) = super::all().iter().find(|d| d.ordinal == ordinal) {
                if d.bind().is_ok() {
                    // SAFETY: loaded once by this module, unloaded once.
                    unsafe {
                        let _ = sys::cuModuleUnload(m as CUmodule);
                    }
                }
            }
        }
    }
}

/// CUDA C `source` compiled by NVRTC for `device`'s compute capability: the PTX.
fn compile(source: &str, options: &[String], device: &Device) -> Result<String> {
    // SAFETY: only tries to load the library.
    if !unsafe { cudarc::nvrtc::sys::is_culib_present() } {
        return Err(Error::new(
            ErrorKind::NoDevice,
            "NVRTC (libnvrtc) cannot be loaded: CUDA C source cannot be compiled",
        ));
    }
    let (major, minor) = device.capability;
    let mut opts = vec![format!("--gpu-architecture=compute_{major}{minor}")];
    opts.extend(options.iter().cloned());
    let o = cudarc::nvrtc::CompileOptions {
        options: opts,
        ..Default::default()
    };
    let src = source.to_string();
    // cudarc unwraps a few NVRTC calls: a panic there is a failed compilation.
    let r = std::panic::catch_unwind(move || cudarc::nvrtc::compile_ptx_with_opts(src, o));
    match r {
        Ok(Ok(ptx)) => Ok(ptx.to_src()),
        Ok(Err(cudarc::nvrtc::CompileError::CompileError { log, .. })) => Err(Error::new(
            ErrorKind::TaskFailed,
            format!(
                "NVRTC could not compile the CUDA source:\n{}",
                log.to_string_lossy()
            ),
        )),
        Ok(Err(e)) => Err(Error::new(ErrorKind::TaskFailed, format!("NVRTC: {e}"))),
        Err(_) => Err(Error::new(
            ErrorKind::TaskFailed,
            "NVRTC failed while compiling the CUDA source",
        )),
    }
}
