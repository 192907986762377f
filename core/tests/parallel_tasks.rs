//! Parallel tasks (SPMD and FORKJOIN codelets) on combined workers, under the parallel
//! policies `peager` and `pheft`, and on one worker under the others. The tests observe
//! which sizes and ranks kernels see, on which threads, and what they compute.

mod common;

use starpu_core::perfmodel::PerfModel;
use starpu_core::{AccessMode, Codelet, CodeletType, Config, Runtime};
use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Barrier, Mutex};
use std::time::Duration;

fn runtime(sched: &str, ncpus: usize) -> Arc<Runtime> {
    runtime_with(sched, ncpus, false)
}

fn runtime_with(sched: &str, ncpus: usize, single: bool) -> Arc<Runtime> {
    common::start(Config {
        ncpus: Some(ncpus),
        sched_policy: Some(sched.into()),
        single_combined_worker: single,
        ..Config::default()
    })
}

/// (size, rank, worker, thread) of each kernel call.
type Seen = Arc<Mutex<Vec<(usize, usize, usize, std::thread::ThreadId)>>>;

/// A codelet of `kind` recording each call; with two ranks, both wait for each other in
/// the kernel, so the test only ends if they really run at once.
fn recorder(kind: CodeletType, max: i32, seen: Seen) -> Arc<Codelet> {
    let meet = Arc::new(Barrier::new(2));
    Arc::new(
        Codelet::new("recorder")
            .parallel(kind, max)
            .cpu(move |call| {
                seen.lock().unwrap().push((
                    call.combined_size(),
                    call.combined_rank(),
                    call.worker(),
                    std::thread::current().id(),
                ));
                // The process-wide answer the C face gives agrees with the call's.
                assert_eq!(
                    starpu_core::parallel::combined_size() as usize,
                    call.combined_size()
                );
                assert_eq!(
                    starpu_core::parallel::combined_rank() as usize,
                    call.combined_rank()
                );
                if kind == CodeletType::Spmd && call.combined_size() == 2 {
                    meet.wait();
                }
                Ok(())
            }),
    )
}

fn run_one(rt: &Runtime, cl: &Arc<Codelet>) {
    rt.task(cl).synchronous(true).submit().unwrap();
}

#[test]
fn peager_builds_one_combined_worker_of_both_cpus() {
    let rt = runtime("peager", 2);
    let all = rt.combined_workers();
    assert_eq!(all.len(), 1, "{all:?}");
    assert_eq!(all[0].id, 2);
    assert_eq!(all[0].members, vec![0, 1]);
    assert_eq!(rt.combined_worker(2), Some(all[0].clone()));
    assert_eq!(rt.combined_worker(3), None);
    rt.shutdown();
}

#[test]
fn spmd_under_peager_runs_on_both_workers_with_ranks_0_and_1() {
    for sched in ["peager", "pheft"] {
        let rt = runtime(sched, 2);
        let seen: Seen = Arc::default();
        let cl = recorder(CodeletType::Spmd, i32::MAX, seen.clone());
        for _ in 0..5 {
            run_one(&rt, &cl);
            let calls = std::mem::take(&mut *seen.lock().unwrap());
            assert_eq!(calls.len(), 2, "{sched}: {calls:?}");
            assert!(calls.iter().all(|c| c.0 == 2), "{sched}: {calls:?}");
            let ranks: HashSet<usize> = calls.iter().map(|c| c.1).collect();
            assert_eq!(ranks, HashSet::from([0, 1]), "{sched}");
            let workers: HashSet<usize> = calls.iter().map(|c| c.2).collect();
            assert_eq!(workers, HashSet::from([0, 1]), "{sched}");
            let threads: HashSet<_> = calls.iter().map(|c| c.3).collect();
            assert_eq!(threads.len(), 2, "{sched}");
            // Rank 0 is the master, worker 0.
            assert!(calls.contains(&(2, 0, 0, calls.iter().find(|c| c.1 == 0).unwrap().3)));
        }
        rt.shutdown();
    }
}

#[test]
fn forkjoin_runs_once_with_the_whole_size_while_the_other_worker_waits() {
    let rt = runtime("peager", 2);
    let seen: Seen = Arc::default();
    // Sequential tasks worker 1 would run meanwhile if it were not reserved.
    let on_worker_1 = Arc::new(AtomicUsize::new(0));
    let counter = on_worker_1.clone();
    let seq = Arc::new(Codelet::new("seq").cpu(move |call| {
        if call.worker() == 1 {
            counter.fetch_add(1, Ordering::SeqCst);
        }
        std::thread::sleep(Duration::from_micros(200));
        Ok(())
    }));
    let (seen2, count2) = (seen.clone(), on_worker_1.clone());
    let fj = Arc::new(
        Codelet::new("fj")
            .parallel(CodeletType::ForkJoin, i32::MAX)
            .cpu(move |call| {
                let before = count2.load(Ordering::SeqCst);
                // Threads the kernel starts, as many as the team's size.
                let hits = AtomicUsize::new(0);
                std::thread::scope(|s| {
                    for _ in 0..call.combined_size() {
                        s.spawn(|| hits.fetch_add(1, Ordering::SeqCst));
                    }
                });
                std::thread::sleep(Duration::from_millis(20));
                seen2.lock().unwrap().push((
                    call.combined_size(),
                    call.combined_rank(),
                    call.worker(),
                    std::thread::current().id(),
                ));
                assert_eq!(hits.load(Ordering::SeqCst), call.combined_size());
                // Worker 1 is reserved: it ran no sequential task meanwhile.
                assert_eq!(count2.load(Ordering::SeqCst), before);
                Ok(())
            }),
    );
    for _ in 0..3 {
        let t = rt.task(&fj).detach(false).submit().unwrap();
        for _ in 0..40 {
            rt.task(&seq).submit().unwrap();
        }
        rt.wait(&t).unwrap();
    }
    rt.wait_for_all().unwrap();
    let calls = seen.lock().unwrap().clone();
    assert_eq!(calls.len(), 3);
    for c in calls {
        assert_eq!((c.0, c.1, c.2), (2, 0, 0));
    }
    rt.shutdown();
}

