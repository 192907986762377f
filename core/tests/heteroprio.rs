//! The `heteroprio` policy through the safe Rust API: buckets by priority, each
//! architecture's list of buckets, the configuration calls and their errors, the
//! per-worker prefetch queues, the locality-aware mode and auto-calibration. Tasks are
//! queued while the workers are paused, so the order the policy chooses is the order seen.

mod common;

use starpu_core::perfmodel::PerfModel;
use starpu_core::sched::heteroprio::options::{AutoOptions, LaOptions, Options};
use starpu_core::sched::heteroprio::{Heteroprio, MAX_PRIO};
use starpu_core::sched::PolicyFactory;
use starpu_core::{AccessMode, Codelet, Config, ErrorKind, Runtime};
use std::collections::HashMap;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn runtime(ncpus: usize) -> Arc<Runtime> {
    common::runtime(ncpus, Some("heteroprio"))
}

/// Heteroprio with explicit options (the environment is the process's, shared by the
/// tests of this file).
fn runtime_with(ncpus: usize, opts: Options) -> Arc<Runtime> {
    common::start(Config {
        ncpus: Some(ncpus),
        custom_policy: Some(PolicyFactory::new(move |_, workers| {
            Box::new(Heteroprio::with_options(workers, opts.clone()))
        })),
        ..Config::default()
    })
}

fn la() -> Options {
    Options {
        locality: Some(LaOptions::read(&|_| None).unwrap()),
        auto: None,
    }
}

fn vars(table: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
    let m: HashMap<String, String> = table
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    move |n| m.get(n).cloned()
}

/// CPU level 0 takes bucket 2, level 1 bucket 0, level 2 bucket 1.
fn map_2_0_1(rt: &Runtime) {
    rt.with_heteroprio(0, |h| {
        h.set_nb_prios(0, 3)?;
        h.set_mapping(0, 0, 2)?;
        h.set_mapping(0, 1, 0)?;
        h.set_mapping(0, 2, 1)
    })
    .unwrap();
}

/// Submits one task per priority (paused), resumes, and returns the priorities in the
/// order the tasks ran.
fn run_order(rt: &Runtime, priorities: &[i32]) -> Vec<i32> {
    let order = Arc::new(Mutex::new(Vec::new()));
    rt.pause();
    for &p in priorities {
        let o = order.clone();
        let cl = Arc::new(Codelet::new("hp").cpu(move |_| {
            o.lock().unwrap().push(p);
            Ok(())
        }));
        rt.task(&cl).priority(p).submit().unwrap();
    }
    rt.resume();
    rt.wait_for_all().unwrap();
    let v = order.lock().unwrap().clone();
    v
}

#[test]
fn default_lists_take_bucket_zero_first_then_fifo_within_a_bucket() {
    let rt = runtime(1);
    assert_eq!(rt.policy_name(), "heteroprio");
    assert_eq!(
        rt.with_heteroprio(0, |h| Ok(h.levels(0))).unwrap(),
        (0..MAX_PRIO).collect::<Vec<_>>()
    );
    let order = run_order(&rt, &[5, 0, 99, 3, 0, 5]);
    assert_eq!(order, vec![0, 0, 3, 5, 5, 99]);
    rt.shutdown();
}

#[test]
fn the_mapping_decides_the_order_of_the_buckets() {
    let rt = runtime(1);
    map_2_0_1(&rt);
    assert_eq!(
        rt.with_heteroprio(0, |h| Ok(h.levels(0))).unwrap(),
        vec![2, 0, 1]
    );
    let order = run_order(&rt, &[0, 1, 2, 1, 0, 2]);
    assert_eq!(order, vec![2, 2, 0, 0, 1, 1]);
    rt.shutdown();
}

#[test]
fn a_faster_architecture_without_workers_holds_no_task_back() {
    // Bucket 0's fastest architecture is CUDA, with a slow factor of 3 for CPUs. StarPU
    // leaves a bucket's last tasks to the faster architecture; here it has no worker, so
    // the CPU takes them all, in the order of its list.
    let rt = runtime(1);
    rt.with_heteroprio(0, |h| {
        h.set_nb_prios(0, 2)?;
        h.set_mapping(0, 0, 0)?;
        h.set_mapping(0, 1, 1)?;
        h.set_faster_arch(1, 0)?;
        h.set_arch_slow_factor(0, 0, 3.0)
    })
    .unwrap();
    let order = run_order(&rt, &[1, 0, 0, 1, 0]);
    assert_eq!(order, vec![0, 0, 0, 1, 1]);
    rt.shutdown();
}

