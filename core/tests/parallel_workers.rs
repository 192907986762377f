//! Parallel workers (StarPU's clusters) and the context calls they rest on: which
//! contexts exist and which workers they hold, tasks running on the master with the
//! group's CPUs available, reserved workers taking nothing, `exec_parallel_code`.

mod common;

use starpu_core::parallel::workers::{count_for, split_group};
use starpu_core::parallel::{ParallelWorkerParams, ParallelWorkerSpec, Partition, PresetWorker};
use starpu_core::sched::contexts::{self, ContextOptions};
use starpu_core::topology::TopologyLevel;
use starpu_core::{Codelet, ErrorKind, Runtime};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

fn runtime(ncpus: usize) -> Arc<Runtime> {
    common::runtime(ncpus, Some("eager"))
}

/// A codelet recording (worker, CPUs available in context `ctx`) per task.
type Seen = Arc<Mutex<Vec<(usize, Vec<usize>)>>>;
fn cpus_recorder(rt: &Arc<Runtime>, ctx: u32) -> (Arc<Codelet>, Seen) {
    let seen: Seen = Arc::default();
    let s = seen.clone();
    let weak = Arc::downgrade(rt);
    let cl = Arc::new(Codelet::new("cpus").cpu(move |call| {
        let rt = weak.upgrade().unwrap();
        s.lock()
            .unwrap()
            .push((call.worker(), rt.available_cpuids(ctx).unwrap()));
        Ok(())
    }));
    (cl, seen)
}

#[test]
fn counts_and_sizes_follow_starpus_parameters() {
    let p = |nb, min_nb, max_nb, homo, pmin| ParallelWorkerParams {
        nb,
        min_nb,
        max_nb,
        keep_homogeneous: homo,
        prefere_min: pmin,
        ..Default::default()
    };
    assert_eq!(count_for(&p(0, 0, 0, false, false), 8), 1);
    assert_eq!(count_for(&p(3, 0, 0, false, false), 8), 3);
    assert_eq!(count_for(&p(12, 0, 0, false, false), 8), 8);
    assert_eq!(count_for(&p(0, 2, 5, false, false), 8), 5);
    assert_eq!(count_for(&p(0, 2, 5, false, true), 8), 2);
    // Homogeneous: 6 workers, 4..=5: none divides, 5 leaves one out (fewest).
    assert_eq!(count_for(&p(0, 4, 5, true, true), 6), 5);
    assert_eq!(count_for(&p(0, 3, 5, true, false), 8), 4);
    // 7 workers in 3: 2, 2, then the rest (3), as StarPU splits them (homogeneous or
    // not: `keep_homogeneous` only steers the count).
    let part = |params| Partition {
        params,
        presets: Vec::new(),
    };
    let sizes = |part: &Partition, n| -> Vec<usize> {
        split_group(part, n).into_iter().map(|(s, _)| s).collect()
    };
    assert_eq!(sizes(&part(p(3, 0, 0, false, false)), 7), vec![2, 2, 3]);
    assert_eq!(sizes(&part(p(3, 0, 0, true, false)), 7), vec![2, 2, 3]);
    // Presets are carved first, cut to what is left.
    let mut with_presets = part(p(0, 0, 0, false, false));
    with_presets.presets = vec![
        PresetWorker {
            ncores: 3,
            ..Default::default()
        },
        PresetWorker {
            ncores: 9,
            ..Default::default()
        },
    ];
    assert_eq!(sizes(&with_presets, 5), vec![3, 2]);
    with_presets.presets[1].ncores = 1;
    assert_eq!(sizes(&with_presets, 5), vec![3, 1, 1]);
}

