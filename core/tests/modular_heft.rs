//! The model-based modular policies (`modular-heft`, `modular-heft2`,
//! `modular-heft-prio`) through the safe Rust API: where tasks go when cost functions
//! make one worker or one implementation cheaper, that tasks without a model still
//! run, the order of priorities, and `can_execute` restrictions (calibration:
//! `sched_models.rs`). The tests observe where and what ran, never how long anything
//! took.

mod common;

use starpu_core::perfmodel::PerfModel;
use starpu_core::{AccessMode, Codelet, Runtime};
use std::sync::{Arc, Mutex};

const POLICIES: &[&str] = &["modular-heft", "modular-heft2", "modular-heft-prio"];

fn runtime(ncpus: usize, sched: &str) -> Arc<Runtime> {
    common::runtime(ncpus, Some(sched))
}

/// A codelet recording (worker, implementation) of each run, with `model`.
fn recording(
    name: &str,
    nimpls: usize,
    model: Option<PerfModel>,
    ran: Arc<Mutex<Vec<(usize, usize)>>>,
) -> Arc<Codelet> {
    let mut cl = Codelet::new(name).modes([AccessMode::RW]);
    for i in 0..nimpls {
        let r = ran.clone();
        cl = cl.cpu(move |call| {
            r.lock().unwrap().push((call.worker(), i));
            call.vector_mut::<u64>(0)?[0] += 1;
            Ok(())
        });
    }
    cl.model = model;
    Arc::new(cl)
}

#[test]
fn the_policies_are_offered() {
    for sched in POLICIES {
        let rt = runtime(1, sched);
        assert_eq!(rt.policy_name(), *sched);
        rt.shutdown();
    }
}

/// Runs `n` tasks of a one-implementation codelet with `model` (queued while the
/// workers are paused, each on its own vector, which it increments) on two workers;
/// returns (worker, implementation) of each run, in order, after checking every result.
fn batch(sched: &str, name: &str, model: PerfModel, n: usize) -> Vec<(usize, usize)> {
    let rt = runtime(2, sched);
    let ran = Arc::new(Mutex::new(Vec::new()));
    let cl = recording(name, 1, Some(model), ran.clone());
    let handles: Vec<_> = (0..n)
        .map(|_| rt.register_vector(vec![0u64; 1]).unwrap())
        .collect();
    rt.pause();
    for h in &handles {
        rt.task(&cl).buffer(h, AccessMode::RW).submit().unwrap();
    }
    rt.resume();
    rt.wait_for_all().unwrap();
    for h in handles {
        assert_eq!(
            rt.unregister_take::<Vec<u64>>(&h).unwrap(),
            vec![1],
            "{sched}"
        );
    }
    rt.shutdown();
    let v = ran.lock().unwrap().clone();
    v
}

/// Worker 1 predicted 100,000 times faster than worker 0. The gap is wide so that no
/// drift of the expected ends from the clock (a slow run under ThreadSanitizer makes each
/// 10 us task take milliseconds) can make worker 0's one task look sooner.
fn worker_1_faster() -> PerfModel {
    PerfModel::per_worker(|_, w, _| if w == 1 { 10.0 } else { 1_000_000.0 })
}

#[test]
fn tasks_go_to_the_worker_of_least_expected_completion() {
    // 20 tasks queued on worker 1 end (20 x 10 us) before one task would on worker 0
    // (1 s), whatever the clock says.
    for sched in ["modular-heft", "modular-heft2"] {
        let ran = batch(sched, "w1_faster", worker_1_faster(), 20);
        assert_eq!(ran, vec![(1, 0); 20], "{sched}");
    }
}

#[test]
fn tasks_wait_above_a_full_queue_then_go_where_chosen() {
    // Worker 1's queue takes 30 tasks; the others wait in the window and are placed as
    // it takes tasks, still on worker 1 (at most 30 x 10 us queued there, against
    // 1 s for one task on worker 0): the decision does not fall back to a worse worker
    // because the best one's queue is full.
    for sched in ["modular-heft", "modular-heft2"] {
        let ran = batch(sched, "w1_faster_many", worker_1_faster(), 100);
        assert_eq!(ran, vec![(1, 0); 100], "{sched}");
    }
}

