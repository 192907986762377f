//! Codelets: a kernel with one or more implementations, and what the runtime needs to
//! know about it (how many buffers, in which modes, where it may run).

use super::{KernelCall, Task};
use crate::data::AccessMode;
use crate::error::{Cause, Error, ErrorKind, Result};
use crate::perfmodel::PerfModel;
use std::sync::Arc;

/// `starpu_codelet::where` bits (StarPU's values).
pub use crate::worker::where_mask;

/// A kernel failure (an exception in a Python or Java codelet, an error a Rust kernel
/// returns): fails the task, not the runtime. A face passes the exception object itself as
/// the cause, and gets it back from the task's error (`Error::cause`).
#[derive(Clone)]
pub struct KernelError {
    message: String,
    cause: Option<Cause>,
}

impl KernelError {
    pub fn new(message: impl Into<String>) -> Self {
        KernelError {
            message: message.into(),
            cause: None,
        }
    }

    /// A failure caused by `cause`, the face's own exception object.
    pub fn with_cause(message: impl Into<String>, cause: Cause) -> Self {
        KernelError {
            message: message.into(),
            cause: Some(cause),
        }
    }

    pub fn message(&self) -> &str {
        &self.message
    }

    /// The task failure this kernel error makes.
    pub(crate) fn into_error(self) -> Error {
        Error::new(ErrorKind::TaskFailed, self.message).with_cause(self.cause)
    }
}

impl std::fmt::Debug for KernelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("KernelError").field(&self.message).finish()
    }
}

impl From<Error> for KernelError {
    fn from(e: Error) -> Self {
        KernelError {
            message: e.message.clone(),
            cause: e.cause().cloned(),
        }
    }
}

impl From<String> for KernelError {
    fn from(s: String) -> Self {
        KernelError::new(s)
    }
}

impl From<&str> for KernelError {
    fn from(s: &str) -> Self {
        KernelError::new(s)
    }
}

impl std::fmt::Display for KernelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

pub type KernelResult = std::result::Result<(), KernelError>;

/// One implementation of a codelet for CPU workers.
pub type CpuKernel = Arc<dyn Fn(&KernelCall) -> KernelResult + Send + Sync>;

/// One implementation of a codelet for OpenCL workers: it runs on the worker's thread,
/// with the task's buffers on the device (`KernelCall::opencl`), and enqueues kernels on
/// the worker's queue. The worker waits for that queue before ending the task.
pub type OpenClKernel = CpuKernel;

/// `opencl_flags`: the implementation returns before its kernels are done, the worker
/// waits for them (`STARPU_OPENCL_ASYNC`).
pub const OPENCL_ASYNC: u8 = 1;

/// One implementation of a codelet for CUDA workers: it runs on the worker's thread, with
/// the task's buffers on the device (`KernelCall::cuda`), and queues kernels on the
/// worker's stream. The worker waits for that stream before ending the task.
pub type CudaKernel = CpuKernel;

/// `cuda_flags`: the implementation returns before its kernels are done
/// (`STARPU_CUDA_ASYNC`): with `STARPU_CUDA_PIPELINE` above 0 (2 by default), the worker
/// takes its next task while they run, and the task ends once they are over (tasks with a
/// performance model still wait for their kernels, to be timed).
pub const CUDA_ASYNC: u8 = 1;

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

/// A kernel with its implementations, and what the runtime needs to know about it.
///
/// ```
/// use starpu_core::{AccessMode, Codelet};
/// let scale = Codelet::new("scale")
///     .modes([AccessMode::RW])
///     .cpu(|call| {
///         let factor = *call.arg::<f64>(0)?;
///         for x in call.vector_mut::<f64>(0)?.iter_mut() {
///             *x *= factor;
///         }
///         Ok(())
///     });
/// assert_eq!(scale.nbuffers, Some(1));
/// ```
// Aligned to a cache line: every task clones and drops the `Arc` around the codelet, on
// different threads, and that counter must not share a line with the fields the
// submission path reads.
#[derive(Clone, Default)]
#[repr(align(64))]
pub struct Codelet {
    pub name: Option<String>,
    /// `where` bits; 0 means "wherever an implementation exists".
    pub where_mask: u32,
    pub cpu_funcs: Vec<CpuKernel>,
    /// CUDA implementations (`cuda_funcs`), and their `cuda_flags`.
    pub cuda_funcs: Vec<CudaKernel>,
    pub cuda_flags: Vec<u8>,
    /// OpenCL implementations (`opencl_funcs`), and their `opencl_flags`.
    pub opencl_funcs: Vec<OpenClKernel>,
    pub opencl_flags: Vec<u8>,
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
            .field("cuda_funcs", &self.cuda_funcs.len())
            .field("opencl_funcs", &self.opencl_funcs.len())
            .field("nbuffers", &self.nbuffers)
            .field("modes", &self.modes)
            .finish()
    }
}

impl Codelet {
    /// A codelet named `name`, with no implementation and no buffer yet.
    pub fn new(name: impl Into<String>) -> Codelet {
        Codelet {
            name: Some(name.into()),
            nbuffers: Some(0),
            ..Default::default()
        }
    }

