//! The modular policies (trees of scheduling components) through the safe Rust API: the
//! tree each one builds, the order tasks run in, and every task running on some worker.
//! Tasks are queued while the workers are paused, so the order seen is the policy's.

mod common;

use starpu_core::sched::modular::components::Kind;
use starpu_core::sched::modular::policy::Tree;
use starpu_core::{Codelet, Config, Runtime};
use std::sync::{Arc, Mutex};

fn runtime(ncpus: usize, sched: &str) -> Arc<Runtime> {
    common::runtime(ncpus, Some(sched))
}

/// Runs one task per priority (queued while paused); returns (priority, worker) in the
/// order the tasks ran.
fn run(rt: &Runtime, priorities: &[i32]) -> Vec<(i32, usize)> {
    let order = Arc::new(Mutex::new(Vec::new()));
    rt.pause();
    for &p in priorities {
        let o = order.clone();
        let cl = Arc::new(Codelet::new("m").cpu(move |_| {
            let w = starpu_core::worker::current_worker_id().unwrap();
            o.lock().unwrap().push((p, w));
            Ok(())
        }));
        rt.task(&cl).priority(p).submit().unwrap();
    }
    rt.resume();
    rt.wait_for_all().unwrap();
    let v = order.lock().unwrap().clone();
    v
}

fn layout(rt: &Runtime) -> Vec<(Kind, Vec<usize>)> {
    rt.with_context_policy(0, |p| {
        p.as_any()
            .and_then(|a| a.downcast_ref::<Tree>())
            .map(Tree::layout)
    })
    .unwrap()
    .expect("a modular policy")
}

#[test]
fn modular_eager_is_a_fifo_above_an_eager_decision() {
    let rt = runtime(2, "modular-eager");
    assert_eq!(rt.policy_name(), "modular-eager");
    // 0: eager (the decision), 1: fifo above it (the root), 2 and 3: the workers.
    assert_eq!(
        layout(&rt),
        vec![
            (Kind::Eager, vec![2, 3]),
            (Kind::Fifo, vec![0]),
            (Kind::Worker(0), vec![]),
            (Kind::Worker(1), vec![]),
        ]
    );
    rt.shutdown();
    let rt = runtime(1, "modular-eager");
    let prios: Vec<i32> = run(&rt, &[3, 1, 7, 1]).into_iter().map(|x| x.0).collect();
    assert_eq!(prios, vec![3, 1, 7, 1], "FIFO order");
    rt.shutdown();
}

#[test]
fn modular_prio_runs_the_highest_priority_first() {
    for sched in ["modular-prio", "modular-eager-prio"] {
        let rt = runtime(1, sched);
        assert_eq!(layout(&rt)[1].0, Kind::Prio, "{sched}");
        let prios: Vec<i32> = run(&rt, &[3, -1, 7, 0, 7])
            .into_iter()
            .map(|x| x.0)
            .collect();
        assert_eq!(prios, vec![7, 7, 3, 0, -1], "{sched}");
        rt.shutdown();
    }
}

#[test]
fn modular_random_puts_one_queue_above_each_worker() {
    let rt = runtime(2, "modular-random");
    assert_eq!(
        layout(&rt),
        vec![
            (Kind::Random, vec![2, 4]),
            (Kind::Worker(0), vec![]),
            (Kind::Fifo, vec![1]),
            (Kind::Worker(1), vec![]),
            (Kind::Fifo, vec![3]),
        ]
    );
    let ran = run(&rt, &(0..50).collect::<Vec<_>>());
    let mut prios: Vec<i32> = ran.iter().map(|x| x.0).collect();
    prios.sort();
    assert_eq!(prios, (0..50).collect::<Vec<_>>());
    rt.shutdown();
    // One worker, one fifo: submission order.
    let rt = runtime(1, "modular-random-prio");
    assert_eq!(layout(&rt)[2].0, Kind::Prio);
    let prios: Vec<i32> = run(&rt, &[1, 5, 2]).into_iter().map(|x| x.0).collect();
    assert_eq!(prios, vec![5, 2, 1]);
    rt.shutdown();
}

#[test]
fn modular_ws_runs_every_task_and_a_lone_worker_takes_them_by_priority() {
    let rt = runtime(2, "modular-ws");
    assert_eq!(
        layout(&rt),
        vec![
            (Kind::WorkStealing, vec![1, 2]),
            (Kind::Worker(0), vec![]),
            (Kind::Worker(1), vec![]),
        ]
    );
    let ran = run(&rt, &(0..60).collect::<Vec<_>>());
    let mut prios: Vec<i32> = ran.iter().map(|x| x.0).collect();
    prios.sort();
    assert_eq!(prios, (0..60).collect::<Vec<_>>());
    rt.shutdown();
    let rt = runtime(1, "modular-ws");
    let prios: Vec<i32> = run(&rt, &[1, 5, 2]).into_iter().map(|x| x.0).collect();
    assert_eq!(prios, vec![5, 2, 1]);
    rt.shutdown();
}

#[test]
fn policies_not_there_yet_start_the_default_one() {
    // As StarPU does for a policy it does not know: a warning, then the default policy.
    let rt = Runtime::start(Config {
        ncpus: Some(1),
        sched_policy: Some("modular-heteroprio-heft".into()),
        silent: true,
        ..Config::default()
    })
    .unwrap();
    assert_eq!(rt.policy_name(), starpu_core::sched::DEFAULT_POLICY);
    rt.shutdown();
}
