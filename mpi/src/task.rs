//! The Rust face of task insertion across processes: `mpi.task(&codelet)` is
//! `starpu_mpi_task_insert`, with the core's task builder for everything else a task
//! carries (arguments, name, callbacks...).

use crate::comm::Comm;
use crate::context::Mpi;
use crate::insert::{ExecuteOn, Placement};
use crate::select::{DataAccess, CURRENT_POLICY};
use starpu_core::{AccessMode, Codelet, DataHandle, Result, TaskBuilder};
use std::any::Any;
use std::sync::Arc;

type Extra<'a> = Box<dyn FnOnce(TaskBuilder<'a>) -> TaskBuilder<'a> + 'a>;

/// A task to insert on every process; built by `Mpi::task`.
pub struct MpiTask<'a> {
    mpi: &'a Mpi,
    codelet: Arc<Codelet>,
    comm: Comm,
    data: Vec<DataAccess>,
    execute_on: Option<ExecuteOn>,
    policy: i32,
    priority: i32,
    extra: Vec<Extra<'a>>,
}

impl Mpi {
    /// Starts a task over `codelet`, inserted on every process with `submit`.
    ///
    /// ```no_run
    /// # use starpu_core::{AccessMode, Codelet};
    /// # use std::sync::Arc;
    /// # fn demo(mpi: &starpu_mpi::Mpi, a: &starpu_core::DataHandle, b: &starpu_core::DataHandle)
    /// # -> starpu_core::Result<()> {
    /// let add = Arc::new(Codelet::new("add").modes([AccessMode::RW, AccessMode::R]).cpu(|call| {
    ///     let b = *call.variable::<i64>(1)?;
    ///     *call.variable_mut::<i64>(0)? += b;
    ///     Ok(())
    /// }));
    /// // Runs on the owner of `a`; the owner of `b` sends it there first.
    /// mpi.task(&add).buffer(a, AccessMode::RW).buffer(b, AccessMode::R).submit()?;
    /// # Ok(()) }
    /// ```
    pub fn task(&self, codelet: &Arc<Codelet>) -> MpiTask<'_> {
        MpiTask {
            mpi: self,
            codelet: codelet.clone(),
            comm: self.world(),
            data: Vec::new(),
            execute_on: None,
            policy: CURRENT_POLICY,
            priority: 0,
            extra: Vec::new(),
        }
    }
}

impl<'a> MpiTask<'a> {
    pub fn comm(mut self, comm: Comm) -> Self {
        self.comm = comm;
        self
    }

    /// The next buffer (`STARPU_SSEND` in `mode`: its transfers are synchronous).
    pub fn buffer(mut self, h: &DataHandle, mode: AccessMode) -> Self {
        self.data.push(DataAccess::new(h, mode));
        self
    }

    /// Runs the task on `rank` (`STARPU_EXECUTE_ON_NODE`).
    pub fn execute_on_node(mut self, rank: i32) -> Self {
        self.execute_on = Some(ExecuteOn::Node(rank));
        self
    }

    /// Runs the task on the owner of `h` (`STARPU_EXECUTE_ON_DATA`).
    pub fn execute_on_data(mut self, h: &DataHandle) -> Self {
        self.execute_on = Some(ExecuteOn::Data(h.clone()));
        self
    }

    /// The node selection policy for this task (`STARPU_NODE_SELECTION_POLICY`).
    pub fn node_selection_policy(mut self, policy: i32) -> Self {
        self.policy = policy;
        self
    }

    /// The task's priority, also given to its transfers.
    pub fn priority(mut self, p: i32) -> Self {
        self.priority = p;
        self
    }

    /// An owned argument for the kernel (`call.arg::<T>(i)`).
    pub fn arg<T: Any + Send + Sync>(self, value: T) -> Self {
        self.with(move |b| b.arg(value))
    }

    /// Anything else the core's task builder sets (name, callback, tag...), applied on the
    /// process that runs the task.
    pub fn with(mut self, f: impl FnOnce(TaskBuilder<'a>) -> TaskBuilder<'a> + 'a) -> Self {
        self.extra.push(Box::new(f));
        self
    }

    /// Inserts the task: transfers before, the task on the process that runs it,
    /// transfers after. Every process calls it with the same task.
    pub fn submit(self) -> Result<Placement> {
        let MpiTask {
            mpi,
            codelet,
            comm,
            data,
            execute_on,
            policy,
            priority,
            extra,
        } = self;
        mpi.task_insert(comm, &data, execute_on.as_ref(), policy, priority, || {
            let mut b = mpi.rt.task(&codelet).priority(priority);
            for a in &data {
                if let Some(h) = &a.handle {
                    b = b.buffer(h, a.mode.without(AccessMode::SSEND));
                }
            }
            for f in extra {
                b = f(b);
            }
            b.submit().map(drop)
        })
    }
}
