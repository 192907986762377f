//! CUDA devices: found once per process (loading `libcuda.so.1` then, if it is there),
//! each with its primary context (the one CUDA's runtime API uses, so that kernels
//! compiled by nvcc and launched by the application share the runtime's buffers) and, on
//! first use, three streams for transfers: to the device, from it, and from its peers
//! (copies then overlap with the kernels of the workers' own streams, as with StarPU's
//! separate transfer streams).

use super::error::{check, CuResult};
use cudarc::driver::sys::{self, CUcontext, CUdevice, CUdevice_attribute, CUstream};
use std::sync::{Arc, OnceLock};

/// The transfer streams of an opened device.
pub(crate) struct Streams {
    /// Copies from main RAM to the device.
    pub(crate) to_device: CUstream,
    /// Copies from the device to main RAM and within the device.
    pub(crate) from_device: CUstream,
    /// Copies from other devices (peer access).
    pub(crate) peer: CUstream,
}

/// One CUDA device of this machine.
pub struct Device {
    /// The device's number for CUDA (`cudaSetDevice`'s argument).
    pub ordinal: usize,
    pub(crate) dev: CUdevice,
    /// The primary context, retained for the life of the process.
    pub(crate) ctx: CUcontext,
    pub name: String,
    /// Bytes of global memory.
    pub total_mem: usize,
    /// Compute capability (major, minor).
    pub capability: (i32, i32),
    streams: OnceLock<CuResult<Streams>>,
    /// Ordinals of the devices this one reads and writes directly (peer access enabled).
    peers: OnceLock<Vec<usize>>,
}

// SAFETY: CUDA contexts, streams and events may be used from any thread once the context
// is made current there (every call below binds it first).
unsafe impl Send for Device {}
unsafe impl Sync for Device {}

impl Device {
    /// Device `ordinal`, with its primary context retained.
    ///
    /// # Safety
    /// The driver is initialised (`cuInit`).
    unsafe fn open(ordinal: usize) -> CuResult<Device> {
        let mut dev: CUdevice = 0;
        check(sys::cuDeviceGet(&mut dev, ordinal as i32), "cuDeviceGet")?;
        let mut name = [0 as std::ffi::c_char; 256];
        check(
            sys::cuDeviceGetName(name.as_mut_ptr(), name.len() as i32, dev),
            "cuDeviceGetName",
        )?;
        let name = std::ffi::CStr::from_ptr(name.as_ptr())
            .to_string_lossy()
            .into_owned();
        let mut total = 0usize;
        check(
            sys::cuDeviceTotalMem_v2(&mut total, dev),
            "cuDeviceTotalMem",
        )?;
        let attr = |a: CUdevice_attribute| {
            let mut v = 0;
            let _ = sys::cuDeviceGetAttribute(&mut v, a, dev);
            v
        };
        let capability = (
            attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
            attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR),
        );
        let mut ctx: CUcontext = std::ptr::null_mut();
        check(
            sys::cuDevicePrimaryCtxRetain(&mut ctx, dev),
            "cuDevicePrimaryCtxRetain",
        )?;
        Ok(Device {
            ordinal,
            dev,
            ctx,
            name,
            total_mem: total,
            capability,
            streams: OnceLock::new(),
            peers: OnceLock::new(),
        })
    }

    /// Makes the device's context current on the calling thread (cheap: a thread-local
    /// pointer in the driver). Every driver call about this device comes after it.
    pub(crate) fn bind(&self) -> CuResult<()> {
        // SAFETY: the context is retained for the life of the process.
        check(unsafe { sys::cuCtxSetCurrent(self.ctx) }, "cuCtxSetCurrent")
    }

    /// The transfer streams, created on first use.
    pub(crate) fn streams(&self) -> CuResult<&Streams> {
        self.streams
            .get_or_init(|| {
                self.bind()?;
                Ok(Streams {
                    to_device: new_stream()?,
                    from_device: new_stream()?,
                    peer: new_stream()?,
                })
            })
            .as_ref()
            .map_err(|e| e.clone())
    }

    /// The ordinals of the devices this one has peer access to (enabled on first ask,
    /// among the devices `all` lists).
    pub fn peers(&self) -> &[usize] {
        self.peers.get_or_init(|| {
            let mut out = Vec::new();
            if self.bind().is_err() {
                return out;
            }
            for other in all().iter().filter(|o| o.ordinal != self.ordinal) {
                let mut can = 0;
                // SAFETY: both devices came from the driver; the context is current.
                let ok = unsafe {
                    sys::cuDeviceCanAccessPeer(&mut can, self.dev, other.dev)
                        == sys::CUresult::CUDA_SUCCESS
                        && can != 0
                        && matches!(
                            sys::cuCtxEnablePeerAccess(other.ctx, 0),
                            sys::CUresult::CUDA_SUCCESS
                                | sys::CUresult::CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED
                        )
                };
                if ok {
                    out.push(other.ordinal);
                }
            }
            out
        })
    }

    /// A CUDA attribute of the device (0 when the driver does not answer).
    pub fn attribute(&self, a: CUdevice_attribute) -> i32 {
        let mut v = 0;
        // SAFETY: a device of the driver.
        let _ = unsafe { sys::cuDeviceGetAttribute(&mut v, a, self.dev) };
        v
    }

    /// The raw `CUcontext` (for the C API).
    pub fn context_raw(&self) -> *mut std::ffi::c_void {
        self.ctx as *mut std::ffi::c_void
    }

    /// Waits for everything queued on the device (`cuCtxSynchronize`).
    pub fn synchronize(&self) -> CuResult<()> {
        self.bind()?;
        // SAFETY: the context is current.
        check(unsafe { sys::cuCtxSynchronize() }, "cuCtxSynchronize")
    }
}

