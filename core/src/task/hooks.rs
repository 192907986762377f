//! How the runtime holds a face's hooks object for a task.
//!
//! Normally it owns a reference to it (`Hooks::shared`, an `Arc`). A face that already
//! keeps one object per task alive for as long as the runtime may use it (the C face: the
//! hooks live inside the `struct starpu_task` allocation, released when the runtime says,
//! through `TaskHooks::dropped`, that it has let go of the task) can hand the object over
//! without reference counting (`Hooks::borrowed`): the submission path then touches no
//! shared counter for it, which is measurable when tasks are a few hundred nanoseconds.

use super::TaskHooks;
use std::ptr::NonNull;
use std::sync::Arc;

pub struct Hooks(Repr);

enum Repr {
    Shared(Arc<dyn TaskHooks>),
    Borrowed(NonNull<dyn TaskHooks>),
}

// SAFETY: the borrowed object is `TaskHooks`, hence Send + Sync, and outlives the handle
// (the contract of `Hooks::borrowed`).
unsafe impl Send for Hooks {}
unsafe impl Sync for Hooks {}

impl Hooks {
    /// Hooks the runtime keeps alive itself.
    pub fn shared(hooks: Arc<dyn TaskHooks>) -> Hooks {
        Hooks(Repr::Shared(hooks))
    }

    /// Hooks the face keeps alive.
    ///
    /// # Safety
    /// `hooks` must stay valid until the runtime has called its `dropped` method for the
    /// task it is given to (or, for a description never submitted, until the description
    /// is dropped).
    pub unsafe fn borrowed(hooks: &(dyn TaskHooks + 'static)) -> Hooks {
        Hooks(Repr::Borrowed(NonNull::from(hooks)))
    }
}

impl std::ops::Deref for Hooks {
    type Target = dyn TaskHooks;
    fn deref(&self) -> &(dyn TaskHooks + 'static) {
        match &self.0 {
            Repr::Shared(a) => &**a,
            // SAFETY: valid per the contract of `borrowed`.
            Repr::Borrowed(p) => unsafe { p.as_ref() },
        }
    }
}

impl Clone for Hooks {
    fn clone(&self) -> Hooks {
        match &self.0 {
            Repr::Shared(a) => Hooks(Repr::Shared(a.clone())),
            Repr::Borrowed(p) => Hooks(Repr::Borrowed(*p)),
        }
    }
}