    /// Adds a CPU implementation (the first one added is implementation 0).
    pub fn cpu(
        mut self,
        f: impl Fn(&KernelCall) -> KernelResult + Send + Sync + 'static,
    ) -> Codelet {
        self.cpu_funcs.push(Arc::new(f));
        self
    }

    /// Adds an OpenCL implementation (see [`crate::drivers::opencl`]; the first one added
    /// is OpenCL implementation 0).
    pub fn opencl(
        mut self,
        f: impl Fn(&KernelCall) -> KernelResult + Send + Sync + 'static,
    ) -> Codelet {
        self.opencl_funcs.push(Arc::new(f));
        self.opencl_flags.push(0);
        self
    }

    /// Adds a CUDA implementation (see [`crate::drivers::cuda`]; the first one added is
    /// CUDA implementation 0).
    pub fn cuda(
        mut self,
        f: impl Fn(&KernelCall) -> KernelResult + Send + Sync + 'static,
    ) -> Codelet {
        self.cuda_funcs.push(Arc::new(f));
        self.cuda_flags.push(0);
        self
    }

    /// The implementations of a worker kind.
    pub fn funcs(&self, kind: crate::worker::WorkerKind) -> &[CpuKernel] {
        match kind {
            crate::worker::WorkerKind::Cpu => &self.cpu_funcs,
            crate::worker::WorkerKind::OpenCl => &self.opencl_funcs,
            crate::worker::WorkerKind::Cuda => &self.cuda_funcs,
        }
    }

    /// Declares the buffers: their number and access modes.
    pub fn modes(mut self, modes: impl IntoIterator<Item = AccessMode>) -> Codelet {
        self.modes = modes.into_iter().collect();
        self.nbuffers = Some(self.modes.len());
        self
    }

    /// Lets each task choose its number of buffers and their modes
    /// (`STARPU_VARIABLE_NBUFFERS`).
    pub fn variable_buffers(mut self) -> Codelet {
        self.modes.clear();
        self.nbuffers = None;
        self
    }

    /// Restricts where the codelet may run (`where`, a mask of `where_mask` bits).
    pub fn where_mask(mut self, mask: u32) -> Codelet {
        self.where_mask = mask;
        self
    }

    /// Makes the codelet parallel (`type` and `max_parallelism`): under the `peager` and
    /// `pheft` policies its tasks run on a combined worker of at most `max_parallelism`
    /// workers. An SPMD kernel runs on every worker of it at once
    /// (`KernelCall::combined_rank` tells which), a FORKJOIN kernel once, with the others
    /// reserved for it (`KernelCall::combined_size` tells how many threads it may start).
    /// A `max_parallelism` below 2 keeps tasks on one worker, as in StarPU.
    pub fn parallel(mut self, kind: CodeletType, max_parallelism: i32) -> Codelet {
        self.kind = kind;
        self.max_parallelism = max_parallelism;
        self
    }

    /// Asks `f(worker, task, implementation)` before running the task on a worker.
    pub fn can_execute(
        mut self,
        f: impl Fn(usize, &Task, usize) -> bool + Send + Sync + 'static,
    ) -> Codelet {
        self.can_execute = Some(Arc::new(f));
        self
    }

    /// Checks buffer `i` given in `mode` against what the codelet declares: the index must
    /// exist, and a declared mode must be the one given. Returns the mode to use (the
    /// declared one when `mode` is empty).
    pub fn check_buffer(&self, i: usize, mode: AccessMode) -> Result<AccessMode> {
        // The common case first: a valid mode, the one the codelet declares.
        if self.nbuffers.is_some_and(|n| i < n)
            && self.modes.get(i) == Some(&mode)
            && AccessMode::from_bits(mode.bits()).is_ok()
        {
            return Ok(mode);
        }
        let declared = match self.nbuffers {
            None => AccessMode::NONE,
            Some(n) if i >= n => {
                return Err(Error::invalid(format!(
                    "too many buffers: codelet {} declares {n}",
                    self.display_name()
                )))
            }
            Some(_) => self.modes.get(i).copied().unwrap_or(AccessMode::NONE),
        };
        let mode = if mode == AccessMode::NONE {
            declared
        } else {
            mode
        };
        if mode == AccessMode::NONE {
            return Err(Error::invalid(format!(
                "buffer {i} has no access mode (codelet {} declares none for it)",
                self.display_name()
            )));
        }
        AccessMode::from_bits(mode.bits())
            .map_err(|e| Error::invalid(format!("buffer {i}: {e}")))?;
        if declared != AccessMode::NONE && mode != declared {
            return Err(Error::invalid(format!(
                "buffer {i} is given in mode {mode:?}, the codelet {} declares {declared:?}",
                self.display_name()
            )));
        }
        Ok(mode)
    }

    /// Checks that a task gives as many buffers as the codelet declares.
    pub fn check_count(&self, n: usize) -> Result<()> {
        match self.nbuffers {
            Some(declared) if declared != n => Err(Error::invalid(format!(
                "codelet {} declares {declared} buffer(s) but the task has {n}",
                self.display_name()
            ))),
            _ => Ok(()),
        }
    }

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
        if !self.cuda_funcs.is_empty() {
            w |= where_mask::CUDA;
        }
        if !self.opencl_funcs.is_empty() {
            w |= where_mask::OPENCL;
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