#[test]
fn tasks_of_an_unmapped_priority_run_after_the_mapped_ones() {
    let rt = runtime(1);
    rt.with_heteroprio(0, |h| {
        h.set_nb_prios(0, 1)?;
        h.set_mapping(0, 0, 4)
    })
    .unwrap();
    let order = run_order(&rt, &[7, 4, 4]);
    assert_eq!(order, vec![4, 4, 7]);
    rt.shutdown();
}

#[test]
fn two_workers_run_every_task() {
    let rt = runtime(2);
    let prios: Vec<i32> = (0..40).map(|i| i % 7).collect();
    let mut order = run_order(&rt, &prios);
    order.sort();
    let mut want = prios.clone();
    want.sort();
    assert_eq!(order, want);
    rt.shutdown();
}

#[test]
fn bad_configuration_is_an_error() {
    let rt = runtime(1);
    let e = rt
        .with_heteroprio(0, |h| h.set_mapping(0, 0, MAX_PRIO))
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::InvalidArgument);
    assert!(e.message.contains("bucket 100"), "{}", e.message);
    let e = rt
        .with_heteroprio(0, |h| h.set_nb_prios(42, 1))
        .unwrap_err();
    assert!(e.message.contains("architecture 42"), "{}", e.message);
    let e = rt
        .with_heteroprio(0, |h| h.set_arch_slow_factor(0, 1, -1.0))
        .unwrap_err();
    assert!(e.message.contains("slow factor"), "{}", e.message);
    rt.shutdown();
    let rt = common::runtime(1, Some("eager"));
    let e = rt.with_heteroprio(0, |h| h.set_nb_prios(0, 1)).unwrap_err();
    assert!(e.message.contains("not heteroprio"), "{}", e.message);
    rt.shutdown();
}

/// One worker; a gate task (priority 0) is running when a task of priority 1 comes, a
/// task of priority 5 having come before the gate started. Returns the order.
fn late_urgent_task_order(rt: &Arc<Runtime>) -> Vec<&'static str> {
    let order = Arc::new(Mutex::new(Vec::new()));
    let (started_tx, started_rx) = mpsc::channel::<()>();
    let (go_tx, go_rx) = mpsc::channel::<()>();
    let go_rx = Mutex::new(go_rx);
    let started_tx = Mutex::new(started_tx);
    let o = order.clone();
    let gate = Arc::new(Codelet::new("gate").cpu(move |_| {
        o.lock().unwrap().push("gate");
        started_tx.lock().unwrap().send(()).unwrap();
        // A deadlock guard, not a timing threshold.
        go_rx
            .lock()
            .unwrap()
            .recv_timeout(Duration::from_secs(60))
            .unwrap();
        Ok(())
    }));
    let named = |name: &'static str| {
        let o = order.clone();
        Arc::new(Codelet::new(name).cpu(move |_| {
            o.lock().unwrap().push(name);
            Ok(())
        }))
    };
    let (early, late) = (named("early_p5"), named("late_p1"));
    rt.pause();
    rt.task(&gate).priority(0).submit().unwrap();
    rt.task(&early).priority(5).submit().unwrap();
    rt.resume();
    started_rx.recv_timeout(Duration::from_secs(60)).unwrap();
    rt.task(&late).priority(1).submit().unwrap();
    go_tx.send(()).unwrap();
    rt.wait_for_all().unwrap();
    let v = order.lock().unwrap().clone();
    v
}

#[test]
fn a_worker_runs_the_tasks_it_queued_before_a_later_more_urgent_one() {
    // StarPU's STARPU_HETEROPRIO_MAX_PREFETCH (2): taking the gate, the worker also
    // queued the priority-5 task, which is then its own.
    let rt = runtime(1);
    assert!(!rt.with_heteroprio(0, |h| Ok(h.uses_locality())).unwrap());
    assert_eq!(late_urgent_task_order(&rt), ["gate", "early_p5", "late_p1"]);
    rt.shutdown();
}

#[test]
fn the_locality_aware_mode_takes_one_task_at_a_time() {
    let rt = runtime_with(1, la());
    assert!(rt.with_heteroprio(0, |h| Ok(h.uses_locality())).unwrap());
    assert_eq!(late_urgent_task_order(&rt), ["gate", "late_p1", "early_p5"]);
    rt.shutdown();
}

#[test]
fn the_locality_aware_mode_keeps_the_bucket_order_with_one_memory_node() {
    let rt = runtime_with(1, la());
    map_2_0_1(&rt);
    let order = run_order(&rt, &[0, 1, 2, 1, 0, 2]);
    assert_eq!(order, vec![2, 2, 0, 0, 1, 1]);
    let report = rt.with_heteroprio(0, |h| h.wgroups_report()).unwrap();
    assert!(report.contains("There are 1 groups"), "{report}");
    assert!(report.contains("Worker 0 => group 0"), "{report}");
    // Level 2 (bucket 1) is visited third, in the only group.
    assert!(report.contains("Prio   2 (Bucket   1) => [ 2]"), "{report}");
    rt.shutdown();
}

