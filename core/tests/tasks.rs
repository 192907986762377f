//! End-to-end behaviour of the core through its safe Rust API: tasks run, dependencies order
//! them, waits wait. No `unsafe` here: this is how a Rust application uses the runtime.

mod common;

use starpu_core::data::AcquireNode;
use starpu_core::task::TaskSlot;
use starpu_core::{AccessMode, Codelet, Config, ErrorKind, KernelCall, Runtime};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn runtime(ncpus: usize, sched: &str) -> Arc<Runtime> {
    common::runtime(ncpus, Some(sched))
}

fn codelet(
    modes: &[AccessMode],
    f: impl Fn(&KernelCall) -> starpu_core::task::KernelResult + Send + Sync + 'static,
) -> Arc<Codelet> {
    Arc::new(Codelet::new("test").modes(modes.iter().copied()).cpu(f))
}

#[test]
fn chain_of_read_write_tasks_runs_in_order() {
    for sched in [
        "eager", "prio", "random", "ws", "lws", "dm", "dmda", "dmdas", "dmdap", "dmdasd", "dmdar",
        "heft",
    ] {
        let rt = runtime(2, sched);
        let h = rt.register_variable(0u64).unwrap();
        let order = Arc::new(Mutex::new(Vec::new()));
        let o = order.clone();
        let cl = codelet(&[AccessMode::RW], move |call| {
            let mut x = call.variable_mut::<u64>(0)?;
            *x += 1;
            o.lock().unwrap().push(*x);
            Ok(())
        });
        for _ in 0..500 {
            rt.task(&cl).buffer(&h, AccessMode::RW).submit().unwrap();
        }
        rt.wait_for_all().unwrap();
        assert_eq!(rt.unregister_take::<u64>(&h).unwrap(), 500, "{sched}");
        assert_eq!(
            *order.lock().unwrap(),
            (1..=500).collect::<Vec<_>>(),
            "{sched}"
        );
        rt.shutdown();
    }
}

#[test]
fn readers_see_the_writer_before_them_and_writer_waits_for_readers() {
    let rt = runtime(2, "lws");
    let h = rt.register_variable(0u64).unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let s = seen.clone();
    let read = codelet(&[AccessMode::R], move |call| {
        s.lock().unwrap().push(*call.variable::<u64>(0)?);
        Ok(())
    });
    let write = codelet(&[AccessMode::W], |call| {
        std::thread::sleep(Duration::from_millis(1));
        *call.variable_mut::<u64>(0)? += 10;
        Ok(())
    });
    for _ in 0..5 {
        rt.task(&write).buffer(&h, AccessMode::W).submit().unwrap();
        for _ in 0..4 {
            rt.task(&read).buffer(&h, AccessMode::R).submit().unwrap();
        }
    }
    rt.wait_for_all().unwrap();
    let mut got = seen.lock().unwrap().clone();
    got.sort();
    let expect: Vec<u64> = (1..=5).flat_map(|r| [r * 10; 4]).collect();
    assert_eq!(got, expect);
    rt.unregister(&h, true).unwrap();
    rt.shutdown();
}

#[test]
fn explicit_dependencies_and_task_wait() {
    let rt = runtime(2, "eager");
    let log = Arc::new(Mutex::new(Vec::new()));
    let mk = |name: &'static str| {
        let l = log.clone();
        codelet(&[], move |_| {
            l.lock().unwrap().push(name);
            Ok(())
        })
    };
    let a = rt.task(&mk("a")).detach(false);
    let b = rt.task(&mk("b")).after(a.task());
    let c = rt.task(&mk("c")).after(b.task()).detach(false);
    // Submitted in reverse order: c waits for b, b for a.
    let c = c.submit().unwrap();
    b.submit().unwrap();
    std::thread::sleep(Duration::from_millis(20));
    assert!(log.lock().unwrap().is_empty(), "nothing runs before a");
    let a = a.submit().unwrap();
    rt.wait(&c).unwrap();
    assert_eq!(*log.lock().unwrap(), vec!["a", "b", "c"]);
    let e = rt.task_for(a, Some(mk("again"))).submit().unwrap_err();
    assert_eq!(e.kind, ErrorKind::InvalidArgument);
    rt.shutdown();
}

