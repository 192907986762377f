//! Registering and unregistering data, invalidation, and copies between handles.

use super::acquire::wait_idle;
use super::interfaces::{Description, Interface};
use super::{registry, AccessMode, AcquireNode, DataHandle};
use crate::error::{Error, Result};
use crate::memory::{self, NodeId};
use crate::runtime::Runtime;
use crate::task::{Access, Codelet, KernelCall, Task, TaskSpec};
use smallvec::smallvec;
use std::sync::Arc;

impl Runtime {
    /// Registers data described by `iface`, whose buffers live on `home` (`None`: the
    /// runtime allocates them when the data is first used, StarPU's home node -1).
    pub fn register<I: Interface>(&self, home: Option<NodeId>, iface: I) -> Result<DataHandle> {
        self.register_description(home, Description::new(iface))
    }

    /// Registers a type-erased description (custom interfaces, or C callers).
    pub fn register_description(
        &self,
        home: Option<NodeId>,
        desc: Description,
    ) -> Result<DataHandle> {
        self.check_accepting()?;
        if let Some(n) = home {
            if memory::node_kind(n).is_none() {
                return Err(Error::invalid(format!("home node {n} does not exist")));
            }
            if desc.data_ptr() == 0 && desc.data_size() > 0 {
                return Err(Error::invalid(format!(
                    "{} registered on node {n} with a NULL buffer (use home node -1 to let \
                     StarPU allocate it)",
                    desc.describe()
                )));
            }
        }
        let h = DataHandle::new(home, desc, self.default_sequential_consistency());
        registry::publish(&h);
        Ok(h)
    }

    /// Waits for every task using `h`, brings the value home (unless `coherent` is false),
    /// and forgets the handle (`starpu_data_unregister[_no_coherency]`).
    pub fn unregister(&self, h: &DataHandle, coherent: bool) -> Result<()> {
        self.check_may_block("starpu_data_unregister")?;
        check_unregistrable(h)?;
        wait_idle(self, h);
        finish_unregister(h, coherent);
        Ok(())
    }

    /// Unregisters `h` once the tasks submitted so far are done, without waiting
    /// (`starpu_data_unregister_submit`). The handle may not be used afterwards.
    pub fn unregister_submit(&'static self, h: &DataHandle) -> Result<()> {
        check_unregistrable(h)?;
        let target = h.clone();
        let rt = self;
        self.acquire_cb(
            h,
            AcquireNode::None,
            AccessMode::RW,
            Box::new(move || {
                let _ = rt.release(&target);
                finish_unregister(&target, true);
            }),
        )?;
        h.0.state.store(
            super::handle::hstate::UNREGISTERED,
            std::sync::atomic::Ordering::Release,
        );
        Ok(())
    }

    /// Forgets the value of `h` on every node (`starpu_data_invalidate`).
    pub fn invalidate(&self, h: &DataHandle) -> Result<()> {
        self.check_may_block("starpu_data_invalidate")?;
        h.check_usable()?;
        wait_idle(self, h);
        h.invalidate();
        Ok(())
    }

    /// Invalidates `h` once the tasks submitted so far are done (`..._invalidate_submit`).
    pub fn invalidate_submit(&'static self, h: &DataHandle) -> Result<()> {
        let target = h.clone();
        let rt = self;
        self.acquire_cb(
            h,
            AcquireNode::None,
            AccessMode::W,
            Box::new(move || {
                target.invalidate();
                let _ = rt.release(&target);
            }),
        )
    }

    /// Copies the value of `src` into `dst` (same interface and shape) with a task
    /// ordered like any other (`starpu_data_cpy`).
    pub fn data_cpy(
        &'static self,
        dst: &DataHandle,
        src: &DataHandle,
        asynchronous: bool,
        done: Option<Box<dyn FnOnce() + Send>>,
    ) -> Result<()> {
        if dst.interface_id() != src.interface_id() || dst.size() != src.size() {
            return Err(Error::invalid(format!(
                "starpu_data_cpy needs two data of the same interface and size ({} vs {})",
                dst.describe(),
                src.describe()
            )));
        }
        let ops = dst.ops();
        let kernel = Arc::new(move |call: &KernelCall| {
            // SAFETY: buffers are the two descriptions, fetched and of ops's type.
            unsafe { ops.copy(call.buffers[1] as *const u8, call.buffers[0] as *const u8) };
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
            task.set_callback(f);
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
            "data {} is partitioned: unpartition it before unregistering it",
            h.label()
        )));
    }
    if !h.is_registered() {
        return Err(Error::invalid(format!(
            "data {} is already unregistered",
            h.label()
        )));
    }
    let held =
        h.0.acquisitions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .any(|t| t.state() >= crate::task::state::RUNNING);
    if held {
        // Waiting would never end: only the application can release it.
        return Err(Error::invalid(format!(
            "data {} is acquired by the application: release it before unregistering",
            h.label()
        )));
    }
    Ok(())
}

fn finish_unregister(h: &DataHandle, coherent: bool) {
    if coherent {
        h.write_back();
    }
    registry::retract(h);
    h.retire();
}
