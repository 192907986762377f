//! Data requests waiting for a node: bring some data there, in StarPU's order of urgency
//! (a task's fetch before a scheduled task's prefetch before an application prefetch
//! before an idle prefetch), then by priority, then first come first served.
//!
//! The data side merges requests for the same data and node (it keeps one pending
//! request per replica and raises its level when a more urgent one comes); the queue may
//! then hold stale entries, which `issue` answers with `Issue::Nothing`. Requests are
//! started by whoever progresses the node: the thread that queued them when the node has
//! room, the node's workers between tasks, a fetch that needs the data now.

use super::alloc::Resident;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};

/// How urgent a request is (`enum starpu_is_prefetch`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// A task about to run needs the data (`STARPU_FETCH`).
    Fetch = 0,
    /// A task was scheduled on a worker of the node (`STARPU_TASK_PREFETCH`).
    TaskPrefetch = 1,
    /// The application asked (`STARPU_PREFETCH`).
    Prefetch = 2,
    /// Only when the node has nothing else to do (`STARPU_IDLEFETCH`).
    Idle = 3,
}

impl Level {
    pub const ALL: [Level; 4] = [
        Level::Fetch,
        Level::TaskPrefetch,
        Level::Prefetch,
        Level::Idle,
    ];

    /// The level of StarPU's value, if valid.
    pub fn from_starpu(v: i32) -> Option<Level> {
        Level::ALL.into_iter().find(|l| *l as i32 == v)
    }

    /// Whether a request at this level may evict other data to make room (prefetches
    /// beyond a scheduled task's wait for free memory instead).
    pub fn may_evict(self) -> bool {
        self <= Level::TaskPrefetch
    }
}

/// What starting a request did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Issue {
    /// A transfer is running: poll it.
    Started,
    /// Nothing to do (the data is there already, or the request was dropped).
    Nothing,
    /// No room on the node now: keep the request queued.
    NoRoom,
    /// The data is busy (another thread holds it): try again at the next progress.
    Busy,
}

struct Entry {
    resident: Weak<dyn Resident>,
    prio: i32,
}

#[derive(Default)]
struct Lists {
    queued: [VecDeque<Entry>; 4],
    running: Vec<Weak<dyn Resident>>,
}

/// The requests of one node.
#[derive(Default)]
pub(super) struct Queue {
    lists: Mutex<Lists>,
    /// Queued and running requests, readable without the lock.
    pending: AtomicUsize,
    /// Queued requests (not started), readable without the lock.
    queued: AtomicUsize,
}

/// Transfers one node runs at once; more wait in the queue (they would only share the bus).
const MAX_RUNNING: usize = 16;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Queue {
    pub(super) fn pending(&self) -> usize {
        self.pending.load(Ordering::Acquire)
    }

    pub(super) fn queued(&self) -> usize {
        self.queued.load(Ordering::Acquire)
    }

    /// Recounts the queued requests (the lists locked).
    fn count_queued(&self, l: &Lists) {
        let n = l.queued.iter().map(|q| q.len()).sum();
        self.queued.store(n, Ordering::Release);
    }

    /// Queues a request for `r` at `level`, after the requests of its priority or higher.
    pub(super) fn push(&self, r: Weak<dyn Resident>, level: Level, prio: i32) {
        let mut l = lock(&self.lists);
        let q = &mut l.queued[level as usize];
        let at = q.iter().rposition(|e| e.prio >= prio).map_or(0, |i| i + 1);
        q.insert(at, Entry { resident: r, prio });
        self.pending.fetch_add(1, Ordering::AcqRel);
        self.count_queued(&l);
    }

    /// Polls the running transfers, then starts queued requests while there is room.
    /// Idle requests start only when nothing else is queued or running and `idle` says
    /// the node's workers have nothing to do.
    pub(super) fn progress(&self, node: usize, idle: bool) {
        if self.pending() == 0 {
            return;
        }
        let running: Vec<Weak<dyn Resident>> = std::mem::take(&mut lock(&self.lists).running);
        let mut still = Vec::with_capacity(running.len());
        for w in running {
            match w.upgrade() {
                Some(r) if !r.poll(node) => still.push(w),
                _ => {
                    self.pending.fetch_sub(1, Ordering::AcqRel);
                }
            }
        }
        lock(&self.lists).running.extend(still);
        loop {
            let (entry, level) = {
                let mut l = lock(&self.lists);
                if l.running.len() >= MAX_RUNNING {
                    return;
                }
                let busy = !l.running.is_empty() || l.queued[..3].iter().any(|q| !q.is_empty());
                let Some(level) = Level::ALL
                    .into_iter()
                    .find(|lv| !l.queued[*lv as usize].is_empty())
                else {
                    return;
                };
                if level == Level::Idle && (busy || !idle) {
                    return;
                }
                let e = l.queued[level as usize]
                    .pop_front()
                    .expect("the list is not empty");
                self.count_queued(&l);
                (e, level)
            };
            let Some(r) = entry.resident.upgrade() else {
                self.pending.fetch_sub(1, Ordering::AcqRel);
                continue;
            };
            match r.issue(node, level) {
                Issue::Started => lock(&self.lists).running.push(entry.resident),
                Issue::Nothing => {
                    self.pending.fetch_sub(1, Ordering::AcqRel);
                }
                Issue::NoRoom | Issue::Busy => {
                    let mut l = lock(&self.lists);
                    l.queued[level as usize].push_front(entry);
                    self.count_queued(&l);
                    return;
                }
            }
        }
    }

    /// Tracks a transfer started outside the queue (a fetch that could not wait), so that
    /// progress finishes it.
    pub(super) fn track(&self, r: Weak<dyn Resident>) {
        lock(&self.lists).running.push(r);
        self.pending.fetch_add(1, Ordering::AcqRel);
    }

    /// Forgets every request (the runtime stops).
    pub(super) fn clear(&self) {
        let mut l = lock(&self.lists);
        let n = l.queued.iter().map(|q| q.len()).sum::<usize>() + l.running.len();
        *l = Lists::default();
        self.pending.fetch_sub(n, Ordering::AcqRel);
        self.queued.store(0, Ordering::Release);
    }
}

/// `Arc<T>` to the weak trait object the queue keeps.
pub fn weak_resident<T: Resident + 'static>(r: &Arc<T>) -> Weak<dyn Resident> {
    let w: Weak<T> = Arc::downgrade(r);
    w
}
