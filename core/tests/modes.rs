//! Access modes beyond R/W/RW: COMMUTE (with and without arbiters), REDUX, SCRATCH.

mod common;

use starpu_core::data::{Arbiter, ReductionMethods};
use starpu_core::task::Task;
use starpu_core::{AccessMode, Codelet, ErrorKind, Runtime};
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

const COMMUTE_RW: AccessMode = AccessMode::RW.union(AccessMode::COMMUTE);

fn runtime(ncpus: usize) -> Arc<Runtime> {
    common::runtime(ncpus, None)
}

/// A log of events, in the order they happened.
#[derive(Default, Clone)]
struct Log(Arc<Mutex<Vec<String>>>);

impl Log {
    fn push(&self, s: impl Into<String>) {
        self.0.lock().unwrap().push(s.into());
    }
    fn get(&self) -> Vec<String> {
        self.0.lock().unwrap().clone()
    }
}

/// Counts how many kernels are inside at once, and the most ever seen.
#[derive(Default)]
struct Overlap {
    inside: AtomicUsize,
    most: AtomicUsize,
}

impl Overlap {
    fn enter(&self) {
        let n = self.inside.fetch_add(1, Ordering::SeqCst) + 1;
        self.most.fetch_max(n, Ordering::SeqCst);
    }
    fn leave(&self) {
        self.inside.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A codelet adding its argument to variable 0, logging `start NAME` / `end NAME`, with a
/// short sleep that makes overlapping very likely if exclusion were missing.
fn logged_add(log: &Log, overlap: &Arc<Overlap>, nbuffers: usize) -> Arc<Codelet> {
    let (log, overlap) = (log.clone(), overlap.clone());
    Arc::new(Codelet::new("add").variable_buffers().cpu(move |call| {
        let name = call.task().name().unwrap_or_default();
        overlap.enter();
        log.push(format!("start {name}"));
        std::thread::sleep(Duration::from_millis(2));
        for i in 0..nbuffers {
            *call.variable_mut::<i64>(i)? += *call.arg::<i64>(0)?;
        }
        log.push(format!("end {name}"));
        overlap.leave();
        Ok(())
    }))
}

fn read(rt: &Arc<Runtime>, h: &starpu_core::DataHandle) -> i64 {
    let a = rt.acquire_view(h, AccessMode::R).unwrap();
    let v = *a.views().variable::<i64>(0).unwrap();
    v
}

#[test]
fn commuting_tasks_run_in_either_order_but_never_together() {
    let rt = runtime(2);
    let x = rt.register_variable(0i64).unwrap();
    let (log, overlap) = (Log::default(), Arc::new(Overlap::default()));
    let cl = logged_add(&log, &overlap, 1);
    // First submitted, held back by a task not submitted yet.
    let gate = Task::new();
    rt.task(&cl)
        .name("first")
        .buffer(&x, COMMUTE_RW)
        .arg(1i64)
        .after(&gate)
        .submit()
        .unwrap();
    let second = rt
        .task(&cl)
        .name("second")
        .buffer(&x, COMMUTE_RW)
        .arg(10i64)
        .detach(false)
        .submit()
        .unwrap();
    // The second one does not wait for the first: commuting writers may swap.
    rt.wait(&second).unwrap();
    assert_eq!(log.get(), ["start second", "end second"]);
    rt.task_for(gate, None).submit().unwrap();
    // A plain writer after the group waits for both.
    rt.task(&cl)
        .name("after")
        .buffer(&x, AccessMode::RW)
        .arg(100i64)
        .submit()
        .unwrap();
    assert_eq!(read(&rt, &x), 111);
    assert_eq!(
        log.get(),
        [
            "start second",
            "end second",
            "start first",
            "end first",
            "start after",
            "end after"
        ]
    );
    rt.shutdown();
}

#[test]
fn many_commuting_tasks_exclude_each_other_and_sum_exactly() {
    let rt = runtime(2);
    let x = rt.register_variable(0i64).unwrap();
    let (log, overlap) = (Log::default(), Arc::new(Overlap::default()));
    let cl = logged_add(&log, &overlap, 1);
    rt.task(&cl)
        .name("w")
        .buffer(&x, AccessMode::W)
        .arg(5i64)
        .submit()
        .unwrap();
    for i in 0..40 {
        rt.task(&cl)
            .name(format!("c{i}"))
            .buffer(&x, COMMUTE_RW)
            .arg(1i64)
            .submit()
            .unwrap();
    }
    assert_eq!(read(&rt, &x), 45);
    assert_eq!(
        overlap.most.load(Ordering::SeqCst),
        1,
        "two commuting tasks overlapped"
    );
    let events = log.get();
    assert_eq!(
        events[..2],
        ["start w", "end w"],
        "the group waits for the writer before it"
    );
    rt.shutdown();
}

#[test]
fn tasks_commuting_on_two_handles_in_opposite_orders_do_not_deadlock() {
    let rt = runtime(2);
    let x = rt.register_variable(0i64).unwrap();
    let y = rt.register_variable(0i64).unwrap();
    let (log, overlap) = (Log::default(), Arc::new(Overlap::default()));
    let cl = logged_add(&log, &overlap, 2);
    for i in 0..30 {
        let (a, b) = if i % 2 == 0 { (&x, &y) } else { (&y, &x) };
        rt.task(&cl)
            .name(format!("t{i}"))
            .buffer(a, COMMUTE_RW)
            .buffer(b, COMMUTE_RW)
            .arg(1i64)
            .submit()
            .unwrap();
    }
    rt.wait_for_all().unwrap();
    assert_eq!((read(&rt, &x), read(&rt, &y)), (30, 30));
    assert_eq!(overlap.most.load(Ordering::SeqCst), 1);
    rt.shutdown();
}

#[test]
fn an_arbiter_takes_its_handles_together() {
    let rt = runtime(2);
    let arb = Arbiter::new();
    let x = rt.register_variable(0i64).unwrap();
    let y = rt.register_variable(0i64).unwrap();
    x.assign_arbiter(&arb).unwrap();
    y.assign_arbiter(&arb).unwrap();
    assert_eq!(arb.handles(), 2);
    assert!(x.arbiter().unwrap().ptr_eq(&arb));
    let other = Arbiter::new();
    let e = x.assign_arbiter(&other).unwrap_err();
    assert_eq!(e.kind, ErrorKind::InvalidArgument);
    let (log, overlap) = (Log::default(), Arc::new(Overlap::default()));
    let both = logged_add(&log, &overlap, 2);
    let one = logged_add(&log, &overlap, 1);
    for i in 0..20 {
        rt.task(&both)
            .name(format!("b{i}"))
            .buffer(&x, COMMUTE_RW)
            .buffer(&y, COMMUTE_RW)
            .arg(1i64)
            .submit()
            .unwrap();
        let h = if i % 2 == 0 { &x } else { &y };
        rt.task(&one)
            .name(format!("o{i}"))
            .buffer(h, COMMUTE_RW)
            .arg(1i64)
            .submit()
            .unwrap();
    }
    rt.wait_for_all().unwrap();
    assert_eq!((read(&rt, &x), read(&rt, &y)), (30, 30));
    rt.unregister(&x, true).unwrap();
    assert_eq!(arb.handles(), 1);
    rt.unregister(&y, true).unwrap();
    assert_eq!(arb.handles(), 0);
    rt.shutdown();
}

/// Reduction methods over an i64 variable that count their calls per worker.
fn sum_methods(inits: &Arc<Mutex<Vec<usize>>>) -> ReductionMethods {
    let inits = inits.clone();
    ReductionMethods {
        init: Arc::new(
            Codelet::new("zero")
                .modes([AccessMode::W])
                .cpu(move |call| {
                    inits.lock().unwrap().push(call.worker());
                    *call.variable_mut::<i64>(0)? = 0;
                    Ok(())
                }),
        ),
        redux: Arc::new(
            Codelet::new("sum")
                .modes([AccessMode::RW, AccessMode::R])
                .cpu(|call| {
                    let src = *call.variable::<i64>(1)?;
                    *call.variable_mut::<i64>(0)? += src;
                    Ok(())
                }),
        ),
    }
}

#[test]
fn a_dot_product_by_reduction_is_exact() {
    let rt = runtime(2);
    let n = 64usize;
    let xs: Vec<i64> = (0..n as i64).collect();
    let ys: Vec<i64> = (0..n as i64).map(|i| 3 - i).collect();
    let expected: i64 = xs.iter().zip(&ys).map(|(a, b)| a * b).sum();
    let x = rt.register_vector(xs).unwrap();
    let y = rt.register_vector(ys).unwrap();
    let dot = rt.register_variable(7i64).unwrap();
    let inits = Arc::new(Mutex::new(Vec::new()));
    dot.set_reduction_methods(sum_methods(&inits)).unwrap();
    let contributors = Arc::new(Mutex::new(BTreeSet::new()));
    let c2 = contributors.clone();
    let partial = Arc::new(
        Codelet::new("partial")
            .modes([AccessMode::R, AccessMode::R, AccessMode::REDUX])
            .cpu(move |call| {
                c2.lock().unwrap().insert(call.worker());
                let i = *call.arg::<usize>(0)?;
                let (x, y) = (call.vector::<i64>(0)?, call.vector::<i64>(1)?);
                *call.variable_mut::<i64>(2)? += x[i] * y[i];
                std::thread::sleep(Duration::from_micros(200));
                Ok(())
            }),
    );
    let submit_all = || {
        for i in 0..n {
            rt.task(&partial)
                .buffer(&x, AccessMode::R)
                .buffer(&y, AccessMode::R)
                .buffer(&dot, AccessMode::REDUX)
                .arg(i)
                .submit()
                .unwrap();
        }
    };
    submit_all();
    assert_eq!(read(&rt, &dot), 7 + expected);
    {
        let inits = inits.lock().unwrap();
        let distinct: BTreeSet<usize> = inits.iter().copied().collect();
        assert_eq!(
            inits.len(),
            distinct.len(),
            "init ran twice on one worker: {inits:?}"
        );
        assert_eq!(distinct, *contributors.lock().unwrap());
    }
    // REDUX again after the read: a new group starting from the reduced value.
    inits.lock().unwrap().clear();
    submit_all();
    assert_eq!(read(&rt, &dot), 7 + 2 * expected);
    assert!(!inits.lock().unwrap().is_empty());
    // A last group, folded by unregistration.
    submit_all();
    assert_eq!(rt.unregister_take::<i64>(&dot).unwrap(), 7 + 3 * expected);
    rt.shutdown();
}

#[test]
fn a_reduction_tree_over_four_workers_precedes_a_writer() {
    // Four workers: the tree folds slots (0,1) and (2,3), then (0,2), then into the data.
    let rt = runtime(4);
    let acc = rt.register_variable(1i64).unwrap();
    let inits = Arc::new(Mutex::new(Vec::new()));
    acc.set_reduction_methods(sum_methods(&inits)).unwrap();
    let add = Arc::new(Codelet::new("add").modes([AccessMode::REDUX]).cpu(|call| {
        *call.variable_mut::<i64>(0)? += *call.arg::<i64>(0)?;
        Ok(())
    }));
    let double = Arc::new(Codelet::new("double").modes([AccessMode::RW]).cpu(|call| {
        *call.variable_mut::<i64>(0)? *= 2;
        Ok(())
    }));
    for k in 0..10i64 {
        rt.task(&add)
            .buffer(&acc, AccessMode::REDUX)
            .arg(k)
            .worker(k as usize % 4)
            .submit()
            .unwrap();
    }
    rt.task(&double)
        .buffer(&acc, AccessMode::RW)
        .submit()
        .unwrap();
    for _ in 0..5 {
        rt.task(&add)
            .buffer(&acc, AccessMode::REDUX)
            .arg(1i64)
            .submit()
            .unwrap();
    }
    assert_eq!(read(&rt, &acc), (1 + 45) * 2 + 5);
    let mut workers = inits.lock().unwrap().clone();
    workers.sort();
    // Four contributors in the first group (pinned), at least one in the second.
    assert!(workers.len() >= 5, "{workers:?}");
    rt.shutdown();
}

#[test]
fn redux_without_reduction_methods_is_refused_at_submission() {
    let rt = runtime(1);
    let v = rt.register_variable(3i64).unwrap();
    let cl = Arc::new(
        Codelet::new("add")
            .modes([AccessMode::REDUX])
            .cpu(|_| Ok(())),
    );
    let e = rt
        .task(&cl)
        .buffer(&v, AccessMode::REDUX)
        .submit()
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::InvalidArgument);
    assert!(e.message.contains("reduction methods"), "{}", e.message);
    assert_eq!(read(&rt, &v), 3, "the data is untouched");
    v.set_reduction_methods(sum_methods(&Arc::new(Mutex::new(Vec::new()))))
        .unwrap();
    let e = rt
        .task(&cl)
        .buffer(&v, AccessMode::REDUX)
        .sequential_consistency(false)
        .submit()
        .unwrap_err();
    assert!(
        e.message.contains("sequential consistency"),
        "{}",
        e.message
    );
    let both = Arc::new(Codelet::new("both").variable_buffers().cpu(|_| Ok(())));
    let e = rt
        .task(&both)
        .buffer(&v, AccessMode::REDUX)
        .buffer(&v, AccessMode::R)
        .submit()
        .unwrap_err();
    assert!(e.message.contains("twice"), "{}", e.message);
    assert_eq!(read(&rt, &v), 3);
    rt.shutdown();
}

#[test]
fn scratch_buffers_are_per_worker_and_reused() {
    let rt = runtime(2);
    let s = rt.register_variable(0i64).unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let seen2 = seen.clone();
    let cl = Arc::new(
        Codelet::new("scratch")
            .modes([AccessMode::SCRATCH])
            .cpu(move |call| {
                let mut v = call.variable_mut::<i64>(0)?;
                seen2.lock().unwrap().push((call.worker(), *v));
                *v = 100 + call.worker() as i64;
                Ok(())
            }),
    );
    for w in [0, 0, 1, 1, 0] {
        rt.task(&cl)
            .buffer(&s, AccessMode::SCRATCH)
            .worker(w)
            .synchronous(true)
            .submit()
            .unwrap();
    }
    // A new buffer starts as the runtime allocated it; later tasks on the same worker
    // find what the previous one left there.
    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen[1], (0, 100));
    assert_eq!(seen[3], (1, 101));
    assert_eq!(seen[4], (0, 100));
    assert_eq!(s.scratch_buffers(), 2);
    assert_eq!(read(&rt, &s), 0, "SCRATCH never touches the data");
    rt.unregister(&s, true).unwrap();
    assert_eq!(s.scratch_buffers(), 0);
    rt.shutdown();
}
