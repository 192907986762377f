//! StarPU's `graph_test` policy: ready tasks wait for the whole graph, then run by depth.

mod common;

use starpu_core::{AccessMode, Codelet, Runtime};
use std::sync::{Arc, Mutex};

fn runtime(ncpus: usize) -> Arc<Runtime> {
    common::runtime(ncpus, Some("graph_test"))
}

/// A codelet that records `name` when it runs.
fn recorder(name: &'static str, order: &Arc<Mutex<Vec<&'static str>>>) -> Arc<Codelet> {
    let o = order.clone();
    Arc::new(Codelet::new(name).cpu(move |_| {
        o.lock().unwrap().push(name);
        Ok(())
    }))
}

/// Tasks wait until the graph is complete, then the deepest runs first: A -> B -> C on
/// one piece of data is a chain of depth 2, X and Y have nothing after them. Under a FIFO
/// policy X and Y, submitted first, would run first.
#[test]
fn ready_tasks_wait_for_the_graph_then_run_deepest_first() {
    let rt = runtime(1);
    let order = Arc::new(Mutex::new(Vec::new()));
    let h = rt.register_variable(0u32).unwrap();
    for name in ["X", "Y"] {
        rt.task(&recorder(name, &order)).submit().unwrap();
    }
    for name in ["A", "B", "C"] {
        let cl = Arc::new(Codelet::new(name).modes([AccessMode::RW]).cpu({
            let o = order.clone();
            move |_| {
                o.lock().unwrap().push(name);
                Ok(())
            }
        }));
        rt.task(&cl).buffer(&h, AccessMode::RW).submit().unwrap();
    }
    // X, Y and A are ready and held; B and C wait for A.
    assert_eq!(rt.nready(), 3);
    assert!(order.lock().unwrap().is_empty());
    rt.wait_for_all().unwrap();
    assert_eq!(*order.lock().unwrap(), ["A", "B", "X", "Y", "C"]);
    rt.unregister(&h, true).unwrap();
    rt.shutdown();
}

/// Every kind of wait lets the held tasks go (once let go, tasks are no longer held, so
/// each kind is tried on a fresh runtime): a task wait, a data acquisition, a tag wait, an
/// explicit `do_schedule`.
#[test]
fn waits_and_do_schedule_let_held_tasks_go() {
    let add = Arc::new(Codelet::new("add").modes([AccessMode::RW]).cpu(|call| {
        *call.variable_mut::<u32>(0)? += 1;
        Ok(())
    }));
    for kind in ["task wait", "acquisition", "tag wait", "do_schedule"] {
        let rt = runtime(2);
        let h = rt.register_variable(0u32).unwrap();
        let t = rt
            .task(&add)
            .buffer(&h, AccessMode::RW)
            .detach(false)
            .tag(7)
            .submit()
            .unwrap();
        match kind {
            "task wait" => rt.wait(&t).unwrap(),
            "acquisition" => {
                let a = rt.acquire_view(&h, AccessMode::R).unwrap();
                assert_eq!(*a.views().variable::<u32>(0).unwrap(), 1);
            }
            "tag wait" => rt.tag_wait(&[7]).unwrap(),
            _ => {
                rt.do_schedule();
                // Without waiting: the task must run anyway (the bound only keeps a broken
                // build from hanging the test run).
                for _ in 0..60_000 {
                    if t.is_terminated() {
                        break;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
                assert!(t.is_terminated(), "do_schedule did not let the task go");
            }
        }
        assert_eq!(rt.tasks_executed(), 1, "{kind}");
        assert_eq!(rt.unregister_take::<u32>(&h).unwrap(), 1, "{kind}");
        rt.shutdown();
    }
}