#[test]
fn max_parallelism_one_keeps_the_task_on_one_worker() {
    let rt = runtime("peager", 2);
    for kind in [CodeletType::Spmd, CodeletType::ForkJoin] {
        for max in [1, 0] {
            let seen: Seen = Arc::default();
            let cl = recorder(kind, max, seen.clone());
            run_one(&rt, &cl);
            let calls = seen.lock().unwrap().clone();
            assert_eq!(calls.len(), 1);
            assert_eq!((calls[0].0, calls[0].1), (1, 0));
        }
    }
    rt.shutdown();
}

#[test]
fn other_policies_and_one_cpu_run_parallel_tasks_on_one_worker() {
    for (sched, ncpus) in [
        ("eager", 2),
        ("lws", 2),
        ("dmda", 2),
        ("peager", 1),
        ("pheft", 1),
    ] {
        let rt = runtime(sched, ncpus);
        if sched.starts_with('p') || ncpus == 1 {
            assert!(rt.combined_workers().is_empty(), "{sched}");
        }
        for kind in [CodeletType::Spmd, CodeletType::ForkJoin] {
            let seen: Seen = Arc::default();
            let cl = recorder(kind, i32::MAX, seen.clone());
            run_one(&rt, &cl);
            let calls = seen.lock().unwrap().clone();
            assert_eq!(calls.len(), 1, "{sched}");
            assert_eq!((calls[0].0, calls[0].1), (1, 0), "{sched}");
        }
        rt.shutdown();
    }
}

#[test]
fn spmd_ranks_sum_and_scale_a_vector_in_parallel() {
    for (sched, ncpus, single) in [
        ("peager", 2, false),
        ("peager", 2, true),
        ("pheft", 2, false),
        ("peager", 1, false),
        ("eager", 2, false),
    ] {
        let rt = runtime_with(sched, ncpus, single);
        let n = 1001u64;
        let x = rt.register_vector((1..=n).collect::<Vec<u64>>()).unwrap();
        let y = rt.register_vector(vec![0u64; n as usize]).unwrap();
        let total = Arc::new(AtomicUsize::new(0));
        let t2 = total.clone();
        // y = 3 x, each rank on its own block; every rank adds its block's sum of x.
        let cl = Arc::new(
            Codelet::new("sum_scale")
                .modes([AccessMode::R, AccessMode::W])
                .parallel(CodeletType::Spmd, i32::MAX)
                .cpu(move |call| {
                    let x = call.vector::<u64>(0)?;
                    let mut y = call.vector_part_mut::<u64>(1)?;
                    let (size, rank) = (call.combined_size(), call.combined_rank());
                    let (base, extra) = (x.len() / size, x.len() % size);
                    let start = rank * base + rank.min(extra);
                    let mine = &x[start..start + y.len()];
                    for (o, i) in y.iter_mut().zip(mine) {
                        *o = 3 * i;
                    }
                    t2.fetch_add(mine.iter().sum::<u64>() as usize, Ordering::SeqCst);
                    Ok(())
                }),
        );
        let seq = Arc::new(Codelet::new("noop").cpu(|_| Ok(())));
        for _ in 0..10 {
            rt.task(&cl)
                .buffer(&x, AccessMode::R)
                .buffer(&y, AccessMode::W)
                .submit()
                .unwrap();
            for _ in 0..5 {
                rt.task(&seq).submit().unwrap();
            }
        }
        rt.wait_for_all().unwrap();
        assert_eq!(total.load(Ordering::SeqCst) as u64, 10 * n * (n + 1) / 2);
        let y = rt.unregister_take::<Vec<u64>>(&y).unwrap();
        assert_eq!(y, (1..=n).map(|i| 3 * i).collect::<Vec<u64>>(), "{sched}");
        rt.unregister_take::<Vec<u64>>(&x).unwrap();
        rt.shutdown();
    }
}

