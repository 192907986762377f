//! Scheduling contexts through the safe Rust API: tasks of a context run on its workers
//! only, under every policy; deletion hands tasks to the inheritor; membership changes
//! move queued tasks; application-written policies are used.

mod common;

use starpu_core::sched::contexts::{self, ContextOptions};
use starpu_core::sched::{Policy, PolicyFactory, SchedView};
use starpu_core::task::{Task, TaskRef};
use starpu_core::{Codelet, Config, ErrorKind, Runtime};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

const POLICIES: &[&str] = &[
    "eager", "prio", "random", "ws", "lws", "dm", "dmda", "dmdas", "dmdar",
];

fn runtime(ncpus: usize, sched: &str) -> Arc<Runtime> {
    common::runtime(ncpus, Some(sched))
}

/// A codelet recording, per task, the worker it ran on.
fn recorder() -> (Arc<Codelet>, Arc<Mutex<Vec<usize>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let s = seen.clone();
    let cl = Arc::new(Codelet::new("record").cpu(move |call| {
        s.lock().unwrap().push(call.worker());
        Ok(())
    }));
    (cl, seen)
}

fn workers_used(seen: &Mutex<Vec<usize>>) -> Vec<usize> {
    let mut w = seen.lock().unwrap().clone();
    w.sort_unstable();
    w.dedup();
    w
}

#[test]
fn tasks_of_a_context_run_on_its_workers_under_every_policy() {
    // Looped: a wake-up that goes to a worker outside the context leaves the task queued
    // while the context's own worker sleeps, which hangs some runs, not all.
    for round in 0..4 {
        // Every policy in the context; the global context's policy matters less (it only
        // shares the wake-ups), three kinds of it keep the test short under TSan.
        for &global in &["eager", "ws", "dmda"] {
            for &own in POLICIES {
                let rt = runtime(3, global);
                let ctx = rt
                    .create_context(&[2], ContextOptions::named("two").policy(own))
                    .unwrap();
                // Exclusive: worker 2 leaves the global context.
                rt.remove_context_workers(contexts::GLOBAL, &[2]).unwrap();
                let (cl, seen) = recorder();
                let (gcl, gseen) = recorder();
                for i in 0..40 {
                    rt.task(&cl)
                        .sched_ctx(ctx)
                        .priority(i % 3)
                        .submit()
                        .unwrap();
                    rt.task(&gcl).submit().unwrap();
                }
                rt.wait_for_all().unwrap();
                assert_eq!(
                    seen.lock().unwrap().len(),
                    40,
                    "{global}/{own} round {round}"
                );
                assert_eq!(workers_used(&seen), vec![2], "{global}/{own}");
                assert_eq!(gseen.lock().unwrap().len(), 40);
                assert!(
                    workers_used(&gseen).iter().all(|&w| w < 2),
                    "{global}/{own}: global tasks ran on {:?}",
                    workers_used(&gseen)
                );
                assert_eq!(rt.context_policy_name(ctx).unwrap(), own);
                rt.delete_context(ctx).unwrap();
                rt.shutdown();
            }
        }
    }
}

#[test]
fn a_shared_worker_serves_both_contexts() {
    let rt = runtime(2, "lws");
    let ctx = rt
        .create_context(&[1], ContextOptions::named("one"))
        .unwrap();
    assert_eq!(rt.worker_contexts(1), vec![0, ctx]);
    assert_eq!(rt.context_workers(contexts::GLOBAL).unwrap(), vec![0, 1]);
    let (cl, seen) = recorder();
    for _ in 0..50 {
        rt.task(&cl).sched_ctx(ctx).submit().unwrap();
    }
    rt.wait_for_all().unwrap();
    assert_eq!(workers_used(&seen), vec![1]);
    rt.shutdown();
}

#[test]
fn deleting_a_context_gives_its_tasks_to_the_inheritor() {
    for &p in POLICIES {
        let rt = runtime(3, "eager");
        rt.remove_context_workers(contexts::GLOBAL, &[1, 2])
            .unwrap();
        let heir = rt
            .create_context(&[2], ContextOptions::named("heir").policy(p))
            .unwrap();
        // No worker: its tasks wait in its queue until it is deleted.
        let empty = rt
            .create_context(&[], ContextOptions::named("empty").policy(p))
            .unwrap();
        rt.set_context_inheritor(empty, heir).unwrap();
        assert_eq!(rt.context_inheritor(empty).unwrap(), Some(heir));
        let (cl, seen) = recorder();
        for _ in 0..30 {
            rt.task(&cl).sched_ctx(empty).submit().unwrap();
        }
        assert_eq!(rt.context_nready(empty).unwrap(), 30, "{p}");
        assert!(seen.lock().unwrap().is_empty());
        rt.delete_context(empty).unwrap();
        rt.wait_for_all().unwrap();
        assert_eq!(seen.lock().unwrap().len(), 30, "{p}");
        assert_eq!(workers_used(&seen), vec![2], "{p}");
        assert!(!rt.context_exists(empty));
        rt.shutdown();
    }
}