/// A chain of increments on one variable and independent tasks of mixed priorities on
/// two workers: every task runs exactly once and the variable holds the right sum.
fn every_task_runs_once(rt: &Arc<Runtime>) {
    let x = rt.register_variable(0i64).unwrap();
    let add = Arc::new(Codelet::new("add").variable_buffers().cpu(|call| {
        *call.variable_mut::<i64>(0)? += 1;
        Ok(())
    }));
    let counts: Arc<Vec<Mutex<u32>>> = Arc::new((0..300).map(|_| Mutex::new(0)).collect());
    let c = counts.clone();
    let mark = Arc::new(Codelet::new("mark").cpu(move |call| {
        *c[*call.arg::<usize>(0)?].lock().unwrap() += 1;
        Ok(())
    }));
    for i in 0..300usize {
        rt.task(&mark)
            .priority((i % 7) as i32)
            .arg(i)
            .submit()
            .unwrap();
        if i % 3 == 0 {
            rt.task(&add)
                .priority((i % 5) as i32)
                .buffer(&x, AccessMode::RW)
                .submit()
                .unwrap();
        }
    }
    rt.wait_for_all().unwrap();
    assert!(counts.iter().all(|c| *c.lock().unwrap() == 1));
    let a = rt.acquire_view(&x, AccessMode::R).unwrap();
    assert_eq!(*a.views().variable::<i64>(0).unwrap(), 100);
}

#[test]
fn every_task_runs_once_with_prefetch_queues() {
    let rt = runtime(2);
    every_task_runs_once(&rt);
    rt.shutdown();
}

#[test]
fn every_task_runs_once_in_the_locality_aware_mode() {
    let rt = runtime_with(2, la());
    every_task_runs_once(&rt);
    rt.shutdown();
}

#[test]
fn an_idle_worker_steals_a_task_queued_by_a_busy_one() {
    // Worker A takes the gate and queues `x`; worker B takes `y`, then, the buckets
    // being empty, steals `x` from A's queue while the gate still runs. The gate waits for
    // `x` (a deadlock guard bounds the wait): without stealing it would wait forever.
    let rt = runtime(2);
    let (x_tx, x_rx) = mpsc::channel::<()>();
    let x_rx = Mutex::new(x_rx);
    let x_tx = Mutex::new(x_tx);
    let gate = Arc::new(Codelet::new("gate").cpu(move |_| {
        x_rx.lock()
            .unwrap()
            .recv_timeout(Duration::from_secs(60))
            .map_err(|_| starpu_core::Error::invalid("x never ran while the gate ran"))?;
        Ok(())
    }));
    let x = Arc::new(Codelet::new("x").cpu(move |_| {
        x_tx.lock().unwrap().send(()).unwrap();
        Ok(())
    }));
    let y = Arc::new(Codelet::new("y").cpu(|_| Ok(())));
    rt.pause();
    let g = rt.task(&gate).priority(0).detach(false).submit().unwrap();
    rt.task(&x).priority(1).submit().unwrap();
    rt.task(&y).priority(2).submit().unwrap();
    rt.resume();
    rt.wait(&g).unwrap();
    rt.wait_for_all().unwrap();
    rt.shutdown();
}

