//! Multiformat data across memory nodes: running the application's conversion codelets.
//!
//! As in StarPU, the handle remembers which format holds its value (StarPU's `mf_node`):
//! the CPU format after registration and after a CPU task, the OpenCL format after a task
//! on an OpenCL worker. Each replica holds both formats (see the interface), so moving
//! data between nodes stays a plain copy; converting is a step of the access that needs
//! the other format:
//!
//! - a task on an OpenCL worker first runs `cpu_to_opencl_cl` there, on the device
//!   replica (it reads `cpu_ptr`, writes `opencl_ptr`, as StarPU's example kernels do);
//! - a CPU task, an acquisition in main RAM or a coherent unregistration first brings the
//!   replica (both formats) to main RAM and runs `opencl_to_cpu_cl`'s CPU function there
//!   (it reads `opencl_ptr`, writes `cpu_ptr`): StarPU runs this direction on the CPU too.
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
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The conversion codelets of multiformat data (`struct
/// starpu_multiformat_data_interface_ops`), as the face converted them.
#[derive(Clone, Default)]
pub struct Conversions {
    /// Runs on an OpenCL worker: CPU format to OpenCL format, in the device replica.
    pub cpu_to_opencl: Option<Arc<Codelet>>,
    /// Runs in main RAM (its CPU function): OpenCL format to CPU format.
    pub opencl_to_cpu: Option<Arc<Codelet>>,
}

struct Formats {
    conversions: Conversions,
    /// The value is in the OpenCL format.
    on_device: AtomicBool,
    /// Serialises conversions.
    converting: Mutex<()>,
    /// The OpenCL-format buffer given to the home replica in main RAM (0: none).
    home_buffer: usize,
}

impl Drop for Formats {
    fn drop(&mut self) {
        if self.home_buffer != 0 {
            memory::free_ram(self.home_buffer);
        }
    }
}

/// Gives multiformat data `h` its conversion codelets (once, at registration, before any
/// task uses it). The home replica in main RAM gets a buffer for the OpenCL format, so
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
    let mut home_buffer = 0;
    if desc.cpu_ptr != 0 && desc.opencl_ptr == 0 && desc.opencl_size() != 0 {
        home_buffer = memory::alloc_ram(desc.opencl_size())?;
        desc.opencl_ptr = home_buffer;
    }
    let formats = Formats {
        conversions,
        on_device: AtomicBool::new(false),
        converting: Mutex::new(()),
        home_buffer,
    };
    h.0.formats
        .set(Box::new(formats))
        .map_err(|_| Error::invalid(format!("data {}: conversions set twice", h.label())))
}

fn formats(h: &DataHandle) -> Option<&Formats> {
    h.0.formats.get()?.downcast_ref::<Formats>()
}

/// Whether a worker of `kind` may run a task over these accesses: multiformat data goes
/// to OpenCL workers when it can go there and come back (a `cpu_to_opencl_cl` with an
/// OpenCL implementation, an `opencl_to_cpu_cl` with a CPU one), and to no other device
/// (CUDA conversions are not run). Stricter than StarPU, which aborts when the way back
/// is missing.
pub(crate) fn device_can_take(spec: &TaskSpec, kind: WorkerKind) -> bool {
    let has = |cl: &Option<Arc<Codelet>>, k: WorkerKind| {
        cl.as_ref().is_some_and(|cl| !cl.funcs(k).is_empty())
    };
    spec.accesses.iter().all(|a| {
        a.handle.interface_id() != id::MULTIFORMAT
            || (kind == WorkerKind::OpenCl
                && formats(&a.handle).is_some_and(|f| {
                    has(&f.conversions.cpu_to_opencl, WorkerKind::OpenCl)
                        && has(&f.conversions.opencl_to_cpu, WorkerKind::Cpu)
                }))
    })
}

/// Brings every multiformat buffer of a task about to run on `worker` (computing in
/// `node`) to the format of that worker's kind.
pub(crate) fn prepare(worker: usize, node: NodeId, spec: &TaskSpec) -> Result<()> {
    for a in spec.accesses.iter() {
        let Some(f) = formats(&a.handle) else {
            continue;
        };
        if node == memory::MAIN_RAM {
            to_cpu(&a.handle, f, worker, a.mode)?;
        } else {
            to_device(&a.handle, f, worker, node, a.mode)?;
        }
    }
    Ok(())
}

/// Brings multiformat data `h` back to the CPU format before the application reads it
/// in main RAM (an acquisition, a coherent unregistration). Nothing for other data.
pub(crate) fn for_application(h: &DataHandle, mode: AccessMode) -> Result<()> {
    match formats(h) {
        Some(f) => to_cpu(h, f, usize::MAX, mode),
        None => Ok(()),
    }
}

fn to_device(
    h: &DataHandle,
    f: &Formats,
    worker: usize,
    node: NodeId,
    mode: AccessMode,
) -> Result<()> {
    let _one = f.converting.lock().unwrap_or_else(|e| e.into_inner());
    if f.on_device.load(Ordering::SeqCst) {
        return Ok(());
    }
    if mode.reads() {
        let cl = f.conversions.cpu_to_opencl.as_ref().ok_or_else(|| {
            Error::no_device(format!(
                "data {}: multiformat data has no cpu_to_opencl_cl conversion codelet",
                h.label()
            ))
        })?;
        run_inline(worker, node, cl, &[(h.clone(), AccessMode::RW)])
            .map_err(|e| conversion_failed(h, "cpu_to_opencl_cl", e))?;
    }
    f.on_device.store(true, Ordering::SeqCst);
    Ok(())
}

fn to_cpu(h: &DataHandle, f: &Formats, worker: usize, mode: AccessMode) -> Result<()> {
    let _one = f.converting.lock().unwrap_or_else(|e| e.into_inner());
    if !f.on_device.load(Ordering::SeqCst) {
        return Ok(());
    }
    if mode.reads() {
        let cl = f
            .conversions
            .opencl_to_cpu
            .as_ref()
            .filter(|cl| !cl.cpu_funcs.is_empty())
            .ok_or_else(|| {
                Error::no_device(format!(
                    "data {}: multiformat data written on an OpenCL device has no \
                     opencl_to_cpu_cl conversion codelet with a CPU implementation (it runs \
                     in main RAM, as in StarPU)",
                    h.label()
                ))
            })?;
        run_inline(worker, memory::MAIN_RAM, cl, &[(h.clone(), AccessMode::RW)])
            .map_err(|e| conversion_failed(h, "opencl_to_cpu_cl", e))?;
    }
    f.on_device.store(false, Ordering::SeqCst);
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
