//! OpenCL devices: found once per process (loading `libOpenCL.so.1` then), each opened on
//! first use with its context and in-order queues: one for kernels, one for transfers to
//! the device and one for transfers from it (so that copies overlap with kernels, as with
//! StarPU's separate queues).

use super::error::{cl_error, ClResult};
use cl3::types::{cl_command_queue, cl_context, cl_device_id, cl_device_type, cl_platform_id};
use std::sync::{Arc, OnceLock};

/// What kind of device OpenCL reports (`CL_DEVICE_TYPE_*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeviceType {
    Cpu,
    Gpu,
    Accelerator,
    Other,
}

impl DeviceType {
    fn of(t: cl_device_type) -> DeviceType {
        use super::cl::{CL_DEVICE_TYPE_ACCELERATOR, CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_GPU};
        if t & CL_DEVICE_TYPE_GPU != 0 {
            DeviceType::Gpu
        } else if t & CL_DEVICE_TYPE_ACCELERATOR != 0 {
            DeviceType::Accelerator
        } else if t & CL_DEVICE_TYPE_CPU != 0 {
            DeviceType::Cpu
        } else {
            DeviceType::Other
        }
    }

    /// StarPU's short name, used in program binary names (`gpu`, `acc`, `cpu`, `unk`).
    pub fn short_name(self) -> &'static str {
        match self {
            DeviceType::Gpu => "gpu",
            DeviceType::Accelerator => "acc",
            DeviceType::Cpu => "cpu",
            DeviceType::Other => "unk",
        }
    }
}

/// The context and queues of an opened device.
pub(crate) struct Opened {
    pub(crate) context: cl_context,
    /// Kernels go here (StarPU's `queues[devid]`, `starpu_opencl_get_queue`).
    pub(crate) queue: cl_command_queue,
    /// Data transfers to the device go here, transfers from it and within it in `out`
    /// (StarPU's in and out transfer queues): a copy back to main RAM does not wait
    /// behind the prefetches queued toward the device.
    pub(crate) transfers: cl_command_queue,
    pub(crate) out: cl_command_queue,
}

/// One OpenCL device of this machine.
pub struct Device {
    pub(crate) platform: cl_platform_id,
    pub(crate) id: cl_device_id,
    pub kind: DeviceType,
    pub name: String,
    pub vendor_id: u32,
    /// Bytes of global memory.
    pub global_mem: u64,
    opened: OnceLock<std::result::Result<Opened, i32>>,
}

// SAFETY: OpenCL objects (platforms, devices, contexts, queues, buffers) may be used from
// any thread (OpenCL 1.1 onwards: every API call is thread-safe but clSetKernelArg on one
// kernel, which a device never shares).
unsafe impl Send for Device {}
unsafe impl Sync for Device {}

fn info_bytes(dev: cl_device_id, param: u32) -> Option<Vec<u8>> {
    cl3::device::get_device_data(dev, param).ok()
}

fn info_u64(dev: cl_device_id, param: u32) -> u64 {
    info_bytes(dev, param).map_or(0, |b| {
        let mut v = [0u8; 8];
        let n = b.len().min(8);
        v[..n].copy_from_slice(&b[..n]);
        u64::from_ne_bytes(v)
    })
}

fn info_string(dev: cl_device_id, param: u32) -> String {
    info_bytes(dev, param).map_or_else(String::new, |b| {
        String::from_utf8_lossy(&b)
            .trim_end_matches('\0')
            .trim()
            .to_string()
    })
}

impl Device {
    fn new(platform: cl_platform_id, id: cl_device_id) -> Device {
        use super::cl::{
            CL_DEVICE_GLOBAL_MEM_SIZE, CL_DEVICE_NAME, CL_DEVICE_TYPE, CL_DEVICE_VENDOR_ID,
        };
        Device {
            platform,
            id,
            kind: DeviceType::of(info_u64(id, CL_DEVICE_TYPE)),
            name: info_string(id, CL_DEVICE_NAME),
            vendor_id: info_u64(id, CL_DEVICE_VENDOR_ID) as u32,
            global_mem: info_u64(id, CL_DEVICE_GLOBAL_MEM_SIZE),
            opened: OnceLock::new(),
        }
    }

