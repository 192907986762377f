//! What a program asks of CUDA devices (`starpu_conf`'s CUDA fields and StarPU's
//! environment variables), read whether or not this build has the CUDA driver: a build
//! without it still answers zero CUDA workers for any request.

use super::{env_int, env_var, parse_cpu_list};
use crate::error::{Error, Result};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CudaOptions {
    /// The CUDA devices to use, in order (`STARPU_WORKERS_CUDAID`,
    /// `conf.workers_cuda_gpuid`); `None`: every device, in the driver's order.
    pub devices: Option<Vec<usize>>,
    /// Workers per device, each with its own stream (`STARPU_NWORKER_PER_CUDA`).
    pub workers_per_device: usize,
    /// Tasks a CUDA worker may have queued on its stream at once (`STARPU_CUDA_PIPELINE`).
    pub pipeline: usize,
}

impl Default for CudaOptions {
    fn default() -> Self {
        CudaOptions {
            devices: None,
            workers_per_device: 1,
            pipeline: 2,
        }
    }
}

impl CudaOptions {
    /// Lays StarPU's environment variables over these options (only those set).
    pub fn apply_env(&mut self) -> Result<()> {
        if let Some(list) = env_var("STARPU_WORKERS_CUDAID") {
            self.devices = Some(parse_cpu_list(&list).map_err(|e| {
                Error::invalid(format!("STARPU_WORKERS_CUDAID={list}: {}", e.message))
            })?);
        }
        if let Some(n) = env_int("STARPU_NWORKER_PER_CUDA")? {
            if n < 1 {
                return Err(Error::invalid(format!(
                    "STARPU_NWORKER_PER_CUDA={n}: at least 1 worker per device"
                )));
            }
            self.workers_per_device = n as usize;
        }
        if let Some(n) = env_int("STARPU_CUDA_PIPELINE")? {
            if n < 0 {
                return Err(Error::invalid(format!(
                    "STARPU_CUDA_PIPELINE={n}: not a number of tasks"
                )));
            }
            self.pipeline = n as usize;
        }
        Ok(())
    }
}
