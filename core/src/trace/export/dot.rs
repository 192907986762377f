//! `dag.dot`: the task graph in StarPU's layout (Graphviz), one node per task named
//! `task_<job id>`, coloured as StarPU colours it (`colors.rs`); tags as dashed
//! `tag_<hex>` nodes around the tasks that carry them; end dependencies as attributes.

use super::colors::task_color;
use super::{plain, Options};
use crate::trace::model::Model;
use crate::trace::Trace;
use std::fmt::Write as _;

/// The task graph.
pub fn dag_dot(trace: &Trace, m: &Model, opts: &Options) -> String {
    let mut out = String::from("digraph G {\n\tcolor=white\n\trankdir=LR;\n");
    out.push_str("subgraph cluster_0 {\n\tcolor=black;\n");
    for t in &m.tasks {
        for p in &t.deps {
            if opts.label_deps {
                let declared = m
                    .task(t.id)
                    .is_some_and(|_| !t.accesses.iter().any(|a| shares(m, *p, a.handle)));
                let label = if declared { "declared" } else { "data" };
                let _ = writeln!(
                    out,
                    "\t \"task_{p}\"->\"task_{}\" [label=\"{label}\"]",
                    t.id
                );
            } else {
                let _ = writeln!(out, "\t \"task_{p}\"->\"task_{}\"", t.id);
            }
        }
        if let Some(tag) = t.tag {
            let _ = writeln!(
                out,
                "\t \"tag_{tag:x}\"->\"task_{}\"->\"tag_{tag:x}\" [style=dashed]",
                t.id
            );
        }
        for e in &t.end_deps {
            let _ = writeln!(out, "\t \"task_{e}\" [ end_dep=\"{}\"]", t.id);
        }
        let (fill, font) = task_color(trace, t, opts);
        let _ = writeln!(
            out,
            "\t \"task_{}\" [ style=filled, label=\"{}\", fillcolor=\"{fill}\", fontcolor=\"{font}\"]",
            t.id,
            plain(t.label())
        );
    }
    for (tag, dep) in &m.tag_deps {
        let _ = writeln!(out, "\t \"tag_{dep:x}\"->\"tag_{tag:x}\"");
    }
    out.push_str("}\n}\n");
    out
}

/// Whether task `p` accessed `handle` (the edge to it comes from the data).
fn shares(m: &Model, p: u64, handle: u64) -> bool {
    m.task(p)
        .is_some_and(|pt| pt.accesses.iter().any(|a| a.handle == handle))
}
