//! StarPU's rec files (GNU recutils records: `Field: value` lines, a blank line between
//! records): `tasks.rec` (one record per task, what `starpu_tasks_rec_complete` and
//! StarPU's replay read), `data.rec` (one per data handle), `trace.rec` (worker state
//! changes) and `sched_tasks.rec` (pushes and pops).

use super::{ms, plain};
use crate::data::AccessMode;
use crate::trace::model::{Model, SpanKind};
use crate::trace::Trace;
use std::fmt::Write as _;

/// A mode as StarPU's rec files spell it (`R`, `W`, `RW`, `S`, `X`, `C` combined).
fn mode_letters(m: AccessMode) -> String {
    let mut s = String::new();
    for (bit, l) in [
        (AccessMode::R, "R"),
        (AccessMode::W, "W"),
        (AccessMode::SCRATCH, "S"),
        (AccessMode::REDUX, "X"),
        (AccessMode::COMMUTE, "C"),
    ] {
        if m.bits() & bit.bits() != 0 {
            s.push_str(l);
        }
    }
    s
}

/// `tasks.rec`.
pub fn tasks_rec(trace: &Trace, m: &Model) -> String {
    let mut out = String::new();
    for t in &m.tasks {
        let o = &mut out;
        if !t.name.is_empty() {
            let _ = writeln!(o, "Name: {}", plain(&t.name));
        }
        if let Some(model) = &t.model {
            let _ = writeln!(o, "Model: {model}");
        }
        let _ = writeln!(o, "JobId: {}", t.id);
        if t.submit_order != 0 {
            let _ = writeln!(o, "SubmitOrder: {}", t.submit_order);
        }
        let _ = writeln!(o, "Priority: {}", t.priority);
        if !t.deps.is_empty() {
            let deps: Vec<String> = t.deps.iter().map(|d| d.to_string()).collect();
            let _ = writeln!(o, "DependsOn: {}", deps.join(" "));
        }
        let _ = writeln!(o, "Tag: {:x}", t.tag.unwrap_or(0));
        if let Some(w) = t.worker {
            let _ = writeln!(o, "WorkerId: {w}");
            if let Some(info) = trace.workers.iter().find(|x| x.id == w) {
                let _ = writeln!(o, "MemoryNode: {}", info.node);
            }
        }
        for (field, v) in [
            ("SubmitTime", t.submit_ns),
            ("StartTime", t.start_ns),
            ("EndTime", t.end_ns),
        ] {
            if let Some(v) = v {
                let _ = writeln!(o, "{field}: {:.6}", ms(m, v));
            }
        }
        let _ = writeln!(o, "Footprint: {:x}", t.footprint);
        if !t.iteration.is_empty() {
            let it: Vec<String> = t.iteration.iter().map(|i| i.to_string()).collect();
            let _ = writeln!(o, "Iteration: {}", it.join(" "));
        }
        if !t.accesses.is_empty() {
            let list = |f: &dyn Fn(&crate::trace::model::AccessInfo) -> String| {
                t.accesses.iter().map(f).collect::<Vec<_>>().join(" ")
            };
            let _ = writeln!(o, "Handles: {}", list(&|a| format!("{:x}", a.handle)));
            let _ = writeln!(o, "Modes: {}", list(&|a| mode_letters(a.mode)));
            let _ = writeln!(o, "Sizes: {}", list(&|a| a.size.to_string()));
        }
        if !t.end_deps.is_empty() {
            let e: Vec<String> = t.end_deps.iter().map(|d| d.to_string()).collect();
            let _ = writeln!(o, "EndDependencies: {}", e.join(", "));
        }
        o.push('\n');
    }
    out
}

/// The interface StarPU names by id (`STARPU_*_INTERFACE_ID`).
fn interface_name(id: u32) -> &'static str {
    match id {
        0 => "matrix",
        1 => "block",
        2 => "vector",
        3 => "csr",
        4 => "bcsr",
        5 => "variable",
        6 => "void",
        7 => "multiformat",
        8 => "coo",
        9 => "tensor",
        10 => "ndim",
        _ => "user-defined",
    }
}

/// `data.rec`.
pub fn data_rec(m: &Model) -> String {
    let mut out = String::new();
    for (h, (size, iface)) in &m.handles {
        let _ = writeln!(
            out,
            "Handle: {h:x}\nHomeNode: 0\nSize: {size}\nDescription: {}\n",
            interface_name(*iface)
        );
    }
    out
}

/// `trace.rec`: each worker's state changes.
pub fn states_rec(trace: &Trace, m: &Model) -> String {
    let _ = trace;
    let mut out = String::from(
        "#\n# E: Event type\n# N: Event name\n# C: Event category\n# W: Worker ID\n\
         # T: Thread ID\n# S: Start time\n#\n\n",
    );
    let mut changes: Vec<(u64, usize, String, &str)> = Vec::new();
    for (w, spans) in m.spans.iter().enumerate() {
        for s in spans {
            let (name, cat) = match s.kind {
                SpanKind::Executing(i) => (m.tasks[i].label().to_string(), "Task"),
                SpanKind::Callback(_) => ("Callback".to_string(), "Runtime"),
                SpanKind::Sleeping => ("Sleeping".to_string(), "Other"),
            };
            changes.push((s.start, w, name, cat));
            changes.push((s.end, w, "Idle".to_string(), "Other"));
        }
    }
    changes.sort_by_key(|c| c.0);
    for (t, w, name, cat) in changes {
        let _ = writeln!(
            out,
            "E: SetState\nN: {}\nC: {cat}\nW: {w}\nT: -1\nS: {:.6}\n",
            plain(&name),
            ms(m, t)
        );
    }
    out
}

/// `sched_tasks.rec`: pushes and pops, in time order.
pub fn sched_tasks_rec(m: &Model) -> String {
    let mut ev: Vec<(u64, &str, i32, u64)> = Vec::new();
    for t in &m.tasks {
        if let Some(p) = t.push_ns {
            ev.push((p, "push", t.priority, t.id));
        }
        if let Some(p) = t.start_ns {
            ev.push((p, "pop", t.priority, t.id));
        }
    }
    ev.sort_by_key(|e| e.0);
    let mut out = String::new();
    for (time, ty, prio, id) in ev {
        let _ = writeln!(
            out,
            "Type: {ty}\nTime: {:.9}\nPriority: {prio}\nJobId: {id}\n",
            ms(m, time)
        );
    }
    out
}

/// Reads rec records: each a list of (field, value) in file order.
pub fn parse_rec(text: &str) -> Vec<Vec<(String, String)>> {
    let mut out = Vec::new();
    let mut cur: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        if line.trim().is_empty() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            continue;
        }
        if line.starts_with('#') {
            continue;
        }
        if let Some((k, v)) = line.split_once(':') {
            cur.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}