#[test]
fn detached_tasks_cannot_be_waited_for() {
    let rt = runtime(1, "eager");
    let t = rt.task(&codelet(&[], |_| Ok(()))).submit().unwrap();
    let e = rt.wait(&t).unwrap_err();
    assert!(e.message.contains("detached"), "{}", e.message);
    rt.wait_for_all().unwrap();
    rt.shutdown();
}

#[test]
fn tags_order_tasks_and_can_be_waited_for() {
    let rt = runtime(2, "prio");
    let n = Arc::new(AtomicUsize::new(0));
    let nn = n.clone();
    let cl = codelet(&[], move |_| {
        nn.fetch_add(1, Ordering::SeqCst);
        Ok(())
    });
    rt.tags.declare_deps(2, &[1]).unwrap();
    rt.task(&cl).tag(2).submit().unwrap();
    std::thread::sleep(Duration::from_millis(10));
    assert_eq!(n.load(Ordering::SeqCst), 0);
    rt.tag_notify(1);
    rt.tag_wait(&[2]).unwrap();
    assert_eq!(n.load(Ordering::SeqCst), 1);
    rt.shutdown();
}

#[test]
fn acquire_waits_for_writers_and_blocks_later_tasks() {
    let rt = runtime(2, "lws");
    let h = rt.register_vector(vec![0.0f64; 16]).unwrap();
    let fill = codelet(&[AccessMode::RW], |call| {
        assert!(
            call.variable::<f64>(0).is_err(),
            "a vector is not a variable"
        );
        std::thread::sleep(Duration::from_millis(5));
        call.vector_mut::<f64>(0)?
            .iter_mut()
            .for_each(|x| *x += 1.0);
        Ok(())
    });
    let peek = |h: &starpu_core::DataHandle| {
        let v = Arc::new(Mutex::new(Vec::new()));
        let out = v.clone();
        let cl = codelet(&[AccessMode::R], move |call| {
            *out.lock().unwrap() = call.vector::<f64>(0)?.to_vec();
            Ok(())
        });
        rt.task(&cl)
            .buffer(h, AccessMode::R)
            .synchronous(true)
            .submit()
            .unwrap();
        let got = v.lock().unwrap().clone();
        got
    };
    rt.task(&fill).buffer(&h, AccessMode::RW).submit().unwrap();
    rt.acquire(&h, AcquireNode::Node(0), AccessMode::R).unwrap();
    rt.task(&fill).buffer(&h, AccessMode::RW).submit().unwrap();
    std::thread::sleep(Duration::from_millis(20));
    assert_eq!(rt.nsubmitted(), 1, "the later task waits for the release");
    rt.release(&h).unwrap();
    assert_eq!(peek(&h), vec![2.0; 16]);
    assert!(rt.release(&h).is_err(), "nothing left to release");
    rt.unregister(&h, true).unwrap();
    rt.shutdown();
}

#[test]
fn tasks_released_together_run_in_priority_order() {
    let rt = runtime(1, "prio");
    let order = Arc::new(Mutex::new(Vec::new()));
    let priorities = [3, -2, 7, 0, 5, 0, 1, -9];
    for (i, &p) in priorities.iter().enumerate() {
        let o = order.clone();
        let cl = codelet(&[], move |_| {
            o.lock().unwrap().push(i);
            Ok(())
        });
        rt.tags.declare_deps(100 + i as u64, &[99]).unwrap();
        rt.task(&cl)
            .priority(p)
            .tag(100 + i as u64)
            .submit()
            .unwrap();
    }
    rt.tag_notify(99);
    rt.wait_for_all().unwrap();
    // Highest priority first; equal priorities in submission order.
    assert_eq!(*order.lock().unwrap(), vec![2, 4, 0, 6, 3, 5, 1, 7]);
    rt.shutdown();
}