#[test]
fn a_deleted_contexts_later_tasks_and_its_workers_go_to_the_heir() {
    let rt = runtime(3, "eager");
    rt.remove_context_workers(contexts::GLOBAL, &[1, 2])
        .unwrap();
    let heir = rt
        .create_context(&[2], ContextOptions::named("heir"))
        .unwrap();
    let ctx = rt
        .create_context(
            &[1],
            ContextOptions {
                inheritor: Some(heir),
                ..ContextOptions::named("doomed")
            },
        )
        .unwrap();
    let (cl, seen) = recorder();
    // Not ready until `gate` runs: they become ready after the deletion.
    let gate = rt.task(&cl).sched_ctx(contexts::GLOBAL);
    rt.pause();
    let gate = gate.submit().unwrap();
    for _ in 0..10 {
        rt.task(&cl).sched_ctx(ctx).after(&gate).submit().unwrap();
    }
    rt.delete_context(ctx).unwrap();
    assert_eq!(rt.context_workers(heir).unwrap(), vec![1, 2]);
    rt.resume();
    rt.wait_for_all().unwrap();
    let all = seen.lock().unwrap().clone();
    assert_eq!(all.len(), 11);
    assert_eq!(all[0], 0, "the gate runs in the global context (worker 0)");
    assert!(all[1..].iter().all(|&w| w == 1 || w == 2), "{all:?}");
    rt.shutdown();
}

#[test]
fn deleting_without_inheritor_sends_tasks_to_the_global_context() {
    let rt = runtime(2, "ws");
    rt.remove_context_workers(contexts::GLOBAL, &[1]).unwrap();
    let ctx = rt
        .create_context(&[], ContextOptions::named("idle"))
        .unwrap();
    let (cl, seen) = recorder();
    for _ in 0..20 {
        rt.task(&cl).sched_ctx(ctx).submit().unwrap();
    }
    rt.delete_context(ctx).unwrap();
    rt.wait_for_all().unwrap();
    assert_eq!(workers_used(&seen), vec![0]);
    assert_eq!(seen.lock().unwrap().len(), 20);
    rt.shutdown();
}

#[test]
fn added_workers_take_queued_tasks_and_removed_ones_give_theirs_back() {
    for &p in POLICIES {
        let rt = runtime(3, "eager");
        rt.remove_context_workers(contexts::GLOBAL, &[1, 2])
            .unwrap();
        let ctx = rt
            .create_context(&[], ContextOptions::named("grow").policy(p))
            .unwrap();
        let (cl, seen) = recorder();
        for _ in 0..20 {
            rt.task(&cl).sched_ctx(ctx).submit().unwrap();
        }
        rt.add_context_workers(ctx, &[1]).unwrap();
        rt.wait_for_all().unwrap();
        assert_eq!(workers_used(&seen), vec![1], "{p}");

        // Queued for workers 1 and 2 while paused; worker 2 leaves before they run.
        rt.add_context_workers(ctx, &[2]).unwrap();
        seen.lock().unwrap().clear();
        rt.pause();
        for _ in 0..20 {
            rt.task(&cl).sched_ctx(ctx).submit().unwrap();
        }
        rt.remove_context_workers(ctx, &[2]).unwrap();
        assert_eq!(rt.context_workers(ctx).unwrap(), vec![1]);
        rt.resume();
        rt.wait_for_all().unwrap();
        assert_eq!(seen.lock().unwrap().len(), 20, "{p}");
        assert_eq!(workers_used(&seen), vec![1], "{p}");
        rt.shutdown();
    }
}

#[test]
fn the_current_context_of_a_thread_receives_its_tasks() {
    let rt = runtime(2, "lws");
    rt.remove_context_workers(contexts::GLOBAL, &[1]).unwrap();
    let ctx = rt
        .create_context(&[1], ContextOptions::named("mine"))
        .unwrap();
    assert_eq!(contexts::current_context(), None);
    contexts::set_current_context(Some(ctx));
    assert_eq!(contexts::current_context(), Some(ctx));
    let (cl, seen) = recorder();
    for _ in 0..20 {
        rt.task(&cl).submit().unwrap();
    }
    rt.wait_for_all().unwrap();
    assert_eq!(workers_used(&seen), vec![1]);
    // Another thread still submits to the global context.
    let rt2 = rt.clone();
    let cl2 = cl.clone();
    std::thread::spawn(move || {
        for _ in 0..20 {
            rt2.task(&cl2).submit().unwrap();
        }
    })
    .join()
    .unwrap();
    contexts::set_current_context(None);
    rt.wait_for_all().unwrap();
    let all = seen.lock().unwrap().clone();
    assert_eq!(all[20..].iter().filter(|&&w| w == 0).count(), 20);
    rt.shutdown();
}