#[test]
fn one_parallel_worker_per_package_runs_tasks_on_its_master() {
    let rt = runtime(2);
    let pws = rt
        .parallel_workers_init(TopologyLevel::Package, &ParallelWorkerSpec::default())
        .unwrap();
    assert_eq!(pws.ngroups, 1);
    assert_eq!(pws.workers.len(), 1);
    let pw = &pws.workers[0];
    assert_eq!(pw.workers, vec![0, 1]);
    let cpus: Vec<usize> = (0..2).map(|w| rt.worker_cpuid(w)).collect();
    assert_eq!(pw.cpuids, cpus);
    assert_eq!(rt.context_workers(pw.ctx).unwrap(), vec![0, 1]);
    assert_eq!(rt.context_master(pw.ctx).unwrap(), Some(0));
    assert_eq!(rt.context_workers(pws.machine_ctx).unwrap(), vec![0]);
    assert_eq!(rt.context_nested_in(pw.ctx).unwrap(), Some(pws.machine_ctx));
    assert_eq!(contexts::current_context(), Some(pws.machine_ctx));
    assert!(!rt.worker_reserved(0) && rt.worker_reserved(1));

    // Tasks of the calling thread go to the machine context: they run on the master,
    // which sees its parallel worker's CPUs.
    let (cl, seen) = cpus_recorder(&rt, pws.machine_ctx);
    for _ in 0..6 {
        rt.task(&cl).submit().unwrap();
    }
    rt.wait_for_all().unwrap();
    assert_eq!(seen.lock().unwrap().clone(), vec![(0, cpus.clone()); 6]);
    // So do tasks submitted to the parallel worker's context.
    let (cl, seen) = cpus_recorder(&rt, pw.ctx);
    for _ in 0..4 {
        rt.task(&cl).sched_ctx(pw.ctx).submit().unwrap();
    }
    rt.wait_for_all().unwrap();
    assert_eq!(seen.lock().unwrap().clone(), vec![(0, cpus.clone()); 4]);

    // A task for a context of worker 1 alone waits for the end of the parallel worker.
    let solo = rt
        .create_context(&[1], ContextOptions::named("solo"))
        .unwrap();
    let released = Arc::new(AtomicBool::new(false));
    let ran_after = Arc::new(Mutex::new(None));
    let (r, a) = (released.clone(), ran_after.clone());
    let only1 = Arc::new(Codelet::new("only1").cpu(move |call| {
        *a.lock().unwrap() = Some((call.worker(), r.load(Ordering::SeqCst)));
        Ok(())
    }));
    rt.task(&only1).sched_ctx(solo).submit().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    released.store(true, Ordering::SeqCst);
    rt.parallel_workers_shutdown(&pws).unwrap();
    rt.wait_for_all().unwrap();
    assert_eq!(*ran_after.lock().unwrap(), Some((1, true)));
    assert!(!rt.worker_reserved(1));
    assert!(!rt.context_exists(pw.ctx) && !rt.context_exists(pws.machine_ctx));
    assert_eq!(contexts::current_context(), Some(contexts::GLOBAL));
    rt.delete_context(solo).unwrap();
    rt.shutdown();
}

