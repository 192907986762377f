//! The heteroprio policy's settings, reached through the runtime.

use crate::error::{Error, Result};
use crate::runtime::Runtime;
use crate::sched::heteroprio::Heteroprio;

impl Runtime {
    /// Runs `f` on the heteroprio policy of context `ctx` (the calls of
    /// `starpu_heteroprio_*`); an error if that context is scheduled by another policy.
    pub fn with_heteroprio<R>(
        &self,
        ctx: u32,
        f: impl FnOnce(&Heteroprio) -> Result<R>,
    ) -> Result<R> {
        self.with_context_policy(ctx, |p| {
            match p.as_any().and_then(|a| a.downcast_ref::<Heteroprio>()) {
                Some(h) => f(h),
                None => Err(Error::invalid(format!(
                    "scheduling context {ctx} is scheduled by '{}', not heteroprio",
                    p.name()
                ))),
            }
        })?
    }
}
