//! End-to-end behaviour of the core through its Rust API: tasks run, dependencies order
//! them, waits wait, errors are reported.

use starpu_core::data::interfaces::{VariableInterface, VectorInterface};
use starpu_core::data::AcquireNode;
use starpu_core::task::{KernelCall, KernelError};
use starpu_core::{Access, AccessMode, Codelet, Config, ErrorKind, Runtime, Task, TaskSpec};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

fn runtime(ncpus: usize, sched: &str) -> &'static Runtime {
    Runtime::start(Config {
        ncpus: Some(ncpus),
        sched_policy: Some(sched.into()),
        silent: true,
        ..Config::default()
    })
    .unwrap()
}

fn codelet(
    modes: &[AccessMode],
    f: impl Fn(&KernelCall) -> Result<(), KernelError> + Send + Sync + 'static,
) -> Arc<Codelet> {
    Arc::new(Codelet {
        name: Some("test".into()),
        cpu_funcs: vec![Arc::new(f)],
        nbuffers: Some(modes.len()),
        modes: modes.to_vec(),
        ..Default::default()
    })
}

fn spec(cl: &Arc<Codelet>, accesses: Vec<(&starpu_core::DataHandle, AccessMode)>) -> TaskSpec {
    TaskSpec {
        codelet: Some(cl.clone()),
        accesses: accesses
            .into_iter()
            .map(|(h, mode)| Access {
                handle: h.clone(),
                mode,
                sequential: true,
            })
            .collect(),
        detached: true,
        ..Default::default()
    }
}

fn var_ptr(call: &KernelCall, i: usize) -> *mut u64 {
    call.interface::<VariableInterface>(i).unwrap().ptr as *mut u64
}

