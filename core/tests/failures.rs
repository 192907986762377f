//! What happens when application code fails: a kernel returns an error or panics, a
//! callback, a prologue, `can_execute` or a filter panics. The task fails with the message,
//! its dependents still run, waits return and report it, and the worker survives.

mod common;

use starpu_core::data::Filter;
use starpu_core::{AccessMode, Codelet, ErrorKind, Runtime};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

fn runtime(ncpus: usize) -> Arc<Runtime> {
    common::runtime(ncpus, None)
}

fn noop() -> Arc<Codelet> {
    Arc::new(Codelet::new("noop").cpu(|_| Ok(())))
}

#[test]
fn a_failing_kernel_fails_its_task_only() {
    let rt = runtime(2);
    let bad = Arc::new(Codelet::new("bad").cpu(|_| Err("boom".into())));
    let t = rt.task(&bad).detach(false).submit().unwrap();
    let e = rt.wait(&t).unwrap_err();
    assert_eq!(e.kind, ErrorKind::TaskFailed);
    assert!(e.message.contains("boom"), "{}", e.message);
    let panicking = Arc::new(Codelet::new("panicking").cpu(|_| panic!("kernel bug")));
    let t = rt.task(&panicking).detach(false).submit().unwrap();
    assert!(rt.wait(&t).unwrap_err().message.contains("kernel bug"));
    let t = rt.task(&noop()).detach(false).submit().unwrap();
    rt.wait(&t).unwrap();
    let e = rt.wait_for_all().unwrap_err();
    assert_eq!(e.kind, ErrorKind::TaskFailed);
    assert!(e.message.starts_with("2 tasks failed"), "{}", e.message);
    rt.wait_for_all().unwrap();
    rt.shutdown();
}

#[test]
fn dependents_of_a_failed_task_still_run() {
    let rt = runtime(1);
    let x = rt.register_variable(1i64).unwrap();
    let fail = Arc::new(
        Codelet::new("fail")
            .modes([AccessMode::RW])
            .cpu(|_| Err("no".into())),
    );
    let double = Arc::new(Codelet::new("double").modes([AccessMode::RW]).cpu(|call| {
        *call.variable_mut::<i64>(0)? *= 2;
        Ok(())
    }));
    rt.task(&fail).buffer(&x, AccessMode::RW).submit().unwrap();
    rt.task(&double)
        .buffer(&x, AccessMode::RW)
        .submit()
        .unwrap();
    assert!(rt.wait_for_all().is_err());
    assert_eq!(rt.unregister_take::<i64>(&x).unwrap(), 2);
    rt.shutdown();
}

#[test]
fn panicking_callbacks_fail_the_task_and_spare_the_worker() {
    let rt = runtime(1);
    let t = rt
        .task(&noop())
        .callback(|_| panic!("callback bug"))
        .detach(false)
        .submit()
        .unwrap();
    assert!(rt.wait(&t).unwrap_err().message.contains("callback bug"));
    let t = rt
        .task(&noop())
        .prologue(|| panic!("prologue bug"))
        .detach(false)
        .submit()
        .unwrap();
    assert!(rt.wait(&t).unwrap_err().message.contains("prologue bug"));
    let t = rt
        .task(&noop())
        .on_terminated(|_| panic!("closure bug"))
        .detach(false)
        .submit()
        .unwrap();
    let _ = rt.wait(&t);
    assert!(t.failure().unwrap().message.contains("closure bug"));
    // The only worker is alive and well.
    let t = rt.task(&noop()).detach(false).submit().unwrap();
    rt.wait(&t).unwrap();
    let _ = rt.wait_for_all();
    rt.shutdown();
}