/// A stream that does not wait for the legacy default stream (kernels an application
/// queues there do not hold up the runtime's copies).
pub(crate) fn new_stream() -> CuResult<CUstream> {
    let mut s: CUstream = std::ptr::null_mut();
    let flags = sys::CUstream_flags::CU_STREAM_NON_BLOCKING as u32;
    // SAFETY: a context is current (callers bind one).
    check(
        unsafe { sys::cuStreamCreate(&mut s, flags) },
        "cuStreamCreate",
    )?;
    Ok(s)
}

/// Whether the CUDA driver library can be loaded (checked once; without it nothing else
/// here touches CUDA, since cudarc panics on a driver call it cannot load).
pub fn driver_present() -> bool {
    static PRESENT: OnceLock<bool> = OnceLock::new();
    // SAFETY: only tries to dlopen the library.
    *PRESENT.get_or_init(|| unsafe { sys::is_culib_present() })
}

/// Every CUDA device of the machine, in the driver's order (none without a driver, or if
/// it fails to initialise). Found once per process.
pub fn all() -> &'static [Arc<Device>] {
    static ALL: OnceLock<Vec<Arc<Device>>> = OnceLock::new();
    ALL.get_or_init(|| {
        if !driver_present() {
            return Vec::new();
        }
        // A driver too old for one of the entry points cudarc loads panics: that is no
        // device, not a crash.
        std::panic::catch_unwind(|| {
            // SAFETY: plain driver queries; every device opened is kept for the process.
            unsafe {
                if sys::cuInit(0) != sys::CUresult::CUDA_SUCCESS {
                    return Vec::new();
                }
                let mut n = 0;
                if sys::cuDeviceGetCount(&mut n) != sys::CUresult::CUDA_SUCCESS {
                    return Vec::new();
                }
                (0..n.max(0) as usize)
                    .filter_map(|i| Device::open(i).ok().map(Arc::new))
                    .collect()
            }
        })
        .unwrap_or_default()
    })
}