#[test]
fn chain_of_read_write_tasks_runs_in_order() {
    for sched in ["eager", "prio", "random", "ws", "lws"] {
        let rt = runtime(2, sched);
        let mut value: u64 = 0;
        let h = rt
            .register(
                Some(0),
                VariableInterface::new(&mut value as *mut u64 as usize, 8),
            )
            .unwrap();
        let order = Arc::new(Mutex::new(Vec::new()));
        let o = order.clone();
        let cl = codelet(&[AccessMode::RW], move |call| {
            let p = var_ptr(call, 0);
            unsafe { *p += 1 };
            o.lock().unwrap().push(unsafe { *p });
            Ok(())
        });
        for _ in 0..500 {
            rt.submit(&Task::new(), spec(&cl, vec![(&h, AccessMode::RW)]))
                .unwrap();
        }
        rt.wait_for_all().unwrap();
        rt.unregister(&h, true).unwrap();
        assert_eq!(value, 500, "{sched}");
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
    let mut value: u64 = 0;
    let h = rt
        .register(
            Some(0),
            VariableInterface::new(&mut value as *mut u64 as usize, 8),
        )
        .unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let s = seen.clone();
    let read = codelet(&[AccessMode::R], move |call| {
        s.lock().unwrap().push(unsafe { *var_ptr(call, 0) });
        Ok(())
    });
    let write = codelet(&[AccessMode::W], |call| {
        std::thread::sleep(std::time::Duration::from_millis(1));
        unsafe { *var_ptr(call, 0) += 10 };
        Ok(())
    });
    for round in 0..5 {
        rt.submit(&Task::new(), spec(&write, vec![(&h, AccessMode::W)]))
            .unwrap();
        for _ in 0..4 {
            rt.submit(&Task::new(), spec(&read, vec![(&h, AccessMode::R)]))
                .unwrap();
        }
        let _ = round;
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
    let (a, b, c) = (Task::new(), Task::new(), Task::new());
    // c waits for b, b for a; submitted in reverse order.
    b.add_dependency(&a).unwrap();
    c.add_dependency(&b).unwrap();
    let s = |cl: Arc<Codelet>| TaskSpec {
        codelet: Some(cl),
        ..Default::default()
    };
    rt.submit(&c, s(mk("c"))).unwrap();
    rt.submit(&b, s(mk("b"))).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    assert!(log.lock().unwrap().is_empty(), "nothing runs before a");
    rt.submit(&a, s(mk("a"))).unwrap();
    rt.wait_task(&c).unwrap();
    assert_eq!(*log.lock().unwrap(), vec!["a", "b", "c"]);
    let e = rt.submit(&a, s(mk("again"))).unwrap_err();
    assert_eq!(e.kind, ErrorKind::InvalidArgument);
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
    rt.tags.declare_deps(2, &[1]);
    let t2 = TaskSpec {
        codelet: Some(cl.clone()),
        tag: Some(2),
        detached: true,
        ..Default::default()
    };
    rt.submit(&Task::new(), t2).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(10));
    assert_eq!(n.load(Ordering::SeqCst), 0);
    rt.tag_notify(1);
    rt.tag_wait(&[2]).unwrap();
    assert_eq!(n.load(Ordering::SeqCst), 1);
    rt.shutdown();
}

#[test]
fn acquire_waits_for_writers_and_blocks_later_tasks() {
    let rt = runtime(2, "lws");
    let mut v = vec![0.0f64; 16];
    let h = rt
        .register(
            Some(0),
            VectorInterface::new(v.as_mut_ptr() as usize, 16, 8),
        )
        .unwrap();
    let fill = codelet(&[AccessMode::W], |call| {
        let d = call.interface::<VectorInterface>(0).unwrap();
        assert!(call.interface::<VariableInterface>(0).is_none());
        std::thread::sleep(std::time::Duration::from_millis(5));
        let s = unsafe { std::slice::from_raw_parts_mut(d.ptr as *mut f64, d.nx as usize) };
        s.iter_mut().for_each(|x| *x += 1.0);
        Ok(())
    });
    rt.submit(&Task::new(), spec(&fill, vec![(&h, AccessMode::W)]))
        .unwrap();
    rt.acquire(&h, AcquireNode::Node(0), AccessMode::RW)
        .unwrap();
    assert_eq!(v[15], 1.0, "acquire returned after the writer");
    rt.submit(&Task::new(), spec(&fill, vec![(&h, AccessMode::W)]))
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    assert_eq!(v[0], 1.0, "the later task waits for the release");
    rt.release(&h).unwrap();
    rt.wait_for_all().unwrap();
    assert_eq!(v[0], 2.0);
    assert!(rt.release(&h).is_err(), "nothing left to release");
    rt.unregister(&h, true).unwrap();
    rt.shutdown();
}

#[test]
fn bad_submissions_are_refused_and_change_nothing() {
    let rt = runtime(1, "eager");
    let mut x: u64 = 7;
    let h = rt
        .register(
            Some(0),
            VariableInterface::new(&mut x as *mut u64 as usize, 8),
        )
        .unwrap();
    let cl = codelet(&[AccessMode::RW], |call| {
        unsafe { *var_ptr(call, 0) += 1 };
        Ok(())
    });
    let too_many = spec(&cl, vec![(&h, AccessMode::RW), (&h, AccessMode::RW)]);
    let e = rt.submit(&Task::new(), too_many).unwrap_err();
    assert_eq!(e.kind, ErrorKind::InvalidArgument);
    assert!(e.message.contains("declares 1 buffer"), "{}", e.message);
    let no_impl = Arc::new(Codelet {
        nbuffers: Some(0),
        where_mask: starpu_core::task::where_mask::CUDA,
        ..Default::default()
    });
    let e = rt
        .submit(
            &Task::new(),
            TaskSpec {
                codelet: Some(no_impl),
                ..Default::default()
            },
        )
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::NoDevice);
    rt.submit(&Task::new(), spec(&cl, vec![(&h, AccessMode::RW)]))
        .unwrap();
    rt.wait_for_all().unwrap();
    assert_eq!(x, 8, "the valid task still ran once");
    rt.unregister(&h, true).unwrap();
    let e = rt
        .submit(&Task::new(), spec(&cl, vec![(&h, AccessMode::RW)]))
        .unwrap_err();
    assert!(e.message.contains("not registered"), "{}", e.message);
    rt.shutdown();
}

#[test]
fn failing_kernel_fails_its_task_only() {
    let rt = runtime(2, "lws");
    let bad = codelet(&[], |_| Err(KernelError("boom".into())));
    let t = Task::new();
    rt.submit(
        &t,
        TaskSpec {
            codelet: Some(bad),
            ..Default::default()
        },
    )
    .unwrap();
    let e = rt.wait_task(&t).unwrap_err();
    assert_eq!(e.kind, ErrorKind::TaskFailed);
    assert!(e.message.contains("boom"));
    let panicking = codelet(&[], |_| panic!("kernel bug"));
    let t = Task::new();
    rt.submit(
        &t,
        TaskSpec {
            codelet: Some(panicking),
            ..Default::default()
        },
    )
    .unwrap();
    assert!(rt.wait_task(&t).unwrap_err().message.contains("kernel bug"));
    let ok = codelet(&[], |_| Ok(()));
    let t = Task::new();
    rt.submit(
        &t,
        TaskSpec {
            codelet: Some(ok),
            ..Default::default()
        },
    )
    .unwrap();
    rt.wait_task(&t).unwrap();
    rt.shutdown();
}