#[test]
fn a_panicking_can_execute_fails_the_task_instead_of_leaving_it_queued() {
    let rt = runtime(2);
    let ran = Arc::new(AtomicUsize::new(0));
    let r = ran.clone();
    let cl = Arc::new(
        Codelet::new("picky")
            .cpu(move |_| {
                r.fetch_add(1, Ordering::SeqCst);
                Ok(())
            })
            .can_execute(|_, _, _| panic!("can_execute bug")),
    );
    let t = rt.task(&cl).detach(false).submit().unwrap();
    let e = rt.wait(&t).unwrap_err();
    assert!(e.message.contains("can_execute bug"), "{}", e.message);
    assert_eq!(ran.load(Ordering::SeqCst), 0, "its kernel did not run");
    let _ = rt.wait_for_all();
    rt.shutdown();
}

#[test]
fn a_panicking_filter_leaves_the_data_unpartitioned() {
    let rt = runtime(1);
    let v = rt.register_vector(vec![0u8; 8]).unwrap();
    let bad = Filter::typed::<
        starpu_core::data::interfaces::VectorInterface,
        starpu_core::data::interfaces::VectorInterface,
    >(2, |_, _, _, _| panic!("filter bug"));
    let e = rt.partition(&v, &bad).unwrap_err();
    assert!(e.message.contains("filter bug"), "{}", e.message);
    assert!(!v.is_partitioned());
    assert_eq!(rt.partition(&v, &Filter::vector_block(2)).unwrap().len(), 2);
    rt.unpartition(&v, 0).unwrap();
    assert_eq!(rt.unregister_take::<Vec<u8>>(&v).unwrap(), vec![0; 8]);
    rt.shutdown();
}

#[test]
fn blocking_calls_from_a_task_are_refused() {
    let rt = runtime(1);
    let inner = rt.clone();
    let x = rt.register_variable(0u8).unwrap();
    let xc = x.clone();
    let cl = Arc::new(Codelet::new("blocker").cpu(move |_| {
        let e = inner.wait_for_all().unwrap_err();
        assert_eq!(e.kind, ErrorKind::Deadlock);
        assert_eq!(
            inner.wait_until_at_most(0).unwrap_err().kind,
            ErrorKind::Deadlock
        );
        assert_eq!(
            inner.wait_for_no_ready().unwrap_err().kind,
            ErrorKind::Deadlock
        );
        let e = inner
            .acquire(&xc, starpu_core::data::AcquireNode::Node(0), AccessMode::R)
            .unwrap_err();
        assert_eq!(e.kind, ErrorKind::Deadlock);
        Ok(())
    }));
    let t = rt.task(&cl).detach(false).submit().unwrap();
    rt.wait(&t).unwrap();
    rt.unregister(&x, true).unwrap();
    rt.shutdown();
}

/// A face's exception object, given as a kernel failure's cause, comes back unchanged (the
/// same object) from the task's wait and from `wait_for_all`, with the task's name.
#[test]
fn the_foreign_cause_of_a_failure_comes_back_as_given() {
    use starpu_core::error::Cause;
    use starpu_core::KernelError;
    struct Exception(&'static str);
    let rt = runtime(1);
    let raised: Cause = Arc::new(Exception("ValueError: bad input"));
    let given = raised.clone();
    let raising = Arc::new(
        Codelet::new("raising")
            .cpu(move |_| Err(KernelError::with_cause("the codelet raised", given.clone()))),
    );
    let t = rt
        .task(&raising)
        .name("t_raise")
        .detach(false)
        .submit()
        .unwrap();
    let e = rt.wait(&t).unwrap_err();
    assert_eq!(e.kind, ErrorKind::TaskFailed);
    assert!(Arc::ptr_eq(e.cause().unwrap(), &raised));
    assert_eq!(
        e.cause_as::<Exception>().unwrap().0,
        "ValueError: bad input"
    );
    assert_eq!(e.task_name(), Some("t_raise"));
    let all = rt.wait_for_all().unwrap_err();
    assert!(Arc::ptr_eq(all.cause().unwrap(), &raised));
    assert_eq!(all.task_name(), Some("t_raise"));
    rt.shutdown();
}
