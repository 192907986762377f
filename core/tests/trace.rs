//! Execution traces of known small programs, read back and checked: every task once, on a
//! worker, started before it ended and after what it depends on; the DAG's edges; the
//! exported files (the Chrome JSON parses, the Paje trace and the rec files name every
//! task); the raw file written at shutdown reads back as recorded.

mod common;

use starpu_core::trace::model::Model;
use starpu_core::trace::{export, file, TraceOutput, What};
use starpu_core::{AccessMode, Codelet, Config, KernelCall, Runtime};
use std::collections::HashMap;
use std::sync::Arc;

fn traced(ncpus: usize, out: TraceOutput) -> Arc<Runtime> {
    common::start(Config {
        ncpus: Some(ncpus),
        trace: true,
        trace_output: out,
        ..Config::default()
    })
}

fn bump(call: &KernelCall) -> starpu_core::KernelResult {
    *call.variable_mut::<u64>(0)? += 1;
    Ok(())
}

/// A small program: a chain of 4 writers on `a`, 3 readers of `a` writing `b0..b2`, a
/// task after all readers (declared), a task carrying a tag, two user events and an
/// iteration. Returns the ids by role.
fn small_program(rt: &Runtime) -> HashMap<&'static str, Vec<u64>> {
    let a = rt.register_variable(0u64).unwrap();
    let bs: Vec<_> = (0..3)
        .map(|_| rt.register_variable(0u64).unwrap())
        .collect();
    let w = Arc::new(Codelet::new("writer").modes([AccessMode::RW]).cpu(bump));
    let r = Arc::new(
        Codelet::new("reader")
            .modes([AccessMode::R, AccessMode::RW])
            .cpu(|call| {
                let x = *call.variable::<u64>(0)?;
                *call.variable_mut::<u64>(1)? += x;
                Ok(())
            }),
    );
    let nop = Arc::new(Codelet::new("join").cpu(|_| Ok(())));
    let mut ids: HashMap<&'static str, Vec<u64>> = HashMap::new();
    rt.tracer().iteration_push(1);
    for _ in 0..4 {
        let t = rt.task(&w).buffer(&a, AccessMode::RW).submit().unwrap();
        ids.entry("writers").or_default().push(t.id());
    }
    rt.tracer().user_event(42);
    let readers: Vec<_> = bs
        .iter()
        .map(|b| {
            rt.task(&r)
                .buffer(&a, AccessMode::R)
                .buffer(b, AccessMode::RW)
                .callback(|_| {})
                .submit()
                .unwrap()
        })
        .collect();
    ids.insert("readers", readers.iter().map(|t| t.id()).collect());
    let mut join = rt.task(&nop).name("join all").priority(3);
    for t in &readers {
        join = join.after(t);
    }
    ids.insert("join", vec![join.submit().unwrap().id()]);
    rt.tracer().iteration_pop();
    let tagged = rt.task(&nop).tag(0x2a).submit().unwrap();
    ids.insert("tagged", vec![tagged.id()]);
    rt.tracer().user_string("done submitting", false);
    rt.wait_for_all().unwrap();
    assert_eq!(rt.unregister_take::<u64>(&a).unwrap(), 4);
    for b in &bs {
        assert_eq!(rt.unregister_take::<u64>(b).unwrap(), 4);
    }
    ids
}

