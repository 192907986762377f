//! `trace.json`: the Chrome trace-event format, which Perfetto (ui.perfetto.dev) and
//! chrome://tracing open. One process, one thread per worker and per application
//! thread; tasks, callbacks and sleeps as complete events ("X"), waits likewise, user
//! events as instants ("i"), the scheduler's counters as counters ("C"), dependencies
//! as flow arrows ("s"/"f").

use super::Options;
use crate::trace::model::{Model, SpanKind};
use crate::trace::Trace;
use std::fmt::Write as _;

/// `s` as a JSON string literal.
pub(crate) fn json_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Microseconds from the trace's start, as the format counts.
fn us(m: &Model, t: u64) -> f64 {
    t.saturating_sub(m.start_ns) as f64 / 1e3
}

/// The trace as Chrome trace events.
pub fn chrome_json(trace: &Trace, m: &Model, opts: &Options) -> String {
    let mut ev: Vec<String> = Vec::new();
    ev.push(r#"{"ph":"M","pid":0,"name":"process_name","args":{"name":"StarPU"}}"#.into());
    for w in &trace.workers {
        ev.push(format!(
            r#"{{"ph":"M","pid":0,"tid":{},"name":"thread_name","args":{{"name":{}}}}}"#,
            w.id,
            json_str(&w.name)
        ));
        ev.push(format!(
            r#"{{"ph":"M","pid":0,"tid":{},"name":"thread_sort_index","args":{{"sort_index":{}}}}}"#,
            w.id, w.id
        ));
    }
    // Application threads after the workers.
    let app_tid = |th: u32| 1000 + th as usize;
    for (i, w) in trace.threads.iter().enumerate() {
        if w.is_none() {
            ev.push(format!(
                r#"{{"ph":"M","pid":0,"tid":{},"name":"thread_name","args":{{"name":"application thread {i}"}}}}"#,
                app_tid(i as u32)
            ));
        }
    }
    for (w, spans) in m.spans.iter().enumerate() {
        for s in spans {
            let (name, cat, args) = match s.kind {
                SpanKind::Executing(i) => {
                    let t = &m.tasks[i];
                    (
                        t.label().to_string(),
                        "task",
                        format!(
                            r#"{{"job_id":{},"submit_order":{},"priority":{},"impl":{},"footprint":"{:08x}","size":{},"deps":{:?}}}"#,
                            t.id, t.submit_order, t.priority, t.nimpl, t.footprint, t.size, t.deps
                        ),
                    )
                }
                SpanKind::Callback(i) => (
                    format!("callback {}", m.tasks[i].label()),
                    "callback",
                    format!(r#"{{"job_id":{}}}"#, m.tasks[i].id),
                ),
                SpanKind::Sleeping => ("sleeping".to_string(), "idle", "{}".to_string()),
            };
            ev.push(format!(
                r#"{{"ph":"X","pid":0,"tid":{w},"ts":{:.3},"dur":{:.3},"name":{},"cat":"{cat}","args":{args}}}"#,
                us(m, s.start),
                (s.end.saturating_sub(s.start)) as f64 / 1e3,
                json_str(&name)
            ));
        }
    }
    for wt in &m.waits {
        ev.push(format!(
            r#"{{"ph":"X","pid":0,"tid":{},"ts":{:.3},"dur":{:.3},"name":"wait ({:?})","cat":"wait"}}"#,
            app_tid(wt.thread),
            us(m, wt.start),
            (wt.end.saturating_sub(wt.start)) as f64 / 1e3,
            wt.kind
        ));
    }
    if !opts.no_events {
        for e in &m.user_events {
            let tid = e.worker.unwrap_or_else(|| app_tid(e.thread));
            ev.push(format!(
                r#"{{"ph":"i","s":"t","pid":0,"tid":{tid},"ts":{:.3},"name":{},"cat":"user"}}"#,
                us(m, e.time),
                json_str(&e.value)
            ));
        }
    }
    if !opts.no_counter {
        for (t, ready, submitted) in &m.counts {
            ev.push(format!(
                r#"{{"ph":"C","pid":0,"ts":{:.3},"name":"tasks","args":{{"ready":{ready},"submitted":{submitted}}}}}"#,
                us(m, *t)
            ));
        }
    }
    // Dependencies as flows, from the predecessor's end to the successor's start.
    let mut flow = 0u64;
    for t in &m.tasks {
        let (Some(start), Some(w)) = (t.start_ns, t.worker) else {
            continue;
        };
        for p in &t.deps {
            let Some(pt) = m.task(*p) else { continue };
            let (Some(pend), Some(pw)) = (pt.end_ns, pt.worker) else {
                continue;
            };
            flow += 1;
            ev.push(format!(
                r#"{{"ph":"s","id":{flow},"pid":0,"tid":{pw},"ts":{:.3},"name":"dep","cat":"dep"}}"#,
                us(m, pend.saturating_sub(1))
            ));
            ev.push(format!(
                r#"{{"ph":"f","bp":"e","id":{flow},"pid":0,"tid":{w},"ts":{:.3},"name":"dep","cat":"dep"}}"#,
                us(m, start)
            ));
        }
    }
    if !opts.no_bus {
        for x in &m.transfers {
            ev.push(format!(
                r#"{{"ph":"X","pid":1,"tid":{},"ts":{:.3},"dur":{:.3},"name":"transfer {} -> {}","cat":"transfer","args":{{"bytes":{}}}}}"#,
                x.dst,
                us(m, x.start),
                (x.end.saturating_sub(x.start)) as f64 / 1e3,
                x.src,
                x.dst,
                x.bytes
            ));
        }
    }
    let mut out = String::from("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
    out.push_str(&ev.join(",\n"));
    out.push_str("\n]}\n");
    out
}
