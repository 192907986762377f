//! Model-based scheduling through the safe Rust API: dmda (and the other model-based
//! policies) learns which implementation of a codelet is faster and then runs that one.
//! The test observes which implementation ran, never how long anything took.

mod common;

use starpu_core::perfmodel::PerfModel;
use starpu_core::{AccessMode, Codelet, Runtime};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The policies placing tasks with performance models.
const MODEL_POLICIES: &[&str] = &[
    "dmda",
    "dm",
    "dmdas",
    "dmdap",
    "dmdasd",
    "dmdar",
    "heft",
    "modular-heft",
    "modular-heft2",
    "modular-heft-prio",
];

fn runtime(sched: &str) -> Arc<Runtime> {
    common::runtime(2, Some(sched))
}

/// A codelet whose implementation 0 sleeps and implementation 1 returns at once; `ran`
/// records the implementation of each run, in order.
fn two_speeds(symbol: &str, ran: Arc<Mutex<Vec<usize>>>) -> Arc<Codelet> {
    let (r0, r1) = (ran.clone(), ran);
    let mut cl = Codelet::new(symbol)
        .modes([AccessMode::R])
        .cpu(move |_| {
            std::thread::sleep(Duration::from_millis(3));
            r0.lock().unwrap().push(0);
            Ok(())
        })
        .cpu(move |_| {
            r1.lock().unwrap().push(1);
            Ok(())
        });
    cl.model = Some(PerfModel::history(symbol));
    Arc::new(cl)
}

#[test]
fn dmda_calibrates_both_implementations_then_runs_the_faster() {
    for sched in MODEL_POLICIES {
        let symbol = format!("test_two_speeds_{sched}_{}", std::process::id());
        let rt = runtime(sched);
        let ran = Arc::new(Mutex::new(Vec::new()));
        let cl = two_speeds(&symbol, ran.clone());
        let h = rt.register_vector(vec![0u8; 64]).unwrap();
        // Calibration, one task at a time: an uncalibrated implementation is measured
        // first, implementation 0 then 1, 11 runs each (the first run is not counted).
        for _ in 0..40 {
            rt.task(&cl)
                .buffer(&h, AccessMode::R)
                .synchronous(true)
                .submit()
                .unwrap();
        }
        let calibration = std::mem::take(&mut *ran.lock().unwrap());
        let slow = calibration.iter().filter(|&&i| i == 0).count();
        assert!(
            (11..30).contains(&slow),
            "{sched}: implementation 0 ran {slow} times while calibrating: {calibration:?}"
        );
        assert!(
            calibration[30..].iter().all(|&i| i == 1),
            "{sched}: {calibration:?}"
        );
        // Calibrated: every task of a batch goes to the fast implementation.
        for _ in 0..30 {
            rt.task(&cl).buffer(&h, AccessMode::R).submit().unwrap();
        }
        rt.wait_for_all().unwrap();
        assert_eq!(*ran.lock().unwrap(), vec![1; 30], "{sched}");
        rt.unregister(&h, true).unwrap();
        rt.shutdown();
    }
}

#[test]
fn model_policies_spread_tasks_without_a_model() {
    for sched in MODEL_POLICIES {
        let rt = runtime(sched);
        let workers = Arc::new(Mutex::new(Vec::new()));
        let w = workers.clone();
        let done = Arc::new(AtomicUsize::new(0));
        let d = done.clone();
        let cl = Arc::new(Codelet::new("no_model").cpu(move |call| {
            w.lock().unwrap().push(call.worker());
            std::thread::sleep(Duration::from_millis(20));
            d.fetch_add(1, Ordering::SeqCst);
            Ok(())
        }));
        for _ in 0..20 {
            rt.task(&cl).submit().unwrap();
        }
        rt.wait_for_all().unwrap();
        assert_eq!(done.load(Ordering::SeqCst), 20);
        let on0 = workers.lock().unwrap().iter().filter(|&&w| w == 0).count();
        // Placed by queued (and running) task count (the dm family), or taken by the
        // workers that ask (the modular trees): the second task already finds worker 0
        // busy, so both workers get work.
        assert!((1..20).contains(&on0), "{sched}: {on0} of 20 on worker 0");
        rt.shutdown();
    }
}

