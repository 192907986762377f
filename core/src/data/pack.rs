//! A replica's bytes as a list of contiguous runs, and packing them into one buffer and
//! back (`starpu_data_pack` / `unpack` in StarPU): what sends a piece of data to another
//! process needs.
//!
//! Every built-in interface is a fixed set of runs: a vector one, a matrix with a leading
//! dimension one per column, a CSR matrix its values, column indices and row pointers. The
//! packed form is the runs one after the other, so two replicas of the same shape exchange
//! their values through it whatever their leading dimensions. Application-defined
//! interfaces have no runs known here (their own pack functions, in the face that
//! registered them, do the job).
//!
//! The caller holds the data (an acquisition, or a task's access) on the node it names.

use super::interfaces::{self as ifaces, id};
use super::DataHandle;
use crate::error::{Error, Result};
use crate::memory::NodeId;

/// One contiguous run of a replica: `len` bytes at address `ptr`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Run {
    pub ptr: usize,
    pub len: usize,
}

impl DataHandle {
    /// The runs of this data's replica on `node`, in packing order. An error for an
    /// interface the core does not know, or a replica without buffers on `node`.
    pub fn runs_on(&self, node: NodeId) -> Result<Vec<Run>> {
        let desc = &self
            .0
            .replicas
            .get(node)
            .ok_or_else(|| Error::invalid(format!("no memory node {node}")))?
            .desc;
        if !self.is_allocated_on(node) && desc.ops().id() != id::VOID {
            return Err(Error::invalid(format!(
                "data {} has no buffer on memory node {node}",
                self.label()
            )));
        }
        let mut runs = Vec::new();
        let ok = match desc.ops().id() {
            id::VARIABLE => desc.get::<ifaces::VariableInterface>().map(|v| {
                runs.push(run(v.ptr, v.elemsize));
            }),
            id::VECTOR => desc.get::<ifaces::VectorInterface>().map(|v| {
                runs.push(run(v.ptr, v.nx as usize * v.elemsize));
            }),
            id::MATRIX => desc.get::<ifaces::MatrixInterface>().map(|m| {
                strided(&mut runs, m.ptr, m.elemsize, &[m.nx, m.ny], &[1, m.ld]);
            }),
            id::BLOCK => desc.get::<ifaces::BlockInterface>().map(|b| {
                let (n, ld) = ([b.nx, b.ny, b.nz], [1, b.ldy, b.ldz]);
                strided(&mut runs, b.ptr, b.elemsize, &n, &ld);
            }),
            id::TENSOR => desc.get::<ifaces::TensorInterface>().map(|t| {
                let (n, ld) = ([t.nx, t.ny, t.nz, t.nt], [1, t.ldy, t.ldz, t.ldt]);
                strided(&mut runs, t.ptr, t.elemsize, &n, &ld);
            }),
            id::NDIM => desc.get::<ifaces::NdimInterface>().map(|d| {
                // SAFETY: nn and ldn hold ndim entries (interned arrays, never freed).
                let (n, ld) = unsafe {
                    (
                        std::slice::from_raw_parts(d.nn, d.ndim),
                        std::slice::from_raw_parts(d.ldn, d.ndim),
                    )
                };
                strided(&mut runs, d.ptr, d.elemsize, n, ld);
            }),
            id::CSR => desc.get::<ifaces::CsrInterface>().map(|c| {
                let nnz = c.nnz as usize;
                runs.push(run(c.nzval, nnz * c.elemsize));
                runs.push(run(c.colind as usize, nnz * 4));
                runs.push(run(c.rowptr as usize, (c.nrow as usize + 1) * 4));
            }),
            id::BCSR => desc.get::<ifaces::BcsrInterface>().map(|c| {
                let nnz = c.nnz as usize;
                let block = c.r as usize * c.c as usize * c.elemsize;
                runs.push(run(c.nzval, nnz * block));
                runs.push(run(c.colind as usize, nnz * 4));
                runs.push(run(c.rowptr as usize, (c.nrow as usize + 1) * 4));
            }),
            id::COO => desc.get::<ifaces::CooInterface>().map(|c| {
                let n = c.n_values as usize;
                runs.push(run(c.columns as usize, n * 4));
                runs.push(run(c.rows as usize, n * 4));
                runs.push(run(c.values, n * c.elemsize));
            }),
            id::MULTIFORMAT => desc.get::<ifaces::MultiformatInterface>().map(|m| {
                // The CPU layout is the only one on main memory.
                // SAFETY: `ops` is the application's MultiformatOps, alive with the handle.
                let elemsize = unsafe { (*(m.ops as *const ifaces::MultiformatOps)).cpu_elemsize };
                runs.push(run(m.cpu_ptr, m.nx as usize * elemsize));
            }),
            id::VOID => Some(()),
            _ => None,
        };
        ok.ok_or_else(|| {
            Error::unsupported(format!(
                "data {} ({} interface): the runtime does not know its layout; the interface \
                 needs pack and unpack functions",
                self.label(),
                desc.ops().name()
            ))
        })?;
        runs.retain(|r| r.len > 0);
        Ok(runs)
    }

