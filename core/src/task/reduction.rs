//! The tasks of a reduction (`STARPU_REDUX`, see `data/redux.rs` for the contributions):
//! a join after the group, a binary tree of folds over the workers' slots, and the last
//! fold into the data; and running a reduction codelet inline, on the worker that needs it.

use crate::data::{AccessMode, DataHandle};
use crate::error::{Error, Result};
use crate::memory::NodeId;
use crate::runtime::Runtime;
use crate::task::{Access, Codelet, KernelCall, ReadyList, Task, TaskRef, TaskSpec};
use crate::worker;
use smallvec::{smallvec, SmallVec};
use std::ffi::c_void;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// Runs codelet `cl` here and now, on `worker`, over `accesses` (a step of a task the
/// worker is already running: a contribution's initialisation, a fold).
pub(crate) fn run_inline(
    worker: usize,
    node: NodeId,
    cl: &Arc<Codelet>,
    accesses: &[(DataHandle, AccessMode)],
) -> Result<()> {
    let mut buffers: SmallVec<[*mut c_void; 3]> = SmallVec::new();
    for (h, mode) in accesses {
        buffers.push(h.fetch_for(worker, node, *mode)?);
    }
    let task = Task::new();
    task.install_spec(TaskSpec {
        codelet: Some(cl.clone()),
        accesses: accesses
            .iter()
            .map(|(h, mode)| Access {
                handle: h.clone(),
                mode: *mode,
                sequential: false,
            })
            .collect(),
        ..Default::default()
    });
    let spec = task.spec().expect("installed above");
    let kind = accesses
        .first()
        .map_or(worker::WorkerKind::Cpu, |(h, _)| kind_of(h, node));
    let kernel = cl.funcs(kind).first().ok_or_else(|| {
        Error::invalid(format!(
            "the reduction codelet {} has no {kind:?} implementation",
            cl.display_name()
        ))
    })?;
    let call = KernelCall::new(&buffers, &task, spec, worker, 0)
        .on_device(node != crate::memory::MAIN_RAM);
    let what = format!("the reduction codelet {}", cl.display_name());
    let r = worker::as_callback(&what, Some(task.clone() as worker::CurrentTask), || {
        kernel(&call)
    });
    for (h, mode) in accesses {
        h.end_access(worker, node, *mode);
    }
    match r {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err(e.into_error()),
        Err(e) => Err(e),
    }
}

/// The kind of worker that computes in `node` (of `h`'s runtime).
pub(crate) fn kind_of(h: &DataHandle, node: NodeId) -> worker::WorkerKind {
    match h.memory().kind(node) {
        Some(crate::memory::NodeKind::OpenCl) => worker::WorkerKind::OpenCl,
        Some(crate::memory::NodeKind::Cuda) => worker::WorkerKind::Cuda,
        _ => worker::WorkerKind::Cpu,
    }
}

/// An internal codelet running `f` on the workers of the kinds `like` has implementations
/// for (the reduction's folds run where its codelet can).
fn on_kinds_of(
    name: &str,
    like: &Codelet,
    f: impl Fn(&KernelCall) -> crate::task::KernelResult + Send + Sync + 'static,
) -> Codelet {
    let f = Arc::new(f);
    let mut cl = Codelet::new(name);
    if !like.cpu_funcs.is_empty() {
        let f = f.clone();
        cl = cl.cpu(move |call| f(call));
    }
    if !like.cuda_funcs.is_empty() {
        let f = f.clone();
        cl = cl.cuda(move |call| f(call));
    }
    if !like.opencl_funcs.is_empty() {
        cl = cl.opencl(move |call| f(call));
    }
    cl
}

/// A task of the reduction, submitted by hand: the handle's dependency lock is held, so
/// it cannot go through `Runtime::submit`.
fn internal_task(
    rt: &Runtime,
    name: &str,
    codelet: Option<Codelet>,
    accesses: SmallVec<[Access; 4]>,
) -> TaskRef {
    let t = Task::new();
    t.mark_submitted();
    for a in &accesses {
        a.handle.0.in_flight.fetch_add(1, Ordering::SeqCst);
    }
    t.install_spec(TaskSpec {
        codelet: codelet.map(Arc::new),
        accesses,
        detached: true,
        name: Some(name.into()),
        ..Default::default()
    });
    rt.count.submitted(None, true);
    t
}

