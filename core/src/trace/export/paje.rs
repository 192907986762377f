//! `paje.trace`, for ViTE: StarPU's container hierarchy (program, memory nodes, worker
//! threads and workers, user threads, the scheduler), worker states with one value per
//! kind of task, user events, the scheduler's counters and transfers as links.

use super::colors::state_rgb;
use super::{ms, plain, Options};
use crate::trace::model::{Model, SpanKind};
use crate::trace::{Trace, WaitKind};
use std::collections::HashMap;
use std::fmt::Write as _;

/// The Paje event definitions used below: name, id, fields after the time.
const EVENT_DEFS: &[(&str, u32, &[&str])] = &[
    ("PajeDefineContainerType", 1, &["Alias", "Type", "Name"]),
    (
        "PajeDefineEventType",
        2,
        &["Alias", "Type", "Name", "Color"],
    ),
    ("PajeDefineStateType", 3, &["Alias", "Type", "Name"]),
    ("PajeDefineVariableType", 4, &["Alias", "Type", "Name"]),
    (
        "PajeDefineLinkType",
        5,
        &[
            "Alias",
            "Type",
            "StartContainerType",
            "EndContainerType",
            "Name",
        ],
    ),
    (
        "PajeDefineEntityValue",
        6,
        &["Alias", "Type", "Name", "Color"],
    ),
    (
        "PajeCreateContainer",
        7,
        &["Time", "Alias", "Type", "Container", "Name"],
    ),
    ("PajeDestroyContainer", 8, &["Time", "Name", "Type"]),
    ("PajeNewEvent", 9, &["Time", "Type", "Container", "Value"]),
    ("PajeSetState", 10, &["Time", "Container", "Type", "Value"]),
    ("PajePushState", 11, &["Time", "Container", "Type", "Value"]),
    ("PajePopState", 12, &["Time", "Container", "Type"]),
    (
        "PajeSetVariable",
        13,
        &["Time", "Container", "Type", "Value"],
    ),
    (
        "PajeStartLink",
        18,
        &[
            "Time",
            "Type",
            "Container",
            "Value",
            "StartContainer",
            "Key",
        ],
    ),
    (
        "PajeEndLink",
        19,
        &["Time", "Type", "Container", "Value", "EndContainer", "Key"],
    ),
    (
        "PajeSetState",
        21,
        &[
            "Time",
            "Container",
            "Type",
            "Value",
            "Size",
            "Params",
            "Footprint",
            "Tag",
            "JobId",
            "SubmitOrder",
        ],
    ),
];

fn field_type(f: &str) -> &'static str {
    match f {
        "Time" => "date",
        "Color" => "color",
        _ => "string",
    }
}

/// StarPU's worker and thread states: alias, name, colour.
const STATES: &[(&str, &str, &str)] = &[
    ("I", "Idle", ".9 .1 .0"),
    ("In", "Initializing", "0.0 .7 1.0"),
    ("D", "Deinitializing", "0.0 .1 .7"),
    ("Fi", "FetchingInput", "1.0 .1 1.0"),
    ("Po", "PushingOutput", "0.1 1.0 1.0"),
    ("C", "Callback", ".0 .3 .8"),
    ("B", "Overhead", ".5 .18 .0"),
    ("E", "Executing", ".0 .6 .5"),
    ("Sc", "Scheduling", ".7 .36 .0"),
    ("Sl", "Sleeping", ".9 .1 .0"),
];

const USER_STATES: &[(&str, &str, &str)] = &[
    ("Su", "Submitting task", ".3 .09 .0"),
    ("C", "Callback", ".0 .3 .8"),
    ("W", "Waiting task", ".9 .1 .0"),
    ("WA", "Waiting all tasks", ".9 .1 .0"),
    ("WT", "Waiting tags", ".9 .1 .0"),
    ("No", "Nothing", ".0 .0 .0"),
];

