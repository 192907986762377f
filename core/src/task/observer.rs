//! Who hears of the dependencies declared between tasks and tags: the trace, a layer above
//! this one, registers itself here when it first records. Until then a declaration costs
//! one load.

use std::sync::OnceLock;

/// A dependency declared between tasks (by id) or tags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dependency {
    /// Task `succ` starts after task `pred` ends (`starpu_task_declare_deps`).
    Task { pred: u64, succ: u64 },
    /// Task `succ` ends after task `pred` ends (`starpu_task_declare_end_deps`).
    End { pred: u64, succ: u64 },
    /// Tag `tag` waits for tag `dep` (`starpu_tag_declare_deps`).
    Tag { tag: u64, dep: u64 },
}

static OBSERVER: OnceLock<fn(Dependency)> = OnceLock::new();

/// Sends every dependency declared from now on to `f`. One observer per process: the
/// first call wins.
pub(crate) fn observe_dependencies(f: fn(Dependency)) {
    let _ = OBSERVER.set(f);
}

/// `d` was declared.
#[inline]
pub(crate) fn declared(d: Dependency) {
    if let Some(f) = OBSERVER.get() {
        f(d)
    }
}