#[test]
fn callbacks_prologues_and_completion_closures_run_in_order() {
    let rt = runtime(2, "eager");
    let log = Arc::new(Mutex::new(Vec::new()));
    let (l1, l2, l3, l4) = (log.clone(), log.clone(), log.clone(), log.clone());
    let cl = codelet(&[], move |_| {
        l1.lock().unwrap().push("kernel");
        Ok(())
    });
    let t = rt
        .task(&cl)
        .prologue(move || l2.lock().unwrap().push("prologue"))
        .callback(move |_| l3.lock().unwrap().push("callback"))
        .on_terminated(move |t| {
            assert!(t.is_terminated());
            l4.lock().unwrap().push("terminated")
        })
        .detach(false)
        .submit()
        .unwrap();
    rt.wait(&t).unwrap();
    assert_eq!(
        *log.lock().unwrap(),
        vec!["prologue", "kernel", "callback", "terminated"]
    );
    // Registered after the end: runs at once.
    let l5 = log.clone();
    t.on_terminated(move |_| l5.lock().unwrap().push("late"));
    assert_eq!(log.lock().unwrap().last(), Some(&"late"));
    rt.shutdown();
}

#[test]
fn a_task_slot_is_submitted_again_only_once_its_previous_submission_completed() {
    let rt = runtime(1, "eager");
    let gate = Arc::new(Mutex::new(()));
    let held = gate.lock().unwrap();
    let g = gate.clone();
    let cl = codelet(&[], move |_| {
        drop(g.lock().unwrap());
        Ok(())
    });
    let slot = TaskSlot::default();
    rt.task_for(slot.prepare().unwrap(), Some(cl.clone()))
        .submit()
        .unwrap();
    let e = slot.prepare().unwrap_err();
    assert!(e.message.contains("before its previous submission ended"));
    drop(held);
    rt.wait_for_all().unwrap();
    let again = slot.prepare().unwrap();
    rt.task_for(again, Some(cl)).submit().unwrap();
    rt.wait_for_all().unwrap();
    assert_eq!(rt.tasks_executed(), 2);
    rt.shutdown();
}

#[test]
fn unregistering_acquired_data_is_refused_instead_of_hanging() {
    let rt = runtime(1, "eager");
    let h = rt.register_variable(1u64).unwrap();
    rt.acquire(&h, AcquireNode::Node(0), AccessMode::R).unwrap();
    let e = rt.unregister(&h, true).unwrap_err();
    assert!(e.message.contains("release it"), "{}", e.message);
    rt.release(&h).unwrap();
    rt.unregister(&h, true).unwrap();
    rt.shutdown();
}

#[test]
fn shutdown_returns_while_data_is_still_acquired() {
    let rt = runtime(1, "eager");
    let h = rt.register_variable(1u64).unwrap();
    rt.acquire(&h, AcquireNode::Node(0), AccessMode::R).unwrap();
    assert!(rt.unregister(&h, true).is_err());
    rt.wait_for_all().unwrap();
    rt.shutdown();
    assert!(!rt.is_running());
}

#[test]
fn paused_workers_take_no_task_until_resumed() {
    let rt = runtime(2, "lws");
    let n = Arc::new(AtomicUsize::new(0));
    let nn = n.clone();
    let cl = codelet(&[], move |_| {
        nn.fetch_add(1, Ordering::SeqCst);
        Ok(())
    });
    rt.pause();
    for _ in 0..10 {
        rt.task(&cl).submit().unwrap();
    }
    std::thread::sleep(Duration::from_millis(30));
    assert_eq!(n.load(Ordering::SeqCst), 0);
    rt.resume();
    rt.wait_for_all().unwrap();
    assert_eq!(n.load(Ordering::SeqCst), 10);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let s = seen.clone();
    rt.execute_on_each_worker(Arc::new(move |w| s.lock().unwrap().push(w)))
        .unwrap();
    let mut got = seen.lock().unwrap().clone();
    got.sort();
    assert_eq!(got, vec![0, 1]);
    rt.shutdown();
}

#[test]
fn submission_blocks_while_too_many_tasks_are_pending() {
    let rt = common::start(Config {
        ncpus: Some(1),
        sched_policy: Some("eager".into()),
        limit_max_submitted: Some(4),
        limit_min_submitted: Some(2),
        ..Config::default()
    });
    let cl = codelet(&[], |_| {
        std::thread::sleep(Duration::from_millis(1));
        Ok(())
    });
    let mut most = 0;
    for _ in 0..20 {
        rt.task(&cl).submit().unwrap();
        most = most.max(rt.nsubmitted());
    }
    rt.wait_for_all().unwrap();
    assert!(most <= 4, "{most} tasks pending at once, the limit is 4");
    assert_eq!(rt.tasks_executed(), 20);
    rt.shutdown();
}

