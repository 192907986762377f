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
use crate::task::reduction::{kind_of, run_inline};
use crate::task::{Access, Codelet};
use std::ffi::c_void;
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
    pub(crate) methods: Option<ReductionMethods>,
    /// Data the reduction codelet gets as a third buffer, in SCRATCH mode
    /// (`starpu_data_set_reduction_scratch`): a per-worker work area.
    scratch: Option<DataHandle>,
    /// Each worker's contribution to the current group, by worker id.
    pub(crate) slots: Vec<Option<DataHandle>>,
}

impl ReduxState {
    pub(crate) fn clear(&mut self) {
        for c in self.slots.drain(..).flatten() {
            drop(c.retire());
        }
    }
}

impl DataHandle {
    pub(crate) fn redux_state(&self) -> MutexGuard<'_, ReduxState> {
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
    pub(crate) fn fold_accesses(
        &self,
        dst: DataHandle,
        src: DataHandle,
    ) -> Vec<(DataHandle, AccessMode)> {
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