#[test]
fn core_level_and_counts_split_the_workers() {
    // Four workers on this machine's cores: per core when bound round-robin, else (no
    // hwloc) one per worker; in both cases every worker is in exactly one group.
    let rt = runtime(4);
    let pws = rt
        .parallel_workers_init(TopologyLevel::Core, &ParallelWorkerSpec::default())
        .unwrap();
    let mut all: Vec<usize> = pws.workers.iter().flat_map(|p| p.workers.clone()).collect();
    all.sort_unstable();
    assert_eq!(all, vec![0, 1, 2, 3]);
    for pw in &pws.workers {
        let c = rt.worker_cpuid(pw.master());
        assert!(pw.cpuids.iter().all(|&x| x == c), "one core per group");
    }
    let masters: Vec<usize> = pws.workers.iter().map(|p| p.master()).collect();
    assert_eq!(rt.context_workers(pws.machine_ctx).unwrap(), masters);
    rt.parallel_workers_shutdown(&pws).unwrap();

    // The whole machine in two, with a named policy for the machine context.
    let spec = ParallelWorkerSpec {
        params: ParallelWorkerParams {
            nb: 2,
            policy: Some("dmda".into()),
            ..Default::default()
        },
        partitions: Vec::new(),
    };
    let pws = rt
        .parallel_workers_init(TopologyLevel::Machine, &spec)
        .unwrap();
    let groups: Vec<Vec<usize>> = pws.workers.iter().map(|p| p.workers.clone()).collect();
    assert_eq!(groups, vec![vec![0, 1], vec![2, 3]]);
    assert_eq!(rt.context_policy_name(pws.machine_ctx).unwrap(), "dmda");
    assert!(rt.worker_reserved(1) && rt.worker_reserved(3));
    let (cl, seen) = cpus_recorder(&rt, pws.machine_ctx);
    for _ in 0..8 {
        rt.task(&cl).submit().unwrap();
    }
    rt.wait_for_all().unwrap();
    for (w, cpus) in seen.lock().unwrap().iter() {
        let pw = pws.workers.iter().find(|p| p.master() == *w).unwrap();
        assert_eq!(cpus, &pw.cpuids);
    }
    rt.parallel_workers_shutdown(&pws).unwrap();
    rt.shutdown();
}

#[test]
fn partitions_presets_create_calls_and_awake_workers() {
    let rt = runtime(2);
    type Calls = Arc<Mutex<Vec<(usize, u32, Vec<usize>)>>>;
    let calls: Calls = Arc::default();
    let c = calls.clone();
    let create: starpu_core::parallel::workers::CreateFn = Arc::new(move |ctx, cpus| {
        let w = starpu_core::worker::current_worker_id().unwrap();
        c.lock().unwrap().push((w, ctx, cpus.to_vec()));
    });
    // StarPU's example: one partition with a preset parallel worker of one core.
    let preset = PresetWorker {
        params: ParallelWorkerParams {
            nb: 2,
            create: Some(create.clone()),
            ..Default::default()
        },
        ncores: 1,
    };
    let spec = ParallelWorkerSpec {
        params: ParallelWorkerParams {
            create: Some(create.clone()),
            ..Default::default()
        },
        partitions: vec![Partition {
            params: ParallelWorkerParams {
                create: Some(create),
                ..Default::default()
            },
            presets: vec![preset],
        }],
    };
    let pws = rt
        .parallel_workers_init(TopologyLevel::Package, &spec)
        .unwrap();
    let groups: Vec<Vec<usize>> = pws.workers.iter().map(|p| p.workers.clone()).collect();
    assert_eq!(groups, vec![vec![0], vec![1]]);
    let mut got = calls.lock().unwrap().clone();
    got.sort();
    let want: Vec<(usize, u32, Vec<usize>)> = pws
        .workers
        .iter()
        .map(|p| (p.master(), p.ctx, p.cpuids.clone()))
        .collect();
    assert_eq!(got, want, "create runs once on each master");
    assert!(!rt.worker_reserved(0) && !rt.worker_reserved(1));
    rt.parallel_workers_shutdown(&pws).unwrap();

    // Awake workers: nobody is reserved and no create call is made.
    calls.lock().unwrap().clear();
    let spec = ParallelWorkerSpec {
        params: ParallelWorkerParams {
            awake_workers: true,
            ..Default::default()
        },
        partitions: Vec::new(),
    };
    let pws = rt
        .parallel_workers_init(TopologyLevel::Machine, &spec)
        .unwrap();
    assert_eq!(pws.workers[0].workers, vec![0, 1]);
    assert!(!rt.worker_reserved(1));
    assert!(calls.lock().unwrap().is_empty());
    rt.parallel_workers_shutdown(&pws).unwrap();
    rt.shutdown();
}

