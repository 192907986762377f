//! `activity.data` (what `starpu_workers_activity` plots: per worker and period, the time
//! spent executing and sleeping, and the counts of ready and submitted tasks) and
//! `distrib.data` (one line per task run: codelet, worker, size, footprint, duration,
//! what `starpu_codelet_profile` plots).

use super::ms;
use crate::trace::model::{Model, SpanKind};
use crate::trace::Trace;
use std::fmt::Write as _;

/// StarPU's period for `activity.data`, in milliseconds.
const PERIOD_MS: f64 = 75.0;

/// Time in `[a, b)` spent sleeping (`sleeping`) or executing tasks.
fn covered(spans: &[crate::trace::model::Span], a: u64, b: u64, sleeping: bool) -> u64 {
    spans
        .iter()
        .filter(|s| match s.kind {
            SpanKind::Sleeping => sleeping,
            SpanKind::Executing(_) => !sleeping,
            _ => false,
        })
        .map(|s| s.end.min(b).saturating_sub(s.start.max(a)))
        .sum()
}

/// `activity.data`.
pub fn activity_data(trace: &Trace, m: &Model) -> String {
    let mut out = String::new();
    for w in &trace.workers {
        let kind = crate::perfmodel::arch::archtype_name(w.kind).to_uppercase();
        let _ = writeln!(out, "name\t{}\t{kind} {}", w.id, w.id);
    }
    let period = (PERIOD_MS * 1e6) as u64;
    for (w, spans) in m.spans.iter().enumerate() {
        let mut a = m.start_ns;
        while a < m.end_ns {
            let b = (a + period).min(m.end_ns);
            let exec = covered(spans, a, b, false);
            let sleep = covered(spans, a, b, true);
            let _ = writeln!(
                out,
                "{w}\t{:.9}\t{:.9}\t{:.9}\t{:.9}",
                ms(m, b),
                (b - a) as f64 / 1e6,
                exec as f64 / 1e6,
                sleep as f64 / 1e6
            );
            a = b;
        }
    }
    for (t, ready, submitted) in &m.counts {
        let _ = writeln!(out, "cnt_ready\t{:.9}\t{ready}", ms(m, *t));
        let _ = writeln!(out, "cnt_submitted\t{:.9}\t{submitted}", ms(m, *t));
    }
    out
}

/// `distrib.data`.
pub fn distrib_data(trace: &Trace, m: &Model) -> String {
    let _ = trace;
    let mut out = String::new();
    for t in &m.tasks {
        if let (Some(w), Some(s), Some(e)) = (t.worker, t.start_ns, t.end_ns) {
            let name = t.model.as_deref().unwrap_or(t.label());
            let _ = writeln!(
                out,
                "{name}\t{w}\t{}\t{:x}\t{:.9}",
                t.size,
                t.footprint,
                e.saturating_sub(s) as f64 / 1e6
            );
        }
    }
    out
}
