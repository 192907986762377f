//! Multiformat data across memory nodes: running the application's conversion codelets.
//!
//! As in StarPU, the handle remembers which format holds its value (StarPU's `mf_node`):
//! the CPU format after registration and after a CPU task, the OpenCL format after a task
//! on an OpenCL worker, the CUDA format after a task on a CUDA worker. Each replica holds
//! every format (see the interface), so moving data between nodes stays a plain copy;
//! converting is a step of the access that needs another format:
//!
//! - a task on a device worker first runs `cpu_to_opencl_cl` / `cpu_to_cuda_cl` there, on
//!   the device replica (it reads `cpu_ptr`, writes `opencl_ptr` / `cuda_ptr`, as
//!   StarPU's example kernels do);
//! - a CPU task, an acquisition in main RAM or a coherent unregistration first brings the
//!   replica (every format) to main RAM and runs `opencl_to_cpu_cl`'s / `cuda_to_cpu_cl`'s
//!   CPU function there (it reads the device format, writes `cpu_ptr`): StarPU runs this
//!   direction on the CPU too;
//! - from one device format to the other, the value goes through the CPU format (both
//!   steps above, on the worker that needs it).
//!
//! A step of the access rather than a task of its own: the task that needs the format
//! already holds the data (its dependencies are met, its worker is chosen), so nothing
//! can come between the conversion and the task, and no dependency has to be bent to
//! order a conversion task before it. Conversions of one handle are serialised.

use super::reduction::run_inline;
use super::{Codelet, TaskSpec};
use crate::data::interfaces::{id, MultiformatInterface};
use crate::data::{AccessMode, DataHandle};
use crate::error::{Error, Result};
use crate::memory::{self, NodeId};
use crate::worker::WorkerKind;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex};

/// The conversion codelets of multiformat data (`struct
/// starpu_multiformat_data_interface_ops`), as the face converted them.
#[derive(Clone, Default)]
pub struct Conversions {
    /// Runs on an OpenCL worker: CPU format to OpenCL format, in the device replica.
    pub cpu_to_opencl: Option<Arc<Codelet>>,
    /// Runs in main RAM (its CPU function): OpenCL format to CPU format.
    pub opencl_to_cpu: Option<Arc<Codelet>>,
    /// Runs on a CUDA worker: CPU format to CUDA format, in the device replica.
    pub cpu_to_cuda: Option<Arc<Codelet>>,
    /// Runs in main RAM (its CPU function): CUDA format to CPU format.
    pub cuda_to_cpu: Option<Arc<Codelet>>,
}

/// Why a submission with multiformat data found no worker (appended to its error).
pub(crate) const WHY_REFUSED: &str = "; multiformat data runs on a device's workers only \
     with its conversion codelets: cpu_to_opencl_cl with an OpenCL implementation and \
     opencl_to_cpu_cl with a CPU one for OpenCL workers, cpu_to_cuda_cl with a CUDA \
     implementation and cuda_to_cpu_cl with a CPU one for CUDA workers";

/// The format holding a multiformat handle's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Cpu = 0,
    OpenCl = 1,
    Cuda = 2,
}

impl Format {
    fn of(kind: WorkerKind) -> Format {
        match kind {
            WorkerKind::OpenCl => Format::OpenCl,
            WorkerKind::Cuda => Format::Cuda,
            _ => Format::Cpu,
        }
    }

    fn device_name(self) -> &'static str {
        match self {
            Format::Cpu => "CPU",
            Format::OpenCl => "an OpenCL",
            Format::Cuda => "a CUDA",
        }
    }

    fn from_u8(v: u8) -> Format {
        match v {
            1 => Format::OpenCl,
            2 => Format::Cuda,
            _ => Format::Cpu,
        }
    }
}

