//! Device drivers: one per kind of accelerator. Each finds its devices, gives each a
//! memory node (a [`NodeDriver`]) and runs its workers' kernels. CPU workers need no
//! driver (main RAM's node operations are in `memory/`). Nodes are numbered as in StarPU:
//! main RAM, then the CUDA devices, then the OpenCL devices.

/// What a device's memory node says of itself (`NodeDriver::kind`, `name`,
/// `total_memory`), the same in every device driver: `$kind`, the device's `name` field,
/// and its `$memory` field (bytes; 0 when unknown).
#[allow(unused_macros)] // without any device driver
macro_rules! node_identity {
    ($kind:expr, $memory:ident) => {
        fn kind(&self) -> crate::memory::NodeKind {
            $kind
        }

        fn name(&self) -> String {
            self.name.clone()
        }

        fn total_memory(&self) -> Option<usize> {
            crate::drivers::known_bytes(self.$memory)
        }
    };
}

/// A device's memory size as a driver reports it: `None` for 0 (unknown).
#[allow(dead_code)] // without any device driver
fn known_bytes(bytes: impl TryInto<usize>) -> Option<usize> {
    bytes.try_into().ok().filter(|&b| b > 0)
}

#[cfg(feature = "cuda")]
pub mod cuda;
#[allow(dead_code)] // without any device driver, nothing reads device buffers
mod dense;
#[cfg(feature = "opencl")]
pub mod opencl;

pub use crate::config::CudaOptions;

use crate::config::Config;
use crate::memory::{NodeDriver, NodeId};
use crate::worker::WorkerKind;
use std::sync::Arc;

/// The accelerator devices one runtime uses, in the order of their memory nodes.
#[derive(Default)]
pub struct Devices {
    #[cfg(feature = "cuda")]
    pub cuda: Vec<Arc<cuda::Device>>,
    /// Workers per CUDA device (`STARPU_NWORKER_PER_CUDA`).
    pub workers_per_cuda: usize,
    #[cfg(feature = "opencl")]
    pub opencl: Vec<Arc<opencl::Device>>,
}

/// A worker that drives a device: its kind, the device number within its kind, its
/// memory node and its name.
pub struct DeviceWorker {
    pub kind: WorkerKind,
    pub devid: usize,
    pub node: NodeId,
    pub name: String,
}

impl Devices {
    /// The devices `config` asks for and this machine has (none without a driver).
    pub fn discover(config: &Config) -> Devices {
        let _ = config;
        #[allow(unused_mut)]
        let mut room = crate::memory::MAX_NODES - 1;
        #[cfg(feature = "cuda")]
        let cuda = cuda::select(config, room);
        #[cfg(feature = "cuda")]
        {
            room -= cuda.len();
        }
        let _ = room;
        Devices {
            #[cfg(feature = "cuda")]
            cuda,
            workers_per_cuda: config.cuda.workers_per_device.max(1),
            #[cfg(feature = "opencl")]
            opencl: opencl::select(config, room),
        }
    }

    /// One memory node driver per device, in node order.
    pub fn node_drivers(&self) -> Vec<Arc<dyn NodeDriver>> {
        #[allow(unused_mut)]
        let mut v: Vec<Arc<dyn NodeDriver>> = Vec::new();
        #[cfg(feature = "cuda")]
        v.extend(self.cuda.iter().map(|d| d.clone() as Arc<dyn NodeDriver>));
        #[cfg(feature = "opencl")]
        v.extend(self.opencl.iter().map(|d| d.clone() as Arc<dyn NodeDriver>));
        v
    }

    /// The workers of the devices, in order: those of each CUDA device, then one per
    /// OpenCL device (node `1 + i` is device `i` of `node_drivers`).
    pub fn workers(&self) -> Vec<DeviceWorker> {
        let mut out = Vec::new();
        for devid in 0..self.ncuda() {
            for _ in 0..self.workers_per_cuda {
                out.push(DeviceWorker {
                    kind: WorkerKind::Cuda,
                    devid,
                    node: 1 + devid,
                    name: format!("CUDA {devid} ({})", self.cuda_name(devid)),
                });
            }
        }
        for devid in 0..self.nopencl() {
            out.push(DeviceWorker {
                kind: WorkerKind::OpenCl,
                devid,
                node: 1 + self.ncuda() + devid,
                name: format!("OpenCL {devid} ({})", self.opencl_name(devid)),
            });
        }
        out
    }

    /// How many CUDA devices there are.
    pub fn ncuda(&self) -> usize {
        #[cfg(feature = "cuda")]
        return self.cuda.len();
        #[cfg(not(feature = "cuda"))]
        0
    }

    /// A name for CUDA device `devid`.
    pub fn cuda_name(&self, devid: usize) -> String {
        #[cfg(feature = "cuda")]
        if let Some(d) = self.cuda.get(devid) {
            return d.name.clone();
        }
        format!("CUDA device {devid}")
    }

    /// How many OpenCL devices there are.
    pub fn nopencl(&self) -> usize {
        #[cfg(feature = "opencl")]
        return self.opencl.len();
        #[cfg(not(feature = "opencl"))]
        0
    }

    /// A name for OpenCL device `devid`.
    pub fn opencl_name(&self, devid: usize) -> String {
        #[cfg(feature = "opencl")]
        if let Some(d) = self.opencl.get(devid) {
            return d.name.clone();
        }
        format!("OpenCL device {devid}")
    }
}
