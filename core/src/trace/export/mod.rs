//! The views of a trace, with StarPU's file names and `starpu_fxt_tool`'s options.
//! Each view is a function from the digested trace ([`Model`]) to text; [`generate`]
//! writes them all. Times are milliseconds from the trace's first event, as StarPU's.

mod activity;
mod chrome;
mod colors;
mod dot;
mod html;
mod paje;
mod rec;

pub use activity::{activity_data, distrib_data};
pub use chrome::chrome_json;
pub use colors::{task_color, worker_color};
pub use dot::dag_dot;
pub use html::timeline_html;
pub use paje::paje_trace;
pub use rec::{data_rec, parse_rec, sched_tasks_rec, states_rec, tasks_rec};

use super::model::Model;
use super::Trace;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// `starpu_fxt_tool`'s options (`struct starpu_fxt_options`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    /// `-c`: a colour per kind of task (a hash of its name) rather than per worker.
    pub per_task_colour: bool,
    /// `-no-events`: no user events in the Paje trace.
    pub no_events: bool,
    /// `-no-counter`: no scheduler counters (ready and submitted tasks).
    pub no_counter: bool,
    /// `-no-bus`: no transfers.
    pub no_bus: bool,
    /// `-no-flops`: accepted (this runtime records no flop rates per worker).
    pub no_flops: bool,
    /// `-no-smooth`: accepted (nothing is smoothed).
    pub no_smooth: bool,
    /// `-no-acquire`: accepted (application acquisitions are not traced as tasks).
    pub no_acquire: bool,
    /// `-memory-states`: accepted (no per-handle memory states are recorded).
    pub memory_states: bool,
    /// `-internal`: show the runtime's own tasks (those without a name) in the DAG.
    pub internal: bool,
    /// `-label-deps`: label dependency edges in the DAG with their kind.
    pub label_deps: bool,
    /// `-number-events`: also write `number_events.data`.
    pub number_events: bool,
    /// `-use-task-color`: give the task's colour to its Paje state.
    pub use_task_color: bool,
    /// `-d`: the folder of the outputs (made if missing); else the working folder.
    pub dir: Option<PathBuf>,
    /// Files written elsewhere than under their name in [`FILES`] (`-o` for
    /// `paje.trace`), or not at all (`None`), by their name in [`FILES`]. A relative path
    /// is taken in `dir`.
    pub outputs: BTreeMap<String, Option<PathBuf>>,
}

impl Options {
    /// Reads one of `starpu_fxt_tool`'s flags; false if `o` is not one.
    pub fn read_option(&mut self, o: &str) -> bool {
        let flag = match o {
            "-c" => &mut self.per_task_colour,
            "-no-events" => &mut self.no_events,
            "-no-counter" => &mut self.no_counter,
            "-no-bus" => &mut self.no_bus,
            "-no-flops" => &mut self.no_flops,
            "-no-smooth" => &mut self.no_smooth,
            "-no-acquire" => &mut self.no_acquire,
            "-memory-states" => &mut self.memory_states,
            "-internal" => &mut self.internal,
            "-label-deps" => &mut self.label_deps,
            "-number-events" => &mut self.number_events,
            "-use-task-color" => &mut self.use_task_color,
            _ => return false,
        };
        *flag = true;
        true
    }

    /// Where the file `name` of [`FILES`] goes, if it is written.
    pub fn target(&self, name: &str) -> Option<PathBuf> {
        let p = match self.outputs.get(name) {
            Some(None) => return None,
            Some(Some(p)) => p.clone(),
            None if name == "number_events.data" && !self.number_events => return None,
            None => PathBuf::from(name),
        };
        Some(match &self.dir {
            Some(d) if p.is_relative() => d.join(p),
            _ => p,
        })
    }
}

/// The files [`generate`] writes (`number_events.data` only when asked).
pub const FILES: &[&str] = &[
    "paje.trace",
    "trace.json",
    "dag.dot",
    "tasks.rec",
    "data.rec",
    "trace.rec",
    "sched_tasks.rec",
    "activity.data",
    "distrib.data",
    "trace.html",
    "number_events.data",
];

/// Writes every view of `trace` (see [`FILES`]); returns the paths written.
pub fn generate(trace: &Trace, opts: &Options) -> std::io::Result<Vec<PathBuf>> {
    if let Some(d) = &opts.dir {
        std::fs::create_dir_all(d)?;
    }
    let m = Model::of(trace);
    let mut written = Vec::new();
    for name in FILES {
        let Some(path) = opts.target(name) else {
            continue;
        };
        let text = match *name {
            "paje.trace" => paje_trace(trace, &m, opts),
            "trace.json" => chrome_json(trace, &m, opts),
            "dag.dot" => dag_dot(trace, &m, opts),
            "tasks.rec" => tasks_rec(trace, &m),
            "data.rec" => data_rec(&m),
            "trace.rec" => states_rec(trace, &m),
            "sched_tasks.rec" => sched_tasks_rec(&m),
            "activity.data" => activity_data(trace, &m),
            "distrib.data" => distrib_data(trace, &m),
            "trace.html" => timeline_html(trace, &m, opts),
            _ => number_events(trace),
        };
        std::fs::write(&path, text)?;
        written.push(path);
    }
    Ok(written)
}

/// Events counted by code (`number_events.data`).
fn number_events(trace: &Trace) -> String {
    let mut counts = std::collections::BTreeMap::<u16, u64>::new();
    for r in &trace.events {
        *counts.entry(r.raw.code).or_default() += 1;
    }
    let mut out = String::from("# event code\tcount\n");
    for (c, n) in counts {
        out.push_str(&format!("0x{c:x}\t{n}\n"));
    }
    out
}

/// Milliseconds from the trace's start.
pub(crate) fn ms(m: &Model, t: u64) -> f64 {
    t.saturating_sub(m.start_ns) as f64 / 1e6
}

/// Quotes `s` for a Paje or rec field (double quotes and newlines replaced).
pub(crate) fn plain(s: &str) -> String {
    s.replace(['"', '\n'], " ")
}

/// Writes `generate`'s files from the raw trace file `input` (`starpu_fxt_tool -i`).
pub fn generate_from_file(input: &Path, opts: &Options) -> crate::Result<Vec<PathBuf>> {
    let t = super::file::read(input)?;
    generate(&t, opts).map_err(|e| crate::Error::invalid(format!("cannot write the views: {e}")))
}