#[test]
fn equal_workers_share_the_work_by_expected_end() {
    // Both workers predicted equal: each new task goes where the queued work ends
    // first, so the 20 tasks queued while paused are split evenly.
    for sched in ["modular-heft", "modular-heft2"] {
        let ran = batch(sched, "equal", PerfModel::common(|_, _| 100.0), 20);
        assert_eq!(ran.iter().filter(|r| r.0 == 1).count(), 10, "{sched}");
    }
}

#[test]
fn the_cheapest_implementation_runs() {
    for sched in POLICIES {
        let rt = runtime(2, sched);
        let ran = Arc::new(Mutex::new(Vec::new()));
        let model = PerfModel::common(|_, nimpl| if nimpl == 1 { 5.0 } else { 500.0 });
        let cl = recording("impl1_faster", 2, Some(model), ran.clone());
        let h = rt.register_vector(vec![0u64; 1]).unwrap();
        for _ in 0..30 {
            rt.task(&cl).buffer(&h, AccessMode::RW).submit().unwrap();
        }
        rt.wait_for_all().unwrap();
        let impls: Vec<usize> = ran.lock().unwrap().iter().map(|r| r.1).collect();
        assert_eq!(impls, vec![1; 30], "{sched}");
        assert_eq!(
            rt.unregister_take::<Vec<u64>>(&h).unwrap(),
            vec![30],
            "{sched}"
        );
        rt.shutdown();
    }
}

/// Runs one task per priority (queued while paused) on one worker; returns the
/// priorities in the order the tasks ran.
fn priorities_run(sched: &str, model: Option<PerfModel>) -> Vec<i32> {
    let rt = runtime(1, sched);
    let order = Arc::new(Mutex::new(Vec::new()));
    let mut cls = Vec::new();
    rt.pause();
    for p in [3, -1, 7, 0, 7] {
        let o = order.clone();
        let mut cl = Codelet::new("prio").cpu(move |_| {
            o.lock().unwrap().push(p);
            Ok(())
        });
        cl.model = model.clone();
        let cl = Arc::new(cl);
        rt.task(&cl).priority(p).submit().unwrap();
        cls.push(cl);
    }
    rt.resume();
    rt.wait_for_all().unwrap();
    rt.shutdown();
    let v = order.lock().unwrap().clone();
    v
}

#[test]
fn higher_priorities_run_first() {
    for sched in POLICIES {
        let with_model = priorities_run(sched, Some(PerfModel::common(|_, _| 50.0)));
        assert_eq!(with_model, vec![7, 7, 3, 0, -1], "{sched} with a model");
        let without = priorities_run(sched, None);
        assert_eq!(without, vec![7, 7, 3, 0, -1], "{sched} without a model");
    }
}

#[test]
fn restricted_tasks_run_only_where_allowed_with_correct_results() {
    for sched in POLICIES {
        let rt = runtime(2, sched);
        let ran = Arc::new(Mutex::new(Vec::new()));
        // Predicted cheaper on worker 1, but only worker 0 may run it.
        let model = PerfModel::per_worker(|_, w, _| if w == 1 { 1.0 } else { 100.0 });
        let mut only0 = (*recording("only0", 1, Some(model), ran.clone())).clone();
        only0 = only0.can_execute(|w, _, _| w == 0);
        let only0 = Arc::new(only0);
        // No model, only worker 1.
        let mut only1 = (*recording("only1", 1, None, ran.clone())).clone();
        only1 = only1.can_execute(|w, _, _| w == 1);
        let only1 = Arc::new(only1);
        let a = rt.register_vector(vec![0u64; 1]).unwrap();
        let b = rt.register_vector(vec![0u64; 1]).unwrap();
        for _ in 0..25 {
            rt.task(&only0).buffer(&a, AccessMode::RW).submit().unwrap();
            rt.task(&only1).buffer(&b, AccessMode::RW).submit().unwrap();
        }
        rt.wait_for_all().unwrap();
        let ran = ran.lock().unwrap().clone();
        assert_eq!(ran.len(), 50, "{sched}");
        for (h, w) in [(&a, 0), (&b, 1)] {
            assert_eq!(
                rt.unregister_take::<Vec<u64>>(h).unwrap(),
                vec![25],
                "{sched}"
            );
            assert_eq!(ran.iter().filter(|r| r.0 == w).count(), 25, "{sched}");
        }
        rt.shutdown();
    }
}
