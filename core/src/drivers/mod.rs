//! Device drivers: one per kind of accelerator. Each finds its devices, gives each a
//! memory node (a [`NodeDriver`]) and runs its workers' kernels. CPU workers need no
//! driver (main RAM's node operations are in `memory/`). CUDA will come here beside
//! OpenCL.

#[cfg(feature = "opencl")]
pub mod opencl;

use crate::config::Config;
use crate::memory::NodeDriver;
use std::sync::Arc;

/// The accelerator devices one runtime uses, in the order of their workers and memory
/// nodes.
#[derive(Default)]
pub struct Devices {
    #[cfg(feature = "opencl")]
    pub opencl: Vec<Arc<opencl::Device>>,
}

impl Devices {
    /// The devices `config` asks for and this machine has (none without a driver).
    pub fn discover(config: &Config) -> Devices {
        let _ = config;
        Devices {
            #[cfg(feature = "opencl")]
            opencl: opencl::select(config),
        }
    }

    /// One memory node driver per device, in order.
    pub fn node_drivers(&self) -> Vec<Arc<dyn NodeDriver>> {
        #[allow(unused_mut)]
        let mut v: Vec<Arc<dyn NodeDriver>> = Vec::new();
        #[cfg(feature = "opencl")]
        v.extend(self.opencl.iter().map(|d| d.clone() as Arc<dyn NodeDriver>));
        v
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