#[test]
fn heteroprio_variables_are_parsed() {
    let o = Options::read(&vars(&[
        ("STARPU_HETEROPRIO_USE_LA", "1"),
        ("STARPU_LAHETEROPRIO_PUSH", "LS_SDH2"),
        ("STARPU_LAHETEROPRIO_S_CPU", "3"),
        ("STARPU_LAHETEROPRIO_PRIO_STEP_CPU", "2"),
        ("STARPU_HETEROPRIO_USE_AUTO_CALIBRATION", "1"),
        ("STARPU_HETEROPRIO_CODELET_GROUPING_STRATEGY", "1"),
        ("STARPU_AUTOHETEROPRIO_PRIORITY_ORDERING_POLICY", "3"),
        ("STARPU_AUTOHETEROPRIO_ORDERING_INTERVAL", "5"),
        ("STARPU_AUTOHETEROPRIO_FREEZE_GATHERING", "1"),
        (
            "STARPU_HETEROPRIO_URT_DOT_DIFF_4_ARCH_NEED_MULTIPLIER",
            "2.5",
        ),
        ("STARPU_HETEROPRIO_DATA_FILE", "/tmp/x.data"),
    ]))
    .unwrap();
    let l = o.locality.unwrap();
    assert_eq!(format!("{:?}", l.push), "LsSdh2");
    assert_eq!((l.closed_nodes[0], l.prio_step[0]), (Some(3), Some(2)));
    let a = o.auto.unwrap();
    assert_eq!(format!("{:?}", a.grouping), "ByNameOnly");
    assert_eq!((a.policy.0, a.interval, a.freeze), (3, 5, true));
    assert_eq!(a.weights.and4, 2.5);
    assert_eq!(a.data_file, std::path::PathBuf::from("/tmp/x.data"));
    // Defaults: neither mode; under auto, StarPU's URT_DOT_DIFF_4 every 32 pushes.
    let d = Options::read(&vars(&[])).unwrap();
    assert!(d.locality.is_none() && d.auto.is_none());
    let a = AutoOptions::read(&vars(&[]), "/tmp/d".into()).unwrap();
    assert_eq!((a.policy.0, a.interval, a.freeze), (12, 32, false));
    for (var, value) in [
        ("STARPU_LAHETEROPRIO_PUSH", "NEAREST"),
        ("STARPU_AUTOHETEROPRIO_PRIORITY_ORDERING_POLICY", "28"),
        ("STARPU_LAHETEROPRIO_S_CPU", "-1"),
        ("STARPU_HETEROPRIO_URT_URT_MULTIPLIER", "much"),
    ] {
        let e = Options::read(&vars(&[
            ("STARPU_HETEROPRIO_USE_LA", "1"),
            ("STARPU_HETEROPRIO_USE_AUTO_CALIBRATION", "1"),
            (var, value),
        ]))
        .unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidArgument);
        assert!(e.message.contains(var), "{}", e.message);
    }
}

fn timed(name: &'static str, micros: f64) -> Arc<Codelet> {
    let mut cl = Codelet::new(name).cpu(|_| Ok(()));
    cl.model = Some(PerfModel::common(move |_, _| micros));
    Arc::new(cl)
}

#[test]
fn auto_calibration_puts_the_codelet_expected_faster_first() {
    let dir = std::env::temp_dir().join(format!("hp-auto-{}", std::process::id()));
    let file = dir.join("prog.data");
    let _ = std::fs::remove_file(&file);
    let mut auto = AutoOptions::read(&vars(&[]), file.clone()).unwrap();
    auto.interval = 0; // order the lists at every push
    let opts = Options {
        locality: None,
        auto: Some(auto),
    };
    let rt = runtime_with(1, opts.clone());
    let (slow, fast) = (timed("slow", 5000.0), timed("fast", 10.0));
    // Calibration: the lengths are recorded as workers take the tasks.
    for _ in 0..4 {
        rt.task(&slow).submit().unwrap();
        rt.task(&fast).submit().unwrap();
    }
    rt.wait_for_all().unwrap();
    // Priorities do not count in this mode: the codelets make the buckets.
    let order = Arc::new(Mutex::new(Vec::new()));
    let named = |name: &'static str, micros: f64| {
        let o = order.clone();
        let mut cl = Codelet::new(name).cpu(move |_| {
            o.lock().unwrap().push(name);
            Ok(())
        });
        cl.model = Some(PerfModel::common(move |_, _| micros));
        Arc::new(cl)
    };
    let (slow2, fast2) = (named("slow", 5000.0), named("fast", 10.0));
    rt.pause();
    for _ in 0..3 {
        rt.task(&slow2).priority(0).submit().unwrap();
        rt.task(&fast2).priority(99).submit().unwrap();
    }
    assert_eq!(
        rt.with_heteroprio(0, |h| Ok(h.level_names(0))).unwrap(),
        ["fast", "slow"]
    );
    rt.resume();
    rt.wait_for_all().unwrap();
    assert_eq!(
        *order.lock().unwrap(),
        ["fast", "fast", "fast", "slow", "slow", "slow"]
    );
    // A configuration call is overwritten by the mode (with a warning), not an error.
    rt.with_heteroprio(0, |h| h.set_nb_prios(0, 1)).unwrap();
    assert_eq!(rt.with_heteroprio(0, |h| Ok(h.levels(0).len())).unwrap(), 2);
    rt.shutdown();
    // The next run starts from the data file: both codelets have their bucket already.
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.starts_with("##################\n# Known architectures"),
        "{text}"
    );
    let rt = runtime_with(1, opts);
    let mut names = rt.with_heteroprio(0, |h| Ok(h.level_names(0))).unwrap();
    names.sort();
    assert_eq!(names, ["fast", "slow"]);
    rt.shutdown();
    let _ = std::fs::remove_dir_all(&dir);
}