#[test]
fn available_cpuids_follow_the_calling_thread() {
    let rt = runtime(2);
    let ctx = rt
        .create_context(&[0, 1], ContextOptions::named("both"))
        .unwrap();
    let cpus: Vec<usize> = (0..2).map(|w| rt.worker_cpuid(w)).collect();
    // Not a worker: every member's CPU.
    assert_eq!(rt.available_cpuids(ctx).unwrap(), cpus);
    // A worker of a context scheduled over all its workers: its own CPU only.
    let (cl, seen) = cpus_recorder(&rt, ctx);
    for _ in 0..4 {
        rt.task(&cl).sched_ctx(ctx).submit().unwrap();
    }
    rt.wait_for_all().unwrap();
    for (w, got) in seen.lock().unwrap().iter() {
        assert_eq!(got, &vec![cpus[*w]]);
    }
    // A worker outside the context: none.
    let solo = rt
        .create_context(&[1], ContextOptions::named("solo"))
        .unwrap();
    let (cl, seen) = cpus_recorder(&rt, solo);
    rt.task(&cl).sched_ctx(ctx).worker(0).submit().unwrap();
    rt.wait_for_all().unwrap();
    assert_eq!(seen.lock().unwrap().clone(), vec![(0, vec![])]);
    let err = rt.available_cpuids(9).unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidArgument);
    rt.shutdown();
}

#[test]
fn exec_parallel_code_reserves_the_contexts_workers() {
    let rt = runtime(2);
    let ctx = rt
        .create_context(&[0, 1], ContextOptions::named("both"))
        .unwrap();
    // A task running when the parallel code starts is waited for.
    let (started, finished) = (
        Arc::new(AtomicBool::new(false)),
        Arc::new(AtomicBool::new(false)),
    );
    let (s, f) = (started.clone(), finished.clone());
    let long = Arc::new(Codelet::new("long").cpu(move |_| {
        s.store(true, Ordering::SeqCst);
        std::thread::sleep(std::time::Duration::from_millis(30));
        f.store(true, Ordering::SeqCst);
        Ok(())
    }));
    rt.task(&long).submit().unwrap();
    while !started.load(Ordering::SeqCst) {
        std::thread::yield_now();
    }
    let done = Arc::new(AtomicBool::new(false));
    let d = done.clone();
    let later = Arc::new(Codelet::new("later").cpu(move |_| {
        d.store(true, Ordering::SeqCst);
        Ok(())
    }));
    let (cpus, was_finished, ran_meanwhile, reserved) = rt
        .exec_parallel_code(ctx, || {
            let was_finished = finished.load(Ordering::SeqCst);
            // Submitted now, it waits: both workers are reserved.
            rt.task(&later).submit().unwrap();
            std::thread::sleep(std::time::Duration::from_millis(20));
            (
                rt.available_cpuids(ctx).unwrap(),
                was_finished,
                done.load(Ordering::SeqCst),
                (rt.worker_reserved(0), rt.worker_reserved(1)),
            )
        })
        .unwrap();
    assert_eq!(cpus, vec![rt.worker_cpuid(0), rt.worker_cpuid(1)]);
    assert!(
        was_finished,
        "the running task ended before the parallel code"
    );
    assert!(!ran_meanwhile, "no task ran during the parallel code");
    assert_eq!(reserved, (true, true));
    rt.wait_for_all().unwrap();
    assert!(done.load(Ordering::SeqCst));
    assert!(!rt.worker_reserved(0) && !rt.worker_reserved(1));
    assert_eq!(
        rt.exec_parallel_code(7, || ()).unwrap_err().kind,
        ErrorKind::InvalidArgument
    );
    rt.shutdown();
}

#[test]
fn binds_the_calling_thread() {
    let rt = runtime(1);
    let cpu = rt.worker_cpuid(0);
    std::thread::scope(|s| {
        s.spawn(|| rt.bind_current_thread_to_cpuid(cpu).unwrap());
    });
    assert_eq!(
        rt.bind_current_thread_to_cpuid(100_000).unwrap_err().kind,
        ErrorKind::InvalidArgument
    );
    rt.shutdown();
}