#[test]
fn home_less_data_is_allocated_on_first_use() {
    let rt = runtime(2, "eager");
    let h = rt.register(None, VectorInterface::new(0, 4, 8)).unwrap();
    assert!(!h.is_allocated_on(0));
    let set = codelet(&[AccessMode::W], |call| {
        let d = call.interface::<VectorInterface>(0).unwrap();
        let s = unsafe { std::slice::from_raw_parts_mut(d.ptr as *mut f64, 4) };
        s.copy_from_slice(&[1.0, 2.0, 3.0, 4.0]);
        Ok(())
    });
    rt.submit(&Task::new(), spec(&set, vec![(&h, AccessMode::W)]))
        .unwrap();
    rt.acquire(&h, AcquireNode::Node(0), AccessMode::R).unwrap();
    let d: VectorInterface = h.interface(0).unwrap();
    let s = unsafe { std::slice::from_raw_parts(d.ptr as *const f64, 4) };
    assert_eq!(s, &[1.0, 2.0, 3.0, 4.0]);
    rt.release(&h).unwrap();
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
        let t = Task::new();
        rt.tags.declare_deps(100 + i as u64, &[99]);
        let spec = TaskSpec {
            codelet: Some(cl),
            priority: p,
            tag: Some(100 + i as u64),
            detached: true,
            ..Default::default()
        };
        rt.submit(&t, spec).unwrap();
    }
    rt.tag_notify(99);
    rt.wait_for_all().unwrap();
    // Highest priority first; equal priorities in submission order.
    assert_eq!(*order.lock().unwrap(), vec![2, 4, 0, 6, 3, 5, 1, 7]);
    rt.shutdown();
}

#[test]
fn unregistering_acquired_data_is_refused_instead_of_hanging() {
    let rt = runtime(1, "eager");
    let mut x: u64 = 1;
    let h = rt
        .register(
            Some(0),
            VariableInterface::new(&mut x as *mut u64 as usize, 8),
        )
        .unwrap();
    rt.acquire(&h, AcquireNode::Node(0), AccessMode::R).unwrap();
    let e = rt.unregister(&h, true).unwrap_err();
    assert!(e.message.contains("release it"), "{}", e.message);
    rt.release(&h).unwrap();
    rt.unregister(&h, true).unwrap();
    rt.shutdown();
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
        let spec = TaskSpec {
            codelet: Some(cl.clone()),
            detached: true,
            ..Default::default()
        };
        rt.submit(&Task::new(), spec).unwrap();
    }
    std::thread::sleep(std::time::Duration::from_millis(30));
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
    let rt = Runtime::start(Config {
        ncpus: Some(1),
        sched_policy: Some("eager".into()),
        limit_max_submitted: Some(4),
        limit_min_submitted: Some(2),
        ..Config::default()
    })
    .unwrap();
    let cl = codelet(&[], |_| {
        std::thread::sleep(std::time::Duration::from_millis(1));
        Ok(())
    });
    let mut most = 0;
    for _ in 0..20 {
        let spec = TaskSpec {
            codelet: Some(cl.clone()),
            detached: true,
            ..Default::default()
        };
        rt.submit(&Task::new(), spec).unwrap();
        most = most.max(rt.nsubmitted());
    }
    rt.wait_for_all().unwrap();
    assert!(most <= 4, "{most} tasks pending at once, the limit is 4");
    assert_eq!(rt.tasks_executed(), 20);
    rt.shutdown();
}

#[test]
fn disabled_kernels_are_not_called_but_tasks_complete() {
    let rt = Runtime::start(Config {
        ncpus: Some(1),
        disable_kernels: true,
        ..Config::default()
    })
    .unwrap();
    let called = Arc::new(AtomicUsize::new(0));
    let c = called.clone();
    let cl = codelet(&[], move |_| {
        c.fetch_add(1, Ordering::SeqCst);
        Ok(())
    });
    let t = Task::new();
    rt.submit(
        &t,
        TaskSpec {
            codelet: Some(cl),
            ..Default::default()
        },
    )
    .unwrap();
    rt.wait_task(&t).unwrap();
    assert_eq!(called.load(Ordering::SeqCst), 0);
    assert_eq!(rt.tasks_executed(), 1);
    rt.shutdown();
}
