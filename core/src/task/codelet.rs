//! Codelets: a kernel with one or more implementations, and what the runtime needs to
//! know about it (how many buffers, in which modes, where it may run).

use super::Task;
use crate::data::AccessMode;
use crate::perfmodel::PerfModel;
use std::ffi::c_void;
use std::sync::Arc;

/// `starpu_codelet::where` bits (StarPU's values).
pub mod where_mask {
    pub const NOWHERE: u32 = 1 << 0;
    pub const CPU: u32 = 1 << 1;
    pub const CUDA: u32 = 1 << 3;
    pub const OPENCL: u32 = 1 << 6;
}

/// What a kernel receives: the per-buffer interface descriptions (StarPU's `void *buffers[]`,
/// each pointing to a `#[repr(C)]` interface struct on the worker's memory node), the task,
/// and where it runs.
pub struct KernelCall<'a> {
    pub buffers: &'a [*mut c_void],
    pub task: &'a Task,
    pub worker: usize,
    pub nimpl: usize,
}

impl KernelCall<'_> {
    /// The description of buffer `i` as interface `T`, `None` when it is of another
    /// interface (or there is no buffer `i`).
    pub fn interface<T: crate::data::interfaces::Interface>(&self, i: usize) -> Option<&T> {
        let p = *self.buffers.get(i)?;
        // SAFETY: every built-in description starts with its interface id (an i32); the
        // pointer is live for the kernel's duration.
        unsafe { (*(p as *const i32) == T::ID).then(|| &*(p as *const T)) }
    }
}

/// A kernel failure (an exception in a Python or Java codelet): fails the task, not the runtime.
#[derive(Debug, Clone)]
pub struct KernelError(pub String);

pub type KernelResult = Result<(), KernelError>;

/// One implementation of a codelet for CPU workers.
pub type CpuKernel = Arc<dyn Fn(&KernelCall) -> KernelResult + Send + Sync>;

/// `can_execute(worker, task, nimpl)`: may this worker run this implementation of this task?
pub type CanExecute = Arc<dyn Fn(usize, &Task, usize) -> bool + Send + Sync>;

/// How many threads a task runs on (`enum starpu_codelet_type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CodeletType {
    #[default]
    Seq,
    Spmd,
    ForkJoin,
}

#[derive(Clone, Default)]
pub struct Codelet {
    pub name: Option<String>,
    /// `where` bits; 0 means "wherever an implementation exists".
    pub where_mask: u32,
    pub cpu_funcs: Vec<CpuKernel>,
    /// `None` is `STARPU_VARIABLE_NBUFFERS`: each task says how many buffers it has.
    pub nbuffers: Option<usize>,
    /// Access mode per buffer; a zero mode lets the task choose (task_insert does that).
    pub modes: Vec<AccessMode>,
    pub can_execute: Option<CanExecute>,
    pub kind: CodeletType,
    pub max_parallelism: i32,
    pub model: Option<PerfModel>,
    pub color: u32,
    pub flags: u32,
}

impl std::fmt::Debug for Codelet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Codelet")
            .field("name", &self.name)
            .field("where_mask", &self.where_mask)
            .field("cpu_funcs", &self.cpu_funcs.len())
            .field("nbuffers", &self.nbuffers)
            .field("modes", &self.modes)
            .finish()
    }
}

impl Codelet {
    /// The worker kinds this codelet may run on: `where` if set, otherwise derived from the
    /// implementations present (StarPU does the same).
    pub fn effective_where(&self) -> u32 {
        if self.where_mask != 0 {
            return self.where_mask;
        }
        let mut w = 0;
        if !self.cpu_funcs.is_empty() {
            w |= where_mask::CPU;
        }
        w
    }

    /// A codelet that runs nowhere: its tasks only carry dependencies.
    pub fn is_nowhere(&self) -> bool {
        self.effective_where() & !where_mask::NOWHERE == 0
    }

    pub fn display_name(&self) -> &str {
        self.name.as_deref().unwrap_or("(unnamed)")
    }
}
