//! Reductions (`STARPU_REDUX`): tasks that each add a contribution to a piece of data, in
//! any order and concurrently.
//!
//! The application gives the handle two codelets (`starpu_data_set_reduction_methods`):
//! `init`, which sets a buffer to the neutral element, and `redux`, which folds buffer 1
//! into buffer 0. A REDUX task does not touch the data itself: the first one a worker runs
//! in a group makes that worker's *contribution* (a temporary buffer shaped like the
//! data), initialises it with `init` there and then, and every REDUX task on that worker
//! accumulates into it. A worker runs one task at a time, so a contribution never has two
//! users.
//!
//! When the data is next used in another way (a task, an acquisition, unregistration),
//! `implicit.rs` asks for the reduction first. It is made of tasks like any other, ordered
//! after the whole group: a join, then a binary tree over the workers' slots (level k
//! folds slot i + 2^k into slot i, pairs of one level in parallel), then a last task that
//! folds what is left into the data and that the next access waits for. Which workers
//! contributed is only known once the group ran, so each tree task looks at its two slots
//! when it runs: it folds when both exist, moves when only the right one does.

use super::{AccessMode, DataHandle, Origin};
use crate::error::{Error, Result};
use crate::memory::NodeId;
use crate::runtime::Runtime;
use crate::task::{Access, Codelet, KernelCall, ReadyList, Task, TaskRef, TaskSpec};
use crate::worker;
use smallvec::{smallvec, SmallVec};
use std::ffi::c_void;
use std::sync::atomic::Ordering;
use std::sync::{Arc, MutexGuard};

/// The two codelets of a reduction. Each needs an implementation (CPU or OpenCL: the
/// reduction runs where a worker of that kind takes it); `init` gets one buffer (mode
/// W), `redux` two (RW, R). Their kernels receive no task arguments: a face
/// that has some (`starpu_data_set_reduction_methods_with_args`) captures them.
#[derive(Clone)]
pub struct ReductionMethods {
    pub redux: Arc<Codelet>,
    pub init: Arc<Codelet>,
}

/// A handle's reduction state.
#[derive(Default)]
pub(crate) struct ReduxState {
    methods: Option<ReductionMethods>,
    /// Data the reduction codelet gets as a third buffer, in SCRATCH mode
    /// (`starpu_data_set_reduction_scratch`): a per-worker work area.
    scratch: Option<DataHandle>,
    /// Each worker's contribution to the current group, by worker id.
    slots: Vec<Option<DataHandle>>,
}

impl ReduxState {
    pub(crate) fn clear(&mut self) {
        for c in self.slots.drain(..).flatten() {
            drop(c.retire());
        }
    }
}

