//! Performance architectures (`struct starpu_perfmodel_arch`): the kind of device a
//! measurement was taken on. Models keep one table per architecture and implementation,
//! so a CPU timing never predicts a CUDA run.
//!
//! StarPU describes an architecture as a set of devices (several for parallel tasks on
//! combined workers); every sequential worker has a one-device architecture, and all CPU
//! cores share one (`cpu0`, one core): a kernel takes as long on any core.

use crate::worker::{Worker, WorkerKind};

/// One device of an architecture (`struct starpu_perfmodel_device`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PerfDevice {
    pub kind: WorkerKind,
    /// Device number (0 for every CPU core: they are one architecture).
    pub devid: u32,
    /// Cores the task uses on that device.
    pub ncores: u32,
}

/// An architecture: the devices one task runs on (`struct starpu_perfmodel_arch`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PerfArch {
    pub devices: Vec<PerfDevice>,
}

impl PerfArch {
    /// The architecture of a sequential task on a worker of `kind`, device `devid`.
    pub fn single(kind: WorkerKind, devid: u32) -> PerfArch {
        let devid = if kind == WorkerKind::Cpu { 0 } else { devid };
        PerfArch {
            devices: vec![PerfDevice {
                kind,
                devid,
                ncores: 1,
            }],
        }
    }

    /// The architecture of worker `w` of `workers` (its device number counts the workers
    /// of its kind before it, StarPU's `devid`).
    pub fn of_worker(workers: &[Worker], w: usize) -> PerfArch {
        let kind = workers[w].kind;
        let devid = workers[..w].iter().filter(|o| o.kind == kind).count();
        PerfArch::single(kind, devid as u32)
    }

    /// The architecture every CPU worker shares.
    pub fn cpu() -> PerfArch {
        PerfArch::single(WorkerKind::Cpu, 0)
    }

    /// A sortable key, so files list architectures in a stable order.
    pub(crate) fn key(&self) -> Vec<(u32, u32, u32)> {
        self.devices
            .iter()
            .map(|d| (d.kind.starpu_id(), d.devid, d.ncores))
            .collect()
    }

    /// StarPU's name for one implementation on this architecture, as model files print it
    /// (`cpu0_impl0 (Comb0)`; `comb` is the architecture's number in the file).
    pub fn name(&self, nimpl: usize, comb: usize) -> String {
        let devices: Vec<String> = self
            .devices
            .iter()
            .map(|d| format!("{}{}", archtype_name(d.kind), d.devid))
            .collect();
        format!("{}_impl{nimpl} (Comb{comb})", devices.join("_"))
    }
}

/// `starpu_perfmodel_get_archtype_name`.
pub fn archtype_name(kind: WorkerKind) -> &'static str {
    match kind {
        WorkerKind::Cpu => "cpu",
        WorkerKind::Cuda => "cuda",
        WorkerKind::OpenCl => "opencl",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_cores_share_one_architecture() {
        assert_eq!(PerfArch::single(WorkerKind::Cpu, 3), PerfArch::cpu());
        assert_ne!(
            PerfArch::single(WorkerKind::Cuda, 0),
            PerfArch::single(WorkerKind::Cuda, 1)
        );
        assert_eq!(PerfArch::cpu().name(1, 0), "cpu0_impl1 (Comb0)");
    }
}
