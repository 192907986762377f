//! The process-wide runtime behind StarPU's global API (`starpu_init`, then every call
//! without a runtime argument).
//!
//! Faces reach it on every call, so the common path must be cheap: each thread caches a
//! reference to the current runtime together with the generation it belongs to, and only
//! takes the lock when `init` or `shutdown` changed the generation. A thread inside a call
//! holds its cached reference, so a concurrent `shutdown` never frees a runtime in use; a
//! stale cached reference is dropped at the thread's next call (or when it exits).

use super::Runtime;
use crate::config::Config;
use crate::error::{Error, Result};
use crate::worker;
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

struct Slot {
    runtime: Option<Arc<Runtime>>,
    /// `init` calls not yet matched by `shutdown` (StarPU allows nesting).
    count: usize,
}

static SLOT: Mutex<Slot> = Mutex::new(Slot {
    runtime: None,
    count: 0,
});
/// Changes whenever the slot's runtime changes; 0 is never a valid generation.
static GENERATION: AtomicU64 = AtomicU64::new(1);
/// Whether the slot holds a runtime, for a check without the lock or the thread's cache.
static RUNNING: AtomicBool = AtomicBool::new(false);

thread_local! {
    static CACHE: RefCell<(u64, Option<Arc<Runtime>>)> = const { RefCell::new((0, None)) };
}

fn slot() -> MutexGuard<'static, Slot> {
    SLOT.lock().unwrap_or_else(|e| e.into_inner())
}

/// Starts the process-wide runtime, or counts one more user of the running one (the
/// configuration of a nested `init` is ignored, as in StarPU).
pub fn init(config: Config) -> Result<Arc<Runtime>> {
    let mut s = slot();
    if let Some(rt) = s.runtime.clone() {
        s.count += 1;
        return Ok(rt);
    }
    let rt = Runtime::start(config)?;
    s.runtime = Some(rt.clone());
    s.count = 1;
    GENERATION.fetch_add(1, Ordering::AcqRel);
    RUNNING.store(true, Ordering::Release);
    Ok(rt)
}

/// Ends one `init`; the last one shuts the process-wide runtime down.
pub fn shutdown() -> Result<()> {
    if !worker::may_block() {
        return Err(Error::deadlock(
            "runtime shutdown: not allowed from a task or a callback (it would wait for itself)",
        ));
    }
    // The last shutdown first waits for the tasks with the runtime still in place: tasks
    // and callbacks that run meanwhile may call the global API (submit more tasks, release
    // an end dependency), as StarPU lets them until its shutdown is under way.
    let last = {
        let s = slot();
        (s.count == 1).then(|| s.runtime.clone()).flatten()
    };
    if let Some(rt) = last {
        let _ = rt.wait_for_all();
    }
    let rt = {
        let mut s = slot();
        match s.count {
            0 => return Err(Error::not_initialized()),
            1 => {}
            _ => {
                s.count -= 1;
                return Ok(());
            }
        }
        s.count = 0;
        GENERATION.fetch_add(1, Ordering::AcqRel);
        RUNNING.store(false, Ordering::Release);
        s.runtime.take().expect("a counted runtime is present")
    };
    rt.shutdown();
    // This thread's cached reference goes now; other threads drop theirs at their next call.
    CACHE.with(|c| {
        if let Ok(mut c) = c.try_borrow_mut() {
            *c = (0, None);
        }
    });
    Ok(())
}

/// Runs `f` with the process-wide runtime, without cloning the reference on the common
/// path. `Err(NotInitialized)` when there is none.
pub fn with_global<R>(f: impl FnOnce(&Arc<Runtime>) -> R) -> Result<R> {
    let generation = GENERATION.load(Ordering::Acquire);
    CACHE.with(|cache| {
        if let Ok(c) = cache.try_borrow() {
            if c.0 == generation {
                return match &c.1 {
                    Some(rt) => Ok(f(rt)),
                    None => Err(Error::not_initialized()),
                };
            }
        }
        let (generation, current) = {
            let s = slot();
            (GENERATION.load(Ordering::Acquire), s.runtime.clone())
        };
        // A call nested in `f` of an outer call finds the cache borrowed: it just uses
        // the fresh reference without caching it.
        if let Ok(mut c) = cache.try_borrow_mut() {
            *c = (generation, current.clone());
        }
        match current {
            Some(rt) => Ok(f(&rt)),
            None => Err(Error::not_initialized()),
        }
    })
}

/// The process-wide runtime, if initialised.
pub fn global() -> Result<Arc<Runtime>> {
    with_global(|rt| rt.clone())
}

pub fn is_initialized() -> bool {
    RUNNING.load(Ordering::Acquire)
}

/// How many `init` calls are not matched by a `shutdown` yet (0: not running). A face that
/// must act before the last `shutdown` stops the runtime (write its data back) asks this
/// instead of counting for itself.
pub fn init_count() -> usize {
    slot().count
}
