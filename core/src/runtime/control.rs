//! Application control of the workers: pausing them, and running a function once on each.

use super::Runtime;
use crate::error::Result;
use crate::task::{Codelet, KernelCall, Task, TaskRef, TaskSpec};
use std::sync::atomic::Ordering;
use std::sync::Arc;

impl Runtime {
    /// Stops workers from taking new tasks (`starpu_pause`); running tasks finish.
    pub fn pause(&self) {
        self.paused.fetch_add(1, Ordering::SeqCst);
        // A worker that looked for a task before seeing the pause may still take one
        // queued from now on: wait until none is looking, so that tasks submitted after
        // `pause` returns stay queued until `resume` (tests and programs queue tasks
        // while paused to see them ordered by the policy).
        // (A worker pausing from inside its own pop, an application policy's, is not
        // waited for.)
        let me = crate::worker::current_worker_id();
        for w in self.workers.iter().filter(|w| Some(w.id) != me) {
            while w.popping.load(Ordering::SeqCst) {
                std::hint::spin_loop();
            }
        }
    }

    /// Undoes one `pause` (`starpu_resume`); the last one lets workers go on.
    pub fn resume(&self) {
        let was = self
            .paused
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |p| p.checked_sub(1));
        if was == Ok(1) {
            for w in 0..self.workers.len() {
                self.wake(Some(w));
            }
        }
    }

    /// Whether workers are paused (`starpu_is_paused`).
    pub fn is_paused(&self) -> bool {
        // Acquire: a worker that sees the runtime resumed also sees what the application
        // did before resuming.
        self.paused.load(Ordering::Acquire) > 0
    }

    /// Runs `f(worker id)` once on every worker, and returns when all have
    /// (`starpu_execute_on_each_worker`).
    pub fn execute_on_each_worker(&self, f: Arc<dyn Fn(usize) + Send + Sync>) -> Result<()> {
        self.execute_on_workers_of(u32::MAX, f)
    }

    /// Runs `f(worker id)` once on every worker whose kind's `where` bit is in `mask`,
    /// on the worker's thread (a device worker with its device current), and returns
    /// when all have.
    pub fn execute_on_workers_of(
        &self,
        mask: u32,
        f: Arc<dyn Fn(usize) + Send + Sync>,
    ) -> Result<()> {
        self.check_may_block("running a function on each worker")?;
        let kernel: crate::task::CpuKernel = Arc::new(move |call: &KernelCall| {
            f(call.worker());
            Ok(())
        });
        let cl = Arc::new(Codelet {
            name: Some("execute_on_each_worker".into()),
            cpu_funcs: vec![kernel.clone()],
            cuda_funcs: vec![kernel.clone()],
            cuda_flags: vec![0],
            opencl_funcs: vec![kernel],
            opencl_flags: vec![0],
            nbuffers: Some(0),
            ..Default::default()
        });
        let chosen: Vec<usize> = (0..self.workers.len())
            .filter(|&w| self.workers[w].kind.where_bit() & mask != 0)
            .collect();
        let tasks: Vec<TaskRef> = chosen.iter().map(|_| Task::new()).collect();
        for (&w, t) in chosen.iter().zip(&tasks) {
            let spec = TaskSpec {
                codelet: Some(cl.clone()),
                worker: Some(w),
                ..Default::default()
            };
            self.submit(t, spec)?;
        }
        tasks.iter().try_for_each(|t| self.wait_task(t))
    }
}