    /// The device's context and queues, created on first use.
    pub(crate) fn opened(&self) -> ClResult<&Opened> {
        self.opened
            .get_or_init(|| self.open())
            .as_ref()
            .map_err(|&e| cl_error(e, &format!("opening OpenCL device {}", self.name)))
    }

    /// `opened`, failing with the OpenCL status (for the C API).
    pub(crate) fn opened_status(&self) -> std::result::Result<&Opened, i32> {
        self.opened
            .get_or_init(|| self.open())
            .as_ref()
            .map_err(|&e| e)
    }

    fn open(&self) -> std::result::Result<Opened, i32> {
        use super::cl::{CL_QUEUE_PROFILING_ENABLE, CL_QUEUE_PROPERTIES};
        let context =
            cl3::context::create_context(&[self.id], std::ptr::null(), None, std::ptr::null_mut())?;
        // Profiling on: kernels' events give their run time (`starpu_opencl_collect_stats`).
        let props = [CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0];
        // SAFETY: the device belongs to the context just made.
        let queue = |_: ()| unsafe {
            cl3::command_queue::create_command_queue_with_properties(
                context,
                self.id,
                props.as_ptr(),
            )
        };
        let queue_k = queue(())?;
        let transfers = queue(())?;
        let out = queue(())?;
        Ok(Opened {
            context,
            queue: queue_k,
            transfers,
            out,
        })
    }

    /// Whether the device could be opened (a context and queues exist or can be made).
    pub fn usable(&self) -> bool {
        self.opened().is_ok()
    }

    /// The raw `cl_context` (for the C API).
    pub fn context_raw(&self) -> *mut std::ffi::c_void {
        self.opened().map_or(std::ptr::null_mut(), |o| o.context)
    }

    /// The raw kernel `cl_command_queue` (for the C API).
    pub fn queue_raw(&self) -> *mut std::ffi::c_void {
        self.opened().map_or(std::ptr::null_mut(), |o| o.queue)
    }

    /// The raw `cl_device_id` (for the C API).
    pub fn device_raw(&self) -> *mut std::ffi::c_void {
        self.id
    }

    /// The raw `cl_platform_id`.
    pub fn platform_raw(&self) -> *mut std::ffi::c_void {
        self.platform
    }

    /// Waits for every kernel queued on the device (`clFinish` of its kernel queue).
    pub fn finish_kernels(&self) -> ClResult<()> {
        let o = self.opened()?;
        cl3::command_queue::finish(o.queue).map_err(|e| cl_error(e, "clFinish"))
    }
}

/// Every OpenCL device of the machine, in platform order (none when no OpenCL library
/// loads). Found once per process: platforms do not change while it runs.
pub fn all() -> &'static [Arc<Device>] {
    static ALL: OnceLock<Vec<Arc<Device>>> = OnceLock::new();
    ALL.get_or_init(|| {
        let Ok(platforms) = cl3::platform::get_platform_ids() else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for p in platforms {
            let name = cl3::platform::get_platform_data(p, super::cl::CL_PLATFORM_NAME)
                .map(|b| {
                    String::from_utf8_lossy(&b)
                        .trim_end_matches('\0')
                        .to_string()
                })
                .unwrap_or_default();
            // StarPU skips its own OpenCL-on-StarPU platform.
            if name == "SOCL Platform" {
                continue;
            }
            let ids =
                cl3::device::get_device_ids(p, super::cl::CL_DEVICE_TYPE_ALL).unwrap_or_default();
            out.extend(ids.into_iter().map(|d| Arc::new(Device::new(p, d))));
        }
        out
    })
}
