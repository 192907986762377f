//! The recorder: one per runtime, off unless `STARPU_FXT_TRACE=1` or `Config::trace`.
//! Off, each hook costs one relaxed load of a flag the runtime holds inline. On, an event
//! is a clock read and a write into the calling thread's own buffer (`buffer.rs`).
//!
//! Each thread finds its buffer through one thread-local, which also caches the ids of the
//! names it recorded, so that naming a task's codelet costs a hash look-up, not a lock.
//! Events recorded where no runtime is at hand (a dependency declared between two tasks,
//! a tag dependency) go to the recorder this thread used last, or to the only one on.

use super::buffer::{Chunk, ThreadLog};
use super::clock::Clock;
use super::event::{RawEvent, What};
use super::{Trace, WorkerInfo};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};

/// Spare chunks made when tracing starts, so that the first chunk change of each worker
/// allocates nothing.
const SPARE_CHUNKS: usize = 4;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Interned strings: names of tasks and models, user strings.
#[derive(Default)]
struct Strings {
    ids: HashMap<String, u32>,
    list: Vec<String>,
}

impl Strings {
    fn intern(&mut self, s: &str) -> u32 {
        if let Some(&id) = self.ids.get(s) {
            return id;
        }
        let id = self.list.len() as u32;
        self.list.push(s.to_string());
        self.ids.insert(s.to_string(), id);
        id
    }
}

pub(crate) struct Shared {
    id: u64,
    clock: Clock,
    on: AtomicBool,
    logs: Mutex<Vec<Arc<ThreadLog>>>,
    strings: Mutex<Strings>,
    /// Chunks made ahead of need, handed out boxed as the logs keep them.
    #[allow(clippy::vec_box)]
    spare: Mutex<Vec<Box<Chunk>>>,
    workers: Vec<WorkerInfo>,
}

/// A runtime's event recorder.
pub struct Recorder {
    /// The flag every hook reads; `shared.on` mirrors it for events recorded without a
    /// runtime at hand.
    on: AtomicBool,
    /// Set once recording was ever on: the trace is written at shutdown.
    used: AtomicBool,
    shared: Arc<Shared>,
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);
/// Recorders currently on, process-wide: events recorded without a runtime look here.
static ACTIVE: AtomicUsize = AtomicUsize::new(0);
static REGISTRY: Mutex<Vec<Weak<Shared>>> = Mutex::new(Vec::new());

/// What a thread knows about the recorder it last wrote to.
struct Local {
    recorder: u64,
    shared: Weak<Shared>,
    log: Option<Arc<ThreadLog>>,
    /// Name ids by hash of the name, with the name to check against.
    names: HashMap<u64, (u32, Box<str>)>,
    /// The time of this thread's last event (see `Recorder::record_after_last`).
    last: u64,
}

thread_local! {
    static LOCAL: RefCell<Local> = RefCell::new(Local {
        recorder: 0,
        shared: Weak::new(),
        log: None,
        names: HashMap::new(),
        last: 0,
    });
}