fn header(out: &mut String) {
    for (name, id, fields) in EVENT_DEFS {
        let _ = writeln!(out, "%EventDef\t{name}\t{id}");
        for f in fields.iter() {
            let _ = writeln!(out, "%\t{f}\t{}", field_type(f));
        }
        out.push_str("%EndEventDef\n");
    }
    let types = [
        "1\tMPIP\t0\t\"MPI Program\"",
        "1\tP\tMPIP\t\"Program\"",
        "1\tMn\tP\t\"Memory Node\"",
        "1\tT\tMn\t\"Thread\"",
        "1\tUT\tP\t\"User Thread\"",
        "1\tMm\tMn\t\"Memory Manager\"",
        "1\tW\tT\t\"Worker\"",
        "1\tSc\tP\t\"Scheduler State\"",
        "2\tprog_event\tP\t\"program event type\"\t\"1.0 1.0 1.0\"",
        "2\tuser_event\tP\t\"user event type\"\t\"1.0 1.0 1.0\"",
        "2\tthread_event\tT\t\"thread event type\"\t\"1.0 1.0 1.0\"",
        "2\tuser_user_event\tUT\t\"user event type\"\t\"1.0 1.0 1.0\"",
        "3\tS\tT\t\"Thread State\"",
        "3\tWS\tW\t\"Worker State\"",
        "3\tUS\tUT\t\"User Thread State\"",
        "3\tMS\tMm\t\"Memory Node State\"",
        "4\tnsubmitted\tSc\t\"Number of Submitted Uncompleted Tasks\"",
        "4\tnready\tSc\t\"Number of Ready Tasks\"",
        "4\tbwi_mm\tMm\t\"Bandwidth In (MB/s)\"",
        "4\tbwo_mm\tMm\t\"Bandwidth Out (MB/s)\"",
        "5\tF\tP\tMm\tMm\t\"Intra-node data Fetch\"",
        "5\tWSL\tP\tW\tW\t\"Work steal\"",
    ];
    for t in types {
        out.push_str(t);
        out.push('\n');
    }
    for (ty, states) in [("S", STATES), ("WS", STATES), ("US", USER_STATES)] {
        for (alias, name, color) in states {
            let _ = writeln!(out, "6\t{alias}\t{ty}\t\"{name}\"\t\"{color}\"");
        }
    }
    out.push_str("6\tNo\tMS\tNothing\t\".0 .0 .0\"\n");
    out.push_str("6\tCo\tMS\tDriverCopy\t\".3 .5 .1\"\n");
}

/// What a kind of task is known by in Paje: its name and colour.
fn value_key(t: &crate::trace::model::TaskInfo) -> (String, u32) {
    (t.label().to_string(), t.color)
}

