//! Tasks that only some workers may run (`can_execute`) all run, and only there, under
//! every policy: a worker that takes such a task from a shared queue and puts it back
//! wakes a sleeping worker, which may be the one that can run it (it could otherwise sleep
//! forever while the task waits for it); a modular tree never hands a task to a worker
//! that refuses it.

mod common;

use starpu_core::sched::heteroprio::options::{AutoOptions, LaOptions, Options};
use starpu_core::sched::heteroprio::Heteroprio;
use starpu_core::sched::PolicyFactory;
use starpu_core::{Codelet, Config};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

const POLICIES: &[&str] = &[
    "eager",
    "prio",
    "random",
    "ws",
    "lws",
    "dmda",
    "heteroprio",
    "modular-eager",
    "modular-ws",
    "modular-heft",
    "modular-heft2",
    "modular-heft-prio",
    "graph_test",
];

/// Every policy by name, and heteroprio's locality-aware and auto-calibration modes.
fn configs() -> Vec<(String, Config)> {
    let mut out: Vec<(String, Config)> = POLICIES
        .iter()
        .map(|sched| {
            let c = Config {
                sched_policy: Some(sched.to_string()),
                ..Config::default()
            };
            (sched.to_string(), c)
        })
        .collect();
    let data = std::env::temp_dir().join(format!("can-execute-{}.data", std::process::id()));
    let modes = [
        (
            "heteroprio (locality-aware)",
            Options {
                locality: Some(LaOptions::read(&|_| None).unwrap()),
                auto: None,
            },
        ),
        (
            "heteroprio (auto-calibration)",
            Options {
                locality: None,
                auto: Some(AutoOptions::read(&|_| None, data).unwrap()),
            },
        ),
    ];
    for (label, opts) in modes {
        let c = Config {
            custom_policy: Some(PolicyFactory::new(move |_, workers| {
                Box::new(Heteroprio::with_options(workers, opts.clone()))
            })),
            ..Config::default()
        };
        out.push((label.to_string(), c));
    }
    out
}

#[test]
fn tasks_only_one_worker_accepts_all_run() {
    for (sched, config) in configs() {
        let rt = common::start(Config {
            ncpus: Some(2),
            ..config
        });
        let ran_on_1 = Arc::new(AtomicUsize::new(0));
        let r = ran_on_1.clone();
        let only_1 = Arc::new(
            Codelet::new("only_worker_1")
                .cpu(move |call| {
                    if call.worker() == 1 {
                        r.fetch_add(1, Ordering::SeqCst);
                    }
                    Ok(())
                })
                .can_execute(|worker, _, _| worker == 1),
        );
        // One task at a time: both workers are idle (or asleep) when each one comes.
        let rounds = 200;
        let (tx, rx) = mpsc::channel();
        let (rt2, cl) = (rt.clone(), only_1.clone());
        std::thread::spawn(move || {
            let r = (0..rounds).try_for_each(|_| {
                rt2.task(&cl).submit()?;
                rt2.wait_for_all()
            });
            let _ = tx.send(r);
        });
        // A deadlock guard, not a timing threshold: the tasks take microseconds.
        match rx.recv_timeout(Duration::from_secs(120)) {
            Ok(r) => r.unwrap(),
            Err(_) => panic!("under {sched}: a task that only worker 1 accepts never ran"),
        }
        assert_eq!(ran_on_1.load(Ordering::SeqCst), rounds, "under {sched}");
        rt.shutdown();
    }
    let _ = std::fs::remove_file(
        std::env::temp_dir().join(format!("can-execute-{}.data", std::process::id())),
    );
}