#[test]
fn spmd_ranks_may_not_view_a_written_buffer_whole() {
    let rt = runtime("peager", 2);
    let v = rt.register_vector(vec![0u32; 8]).unwrap();
    let cl = Arc::new(
        Codelet::new("whole")
            .modes([AccessMode::RW])
            .parallel(CodeletType::Spmd, i32::MAX)
            .cpu(|call| {
                call.vector_mut::<u32>(0)?.fill(1);
                Ok(())
            }),
    );
    let t = rt
        .task(&cl)
        .buffer(&v, AccessMode::RW)
        .detach(false)
        .submit()
        .unwrap();
    let err = rt.wait(&t).unwrap_err();
    assert!(err.message.contains("SPMD"), "{}", err.message);
    let _ = rt.wait_for_all();
    rt.unregister_take::<Vec<u32>>(&v).unwrap();
    rt.shutdown();
}

#[test]
fn a_failing_rank_fails_the_task() {
    let rt = runtime("peager", 2);
    let cl = Arc::new(
        Codelet::new("rank1_fails")
            .parallel(CodeletType::Spmd, i32::MAX)
            .cpu(|call| {
                if call.combined_rank() == 1 {
                    return Err("rank one gives up".into());
                }
                Ok(())
            }),
    );
    let t = rt.task(&cl).detach(false).submit().unwrap();
    let err = rt.wait(&t).unwrap_err();
    assert!(
        err.message.contains("rank 1: rank one gives up"),
        "{}",
        err.message
    );
    let _ = rt.wait_for_all();
    // The workers go on.
    let seen: Seen = Arc::default();
    run_one(&rt, &recorder(CodeletType::Spmd, 2, seen.clone()));
    assert_eq!(seen.lock().unwrap().len(), 2);
    rt.shutdown();
}

#[test]
fn pheft_tries_every_size_then_keeps_measuring_with_the_model() {
    let symbol = format!("test_pheft_sizes_{}", std::process::id());
    let rt = runtime("pheft", 2);
    let sizes = Arc::new(Mutex::new(Vec::new()));
    let s2 = sizes.clone();
    let mut cl = Codelet::new(&symbol)
        .modes([AccessMode::R])
        .parallel(CodeletType::ForkJoin, i32::MAX)
        .cpu(move |call| {
            s2.lock().unwrap().push(call.combined_size());
            Ok(())
        });
    cl.model = Some(PerfModel::history(&symbol));
    let cl = Arc::new(cl);
    let h = rt.register_vector(vec![0u8; 16]).unwrap();
    for _ in 0..60 {
        rt.task(&cl)
            .buffer(&h, AccessMode::R)
            .synchronous(true)
            .submit()
            .unwrap();
    }
    let sizes = sizes.lock().unwrap().clone();
    // The master alone is calibrated first (at least 11 runs: the first is not counted,
    // nor a wild sample), then the combined worker of 2.
    let first_two = sizes.iter().position(|&s| s == 2).expect("size 2 tried");
    assert!(first_two >= 11, "{sizes:?}");
    assert!(sizes[..first_two].iter().all(|&s| s == 1), "{sizes:?}");
    assert!(
        sizes[first_two..first_two + 11].iter().all(|&s| s == 2),
        "{sizes:?}"
    );
    rt.unregister(&h, true).unwrap();
    rt.shutdown();
}

#[test]
fn combined_workers_added_by_the_application() {
    let rt = runtime("eager", 2);
    assert!(rt.combined_workers().is_empty());
    let id = rt.add_combined_worker(&[1, 0]).unwrap();
    assert_eq!(id, 2);
    assert_eq!(rt.add_combined_worker(&[0]).unwrap(), 3);
    assert_eq!(rt.combined_worker(2).unwrap().members, vec![1, 0]);
    assert!(rt.add_combined_worker(&[]).is_err());
    assert!(rt.add_combined_worker(&[0, 0]).is_err());
    assert!(rt.add_combined_worker(&[0, 5]).is_err());
    rt.shutdown();
}

#[test]
fn a_forkjoin_kernel_may_use_every_core_of_its_combined_worker() {
    let rt = runtime("peager", 2);
    let cores = starpu_core::topology::Topology::detect().ncores().min(2);
    let cpus =
        |_: &starpu_core::KernelCall| std::thread::available_parallelism().map_or(0, |n| n.get());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let (s1, s2) = (seen.clone(), seen.clone());
    let fj = Arc::new(
        Codelet::new("fj_cpus")
            .parallel(CodeletType::ForkJoin, i32::MAX)
            .cpu(move |call| {
                s1.lock()
                    .unwrap()
                    .push(("fj", call.combined_size(), cpus(call)));
                Ok(())
            }),
    );
    let seq = Arc::new(Codelet::new("seq_cpus").cpu(move |call| {
        s2.lock()
            .unwrap()
            .push(("seq", call.combined_size(), cpus(call)));
        Ok(())
    }));
    rt.task(&fj).synchronous(true).submit().unwrap();
    rt.task(&seq).worker(0).synchronous(true).submit().unwrap();
    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 2);
    // Workers are bound to one core each (when binding works here): a FORKJOIN kernel's
    // master is bound to both members' cores while it runs, then to its own again.
    if seen[1].2 == 1 {
        assert_eq!(seen[0], ("fj", 2, cores), "{seen:?}");
    }
    rt.shutdown();
}
