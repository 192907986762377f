//! What the device implementations of the scenario kernels share (`opencl.rs`,
//! `cuda.rs`): which kernels they have, and the operation each one applies on the device
//! with its values; each device module gives its own launch of one kernel doing it
//! (`apply`) and its own failure (`clfail`: a source its compiler rejects).

use crate::events::EVENTS;
use crate::kernels::TaskInfo;
use starpu_core::data::interfaces::{MatrixInterface, VariableInterface, VectorInterface};
use starpu_core::{KernelCall, KernelError, KernelResult};
use std::sync::Arc;

/// The kernels that have device implementations.
pub const KERNELS: &[&str] = &[
    "noop", "set", "add", "scale", "affine", "axpy", "copy", "clfail",
];

/// The operations of the device kernels' source (`enum { SET, ADD, ... }` there), with
/// their two values and whether they read a second buffer.
pub struct Op {
    pub code: i32,
    pub k0: i64,
    pub k1: i64,
    pub binary: bool,
}

/// Where buffer `i`'s elements are: (row length, ld, count).
pub fn shape(call: &KernelCall, i: usize) -> Result<(u32, u32, u32), KernelError> {
    if let Some(m) = call.interface::<MatrixInterface>(i) {
        Ok((m.nx, m.ld, m.nx * m.ny))
    } else if let Some(v) = call.interface::<VectorInterface>(i) {
        Ok((v.nx, v.nx, v.nx))
    } else if call.interface::<VariableInterface>(i).is_some() {
        Ok((1, 1, 1))
    } else {
        Err("a buffer of an interface the scenarios do not use".into())
    }
}

/// Runs the device implementation of kernel `kind`: `apply` launches the operation,
/// `fail` the kernel that does not compile.
pub fn run(
    kind: &str,
    call: &KernelCall,
    apply: impl FnOnce(Op) -> KernelResult,
    fail: impl FnOnce() -> KernelResult,
) -> KernelResult {
    let info = call.arg::<Arc<TaskInfo>>(0)?;
    EVENTS.event("start", &info.name, None);
    if info.delay_ms > 0 {
        std::thread::sleep(std::time::Duration::from_millis(info.delay_ms));
    }
    let r = body(kind, call, apply, fail);
    EVENTS.event("end", &info.name, None);
    r
}

fn body(
    kind: &str,
    call: &KernelCall,
    apply: impl FnOnce(Op) -> KernelResult,
    fail: impl FnOnce() -> KernelResult,
) -> KernelResult {
    let value = |i: usize| call.arg::<i64>(1 + i).copied();
    let op = |code, k0, k1, binary| Op {
        code,
        k0,
        k1,
        binary,
    };
    match kind {
        "noop" => Ok(()),
        "set" => apply(op(0, value(0)?, 0, false)),
        "add" => apply(op(1, value(0)?, 0, false)),
        "scale" => apply(op(2, value(0)?, 0, false)),
        "affine" => apply(op(3, value(0)?, value(1)?, false)),
        "axpy" => apply(op(4, value(0)?, 0, true)),
        "copy" => apply(op(5, 0, 0, true)),
        "clfail" => fail(),
        other => Err(format!("kernel {other} has no device implementation").into()),
    }
}