#[test]
fn every_task_appears_once_in_order_and_on_a_worker() {
    let rt = traced(2, TraceOutput::default());
    let ids = small_program(&rt);
    let trace = rt.trace_snapshot();
    rt.shutdown();

    let all: Vec<u64> = ids.values().flatten().copied().collect();
    for id in &all {
        let count =
            |f: &dyn Fn(&What) -> bool| trace.events.iter().filter(|r| f(&r.what())).count();
        assert_eq!(
            count(&|w| matches!(w, What::Submit { task, .. } if task == id)),
            1
        );
        assert_eq!(
            count(&|w| matches!(w, What::Start { task } if task == id)),
            1
        );
        assert_eq!(
            count(&|w| matches!(w, What::End { task, .. } if task == id)),
            1
        );
    }
    let m = Model::of(&trace);
    for id in &all {
        let t = m.task(*id).unwrap();
        let (s, b, e) = (t.submit_ns.unwrap(), t.start_ns.unwrap(), t.end_ns.unwrap());
        assert!(s <= b && b <= e, "task {id}: submit {s} start {b} end {e}");
        assert!(
            t.worker.is_some_and(|w| w < 2),
            "task {id} on {:?}",
            t.worker
        );
        for p in &t.deps {
            let pe = m.task(*p).unwrap().end_ns.unwrap();
            assert!(
                pe <= b,
                "task {id} started before its predecessor {p} ended"
            );
        }
    }
    // Names, priority, tag, iteration, callbacks and user events are there.
    let join = m.task(ids["join"][0]).unwrap();
    assert_eq!((join.name.as_str(), join.priority), ("join all", 3));
    assert_eq!(m.task(ids["writers"][0]).unwrap().name, "writer");
    assert_eq!(m.task(ids["tagged"][0]).unwrap().tag, Some(0x2a));
    assert_eq!(m.task(ids["writers"][0]).unwrap().iteration, vec![1]);
    assert!(m.task(ids["tagged"][0]).unwrap().iteration.is_empty());
    for r in &ids["readers"] {
        assert!(m.task(*r).unwrap().callback.is_some());
    }
    let values: Vec<&str> = m.user_events.iter().map(|e| e.value.as_str()).collect();
    assert_eq!(values, vec!["42", "done submitting"]);
    // Every worker span lies inside the trace, in order.
    for spans in &m.spans {
        for pair in spans.windows(2) {
            assert!(pair[0].start <= pair[1].start);
        }
    }
}

#[test]
fn the_dag_has_the_programs_edges() {
    let rt = traced(2, TraceOutput::default());
    let ids = small_program(&rt);
    let trace = rt.trace_snapshot();
    rt.shutdown();
    let m = Model::of(&trace);
    let deps = |id: u64| m.task(id).unwrap().deps.clone();
    let w = &ids["writers"];
    assert!(deps(w[0]).is_empty());
    for i in 1..4 {
        assert_eq!(deps(w[i]), vec![w[i - 1]], "writer {i}");
    }
    for r in &ids["readers"] {
        assert_eq!(deps(*r), vec![w[3]]);
    }
    let mut readers = ids["readers"].clone();
    readers.sort_unstable();
    assert_eq!(deps(ids["join"][0]), readers);

    let dot = export::dag_dot(&trace, &m, &export::Options::default());
    assert!(dot.starts_with("digraph G {"));
    for i in 1..4 {
        assert!(dot.contains(&format!("\"task_{}\"->\"task_{}\"", w[i - 1], w[i])));
    }
    for r in &ids["readers"] {
        assert!(dot.contains(&format!("\"task_{r}\"->\"task_{}\"", ids["join"][0])));
    }
    assert!(dot.contains(&format!(
        "\"tag_2a\"->\"task_{}\"->\"tag_2a\" [style=dashed]",
        ids["tagged"][0]
    )));
    assert!(dot.contains("label=\"join all\""));
}