#[test]
fn footprints_are_starpus() {
    use starpu_core::perfmodel::footprint;
    use starpu_core::task::{Access, TaskSpec};
    let rt = runtime("eager");
    // A tiled Cholesky's gemm: three 256x256 double matrices. StarPU 1.3 files this task
    // under 5c6c3401 (read from a model file it wrote for bench/starpu-api/bench_cholesky).
    let tiles: Vec<_> = (0..3)
        .map(|_| {
            rt.register_matrix(vec![0f64; 256 * 256], 256, 256, 256)
                .unwrap()
        })
        .collect();
    let spec = TaskSpec {
        accesses: tiles
            .iter()
            .map(|h| Access {
                handle: h.clone(),
                mode: AccessMode::RW,
                sequential: true,
            })
            .collect(),
        ..Default::default()
    };
    assert_eq!(footprint(None, &spec, 0), 0x5c6c_3401);
    for h in &tiles {
        rt.unregister(h, true).unwrap();
    }
    rt.shutdown();
}

/// dmdas, dmdap and dmdasd keep each worker's queue ordered by priority: on one worker,
/// tasks queued while the runtime is paused run highest priority first, FIFO within a
/// priority.
#[test]
fn sorted_dm_policies_run_queued_tasks_by_priority() {
    for sched in ["dmdas", "dmdap", "dmdasd"] {
        let rt = common::runtime(1, Some(sched));
        rt.pause();
        let order = Arc::new(Mutex::new(Vec::new()));
        let priorities = [3, -2, 7, 0, 5, 0, 1, -9];
        for (i, &p) in priorities.iter().enumerate() {
            let o = order.clone();
            let cl = Arc::new(Codelet::new("prio_order").cpu(move |_| {
                o.lock().unwrap().push(i);
                Ok(())
            }));
            rt.task(&cl).priority(p).submit().unwrap();
        }
        rt.resume();
        rt.wait_for_all().unwrap();
        assert_eq!(
            *order.lock().unwrap(),
            vec![2, 4, 0, 6, 3, 5, 1, 7],
            "{sched}"
        );
        rt.shutdown();
    }
}

/// dmdasd places a task by the queued work that runs before it (its priority or higher);
/// dmda and dmdas by all the queued work. Worker 0 queues two low-priority tasks, worker 1
/// one high-priority task (each held there by `can_execute`), all while paused: a new
/// high-priority task goes to worker 1 under dmdas (1 task queued against 2) and to
/// worker 0 under dmdasd (nothing of its priority queued there).
#[test]
fn dmdasd_places_by_the_work_of_higher_priority() {
    for (sched, expected) in [("dmdas", 1), ("dmda", 1), ("dmdasd", 0)] {
        let rt = runtime(sched);
        rt.pause();
        let ran = Arc::new(Mutex::new(Vec::new()));
        let on = |w: usize| {
            Arc::new(
                Codelet::new("held")
                    .cpu(|_| Ok(()))
                    .can_execute(move |worker, _, _| worker == w),
            )
        };
        let (held0, held1) = (on(0), on(1));
        rt.task(&held0).priority(0).submit().unwrap();
        rt.task(&held0).priority(0).submit().unwrap();
        rt.task(&held1).priority(10).submit().unwrap();
        let r = ran.clone();
        let free = Arc::new(Codelet::new("free").cpu(move |call| {
            r.lock().unwrap().push(call.worker());
            Ok(())
        }));
        rt.task(&free).priority(10).submit().unwrap();
        rt.resume();
        rt.wait_for_all().unwrap();
        assert_eq!(*ran.lock().unwrap(), vec![expected], "{sched}");
        rt.shutdown();
    }
}

/// A `STARPU_PER_WORKER` model makes worker 1 a thousand times cheaper: dmda sends it
/// every task (the queued work on worker 1 stays below one task's cost on worker 0).
#[test]
fn dmda_follows_a_per_worker_cost_function() {
    let rt = runtime("dmda");
    rt.pause();
    let ran = Arc::new(Mutex::new(Vec::new()));
    let r = ran.clone();
    let mut cl = Codelet::new("per_worker").cpu(move |call| {
        r.lock().unwrap().push(call.worker());
        Ok(())
    });
    cl.model = Some(PerfModel::per_worker(|_, worker, _| {
        if worker == 1 {
            1.0
        } else {
            1000.0
        }
    }));
    let cl = Arc::new(cl);
    for _ in 0..10 {
        rt.task(&cl).submit().unwrap();
    }
    rt.resume();
    rt.wait_for_all().unwrap();
    assert_eq!(*ran.lock().unwrap(), vec![1; 10]);
    rt.shutdown();
}