impl Conversions {
    /// The conversion codelets of a device format: there (CPU format to it) and back
    /// (names as in `struct starpu_multiformat_data_interface_ops`).
    #[allow(clippy::type_complexity)]
    fn of(&self, f: Format) -> Option<[(&Option<Arc<Codelet>>, &'static str); 2]> {
        match f {
            Format::Cpu => None,
            Format::OpenCl => Some([
                (&self.cpu_to_opencl, "cpu_to_opencl_cl"),
                (&self.opencl_to_cpu, "opencl_to_cpu_cl"),
            ]),
            Format::Cuda => Some([
                (&self.cpu_to_cuda, "cpu_to_cuda_cl"),
                (&self.cuda_to_cpu, "cuda_to_cpu_cl"),
            ]),
        }
    }
}

struct Formats {
    conversions: Conversions,
    /// The `Format` holding the value.
    format: AtomicU8,
    /// Serialises conversions.
    converting: Mutex<()>,
    /// The device-format buffers given to the home replica in main RAM.
    home_buffers: Vec<usize>,
}

impl Drop for Formats {
    fn drop(&mut self) {
        for &b in &self.home_buffers {
            memory::free_ram(b);
        }
    }
}

/// Gives multiformat data `h` its conversion codelets (once, at registration, before any
/// task uses it). The home replica in main RAM gets a buffer for each device format, so
/// that the value can come back from a device in that format.
pub fn set_conversions(h: &DataHandle, conversions: Conversions) -> Result<()> {
    if h.interface_id() != id::MULTIFORMAT {
        return Err(Error::invalid(format!(
            "data {} is not multiformat data: it has no conversion codelets",
            h.label()
        )));
    }
    let ram = &h.0.replicas[memory::MAIN_RAM];
    // SAFETY: the description is a MultiformatInterface (checked above); no task uses the
    // handle yet.
    let desc = unsafe { &mut *(ram.desc.ptr() as *mut MultiformatInterface) };
    let mut home_buffers = Vec::new();
    let (opencl_size, cuda_size) = (desc.opencl_size(), desc.cuda_size());
    for (ptr, size) in [
        (&mut desc.opencl_ptr, opencl_size),
        (&mut desc.cuda_ptr, cuda_size),
    ] {
        if desc.cpu_ptr != 0 && *ptr == 0 && size != 0 {
            match memory::alloc_ram(size) {
                Ok(b) => {
                    *ptr = b;
                    home_buffers.push(b);
                }
                Err(e) => {
                    home_buffers.iter().for_each(|&b| memory::free_ram(b));
                    return Err(e);
                }
            }
        }
    }
    let formats = Formats {
        conversions,
        format: AtomicU8::new(Format::Cpu as u8),
        converting: Mutex::new(()),
        home_buffers,
    };
    h.0.formats
        .set(Box::new(formats))
        .map_err(|_| Error::invalid(format!("data {}: conversions set twice", h.label())))
}

fn formats(h: &DataHandle) -> Option<&Formats> {
    h.0.formats.get()?.downcast_ref::<Formats>()
}

/// Whether a worker of `kind` may run a task over these accesses: multiformat data goes
/// to a device's workers when it can go there and come back (for OpenCL, a
/// `cpu_to_opencl_cl` with an OpenCL implementation and an `opencl_to_cpu_cl` with a CPU
/// one; for CUDA, `cpu_to_cuda_cl` with a CUDA implementation and `cuda_to_cpu_cl` with a
/// CPU one). Stricter than StarPU, which aborts when the way back is missing.
pub(crate) fn device_can_take(spec: &TaskSpec, kind: WorkerKind) -> bool {
    let has = |cl: &Option<Arc<Codelet>>, k: WorkerKind| {
        cl.as_ref().is_some_and(|cl| !cl.funcs(k).is_empty())
    };
    spec.accesses.iter().all(|a| {
        a.handle.interface_id() != id::MULTIFORMAT
            || formats(&a.handle)
                .and_then(|f| f.conversions.of(Format::of(kind)))
                .is_some_and(|[(there, _), (back, _)]| {
                    has(there, kind) && has(back, WorkerKind::Cpu)
                })
    })
}

/// Brings every multiformat buffer of a task about to run on `worker` (computing in
/// `node`) to the format of that worker's kind.
pub(crate) fn prepare(worker: usize, node: NodeId, spec: &TaskSpec) -> Result<()> {
    for a in spec.accesses.iter() {
        let Some(f) = formats(&a.handle) else {
            continue;
        };
        let target = Format::of(super::reduction::kind_of(&a.handle, node));
        convert(&a.handle, f, worker, node, target, a.mode)?;
    }
    Ok(())
}

/// Brings multiformat data `h` back to the CPU format before the application reads it
/// in main RAM (an acquisition, a coherent unregistration). Nothing for other data.
pub(crate) fn for_application(h: &DataHandle, mode: AccessMode) -> Result<()> {
    match formats(h) {
        Some(f) => convert(h, f, usize::MAX, memory::MAIN_RAM, Format::Cpu, mode),
        None => Ok(()),
    }
}

/// Brings `h` to format `target` for an access in `mode` by `worker` in `node`: through
/// the CPU format (in main RAM) when it is in another device's format. An access that
/// does not read only changes which format the next value will be in.
fn convert(
    h: &DataHandle,
    f: &Formats,
    worker: usize,
    node: NodeId,
    target: Format,
    mode: AccessMode,
) -> Result<()> {
    let _one = f.converting.lock().unwrap_or_else(|e| e.into_inner());
    let current = Format::from_u8(f.format.load(Ordering::SeqCst));
    if current == target {
        return Ok(());
    }
    if mode.reads() {
        if let Some([_, (back, name)]) = f.conversions.of(current) {
            let cl = back
                .as_ref()
                .filter(|cl| !cl.cpu_funcs.is_empty())
                .ok_or_else(|| {
                    Error::no_device(format!(
                        "data {}: multiformat data written on {} device has no {name} conversion \
                         codelet with a CPU implementation (it runs in main RAM, as in StarPU)",
                        h.label(),
                        current.device_name()
                    ))
                })?;
            run_inline(worker, memory::MAIN_RAM, cl, &[(h.clone(), AccessMode::RW)])
                .map_err(|e| conversion_failed(h, name, e))?;
            f.format.store(Format::Cpu as u8, Ordering::SeqCst);
        }
        if let Some([(there, name), _]) = f.conversions.of(target) {
            let cl = there.as_ref().ok_or_else(|| {
                Error::no_device(format!(
                    "data {}: multiformat data has no {name} conversion codelet",
                    h.label()
                ))
            })?;
            run_inline(worker, node, cl, &[(h.clone(), AccessMode::RW)])
                .map_err(|e| conversion_failed(h, name, e))?;
        }
    }
    f.format.store(target as u8, Ordering::SeqCst);
    Ok(())
}

fn conversion_failed(h: &DataHandle, which: &str, e: Error) -> Error {
    Error::new(
        e.kind,
        format!(
            "data {}: the conversion codelet {which} failed: {}",
            h.label(),
            e.message
        ),
    )
}