/// FNV-1a: short names, hashed per task while tracing; no need for a keyed hash.
fn hash(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

impl Shared {
    fn spare_chunk(&self) -> Box<Chunk> {
        lock(&self.spare).pop().unwrap_or_else(Chunk::new)
    }

    /// This thread's log in this recorder, made on first use.
    fn log_for_this_thread(&self) -> Arc<ThreadLog> {
        let worker = crate::worker::current_worker_id();
        let log = Arc::new(ThreadLog::new(worker, self.spare_chunk()));
        lock(&self.logs).push(log.clone());
        log
    }

    /// Appends `e` to this thread's log. With `reuse`, `e` takes the time of this
    /// thread's previous event (the clock's, if it has none).
    fn push(self: &Arc<Self>, mut e: RawEvent, reuse: bool) {
        LOCAL.with(|l| {
            let Ok(mut l) = l.try_borrow_mut() else {
                return;
            };
            let last = l.last;
            let log = l.bind(self);
            if reuse {
                e.time = if last != 0 { last } else { self.clock.stamp() };
            }
            log.push(e, || self.spare_chunk());
            if e.code & super::event::NS_TIME == 0 {
                l.last = e.time;
            }
        });
    }

    fn intern(self: &Arc<Self>, s: &str) -> u32 {
        let h = hash(s);
        LOCAL.with(|l| {
            let Ok(mut l) = l.try_borrow_mut() else {
                return lock(&self.strings).intern(s);
            };
            l.bind(self);
            match l.names.get(&h) {
                Some((id, name)) if &**name == s => *id,
                Some(_) => lock(&self.strings).intern(s),
                None => {
                    let id = lock(&self.strings).intern(s);
                    l.names.insert(h, (id, s.into()));
                    id
                }
            }
        })
    }
}

impl Local {
    /// Points this thread at `shared`, and returns its log there.
    fn bind(&mut self, shared: &Arc<Shared>) -> &Arc<ThreadLog> {
        if self.recorder != shared.id {
            self.recorder = shared.id;
            self.shared = Arc::downgrade(shared);
            self.log = None;
            self.names.clear();
            self.last = 0;
        }
        self.log.get_or_insert_with(|| shared.log_for_this_thread())
    }
}

impl Recorder {
    /// A recorder for a runtime with `workers`, on from the start if `on`.
    pub(crate) fn new(on: bool, workers: Vec<WorkerInfo>) -> Recorder {
        let mut strings = Strings::default();
        strings.intern(""); // id 0: no name
        let shared = Arc::new(Shared {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            clock: Clock::new(),
            on: AtomicBool::new(false),
            logs: Mutex::new(Vec::new()),
            strings: Mutex::new(strings),
            spare: Mutex::new(Vec::new()),
            workers,
        });
        lock(&REGISTRY).push(Arc::downgrade(&shared));
        let r = Recorder {
            on: AtomicBool::new(false),
            used: AtomicBool::new(false),
            shared,
        };
        r.set_on(on);
        r
    }

    /// Whether events are being recorded.
    #[inline]
    pub fn is_on(&self) -> bool {
        self.on.load(Ordering::Relaxed)
    }

    /// Starts or stops recording (`starpu_fxt_start_profiling` / `_stop_profiling`);
    /// returns whether it was on.
    pub fn set_on(&self, on: bool) -> bool {
        let was = self.on.swap(on, Ordering::SeqCst);
        if was != on {
            self.shared.on.store(on, Ordering::SeqCst);
            if on {
                self.used.store(true, Ordering::SeqCst);
                let mut spare = lock(&self.shared.spare);
                while spare.len() < SPARE_CHUNKS {
                    spare.push(Chunk::new());
                }
                ACTIVE.fetch_add(1, Ordering::SeqCst);
                crate::task::observer::observe_dependencies(super::hooks::dependency);
            } else {
                ACTIVE.fetch_sub(1, Ordering::SeqCst);
            }
        }
        was
    }

    /// Whether recording was ever on.
    pub fn was_used(&self) -> bool {
        self.used.load(Ordering::SeqCst)
    }

    /// Records `what` now, if on.
    #[inline]
    pub(crate) fn record(&self, what: What) {
        if self.is_on() {
            self.record_at(self.stamp(), what);
        }
    }

    /// Now, on the recorder's clock (see `clock.rs`).
    #[inline]
    pub(crate) fn stamp(&self) -> u64 {
        self.shared.clock.stamp()
    }

    /// Records `what` at `stamp` (from [`Recorder::stamp`]).
    pub(crate) fn record_at(&self, stamp: u64, what: What) {
        let mut e = what.encode();
        e.time = stamp;
        self.shared.push(e, false);
    }

    /// Records `what`, if on, at the time of this thread's previous event: for an event
    /// that follows another at once on the same thread (a task made ready by the end it
    /// follows, or by its own submission), which then costs no clock reading. A thread
    /// with no event yet reads the clock.
    #[inline]
    pub(crate) fn record_after_last(&self, what: What) {
        if self.is_on() {
            self.shared.push(what.encode(), true);
        }
    }

    /// Records `what` at `ns`, nanoseconds on the runtime's clock
    /// ([`crate::clock::now_ns`]), for times measured elsewhere.
    pub(crate) fn record_at_ns(&self, ns: u64, what: What) {
        let mut e = what.encode();
        e.time = ns;
        e.code |= super::event::NS_TIME;
        self.shared.push(e, false);
    }

    /// The id of `s` in this trace's string table.
    pub(crate) fn intern(&self, s: &str) -> u32 {
        self.shared.intern(s)
    }

    /// Everything recorded so far, in time order.
    pub fn snapshot(&self) -> Trace {
        let logs: Vec<Arc<ThreadLog>> = lock(&self.shared.logs).clone();
        let strings = lock(&self.shared.strings).list.clone();
        let mut t = Trace::new(self.shared.workers.clone(), strings);
        let to_ns = self.shared.clock.to_ns();
        for log in logs {
            let th = t.add_thread(log.worker);
            for mut e in log.copy() {
                if e.code & super::event::NS_TIME != 0 {
                    e.code &= !super::event::NS_TIME;
                } else {
                    e.time = to_ns(e.time);
                }
                t.push_raw(th, e);
            }
        }
        t.sort();
        t
    }
}

impl Drop for Recorder {
    fn drop(&mut self) {
        self.set_on(false);
        lock(&REGISTRY)
            .retain(|w| w.strong_count() > 0 && !w.ptr_eq(&Arc::downgrade(&self.shared)));
    }
}

/// Records `what` for whichever recorder is in use, when no runtime is at hand: the one
/// this thread used last if it is on, else the only one on. One relaxed load when none is.
#[inline]
pub(crate) fn ambient(what: What) {
    if ACTIVE.load(Ordering::Relaxed) != 0 {
        ambient_slow(what);
    }
}

#[cold]
fn ambient_slow(what: What) {
    let mine = LOCAL.with(|l| l.try_borrow().ok().and_then(|l| l.shared.upgrade()));
    let target = mine.filter(|s| s.on.load(Ordering::Relaxed)).or_else(|| {
        let on: Vec<Arc<Shared>> = lock(&REGISTRY)
            .iter()
            .filter_map(Weak::upgrade)
            .filter(|s| s.on.load(Ordering::Relaxed))
            .collect();
        (on.len() == 1).then(|| on.into_iter().next().expect("one"))
    });
    if let Some(s) = target {
        let mut e = what.encode();
        e.time = s.clock.stamp();
        s.push(e, false);
    }
}
