//! Waits a face builds on: by id (the registry), with a time limit, and completions
//! delivered in batches.

mod common;

use starpu_core::task::CompletionQueue;
use starpu_core::{Codelet, ErrorKind, KernelError};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

#[test]
fn kept_tasks_are_waited_for_by_id_and_failures_reported_once() {
    let rt = common::runtime(2, Some("eager"));
    let ok = Arc::new(Codelet::new("ok").cpu(|_| Ok(())));
    let bad = Arc::new(Codelet::new("bad").cpu(|_| Err(KernelError::new("no"))));
    let submit = |cl: &Arc<Codelet>| {
        let b = rt.task(cl).detach(false);
        let t = b.task().clone();
        rt.keep_for_wait(&t);
        b.submit().unwrap().id()
    };
    let (a, b, c) = (submit(&ok), submit(&bad), submit(&ok));
    let e = rt.wait_ids(&[a, b, c]).unwrap_err();
    assert_eq!(e.kind, ErrorKind::TaskFailed);
    // Waited for: the failure was reported to this wait, not again.
    rt.wait_ids(&[a, b, c]).unwrap();
    let e = rt.wait_ids(&[u64::MAX]).unwrap_err();
    assert_eq!(e.kind, ErrorKind::NotFound);
    // A failure nobody waited for by id is reported by wait_for_all, then forgotten.
    let d = submit(&bad);
    assert!(rt.wait_for_all().is_err());
    rt.wait_ids(&[d]).unwrap();
    rt.shutdown();
}

/// A codelet whose tasks run until the flag returned is set.
fn held_until_released() -> (Arc<AtomicBool>, Arc<Codelet>) {
    let release = Arc::new(AtomicBool::new(false));
    let r = release.clone();
    let slow = Arc::new(Codelet::new("slow").cpu(move |_| {
        while !r.load(Ordering::Acquire) {
            std::thread::sleep(Duration::from_millis(1));
        }
        Ok(())
    }));
    (release, slow)
}

#[test]
fn waiting_with_a_deadline_times_out_then_succeeds() {
    let rt = common::runtime(1, Some("eager"));
    let (release, slow) = held_until_released();
    let t = rt.task(&slow).detach(false).submit().unwrap();
    let e = rt
        .wait_until(&t, Instant::now() + Duration::from_millis(10))
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Timeout);
    assert!(!t.is_terminated());
    release.store(true, Ordering::Release);
    rt.wait_until(&t, Instant::now() + Duration::from_secs(60))
        .unwrap();
    // A detached task cannot be waited for, with or without a deadline.
    let d = rt.task(&slow).submit().unwrap();
    assert_eq!(
        rt.wait_until(&d, Instant::now()).unwrap_err().kind,
        ErrorKind::InvalidArgument
    );
    rt.shutdown();
}

#[test]
fn completions_arrive_in_batches() {
    let rt = common::runtime(1, Some("eager"));
    let notified = Arc::new(AtomicUsize::new(0));
    let n = notified.clone();
    let queue = CompletionQueue::new(move || {
        n.fetch_add(1, Ordering::SeqCst);
    });
    // The one worker is held until every task is submitted and watched: their ends then
    // come while nobody drains, so they form one batch.
    let gate = Arc::new(Barrier::new(2));
    let g = gate.clone();
    let hold = Arc::new(Codelet::new("hold").cpu(move |_| {
        g.wait();
        Ok(())
    }));
    let noop = Arc::new(Codelet::new("noop").cpu(|_| Ok(())));
    rt.task(&hold).submit().unwrap();
    for i in 0..100u32 {
        let t = rt.task(&noop).submit().unwrap();
        queue.watch(&t, i);
    }
    gate.wait();
    rt.wait_for_all().unwrap();
    let mut got = queue.drain();
    got.sort_unstable();
    assert_eq!(got, (0..100).collect::<Vec<_>>());
    assert_eq!(notified.load(Ordering::SeqCst), 1);
    rt.shutdown();
}

#[test]
fn a_held_task_is_waited_for_even_when_detached() {
    let rt = common::runtime(2, Some("eager"));
    let (release, slow) = held_until_released();
    // Detached (the default): `wait` refuses it, the holder of the TaskRef may wait.
    let t = rt.task(&slow).submit().unwrap();
    let e = rt
        .wait_held(&t, Some(Instant::now() + Duration::from_millis(10)))
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Timeout);
    release.store(true, Ordering::Release);
    rt.wait_held(&t, None).unwrap();
    assert!(t.is_terminated());
    // Ended already: returns at once, again and again.
    rt.wait_held(&t, Some(Instant::now())).unwrap();
    // A failure comes back with the face's cause.
    let cause: starpu_core::error::Cause = Arc::new(42u32);
    let c = cause.clone();
    let bad =
        Arc::new(Codelet::new("bad").cpu(move |_| Err(KernelError::with_cause("no", c.clone()))));
    let f = rt.task(&bad).submit().unwrap();
    let e = rt.wait_held(&f, None).unwrap_err();
    assert_eq!(e.kind, ErrorKind::TaskFailed);
    assert!(Arc::ptr_eq(e.cause().unwrap(), &cause));
    // From a task: refused, not hung.
    let held = t.clone();
    let rt2 = rt.clone();
    let inner = Arc::new(
        Codelet::new("inner").cpu(move |_| match rt2.wait_held(&held, None) {
            Err(e) if e.kind == ErrorKind::Deadlock => Ok(()),
            other => Err(KernelError::new(format!(
                "expected Deadlock, got {other:?}"
            ))),
        }),
    );
    let i = rt.task(&inner).submit().unwrap();
    rt.wait_held(&i, None).unwrap();
    let _ = rt.wait_for_all();
    rt.shutdown();
}
