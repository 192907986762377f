//! Viewing data the application holds acquired, with the same typed views a kernel has.

use crate::data::{AccessMode, AcquireNode, DataHandle};
use crate::error::Result;
use crate::memory::MAIN_RAM;
use crate::runtime::Runtime;
use crate::task::{KernelCall, TaskRef};
use std::ffi::c_void;
use std::sync::Arc;

/// Data acquired by the application in main memory, released when dropped.
///
/// ```
/// use starpu_core::{AccessMode, Config, Runtime};
/// let rt = Runtime::start(Config { ncpus: Some(1), silent: true, ..Config::default() })?;
/// let v = rt.register_vector(vec![1i32, 2, 3])?;
/// {
///     let held = rt.acquire_view(&v, AccessMode::RW)?;
///     held.views().vector_mut::<i32>(0)?[0] = 10;
/// } // released here
/// assert_eq!(rt.unregister_take::<Vec<i32>>(&v)?, vec![10, 2, 3]);
/// rt.shutdown();
/// # Ok::<(), starpu_core::Error>(())
/// ```
pub struct Acquired {
    rt: Arc<Runtime>,
    handle: DataHandle,
    task: TaskRef,
    buffers: [*mut c_void; 1],
}

// SAFETY: the buffer pointer is the description of the acquired data on main memory, valid
// until the acquisition ends; the views check the mode and borrows like a kernel's.
unsafe impl Send for Acquired {}

impl Runtime {
    /// Blocks until the application may access `h` in `mode` in main memory, and returns
    /// the acquisition: its `views()` read (and, if `mode` writes, write) the data; it is
    /// released when dropped (`starpu_data_acquire` / `starpu_data_release`).
    pub fn acquire_view(self: &Arc<Self>, h: &DataHandle, mode: AccessMode) -> Result<Acquired> {
        let task = self.acquire_task(h, AcquireNode::Node(MAIN_RAM), mode)?;
        let desc = h
            .interface_on_node(MAIN_RAM)
            .expect("main memory always has a description");
        Ok(Acquired {
            rt: self.clone(),
            handle: h.clone(),
            task,
            buffers: [desc],
        })
    }
}

impl Acquired {
    /// Typed views of the data, as buffer 0 (`views().vector::<f64>(0)`...).
    pub fn views(&self) -> KernelCall<'_> {
        let spec = self.task.spec().expect("acquisitions were submitted");
        KernelCall::new(&self.buffers, &self.task, spec, usize::MAX, 0)
    }

    pub fn handle(&self) -> &DataHandle {
        &self.handle
    }
}

impl Drop for Acquired {
    fn drop(&mut self) {
        self.rt.release_acquisition(&self.handle, &self.task);
    }
}

#[cfg(test)]
mod tests {
    use crate::{AccessMode, Config, Runtime};

    #[test]
    fn a_read_view_cannot_write_and_tasks_wait_for_the_release() {
        let rt = Runtime::start(Config {
            ncpus: Some(1),
            silent: true,
            ..Config::default()
        })
        .unwrap();
        let x = rt.register_variable(5u32).unwrap();
        let held = rt.acquire_view(&x, AccessMode::R).unwrap();
        assert_eq!(*held.views().variable::<u32>(0).unwrap(), 5);
        assert!(held.views().variable_mut::<u32>(0).is_err());
        let add = std::sync::Arc::new(crate::Codelet::new("add").modes([AccessMode::RW]).cpu(
            |call| {
                *call.variable_mut::<u32>(0)? += 1;
                Ok(())
            },
        ));
        rt.task(&add).buffer(&x, AccessMode::RW).submit().unwrap();
        assert_eq!(rt.nsubmitted(), 1, "the task waits for the release");
        drop(held);
        assert_eq!(rt.unregister_take::<u32>(&x).unwrap(), 6);
        rt.shutdown();
    }
}