/// Makes the tasks that fold the contributions of the group `members` into `h`; returns
/// the last one. Tasks ready at once join `ready`.
pub(crate) fn reduce(
    rt: &Runtime,
    h: &DataHandle,
    members: SmallVec<[TaskRef; 1]>,
    ready: &mut ReadyList,
) -> TaskRef {
    let redux = h
        .redux_state()
        .methods
        .as_ref()
        .map(|m| m.redux.clone())
        .expect("REDUX accesses are refused without reduction methods");
    let nodes: Arc<[NodeId]> = rt.workers.iter().map(|w| w.node).collect();
    let join = internal_task(rt, "starpu_redux_join", None, SmallVec::new());
    for m in &members {
        m.add_data_successor(&join);
    }
    let mut made = vec![join.clone()];
    // The last task that touched each slot: the next one on that slot waits for it.
    let mut last: Vec<TaskRef> = vec![join.clone(); nodes.len()];
    let mut stride = 1;
    while stride < nodes.len() {
        for i in (0..nodes.len()).step_by(2 * stride) {
            let j = i + stride;
            if j >= nodes.len() {
                continue;
            }
            let (h2, cl, nodes) = (h.clone(), redux.clone(), nodes.clone());
            let fold = on_kinds_of("starpu_redux_tree", &redux, move |call: &KernelCall| {
                fold_slots(&h2, &cl, call.worker(), nodes[call.worker()], i, j).map_err(Into::into)
            });
            let t = internal_task(rt, "starpu_redux_tree", Some(fold), SmallVec::new());
            last[i].add_data_successor(&t);
            if !Arc::ptr_eq(&last[i], &last[j]) {
                last[j].add_data_successor(&t);
            }
            last[i] = t.clone();
            made.push(t);
        }
        stride *= 2;
    }
    let (h2, cl, nodes2) = (h.clone(), redux.clone(), nodes.clone());
    let fold_all = on_kinds_of("starpu_redux", &redux, move |call: &KernelCall| {
        fold_into_data(&h2, &cl, call.worker(), nodes2[call.worker()]).map_err(Into::into)
    })
    .modes([AccessMode::RW]);
    let fin = internal_task(
        rt,
        "starpu_redux",
        Some(fold_all),
        smallvec![Access {
            handle: h.clone(),
            mode: AccessMode::RW,
            sequential: false,
        }],
    );
    last[0].add_data_successor(&fin);
    made.push(fin.clone());
    // Every edge is in place: drop the submission guards. Only the join can be ready.
    for t in made {
        if t.drop_pending() {
            ready.push(t);
        }
    }
    fin
}

/// A tree step: slot `j` folded into slot `i` (or moved there when `i` has none).
fn fold_slots(
    h: &DataHandle,
    redux: &Arc<Codelet>,
    worker: usize,
    node: NodeId,
    i: usize,
    j: usize,
) -> Result<()> {
    let (dst, src) = {
        let mut st = h.redux_state();
        let src = st.slots.get_mut(j).and_then(Option::take);
        (st.slots.get(i).cloned().flatten(), src)
    };
    match (dst, src) {
        (Some(dst), Some(src)) => {
            let r = run_inline(worker, node, redux, &h.fold_accesses(dst, src.clone()));
            drop(src.retire());
            r
        }
        (None, Some(src)) => {
            let mut st = h.redux_state();
            if st.slots.len() <= i {
                st.slots.resize_with(i + 1, || None);
            }
            st.slots[i] = Some(src);
            Ok(())
        }
        _ => Ok(()),
    }
}

/// The last step: every contribution left folded into the data itself.
fn fold_into_data(h: &DataHandle, redux: &Arc<Codelet>, worker: usize, node: NodeId) -> Result<()> {
    let left: Vec<DataHandle> = h.redux_state().slots.drain(..).flatten().collect();
    let mut result = Ok(());
    for c in left {
        let r = run_inline(worker, node, redux, &h.fold_accesses(h.clone(), c.clone()));
        drop(c.retire());
        result = result.and(r);
    }
    result
}
