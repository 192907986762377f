//! Unregistering data, invalidation, and copies between handles.

use crate::data::{registry, AccessMode, AcquireNode, DataHandle};
use crate::error::{Error, Result};
use crate::runtime::Runtime;
use crate::task::acquire::wait_idle;
use crate::task::{Access, Codelet, KernelCall, Task, TaskSpec};
use smallvec::smallvec;
use std::any::Any;
use std::sync::Arc;

impl Runtime {
    /// Waits for every task using `h`, brings the value home (unless `coherent` is false),
    /// and forgets the handle (`starpu_data_unregister[_no_coherency]`).
    pub fn unregister(&self, h: &DataHandle, coherent: bool) -> Result<()> {
        self.unregister_owned(h, coherent).map(drop)
    }

    /// `unregister`, returning the object that owned the home buffers.
    pub(crate) fn unregister_owned(
        &self,
        h: &DataHandle,
        coherent: bool,
    ) -> Result<Option<Box<dyn Any + Send + Sync>>> {
        self.check_may_block("unregistration")?;
        check_unregistrable(h)?;
        crate::task::partition::before_unregister(self, h)?;
        wait_idle(self, h);
        Ok(finish_unregister(h, coherent))
    }

    /// Unregisters `h` once the tasks submitted so far are done, without waiting
    /// (`starpu_data_unregister_submit`). The handle may not be used afterwards.
    pub fn unregister_submit(self: &Arc<Self>, h: &DataHandle) -> Result<()> {
        check_unregistrable(h)?;
        crate::task::partition::before_unregister(self, h)?;
        let target = h.clone();
        let rt = self.clone();
        self.acquire_cb(
            h,
            AcquireNode::None,
            AccessMode::RW,
            Box::new(move || {
                let _ = rt.release(&target);
                drop(finish_unregister(&target, true));
            }),
        )?;
        h.0.state.store(
            crate::data::hstate::UNREGISTERED,
            std::sync::atomic::Ordering::Release,
        );
        Ok(())
    }

    /// Forgets the value of `h` on every node (`starpu_data_invalidate`).
    pub fn invalidate(&self, h: &DataHandle) -> Result<()> {
        self.check_may_block("invalidation")?;
        h.check_usable()?;
        wait_idle(self, h);
        h.invalidate();
        Ok(())
    }

    /// Forgets the value of `h` on every node and keeps its buffers
    /// (`starpu_data_deinitialize`).
    pub fn deinitialize(&self, h: &DataHandle) -> Result<()> {
        self.check_may_block("deinitialization")?;
        h.check_usable()?;
        wait_idle(self, h);
        h.deinitialize();
        Ok(())
    }

    /// Deinitializes `h` once the tasks submitted so far are done
    /// (`starpu_data_deinitialize_submit`).
    pub fn deinitialize_submit(self: &Arc<Self>, h: &DataHandle) -> Result<()> {
        self.forget_submit(h, DataHandle::deinitialize)
    }

    /// Frees the buffer of `h` on `node` if the runtime allocated it and the value is not
    /// only there (`starpu_data_evict_from_node`). False when nothing was freed: no such
    /// buffer, the application's own buffer, the only copy, or the handle is in use. With
    /// main RAM as the only node, a value there is always its only copy.
    pub fn evict_from_node(&self, h: &DataHandle, node: usize) -> Result<bool> {
        h.check_usable()?;
        if node >= h.memory().node_count() {
            return Err(Error::invalid(format!("memory node {node} does not exist")));
        }
        Ok(h.evict(node))
    }

    /// Invalidates `h` once the tasks submitted so far are done (`..._invalidate_submit`).
    pub fn invalidate_submit(self: &Arc<Self>, h: &DataHandle) -> Result<()> {
        self.forget_submit(h, DataHandle::invalidate)
    }

    /// Runs `forget` on `h` in a write acquisition ordered after the tasks submitted so
    /// far.
    fn forget_submit(self: &Arc<Self>, h: &DataHandle, forget: fn(&DataHandle)) -> Result<()> {
        let target = h.clone();
        let rt = self.clone();
        self.acquire_cb(
            h,
            AcquireNode::None,
            AccessMode::W,
            Box::new(move || {
                forget(&target);
                let _ = rt.release(&target);
            }),
        )
    }

    /// Copies the value of `src` into `dst` (same interface and shape) with a task
    /// ordered like any other (`starpu_data_cpy`).
    pub fn data_cpy(
        &self,
        dst: &DataHandle,
        src: &DataHandle,
        asynchronous: bool,
        done: Option<Box<dyn FnOnce() + Send>>,
    ) -> Result<()> {
        if dst.interface_id() != src.interface_id() || dst.size() != src.size() {
            return Err(Error::invalid(format!(
                "data copy: needs two data of the same interface and size ({} vs {})",
                dst.describe(),
                src.describe()
            )));
        }
        let ops = dst.ops();
        let kernel = Arc::new(move |call: &KernelCall| {
            let b = call.buffers();
            // SAFETY: buffers are the two descriptions, fetched into main RAM (the codelet
            // runs on CPU workers) and of ops's type.
            unsafe {
                ops.copy(
                    b[1] as *const u8,
                    b[0] as *const u8,
                    &mut crate::data::interfaces::RamCopier,
                )?
            };
            Ok(())
        });
        let cl = Arc::new(Codelet {
            name: Some("starpu_data_cpy".into()),
            cpu_funcs: vec![kernel],
            nbuffers: Some(2),
            modes: vec![AccessMode::W, AccessMode::R],
            ..Default::default()
        });
        let task = Task::new();
        if let Some(f) = done {
            task.set_callback(move |_| f());
        }
        let spec = TaskSpec {
            codelet: Some(cl),
            accesses: smallvec![
                Access {
                    handle: dst.clone(),
                    mode: AccessMode::W,
                    sequential: dst.sequential_consistency()
                },
                Access {
                    handle: src.clone(),
                    mode: AccessMode::R,
                    sequential: src.sequential_consistency()
                },
            ],
            synchronous: !asynchronous,
            detached: asynchronous,
            ..Default::default()
        };
        self.submit(&task, spec)
    }
}

fn check_unregistrable(h: &DataHandle) -> Result<()> {
    if h.is_partitioned() {
        return Err(Error::invalid(format!(
            "unregistration: data {} is partitioned: unpartition it first",
            h.label()
        )));
    }
    if !h.is_registered() {
        return Err(Error::invalid(format!(
            "unregistration: data {} is not registered (unregistered already?)",
            h.label()
        )));
    }
    if h.is_acquired() {
        // Waiting would never end: only the application can release it.
        return Err(Error::invalid(format!(
            "unregistration: data {} is acquired by the application: release it first",
            h.label()
        )));
    }
    Ok(())
}

fn finish_unregister(h: &DataHandle, coherent: bool) -> Option<Box<dyn Any + Send + Sync>> {
    if coherent {
        if let Err(e) = crate::task::multiformat::for_application(h, crate::AccessMode::R) {
            eprintln!("[starpu] warning: unregistration: {}", e.message);
        }
        h.write_back();
    }
    registry::retract(h);
    h.retire()
}
