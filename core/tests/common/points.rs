//! Multiformat points as the CUDA and OpenCL tests use them: `{x, y}` pairs as an array of
//! structures in the CPU format, a structure of arrays (all x, then all y) in the device's.

use starpu_core::data::interfaces::{MultiformatInterface, MultiformatOps};
use starpu_core::task::KernelCall;
use starpu_core::{AccessMode, Codelet, DataHandle, Runtime};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// `n` points: point i is (i, 100 + i).
pub fn points(n: usize) -> Box<[f32]> {
    (0..n).flat_map(|i| [i as f32, 100.0 + i as f32]).collect()
}

/// The multiformat description a kernel was given (its only buffer).
pub fn multiformat_of(call: &KernelCall) -> MultiformatInterface {
    // SAFETY: the task's only buffer is multiformat data.
    unsafe { *(call.buffers()[0] as *const MultiformatInterface) }
}

/// The device-to-CPU conversion, counted in `counted`: the device format (its main-RAM
/// copy, at the address `device` picks) back into the CPU format.
pub fn soa_to_aos(
    counted: Arc<AtomicUsize>,
    device: fn(&MultiformatInterface) -> usize,
) -> Codelet {
    Codelet::new("soa_to_aos").cpu(move |call| {
        counted.fetch_add(1, Ordering::SeqCst);
        let m = multiformat_of(call);
        let n = m.nx as usize;
        // SAFETY: in main RAM both formats hold n points.
        let (soa, aos) = unsafe {
            (
                std::slice::from_raw_parts(device(&m) as *const f32, 2 * n),
                std::slice::from_raw_parts_mut(m.cpu_ptr as *mut f32, 2 * n),
            )
        };
        for i in 0..n {
            (aos[2 * i], aos[2 * i + 1]) = (soa[i], soa[n + i]);
        }
        Ok(())
    })
}

/// A CPU codelet adding 1 to each x, in the CPU format.
pub fn add1_aos() -> Arc<Codelet> {
    Arc::new(
        Codelet::new("add1_aos")
            .modes([AccessMode::RW])
            .cpu(|call| {
                let m = multiformat_of(call);
                // SAFETY: a CPU task sees the CPU format in main RAM.
                let aos = unsafe {
                    std::slice::from_raw_parts_mut(m.cpu_ptr as *mut f32, 2 * m.nx as usize)
                };
                aos.iter_mut().step_by(2).for_each(|x| *x += 1.0);
                Ok(())
            }),
    )
}

/// Registers `points` in `rt` as multiformat data described by `ops`.
///
/// # Safety
/// `points` and `ops` must outlive the handle (until it is unregistered).
pub unsafe fn register(rt: &Runtime, points: &mut [f32], ops: &MultiformatOps) -> DataHandle {
    let iface =
        MultiformatInterface::new(points.as_mut_ptr() as usize, (points.len() / 2) as u32, ops)
            .unwrap();
    rt.register_foreign(iface, starpu_core::ElemKind::Unknown, None)
        .unwrap()
}
