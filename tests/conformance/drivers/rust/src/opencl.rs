//! OpenCL implementations of the scenario kernels (`codelet ... impl=opencl`), through
//! the core's Rust OpenCL API: one OpenCL kernel applies the operation to the device copy
//! of the buffers, walking a matrix by its ld from its offset. `clfail` builds a program
//! that does not compile: the error fails the task.

use crate::device::{self, Op};
use starpu_core::drivers::opencl::{DeviceBuffer, OpenCl, Program};
use starpu_core::{KernelCall, KernelError, KernelResult};
use std::sync::OnceLock;

const SOURCE: &str = "
enum { SET, ADD, SCALE, AFFINE, AXPY, COPY };
__kernel void apply(int op, __global long *b0, unsigned off0, unsigned nx0, unsigned ld0,
                    __global const long *b1, unsigned off1, unsigned nx1, unsigned ld1,
                    long k0, long k1, unsigned n)
{
    const size_t i = get_global_id(0);
    if (i >= n) return;
    __global long *x = b0 + off0 + (i / nx0) * ld0 + i % nx0;
    const long y = b1[off1 + (i / nx1) * ld1 + i % nx1];
    switch (op) {
    case SET: *x = k0; break;
    case ADD: *x += k0; break;
    case SCALE: *x *= k0; break;
    case AFFINE: *x = *x * k0 + k1; break;
    case AXPY: *x += k0 * y; break;
    case COPY: *x = y; break;
    }
}
";

fn program() -> &'static Program {
    static P: OnceLock<Program> = OnceLock::new();
    P.get_or_init(|| Program::from_source(SOURCE))
}

/// Buffer `i` on the device, and where its elements are: (buffer, offset, row length,
/// ld, count), in elements.
type View = (DeviceBuffer, u32, u32, u32, u32);

fn device_view(cl: &OpenCl, call: &KernelCall, i: usize) -> Result<View, KernelError> {
    let b = cl.buffer_of::<i64>(i)?;
    let (nx, ld, n) = device::shape(call, i)?;
    Ok((b, b.first() as u32, nx, ld, n))
}

fn apply(call: &KernelCall, op: Op) -> KernelResult {
    let cl = call.opencl()?;
    let v0 = device_view(&cl, call, 0)?;
    let v1 = if op.binary {
        device_view(&cl, call, 1)?
    } else {
        v0
    };
    let ((b0, off0, nx0, ld0, n), (b1, off1, nx1, ld1, n1)) = (v0, v1);
    if n1 != n {
        return Err("buffers of different sizes".into());
    }
    let mut k = cl.kernel(program(), "apply")?;
    k.arg(op.code)?
        .arg_buffer(&b0)?
        .arg(off0)?
        .arg(nx0)?
        .arg(ld0)?
        .arg_buffer(&b1)?
        .arg(off1)?
        .arg(nx1)?
        .arg(ld1)?
        .arg(op.k0)?
        .arg(op.k1)?
        .arg(n)?;
    k.launch(&[n as usize], None)?;
    Ok(())
}

/// Runs the OpenCL implementation of kernel `kind`.
pub fn run(kind: &str, call: &KernelCall) -> KernelResult {
    device::run(
        kind,
        call,
        |op| apply(call, op),
        || {
            let broken = Program::from_source("__kernel void f( {");
            call.opencl()?
                .kernel(&broken, "f")
                .map(drop)
                .map_err(Into::into)
        },
    )
}
