//! Execution traces: what ran where and when, recorded with little overhead and written
//! in the formats people already view (StarPU's FxT support, without FxT).
//!
//! - Recording (`recorder.rs`, `buffer.rs`, `hooks.rs`): off by default; on with
//!   `STARPU_FXT_TRACE=1` or [`crate::Config::trace`]. Each thread appends fixed-size
//!   events to its own preallocated buffer: submissions (name, colour, priority, tag,
//!   buffers), declared dependencies, pushes and pops, starts and ends per worker and
//!   implementation, callbacks, sleeps, waits, user events and iterations, data transfers.
//! - Reading: [`crate::Runtime::trace_snapshot`] gives a [`Trace`]; at shutdown the trace
//!   is written to the raw file `prof_file_<USER>_0` (in `STARPU_FXT_PREFIX`, else `/tmp`;
//!   `STARPU_FXT_SUFFIX` replaces `prof_file_<USER>`), its format in `file.rs`.
//! - Exporting (`export/`): `paje.trace` (ViTE), `trace.json` (Chrome trace events, for
//!   Perfetto), `dag.dot`, `tasks.rec`, `data.rec`, `trace.rec`, `sched_tasks.rec`,
//!   `activity.data`, `distrib.data` and `trace.html` (a self-contained timeline), written
//!   at shutdown when `STARPU_GENERATE_TRACE=1` (into `STARPU_FXT_PREFIX`, else the working
//!   folder, with `STARPU_GENERATE_TRACE_OPTIONS`), or later by `starpu_fxt_tool -i FILE`.

mod buffer;
mod clock;
pub mod event;
pub mod export;
pub mod file;
mod hooks;
pub mod model;
mod recorder;

pub use event::{RawEvent, WaitKind, What};
pub use recorder::Recorder;
// Set in `Config`; where the trace goes is read here.
pub use crate::config::TraceOutput;

use crate::worker::WorkerKind;
use std::sync::atomic::{AtomicBool, Ordering};

/// A worker as the trace names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkerInfo {
    pub id: usize,
    pub kind: WorkerKind,
    /// "CPU 0"...
    pub name: String,
    /// The logical CPU its thread is bound to.
    pub cpu: Option<usize>,
    pub node: usize,
}

/// One recorded event: when, on which recording thread, and what.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Record {
    pub time_ns: u64,
    /// Index into [`Trace::threads`].
    pub thread: u32,
    pub raw: RawEvent,
}

impl Record {
    pub fn what(&self) -> What {
        What::decode(&self.raw)
    }
}

/// A recorded trace: the workers, the recording threads, the strings events name, and the
/// events in time order.
#[derive(Debug, Clone, Default)]
pub struct Trace {
    pub workers: Vec<WorkerInfo>,
    /// Per recording thread, the worker it is (`None`: an application thread).
    pub threads: Vec<Option<usize>>,
    pub strings: Vec<String>,
    pub events: Vec<Record>,
}

impl Trace {
    pub(crate) fn new(workers: Vec<WorkerInfo>, strings: Vec<String>) -> Trace {
        Trace {
            workers,
            threads: Vec::new(),
            strings,
            events: Vec::new(),
        }
    }

    pub(crate) fn add_thread(&mut self, worker: Option<usize>) -> u32 {
        self.threads.push(worker);
        (self.threads.len() - 1) as u32
    }

    pub(crate) fn push_raw(&mut self, thread: u32, raw: RawEvent) {
        self.events.push(Record {
            time_ns: raw.time,
            thread,
            raw,
        });
    }

    /// Orders the events by time (stable: a thread's events keep their order).
    pub(crate) fn sort(&mut self) {
        self.events.sort_by_key(|r| r.time_ns);
    }

    /// The string `id` names ("" for an unknown id).
    pub fn string(&self, id: u32) -> &str {
        self.strings.get(id as usize).map_or("", |s| s.as_str())
    }

    /// The worker that recorded `r`, if a worker did.
    pub fn worker_of(&self, r: &Record) -> Option<usize> {
        self.threads.get(r.thread as usize).copied().flatten()
    }
}

/// How the trace names the runtime's workers.
pub(crate) fn worker_infos(workers: &[crate::worker::Worker]) -> Vec<WorkerInfo> {
    workers
        .iter()
        .map(|w| WorkerInfo {
            id: w.id,
            kind: w.kind,
            name: w.name.clone(),
            cpu: w.cpu,
            node: w.node,
        })
        .collect()
}

/// Whether tracing starts with the runtime (`starpu_fxt_autostart_profiling`).
static AUTOSTART: AtomicBool = AtomicBool::new(true);

/// `starpu_fxt_autostart_profiling`: whether a runtime started later records from its
/// start (1, the default) or only once `starpu_fxt_start_profiling` is called (0).
pub fn set_autostart(on: bool) {
    AUTOSTART.store(on, Ordering::SeqCst);
}

pub(crate) fn autostart() -> bool {
    AUTOSTART.load(Ordering::SeqCst)
}
