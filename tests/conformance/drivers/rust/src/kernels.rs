//! The scenario kernels, on int64 elements, through the core's typed views.

use crate::events::EVENTS;
use starpu_core::data::interfaces::{MatrixInterface, VariableInterface, VectorInterface};
use starpu_core::data::AcquireNode;
use starpu_core::{AccessMode, DataHandle, KernelCall, KernelResult, Runtime};
use std::sync::Arc;

pub const KERNELS: &[&str] = &[
    "noop",
    "set",
    "add",
    "scale",
    "affine",
    "axpy",
    "copy",
    "sum",
    "try_acquire",
    "try_wait_all",
    "gate",
    "worker",
    "spmd",
    "clfail",
];

/// What a task's kernel needs besides its `value=` arguments (arguments 1...).
pub struct TaskInfo {
    pub name: String,
    pub delay_ms: u64,
    /// `ref=H`: the handle `try_acquire` acquires.
    pub reference: Option<DataHandle>,
    pub runtime: Arc<Runtime>,
}

fn value(call: &KernelCall, i: usize) -> Result<i64, starpu_core::KernelError> {
    Ok(*call.arg::<i64>(1 + i)?)
}

/// Applies `f` to every element of buffer `i`, whatever its interface.
fn each_mut(call: &KernelCall, i: usize, mut f: impl FnMut(usize, &mut i64)) -> KernelResult {
    if call.interface::<VariableInterface>(i).is_some() {
        f(0, &mut *call.variable_mut::<i64>(i)?);
    } else if call.interface::<VectorInterface>(i).is_some() {
        call.vector_mut::<i64>(i)?
            .iter_mut()
            .enumerate()
            .for_each(|(k, x)| f(k, x));
    } else if call.interface::<MatrixInterface>(i).is_some() {
        let mut m = call.matrix_mut::<i64>(i)?;
        m.rows_mut()
            .flatten()
            .enumerate()
            .for_each(|(k, x)| f(k, x));
    } else {
        return Err(format!("buffer {i} is of an interface the scenarios do not use").into());
    }
    Ok(())
}

/// Every element of buffer `i`, in order.
pub fn elements(call: &KernelCall, i: usize) -> Result<Vec<i64>, starpu_core::KernelError> {
    if call.interface::<VariableInterface>(i).is_some() {
        Ok(vec![*call.variable::<i64>(i)?])
    } else if call.interface::<VectorInterface>(i).is_some() {
        Ok(call.vector::<i64>(i)?.to_vec())
    } else if call.interface::<MatrixInterface>(i).is_some() {
        Ok(call.matrix::<i64>(i)?.to_vec())
    } else {
        Err(format!("buffer {i} is of an interface the scenarios do not use").into())
    }
}

/// The reduction methods of `redux_methods`: a sum (init 0, b0 += b1), on any interface.
/// They run outside any scenario task, so they record no event.
pub fn sum_reduction() -> starpu_core::data::ReductionMethods {
    use starpu_core::Codelet;
    starpu_core::data::ReductionMethods {
        init: Arc::new(
            Codelet::new("redux_zero")
                .modes([AccessMode::W])
                .cpu(|call| each_mut(call, 0, |_, x| *x = 0)),
        ),
        redux: Arc::new(
            Codelet::new("redux_sum")
                .modes([AccessMode::RW, AccessMode::R])
                .cpu(|call| {
                    let src = elements(call, 1)?;
                    each_mut(call, 0, |k, x| *x += src[k])
                }),
        ),
    }
}

fn code_of(r: &starpu_core::Result<()>) -> String {
    crate::code(r).to_string()
}

/// Runs kernel `kind` for the task whose information is argument 0.
pub fn run(kind: &str, call: &KernelCall) -> KernelResult {
    let info = call.arg::<Arc<TaskInfo>>(0)?;
    if kind == "spmd" && call.combined_rank() != 0 {
        // The other ranks of an SPMD task: the task's events are rank 0's.
        return spmd(call);
    }
    EVENTS.event("start", &info.name, None);
    if info.delay_ms > 0 {
        std::thread::sleep(std::time::Duration::from_millis(info.delay_ms));
    }
    let r = body(kind, call, info);
    EVENTS.event("end", &info.name, None);
    r
}

fn body(kind: &str, call: &KernelCall, info: &TaskInfo) -> KernelResult {
    match kind {
        "noop" => Ok(()),
        "set" => {
            let k = value(call, 0)?;
            each_mut(call, 0, |_, x| *x = k)
        }
        "add" => {
            let k = value(call, 0)?;
            each_mut(call, 0, |_, x| *x += k)
        }
        "scale" => {
            let k = value(call, 0)?;
            each_mut(call, 0, |_, x| *x *= k)
        }
        "affine" => {
            let (a, b) = (value(call, 0)?, value(call, 1)?);
            each_mut(call, 0, |_, x| *x = *x * a + b)
        }
        "axpy" => {
            let k = value(call, 0)?;
            let src = elements(call, 1)?;
            each_mut(call, 0, |i, x| *x += k * src[i])
        }
        "copy" => {
            let src = elements(call, 1)?;
            each_mut(call, 0, |i, x| *x = src[i])
        }
        "sum" => {
            let mut total = 0;
            for b in 1..call.nbuffers() {
                total += elements(call, b)?.iter().sum::<i64>();
            }
            each_mut(call, 0, |_, x| *x = total)
        }
        "try_acquire" => {
            let h = info.reference.as_ref().ok_or("try_acquire needs ref=H")?;
            let r = info.runtime.acquire(h, AcquireNode::Node(0), AccessMode::R);
            if r.is_ok() {
                let _ = info.runtime.release(h);
            }
            EVENTS.event(
                "report",
                &info.name,
                Some(&format!("acquire {}", code_of(&r))),
            );
            Ok(())
        }
        "try_wait_all" => {
            let r = info.runtime.wait_for_all();
            EVENTS.event(
                "report",
                &info.name,
                Some(&format!("wait_all {}", code_of(&r))),
            );
            Ok(())
        }
        "gate" => {
            EVENTS.wait_gate(value(call, 0)?);
            Ok(())
        }
        "worker" => {
            let text = format!("worker {}", call.worker());
            EVENTS.event("report", &info.name, Some(&text));
            Ok(())
        }
        "spmd" => spmd(call),
        // On the CPU it does nothing; its OpenCL implementation fails (opencl.rs).
        "clfail" => Ok(()),
        other => Err(format!("unknown kernel {other}").into()),
    }
}

/// `spmd`: rank r of a team of s sets every element of its block of vector b0 to
/// 10 s + r (the vector cut in s contiguous blocks, the first ones one longer).
fn spmd(call: &KernelCall) -> KernelResult {
    let v = 10 * call.combined_size() as i64 + call.combined_rank() as i64;
    call.vector_part_mut::<i64>(0)?
        .iter_mut()
        .for_each(|x| *x = v);
    Ok(())
}
