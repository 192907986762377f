//! Transactions through the safe Rust API: a cancelled epoch's tasks skip their kernel
//! but end normally; epochs begin in order, each after the previous one's tasks; a task
//! whose codelet has a fixed number of buffers is refused; a closed transaction takes no
//! more tasks.

mod common;

use starpu_core::{AccessMode, Codelet, ErrorKind, Runtime};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

fn runtime(sched: &str) -> Arc<Runtime> {
    common::runtime(2, Some(sched))
}

/// Appends `x` to the vector it is given in RW: the order tasks ran in.
fn appender() -> Arc<Codelet> {
    Arc::new(Codelet::new("append").variable_buffers().cpu(|call| {
        let x = *call.arg::<i64>(0)?;
        let mut v = call.vector_mut::<i64>(0)?;
        let n = v[0] as usize;
        v[n + 1] = x;
        v[0] += 1;
        Ok(())
    }))
}

#[test]
fn cancelled_epochs_skip_their_kernels_in_order() {
    for sched in ["eager", "lws", "dmda"] {
        let rt = runtime(sched);
        let log = rt.register_vector(vec![0i64; 64]).unwrap();
        let append = appender();
        let asked = Arc::new(Mutex::new(Vec::new()));
        let ended = Arc::new(AtomicUsize::new(0));
        let start = |epoch: i64| {
            let asked = asked.clone();
            move || {
                asked.lock().unwrap().push(epoch);
                epoch != 1
            }
        };
        let trs = rt.transaction_open(start(0)).unwrap();
        for epoch in 0..3i64 {
            if epoch > 0 {
                trs.next_epoch(&rt, start(epoch)).unwrap();
            }
            for i in 0..4 {
                let e = ended.clone();
                rt.task(&append)
                    .buffer(&log, AccessMode::RW)
                    .arg(epoch * 10 + i)
                    .transaction(&trs)
                    .callback(move |_| {
                        e.fetch_add(1, Ordering::SeqCst);
                    })
                    .submit()
                    .unwrap();
            }
        }
        trs.close(&rt).unwrap();
        rt.wait_for_all().unwrap();
        let v = rt.unregister_take::<Vec<i64>>(&log).unwrap();
        let n = v[0] as usize;
        assert_eq!(&v[1..=n], &[0, 1, 2, 3, 20, 21, 22, 23], "under {sched}");
        assert_eq!(
            ended.load(Ordering::SeqCst),
            12,
            "every task ends, under {sched}"
        );
        assert_eq!(*asked.lock().unwrap(), vec![0, 1, 2], "under {sched}");
        rt.shutdown();
    }
}

#[test]
fn fixed_buffer_codelets_and_closed_transactions_are_refused() {
    let rt = runtime("eager");
    let x = rt.register_variable(0i64).unwrap();
    let fixed = Arc::new(Codelet::new("fixed").modes([AccessMode::RW]).cpu(|call| {
        *call.variable_mut::<i64>(0)? += 1;
        Ok(())
    }));
    let trs = rt.transaction_open(|| true).unwrap();
    let e = rt
        .task(&fixed)
        .buffer(&x, AccessMode::RW)
        .transaction(&trs)
        .submit()
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::InvalidArgument);
    assert!(
        e.message.contains("variable number of buffers"),
        "{}",
        e.message
    );
    trs.close(&rt).unwrap();
    let e = trs.next_epoch(&rt, || true).unwrap_err();
    assert!(e.message.contains("closed"), "{}", e.message);
    let e = trs.close(&rt).unwrap_err();
    assert!(e.message.contains("closed"), "{}", e.message);
    rt.wait_for_all().unwrap();
    assert_eq!(rt.unregister_take::<i64>(&x).unwrap(), 0);
    rt.shutdown();
}