    /// Bytes the packed form of the replica on `node` takes.
    pub fn packed_size_on(&self, node: NodeId) -> Result<usize> {
        Ok(self.runs_on(node)?.iter().map(|r| r.len).sum())
    }

    /// The replica on `node`, packed.
    pub fn pack_on(&self, node: NodeId) -> Result<Vec<u8>> {
        let runs = self.runs_on(node)?;
        let mut out = Vec::with_capacity(runs.iter().map(|r| r.len).sum());
        for r in runs {
            // SAFETY: the caller holds the data on `node`, whose buffers cover every run.
            out.extend_from_slice(unsafe { std::slice::from_raw_parts(r.ptr as *const u8, r.len) });
        }
        Ok(out)
    }

    /// Writes packed bytes into the replica on `node`. The replica must have the shape the
    /// bytes were packed from: a size that differs is an error and writes nothing.
    pub fn unpack_on(&self, node: NodeId, bytes: &[u8]) -> Result<()> {
        let runs = self.runs_on(node)?;
        let want: usize = runs.iter().map(|r| r.len).sum();
        if want != bytes.len() {
            return Err(Error::invalid(format!(
                "data {} ({}) takes {want} bytes, {} bytes arrived",
                self.label(),
                self.describe(),
                bytes.len()
            )));
        }
        let mut at = 0;
        for r in runs {
            // SAFETY: the caller holds the data on `node` for writing; runs are disjoint.
            unsafe {
                std::ptr::copy_nonoverlapping(bytes[at..].as_ptr(), r.ptr as *mut u8, r.len);
            }
            at += r.len;
        }
        Ok(())
    }
}

fn run(ptr: usize, len: usize) -> Run {
    Run { ptr, len }
}

/// The runs of a dense array of `n[i]` elements along dimension `i`, `ld[i]` elements
/// apart (`ld[0]` is 1): one run per line of dimension 0, or a single run when the
/// array has no gaps.
fn strided(runs: &mut Vec<Run>, ptr: usize, elemsize: usize, n: &[u32], ld: &[u32]) {
    let n: Vec<usize> = n.iter().map(|&x| x as usize).collect();
    let ld: Vec<usize> = ld.iter().map(|&x| x as usize).collect();
    if n.contains(&0) {
        return;
    }
    // Dimensions 0..k with no gap between lines fold into one run.
    let mut k = 1;
    let mut span = n[0];
    while k < n.len() && ld[k] == span {
        span *= n[k];
        k += 1;
    }
    let lines: usize = n[k..].iter().product();
    for line in 0..lines {
        let (mut rest, mut offset) = (line, 0);
        for d in k..n.len() {
            offset += (rest % n[d]) * ld[d];
            rest /= n[d];
        }
        runs.push(run(ptr + offset * elemsize, span * elemsize));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strided_runs_follow_the_leading_dimensions() {
        let mut runs = Vec::new();
        strided(&mut runs, 1000, 8, &[3, 2], &[1, 5]);
        assert_eq!(runs, vec![run(1000, 24), run(1040, 24)]);
        runs.clear();
        strided(&mut runs, 1000, 4, &[2, 3, 2], &[1, 2, 6]);
        assert_eq!(runs, vec![run(1000, 48)], "a gapless block is one run");
        runs.clear();
        strided(&mut runs, 0, 1, &[2, 2, 2], &[1, 2, 5]);
        assert_eq!(runs, vec![run(0, 4), run(5, 4)]);
        runs.clear();
        strided(&mut runs, 0, 1, &[0, 2], &[1, 2]);
        assert!(runs.is_empty());
    }
}