#[test]
fn views_are_written_and_read_back() {
    let dir = std::env::temp_dir().join(format!("starpu-trace-views-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = TraceOutput {
        dir: Some(dir.clone()),
        suffix: Some("views".into()),
        generate: true,
        options: Some("-c -label-deps".into()),
    };
    let rt = traced(2, out);
    let ids = small_program(&rt);
    rt.shutdown();
    let all: Vec<u64> = ids.values().flatten().copied().collect();

    // The raw file reads back, with every task.
    let t = file::read(&dir.join("views_0")).unwrap();
    let m = Model::of(&t);
    for id in &all {
        assert!(m.task(*id).unwrap().end_ns.is_some());
    }
    for f in export::FILES.iter().filter(|f| **f != "number_events.data") {
        assert!(dir.join(f).is_file(), "{f} was not written");
    }
    // Chrome JSON: valid, with one complete event per task.
    let text = std::fs::read_to_string(dir.join("trace.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).expect("trace.json parses");
    let events = json["traceEvents"].as_array().unwrap();
    for id in &all {
        let n = events
            .iter()
            .filter(|e| e["ph"] == "X" && e["cat"] == "task" && e["args"]["job_id"] == *id)
            .count();
        assert_eq!(n, 1, "task {id} in trace.json");
    }
    // Paje: one execution state per task, with its job id.
    let paje = std::fs::read_to_string(dir.join("paje.trace")).unwrap();
    assert!(paje.starts_with("%EventDef"));
    for id in &all {
        let n = paje
            .lines()
            .filter(|l| l.starts_with("21\t") && l.split('\t').nth(9) == Some(&id.to_string()))
            .count();
        assert_eq!(n, 1, "task {id} in paje.trace");
    }
    // tasks.rec: one record per task, with its worker and dependencies.
    let rec = export::parse_rec(&std::fs::read_to_string(dir.join("tasks.rec")).unwrap());
    assert_eq!(rec.len(), all.len());
    let join = rec
        .iter()
        .find(|r| {
            r.iter()
                .any(|(k, v)| k == "JobId" && *v == ids["join"][0].to_string())
        })
        .unwrap();
    let field =
        |r: &Vec<(String, String)>, k: &str| r.iter().find(|(f, _)| f == k).map(|(_, v)| v.clone());
    assert_eq!(field(join, "Name").as_deref(), Some("join all"));
    assert_eq!(
        field(join, "DependsOn").unwrap().split(' ').count(),
        3,
        "{join:?}"
    );
    assert!(field(join, "WorkerId").is_some());
    // The HTML page holds its data and no external reference.
    let html = std::fs::read_to_string(dir.join("trace.html")).unwrap();
    assert!(html.contains("const DATA="));
    assert!(!html.contains("http://") && !html.contains("https://"));
    // distrib.data: one line per task run.
    let distrib = std::fs::read_to_string(dir.join("distrib.data")).unwrap();
    assert_eq!(distrib.lines().count(), all.len());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn nothing_is_recorded_unless_asked_and_recording_can_pause() {
    let rt = common::runtime(1, None);
    let nop = Arc::new(Codelet::new("nop").cpu(|_| Ok(())));
    rt.task(&nop).submit().unwrap();
    rt.wait_for_all().unwrap();
    assert!(rt.trace_snapshot().events.is_empty());
    // Started by hand (starpu_fxt_start_profiling), then stopped.
    rt.tracer().set_on(true);
    let t = rt.task(&nop).submit().unwrap();
    rt.wait_for_all().unwrap();
    rt.tracer().set_on(false);
    rt.task(&nop).submit().unwrap();
    rt.wait_for_all().unwrap();
    let m = Model::of(&rt.trace_snapshot());
    assert_eq!(m.tasks.len(), 1);
    assert_eq!(m.tasks[0].id, t.id());
    rt.shutdown();
}

#[test]
fn transfers_reach_the_trace() {
    let rt = traced(1, TraceOutput::default());
    let now = starpu_core::profiling::now_ns();
    rt.tracer().transfer(0, 1, 4096, 0xabc, now, now + 2_000);
    rt.tracer()
        .transfer(0, 1, 4096, 0xabc, now + 3_000, now + 5_000);
    let m = Model::of(&rt.trace_snapshot());
    assert_eq!(m.transfers.len(), 2);
    assert_eq!(
        (m.transfers[0].src, m.transfers[0].dst, m.transfers[0].bytes),
        (0, 1, 4096)
    );
    // The bus statistics are the memory subsystem's (one node here: nothing moved).
    let text = rt.bus_stats_text();
    assert!(text.contains("Data transfer stats:"), "{text}");
    let paje = export::paje_trace(&rt.trace_snapshot(), &m, &export::Options::default());
    assert_eq!(paje.lines().filter(|l| l.starts_with("18\t")).count(), 2);
    rt.shutdown();
}