#[test]
fn priorities_names_and_errors() {
    let rt = runtime(2, "prio");
    let ctx = rt
        .create_context(
            &[0],
            ContextOptions::named("p").policy("prio").priorities(-3, 7),
        )
        .unwrap();
    assert_eq!(rt.context_priority_range(ctx).unwrap(), (-3, 7));
    rt.set_context_max_priority(ctx, 9).unwrap();
    rt.set_context_min_priority(ctx, -1).unwrap();
    assert_eq!(rt.context_priority_range(ctx).unwrap(), (-1, 9));
    assert_eq!(rt.context_name(ctx).unwrap(), "p");
    assert_eq!(rt.context_name(contexts::GLOBAL).unwrap(), "global");
    // Default policy's bounds.
    let d = rt
        .create_context(&[1], ContextOptions::named("d").policy("eager"))
        .unwrap();
    assert_eq!(rt.context_priority_range(d).unwrap(), (0, 0));

    let e = rt.delete_context(contexts::GLOBAL).unwrap_err();
    assert_eq!(e.kind, ErrorKind::InvalidArgument);
    let e = rt
        .create_context(&[5], ContextOptions::named("bad"))
        .unwrap_err();
    assert!(
        e.message.contains("worker 5 does not exist"),
        "{}",
        e.message
    );
    let e = rt
        .create_context(&[0], ContextOptions::named("bad").policy("nope"))
        .unwrap_err();
    assert!(e.message.contains("'nope'"), "{}", e.message);
    let (cl, _) = recorder();
    let e = rt.task(&cl).sched_ctx(8).submit().unwrap_err();
    assert!(
        e.message.contains("context 8 does not exist"),
        "{}",
        e.message
    );
    let mut made = vec![];
    loop {
        match rt.create_context(&[0], ContextOptions::named("many")) {
            Ok(c) => made.push(c),
            Err(e) => {
                assert!(
                    e.message.contains("STARPU_NMAX_SCHED_CTXS"),
                    "{}",
                    e.message
                );
                break;
            }
        }
    }
    assert_eq!(made.len() + 3, contexts::MAX_CONTEXTS);
    for c in made {
        rt.delete_context(c).unwrap();
    }
    rt.delete_context(ctx).unwrap();
    assert!(rt.delete_context(ctx).is_err());
    rt.shutdown();
}

/// An application-written policy: one FIFO, counting pushes and pops.
struct Counting {
    queue: Mutex<VecDeque<TaskRef>>,
    pushed: Arc<AtomicUsize>,
    popped: Arc<AtomicUsize>,
}

impl Policy for Counting {
    fn name(&self) -> &'static str {
        "counting"
    }
    fn push(&self, task: TaskRef, _from: Option<usize>, _view: &dyn SchedView) -> Option<usize> {
        self.pushed.fetch_add(1, Ordering::SeqCst);
        self.queue.lock().unwrap().push_back(task);
        None
    }
    fn pop(&self, _worker: usize, can_run: &dyn Fn(&Task) -> bool) -> Option<TaskRef> {
        let mut q = self.queue.lock().unwrap();
        let i = q.iter().position(|t| can_run(t))?;
        self.popped.fetch_add(1, Ordering::SeqCst);
        q.remove(i)
    }
    fn has_work(&self, _worker: usize) -> bool {
        !self.queue.lock().unwrap().is_empty()
    }
    fn ntasks(&self) -> usize {
        self.queue.lock().unwrap().len()
    }
}

fn counting() -> (PolicyFactory, Arc<AtomicUsize>, Arc<AtomicUsize>) {
    let pushed = Arc::new(AtomicUsize::new(0));
    let popped = Arc::new(AtomicUsize::new(0));
    let (pu, po) = (pushed.clone(), popped.clone());
    let f = PolicyFactory::new(move |_ctx, _workers| {
        Box::new(Counting {
            queue: Mutex::new(VecDeque::new()),
            pushed: pu.clone(),
            popped: po.clone(),
        }) as Box<dyn Policy>
    });
    (f, pushed, popped)
}

