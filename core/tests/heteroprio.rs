//! The `heteroprio` policy through the safe Rust API: buckets by priority, each
//! architecture's list of buckets, the configuration calls and their errors. Tasks are
//! queued while the workers are paused, so the order the policy chooses is the order seen.

use starpu_core::sched::heteroprio::MAX_PRIO;
use starpu_core::{Codelet, Config, ErrorKind, Runtime};
use std::sync::{Arc, Mutex};

fn runtime(ncpus: usize) -> Arc<Runtime> {
    Runtime::start(Config {
        ncpus: Some(ncpus),
        sched_policy: Some("heteroprio".into()),
        silent: true,
        ..Config::default()
    })
    .unwrap()
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
    rt.with_heteroprio(0, |h| {
        h.set_nb_prios(0, 3)?;
        // CPU level 0 takes bucket 2, level 1 bucket 0, level 2 bucket 1.
        h.set_mapping(0, 0, 2)?;
        h.set_mapping(0, 1, 0)?;
        h.set_mapping(0, 2, 1)
    })
    .unwrap();
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
    let rt = Runtime::start(Config {
        ncpus: Some(1),
        sched_policy: Some("eager".into()),
        silent: true,
        ..Config::default()
    })
    .unwrap();
    let e = rt.with_heteroprio(0, |h| h.set_nb_prios(0, 1)).unwrap_err();
    assert!(e.message.contains("not heteroprio"), "{}", e.message);
    rt.shutdown();
}