/// The trace in Paje's format.
pub fn paje_trace(trace: &Trace, m: &Model, opts: &Options) -> String {
    let mut out = String::new();
    header(&mut out);
    // One Paje value per kind of task, keyed by its name and colour.
    let mut values: HashMap<(String, u32), String> = HashMap::new();
    for t in &m.tasks {
        let key = value_key(t);
        if !values.contains_key(&key) {
            let alias = format!("t{}", values.len());
            let (r, g, b) = state_rgb(&key.0, key.1, opts);
            let _ = writeln!(
                out,
                "6\t{alias}\tWS\t\"{}\"\t\"{r:.6} {g:.6} {b:.6}\"",
                plain(&key.0)
            );
            values.insert(key, alias);
        }
    }
    let _ = writeln!(out, "7\t0.0\tMPIroot\tMPIP\t0\troot");
    let _ = writeln!(out, "7\t0.0\tp\tP\tMPIroot\tprogram");
    let _ = writeln!(out, "7\t0.0\tsched\tSc\tp\tscheduler");
    let mut nodes: Vec<usize> = trace.workers.iter().map(|w| w.node).collect();
    nodes.extend(
        m.transfers
            .iter()
            .flat_map(|t| [t.src as usize, t.dst as usize]),
    );
    nodes.sort_unstable();
    nodes.dedup();
    if nodes.is_empty() {
        nodes.push(0);
    }
    for n in &nodes {
        let _ = writeln!(out, "7\t0.0\tmn{n}\tMn\tp\tMEMNODE{n}");
        let _ = writeln!(out, "7\t0.0\tmm{n}\tMm\tmn{n}\tMEMMANAGER{n}");
        let _ = writeln!(out, "10\t0.0\tmm{n}\tMS\tNo");
    }
    for w in &trace.workers {
        let cpu = w.cpu.map_or(w.id, |c| c);
        let _ = writeln!(out, "7\t0.0\tt{}\tT\tmn{}\tT{cpu}", w.id, w.node);
        let kind = crate::perfmodel::arch::archtype_name(w.kind).to_uppercase();
        let _ = writeln!(out, "7\t0.0\tw{}\tW\tt{}\t{kind}{}", w.id, w.id, w.id);
        let _ = writeln!(out, "10\t0.0\tw{}\tWS\tI", w.id);
        let _ = writeln!(out, "10\t0.0\tt{}\tS\tI", w.id);
    }
    let app_threads: Vec<u32> = (0..trace.threads.len() as u32)
        .filter(|&i| trace.threads[i as usize].is_none())
        .collect();
    for th in &app_threads {
        let _ = writeln!(out, "7\t0.0\tut{th}\tUT\tp\tUserThread{th}");
        let _ = writeln!(out, "10\t0.0\tut{th}\tUS\tNo");
    }
    // Timed lines, sorted by time below (Paje wants them in order).
    let mut lines: Vec<(u64, String)> = Vec::new();
    let t = |ns: u64| ms(m, ns);
    for (w, spans) in m.spans.iter().enumerate() {
        for s in spans {
            let (start_line, end_state) = match s.kind {
                SpanKind::Executing(i) => {
                    let task = &m.tasks[i];
                    let alias = values
                        .get(&value_key(task))
                        .cloned()
                        .unwrap_or_else(|| "E".into());
                    (
                        format!(
                            "21\t{:.9}\tw{w}\tWS\t{alias}\t{}\t\"\"\t{:08x}\t{:016x}\t{}\t{}",
                            t(s.start),
                            task.size,
                            task.footprint,
                            task.tag.unwrap_or(0),
                            task.id,
                            task.submit_order
                        ),
                        "I",
                    )
                }
                SpanKind::Callback(_) => (format!("10\t{:.9}\tw{w}\tWS\tC", t(s.start)), "I"),
                SpanKind::Sleeping => (format!("10\t{:.9}\tw{w}\tWS\tSl", t(s.start)), "I"),
            };
            lines.push((s.start, start_line));
            lines.push((s.end, format!("10\t{:.9}\tw{w}\tWS\t{end_state}", t(s.end))));
        }
    }
    for wt in &m.waits {
        let state = match wt.kind {
            WaitKind::All => "WA",
            WaitKind::Task => "W",
            WaitKind::Tag => "WT",
        };
        lines.push((
            wt.start,
            format!("10\t{:.9}\tut{}\tUS\t{state}", t(wt.start), wt.thread),
        ));
        lines.push((
            wt.end,
            format!("10\t{:.9}\tut{}\tUS\tNo", t(wt.end), wt.thread),
        ));
    }
    if !opts.no_events {
        for e in &m.user_events {
            let line = match e.worker {
                Some(w) => format!(
                    "9\t{:.9}\tuser_event\tt{w}\t\"{}\"",
                    t(e.time),
                    plain(&e.value)
                ),
                None => format!(
                    "9\t{:.9}\tuser_user_event\tut{}\t\"{}\"",
                    t(e.time),
                    e.thread,
                    plain(&e.value)
                ),
            };
            lines.push((e.time, line));
        }
    }
    if !opts.no_counter {
        for (time, ready, submitted) in &m.counts {
            lines.push((
                *time,
                format!("13\t{:.9}\tsched\tnready\t{ready}", t(*time)),
            ));
            lines.push((
                *time,
                format!("13\t{:.9}\tsched\tnsubmitted\t{submitted}", t(*time)),
            ));
        }
    }
    if !opts.no_bus {
        for (k, x) in m.transfers.iter().enumerate() {
            lines.push((
                x.start,
                format!(
                    "18\t{:.9}\tF\tp\t{}\tmm{}\tcom_{k}",
                    t(x.start),
                    x.bytes,
                    x.src
                ),
            ));
            lines.push((
                x.end,
                format!(
                    "19\t{:.9}\tF\tp\t{}\tmm{}\tcom_{k}",
                    t(x.end),
                    x.bytes,
                    x.dst
                ),
            ));
        }
    }
    lines.sort_by_key(|l| l.0);
    for (_, l) in lines {
        out.push_str(&l);
        out.push('\n');
    }
    out
}