#[test]
fn application_policies_schedule_the_global_context_and_contexts() {
    let (f, pushed, popped) = counting();
    let rt = common::start(Config {
        ncpus: Some(2),
        custom_policy: Some(f),
        ..Config::default()
    });
    assert_eq!(rt.policy_name(), "counting");
    let (cl, seen) = recorder();
    for _ in 0..25 {
        rt.task(&cl).submit().unwrap();
    }
    rt.wait_for_all().unwrap();
    assert_eq!(pushed.load(Ordering::SeqCst), 25);
    assert_eq!(popped.load(Ordering::SeqCst), 25);

    let (f2, pushed2, popped2) = counting();
    let ctx = rt
        .create_context(
            &[1],
            ContextOptions {
                custom_policy: Some(f2),
                ..ContextOptions::named("custom")
            },
        )
        .unwrap();
    seen.lock().unwrap().clear();
    for _ in 0..15 {
        rt.task(&cl).sched_ctx(ctx).submit().unwrap();
    }
    rt.wait_for_all().unwrap();
    assert_eq!(pushed2.load(Ordering::SeqCst), 15);
    assert_eq!(popped2.load(Ordering::SeqCst), 15);
    assert_eq!(workers_used(&seen), vec![1]);
    assert_eq!(
        pushed.load(Ordering::SeqCst),
        25,
        "the global policy saw none of them"
    );
    rt.shutdown();
}

/// A codelet that waits until `gate` opens: tasks held on their workers, to end together.
fn gated(gate: &Arc<std::sync::atomic::AtomicBool>) -> Arc<Codelet> {
    let g = gate.clone();
    Arc::new(Codelet::new("gated").cpu(move |_| {
        while !g.load(Ordering::SeqCst) {
            std::hint::spin_loop();
        }
        Ok(())
    }))
}

#[test]
fn a_finished_context_closes_once_when_its_last_tasks_end_together() {
    // Each worker counts the ends of its tasks apart (runtime/task_count.rs): two workers
    // ending a context's last tasks at the same moment may both see its count at 0, and
    // the context must still close once. Looped: the two ends must meet.
    for round in 0..30 {
        let rt = runtime(3, "eager");
        let heir = rt
            .create_context(&[0], ContextOptions::named("heir"))
            .unwrap();
        let ctx = rt
            .create_context(&[1, 2], ContextOptions::named("closing"))
            .unwrap();
        rt.set_context_inheritor(ctx, heir).unwrap();
        let closed = Arc::new(AtomicUsize::new(0));
        let c = closed.clone();
        rt.set_context_close_callback(
            ctx,
            Arc::new(move |_| {
                c.fetch_add(1, Ordering::SeqCst);
            }),
        )
        .unwrap();
        let gate = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let cl = gated(&gate);
        for _ in 0..2 {
            rt.task(&cl).sched_ctx(ctx).submit().unwrap();
        }
        assert_eq!(rt.context_nsubmitted(ctx).unwrap(), 2);
        rt.context_finished_submit(ctx).unwrap();
        gate.store(true, Ordering::SeqCst);
        rt.wait_for_all_in_context(ctx).unwrap();
        rt.wait_for_all().unwrap();
        assert_eq!(rt.context_nsubmitted(ctx).unwrap(), 0, "round {round}");
        assert_eq!(rt.nsubmitted(), 0, "round {round}");
        assert_eq!(closed.load(Ordering::SeqCst), 1, "round {round}");
        rt.shutdown();
    }
}

#[test]
fn tasks_ended_by_the_application_thread_leave_the_counts() {
    // A task with an end dependency ends on the thread that releases it (here the
    // application's, no worker): its end is counted there, and the waits return.
    let rt = runtime(2, "lws");
    let ctx = rt
        .create_context(&[0, 1], ContextOptions::named("ends"))
        .unwrap();
    let cl = Arc::new(Codelet::new("nothing").cpu(|_| Ok(())));
    let tasks: Vec<TaskRef> = (0..20)
        .map(|i| {
            let b = rt.task(&cl).end_deps(1).detach(false);
            let b = if i % 2 == 0 { b.sched_ctx(ctx) } else { b };
            b.submit().unwrap()
        })
        .collect();
    while tasks.iter().any(|t| !t.is_completed()) {
        std::thread::yield_now();
    }
    assert_eq!(
        rt.nsubmitted(),
        20,
        "ran, but their ends wait for the releases"
    );
    assert_eq!(rt.context_nsubmitted(ctx).unwrap(), 10);
    for t in &tasks {
        starpu_core::task::end_dep_release(&rt, t);
    }
    rt.wait_for_all_in_context(ctx).unwrap();
    rt.wait_for_all().unwrap();
    assert_eq!(rt.context_nsubmitted(ctx).unwrap(), 0);
    assert_eq!(rt.nsubmitted(), 0);
    rt.shutdown();
}
