//! Task footprints and sizes: what history entries and regressions are keyed by.
//!
//! StarPU's rule (`_starpu_compute_buffers_footprint`): the model's own `footprint`
//! function if it has one; else the CRC-32C of its `size_base` value if it has one; else
//! the CRC-32C chain of each buffer's footprint (its shape, folded with its interface id).
//! Matrix, vector, variable, block and tensor footprints are StarPU's exactly, so a model
//! file calibrated by StarPU predicts tasks here and the other way round. Tasks with the same shapes
//! share an entry whatever the values in their buffers.

use super::{ModelData, PerfModel};
use crate::hash::{crc32c_be, crc32c_be_n};
use crate::task::TaskSpec;

/// The footprint of a task described by `spec`, for implementation `nimpl`.
pub fn footprint(model: Option<&PerfModel>, spec: &TaskSpec, nimpl: usize) -> u32 {
    if let Some(m) = model {
        if let Some(f) = &m.footprint {
            return f(spec);
        }
        if let Some(sb) = &m.size_base {
            return crc32c_be_n(&sb(spec, nimpl).to_ne_bytes(), 0);
        }
    }
    spec.accesses
        .iter()
        .fold(0, |crc, a| crc32c_be(data_footprint(&a.handle), crc))
}

/// A handle's footprint as StarPU computes it (`_starpu_compute_data_footprint`): its
/// interface's footprint folded with the interface id, so that a vector and a matrix of
/// the same size differ.
pub fn data_footprint(h: &impl ModelData) -> u32 {
    crc32c_be(h.shape_footprint(), h.interface_id() as u32)
}

/// The size regressions use: the model's `size_base`, else the bytes of all buffers
/// (`_starpu_job_get_data_size`).
pub fn data_size(model: Option<&PerfModel>, spec: &TaskSpec, nimpl: usize) -> usize {
    if let Some(sb) = model.and_then(|m| m.size_base.as_ref()) {
        return sb(spec, nimpl);
    }
    spec.accesses.iter().map(|a| a.handle.size()).sum()
}
