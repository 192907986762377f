//! A worker's priority in each of its scheduling contexts
//! (`starpu_sched_ctx_set_priority`): the worker takes work from the context where its
//! priority is higher first, whatever the contexts' policies.

mod common;

use starpu_core::sched::contexts::{ContextOptions, GLOBAL};
use starpu_core::{Codelet, ErrorKind};
use std::sync::{Arc, Mutex};

/// A codelet that records `label` each time it runs.
fn labelled(label: u32, seen: &Arc<Mutex<Vec<u32>>>) -> Arc<Codelet> {
    let s = seen.clone();
    Arc::new(Codelet::new("labelled").cpu(move |_| {
        s.lock().unwrap().push(label);
        Ok(())
    }))
}

#[test]
fn a_shared_worker_serves_its_contexts_by_priority() {
    for policy in ["eager", "prio", "ws", "dmda"] {
        let rt = common::runtime(2, Some("eager"));
        let opts = |name: &str| ContextOptions::named(name).policy(policy);
        let low = rt.create_context(&[0], opts("low")).unwrap();
        let high = rt.create_context(&[0], opts("high")).unwrap();
        assert_eq!(rt.context_worker_priority(0, low).unwrap(), 0);
        assert_eq!(rt.context_worker_priority(0, GLOBAL).unwrap(), 0);
        let seen = Arc::new(Mutex::new(Vec::new()));
        let (lcl, hcl) = (labelled(low, &seen), labelled(high, &seen));
        for (first, second) in [(high, low), (low, high)] {
            rt.set_context_worker_priority(first, &[0], 5).unwrap();
            rt.set_context_worker_priority(second, &[0], 1).unwrap();
            assert_eq!(rt.context_worker_priority(0, first).unwrap(), 5);
            seen.lock().unwrap().clear();
            rt.pause();
            for _ in 0..3 {
                rt.task(&lcl).sched_ctx(low).submit().unwrap();
                rt.task(&hcl).sched_ctx(high).submit().unwrap();
            }
            rt.resume();
            rt.wait_for_all().unwrap();
            let got = seen.lock().unwrap().clone();
            assert_eq!(
                got,
                vec![first, first, first, second, second, second],
                "{policy}"
            );
        }
        rt.shutdown();
    }
}

#[test]
fn priorities_need_a_member_and_restart_at_zero() {
    let rt = common::runtime(2, Some("eager"));
    let ctx = rt
        .create_context(&[0], ContextOptions::named("one"))
        .unwrap();
    let err = rt.set_context_worker_priority(ctx, &[0, 1], 3).unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidArgument);
    // Nothing changed: worker 1 was not a member.
    assert_eq!(rt.context_worker_priority(0, ctx).unwrap(), 0);
    assert!(rt.context_worker_priority(1, ctx).is_err());
    assert!(rt.context_worker_priority(0, 9).is_err());
    rt.set_context_worker_priority(ctx, &[0], 3).unwrap();
    rt.remove_context_workers(ctx, &[0]).unwrap();
    rt.add_context_workers(ctx, &[0]).unwrap();
    assert_eq!(rt.context_worker_priority(0, ctx).unwrap(), 0);
    rt.shutdown();
}
