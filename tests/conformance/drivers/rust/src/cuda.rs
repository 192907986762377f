//! CUDA implementations of the scenario kernels (`codelet ... impl=cuda`), through the
//! core's Rust CUDA API: one kernel, CUDA C compiled by NVRTC, applies the operation to
//! the device copy of the buffers, walking a matrix by its ld. `clfail` gives a source
//! that does not compile: the error fails the task. Run on a GPU by scripts/gpu-check.sh;
//! without one the CUDA scenarios are skipped (no device). Not run where it was written.

use crate::device::{self, Op};
use starpu_core::drivers::cuda::{Cuda, DeviceBuffer, Module};
use starpu_core::{KernelCall, KernelError, KernelResult};
use std::sync::OnceLock;

const SOURCE: &str = r#"
enum { SET, ADD, SCALE, AFFINE, AXPY, COPY };
extern "C" __global__ void apply(int op, long long *b0, unsigned nx0, unsigned ld0,
                                 const long long *b1, unsigned nx1, unsigned ld1,
                                 long long k0, long long k1, unsigned n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    long long *x = b0 + (i / nx0) * ld0 + i % nx0;
    const long long y = b1[(i / nx1) * ld1 + i % nx1];
    switch (op) {
    case SET: *x = k0; break;
    case ADD: *x += k0; break;
    case SCALE: *x *= k0; break;
    case AFFINE: *x = *x * k0 + k1; break;
    case AXPY: *x += k0 * y; break;
    case COPY: *x = y; break;
    }
}
"#;

fn module() -> &'static Module {
    static M: OnceLock<Module> = OnceLock::new();
    M.get_or_init(|| Module::from_source(SOURCE))
}

/// Buffer `i` on the device (its first element), and where its elements are: (buffer,
/// row length, ld, count), in elements.
type View = (DeviceBuffer, u32, u32, u32);

fn device_view(cuda: &Cuda, call: &KernelCall, i: usize) -> Result<View, KernelError> {
    let b = cuda.buffer_of::<i64>(i)?;
    let (nx, ld, n) = device::shape(call, i)?;
    Ok((b, nx, ld, n))
}

fn apply(call: &KernelCall, op: Op) -> KernelResult {
    let cuda = call.cuda()?;
    let v0 = device_view(&cuda, call, 0)?;
    let v1 = if op.binary {
        device_view(&cuda, call, 1)?
    } else {
        v0
    };
    let ((b0, nx0, ld0, n), (b1, nx1, ld1, n1)) = (v0, v1);
    if n1 != n {
        return Err("buffers of different sizes".into());
    }
    cuda.launch(module(), "apply")?
        .arg(op.code)
        .arg_buffer(&b0)
        .arg(nx0)
        .arg(ld0)
        .arg_buffer(&b1)
        .arg(nx1)
        .arg(ld1)
        .arg(op.k0)
        .arg(op.k1)
        .arg(n)
        .run((n.div_ceil(128), 1, 1), (128, 1, 1), 0)?;
    Ok(())
}

/// Runs the CUDA implementation of kernel `kind`.
pub fn run(kind: &str, call: &KernelCall) -> KernelResult {
    device::run(
        kind,
        call,
        |op| apply(call, op),
        || {
            let broken = Module::from_source("extern \"C\" __global__ void f( {");
            call.cuda()?
                .launch(&broken, "f")
                .map(drop)
                .map_err(Into::into)
        },
    )
}