impl DataHandle {
    fn redux_state(&self) -> MutexGuard<'_, ReduxState> {
        self.0.modes.redux.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The contribution `worker` accumulates into, if it has one (only looked up with
    /// several memory nodes: with main RAM alone its state never changes).
    pub(crate) fn contribution_of(&self, worker: usize) -> Option<DataHandle> {
        if !self.memory().has_devices() {
            return None;
        }
        self.redux_state().slots.get(worker).cloned().flatten()
    }

    /// Sets the codelets REDUX accesses to this handle use
    /// (`starpu_data_set_reduction_methods`). Each must have a CPU implementation.
    pub fn set_reduction_methods(&self, methods: ReductionMethods) -> Result<()> {
        self.check_usable()?;
        for (what, cl) in [
            ("reduction", &methods.redux),
            ("initialisation", &methods.init),
        ] {
            if cl.cpu_funcs.is_empty() && cl.opencl_funcs.is_empty() && cl.cuda_funcs.is_empty() {
                return Err(Error::invalid(format!(
                    "reduction methods of data {}: the {what} codelet {} has no \
                     implementation",
                    self.label(),
                    cl.display_name()
                )));
            }
        }
        self.redux_state().methods = Some(methods);
        Ok(())
    }

    /// Gives the reduction codelet `scratch` as a third buffer, in SCRATCH mode: each
    /// worker folding contributions gets its own buffer shaped like `scratch`
    /// (`starpu_data_set_reduction_scratch`).
    pub fn set_reduction_scratch(&self, scratch: &DataHandle) -> Result<()> {
        self.check_usable()?;
        scratch.check_usable()?;
        if scratch.ptr_eq(self) {
            return Err(Error::invalid(format!(
                "reduction scratch of data {}: the data cannot be its own scratch",
                self.label()
            )));
        }
        self.redux_state().scratch = Some(scratch.clone());
        Ok(())
    }

    /// The buffers of one fold: `dst` (RW), `src` (R), then the scratch data if any.
    fn fold_accesses(&self, dst: DataHandle, src: DataHandle) -> Vec<(DataHandle, AccessMode)> {
        let mut v = vec![(dst, AccessMode::RW), (src, AccessMode::R)];
        if let Some(s) = self.redux_state().scratch.clone() {
            v.push((s, AccessMode::SCRATCH));
        }
        v
    }

    pub fn has_reduction_methods(&self) -> bool {
        self.redux_state().methods.is_some()
    }

    /// The codelets set by `set_reduction_methods` (StarPU-MPI's reductions across
    /// processes run them on whole pieces of data).
    pub fn reduction_methods(&self) -> Option<ReductionMethods> {
        self.redux_state().methods.clone()
    }

    /// The buffer a REDUX task running on `worker` accumulates into: the worker's
    /// contribution, made and initialised on first use.
    pub(crate) fn contribution(&self, worker: usize, node: NodeId) -> Result<*mut c_void> {
        let (existing, init) = {
            let st = self.redux_state();
            let init = st.methods.as_ref().map(|m| m.init.clone());
            (st.slots.get(worker).cloned().flatten(), init)
        };
        // RW: the contribution accumulates (and may have been made in main RAM).
        if let Some(c) = existing {
            return c.fetch(node, AccessMode::RW);
        }
        let init = init.ok_or_else(|| no_methods(self))?;
        let c = DataHandle::new(
            self.memory(),
            None,
            self.home_description(),
            false,
            Origin {
                elem: self.elem_kind(),
                owner: None,
            },
        );
        // The init codelet runs where the worker computes if it has an implementation for
        // that kind, else on the CPU in main RAM (whence the contribution goes to the
        // device).
        let init_node = if init.funcs(kind_of(self, node)).is_empty() {
            crate::memory::MAIN_RAM
        } else {
            node
        };
        if let Err(e) = run_inline(worker, init_node, &init, &[(c.clone(), AccessMode::W)]) {
            drop(c.retire());
            return Err(e);
        }
        let ptr = c.fetch(node, AccessMode::RW)?;
        let mut st = self.redux_state();
        if st.slots.len() <= worker {
            st.slots.resize_with(worker + 1, || None);
        }
        st.slots[worker] = Some(c);
        Ok(ptr)
    }
}

fn no_methods(h: &DataHandle) -> Error {
    Error::invalid(format!(
        "STARPU_REDUX access to data {} which has no reduction methods (set them with \
         starpu_data_set_reduction_methods first)",
        h.label()
    ))
}

/// Checks an access in REDUX mode at submission.
pub(crate) fn check(h: &DataHandle, sequential: bool, acquisition: bool) -> Result<()> {
    if !sequential {
        // The reduction is made when the next access is ordered after the group: without
        // implicit dependencies there is no such moment.
        return Err(Error::invalid(format!(
            "data {}: STARPU_REDUX needs sequential consistency (it is off for this data \
             or this task)",
            h.label()
        )));
    }
    if acquisition {
        return Err(Error::invalid(format!(
            "data {}: the application cannot acquire data in STARPU_REDUX mode",
            h.label()
        )));
    }
    if !h.has_reduction_methods() {
        return Err(no_methods(h));
    }
    Ok(())
}

/// Checks that a REDUX access `i` is the task's only access to its data: a task cannot
/// both contribute to a reduction and use the data's value.
pub(crate) fn check_alone(accesses: &[Access], i: usize) -> Result<()> {
    let a = &accesses[i];
    if !a.mode.is_redux() {
        return Ok(());
    }
    let twice = accesses
        .iter()
        .enumerate()
        .any(|(j, b)| j != i && b.handle.ptr_eq(&a.handle));
    if twice {
        return Err(Error::invalid(format!(
            "data {} is given to the task twice, once in STARPU_REDUX mode: a contribution \
             to a reduction cannot be combined with another access to the same data",
            a.handle.label()
        )));
    }
    Ok(())
}

/// Runs codelet `cl` here and now, on `worker`, over `accesses` (a step of a task the
/// worker is already running: a contribution's initialisation, a fold).
fn run_inline(
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
    let r = worker::as_callback(&what, Some(&task), || kernel(&call));
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
fn kind_of(h: &DataHandle, node: NodeId) -> worker::WorkerKind {
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
    rt.submitted.fetch_add(1, Ordering::SeqCst);
    rt.ctx_counts.entered(None);
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

impl Runtime {
    /// Closes a reduction group on `h` if there is one: the reduction tasks are submitted
    /// (before unregistration or invalidation, which wait for the data to be idle).
    pub(crate) fn end_reduction(&self, h: &DataHandle) {
        let mut ready = ReadyList::new();
        {
            let mut deps = h.0.deps.lock().unwrap_or_else(|e| e.into_inner());
            deps.end_reduction(&mut |members| reduce(self, h, members, &mut ready));
        }
        self.schedule(ready);
    }
}