#[test]
fn disabled_kernels_are_not_called_but_tasks_complete() {
    let rt = common::start(Config {
        ncpus: Some(1),
        disable_kernels: true,
        ..Config::default()
    });
    let called = Arc::new(AtomicUsize::new(0));
    let c = called.clone();
    let cl = codelet(&[], move |_| {
        c.fetch_add(1, Ordering::SeqCst);
        Ok(())
    });
    let t = rt.task(&cl).detach(false).submit().unwrap();
    rt.wait(&t).unwrap();
    assert_eq!(called.load(Ordering::SeqCst), 0);
    assert_eq!(rt.tasks_executed(), 1);
    rt.shutdown();
}

#[test]
fn a_shut_down_runtime_is_freed() {
    let rt = runtime(2, "lws");
    let h = rt.register_variable(0i32).unwrap();
    let cl = codelet(&[AccessMode::RW], |call| {
        *call.variable_mut::<i32>(0)? += 1;
        Ok(())
    });
    rt.task(&cl).buffer(&h, AccessMode::RW).submit().unwrap();
    assert_eq!(rt.unregister_take::<i32>(&h).unwrap(), 1);
    let weak = Arc::downgrade(&rt);
    rt.shutdown();
    drop(rt);
    assert!(
        weak.upgrade().is_none(),
        "workers and tasks let go of the runtime"
    );
}

#[test]
fn a_task_holding_its_own_end_lets_its_child_use_the_data_first() {
    let rt = runtime(2, "lws");
    let x = rt.register_variable(1i64).unwrap();
    let affine = |k: i64| {
        Arc::new(
            Codelet::new("affine")
                .modes([AccessMode::RW])
                .cpu(move |call| {
                    let mut v = call.variable_mut::<i64>(0)?;
                    *v = 3 * *v + k;
                    Ok(())
                }),
        )
    };
    let child_cl = affine(2);
    let (inner, xc) = (rt.clone(), x.clone());
    let parent_cl = Arc::new(
        Codelet::new("parent")
            .modes([AccessMode::RW])
            .cpu(move |call| {
                let mut v = call.variable_mut::<i64>(0)?;
                *v = 3 * *v + 1;
                let me = starpu_core::task::current_task().expect("inside a task");
                me.end_dep_add(1);
                let (rt2, me2) = (inner.clone(), me.clone());
                inner
                    .task(&child_cl)
                    .buffer(&xc, AccessMode::RW)
                    .callback(move |_| starpu_core::task::end_dep_release(&rt2, &me2))
                    .submit()?;
                Ok(())
            }),
    );
    let t = rt
        .task(&parent_cl)
        .buffer(&x, AccessMode::RW)
        .detach(false)
        .submit()
        .unwrap();
    rt.wait(&t).unwrap();
    // The child ran on the data before the parent ended.
    let x_now = Arc::new(Mutex::new(0));
    let o = x_now.clone();
    let read = codelet(&[AccessMode::R], move |call| {
        *o.lock().unwrap() = *call.variable::<i64>(0)?;
        Ok(())
    });
    rt.task(&read)
        .buffer(&x, AccessMode::R)
        .synchronous(true)
        .submit()
        .unwrap();
    assert_eq!(*x_now.lock().unwrap(), 3 * 4 + 2);
    rt.unregister(&x, true).unwrap();
    rt.shutdown();
}

/// Explicit dependencies that would close a cycle are refused (StarPU waits forever): the
/// tasks of the chain still run once the cycle is not declared.
#[test]
fn a_cycle_of_explicit_dependencies_is_refused() {
    use starpu_core::Task;
    let rt = common::runtime(1, Some("eager"));
    let noop = Arc::new(Codelet::new("noop").cpu(|_| Ok(())));
    let (a, b, c) = (Task::new(), Task::new(), Task::new());
    b.add_dependency(&a).unwrap();
    c.add_dependency(&b).unwrap();
    let e = a.add_dependency(&c).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Deadlock, "{}", e.message);
    for t in [&c, &b, &a] {
        rt.task_for(t.clone(), Some(noop.clone()))
            .detach(false)
            .submit()
            .unwrap();
    }
    for t in [&a, &b, &c] {
        rt.wait(t).unwrap();
    }
    rt.shutdown();
}
