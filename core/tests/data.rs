//! Registering data from Rust memory and viewing it in kernels, through the safe API.

mod common;

use starpu_core::data::{Coo, Csr, Filter};
use starpu_core::{AccessMode, Codelet, ElemKind, KernelCall, Runtime};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

fn runtime() -> Arc<Runtime> {
    common::runtime(2, None)
}

/// Runs `f` as the kernel of one synchronous task over `buffers`; returns what it returned.
fn run<R: Send + 'static>(
    rt: &Runtime,
    buffers: &[(&starpu_core::DataHandle, AccessMode)],
    f: impl Fn(&KernelCall) -> starpu_core::Result<R> + Send + Sync + 'static,
) -> starpu_core::Result<R> {
    let out = Arc::new(Mutex::new(None));
    let o = out.clone();
    let cl = Arc::new(
        Codelet::new("probe")
            .modes(buffers.iter().map(|b| b.1))
            .cpu(move |call| {
                let r = f(call);
                let failed = r.as_ref().err().map(|e| e.message.clone());
                *o.lock().unwrap() = Some(r);
                match failed {
                    Some(m) => Err(m.into()),
                    None => Ok(()),
                }
            }),
    );
    let mut b = rt.task(&cl).synchronous(true);
    for (h, m) in buffers {
        b = b.buffer(h, *m);
    }
    let _ = b.submit();
    let r = out.lock().unwrap().take().expect("the kernel ran");
    r
}

#[test]
fn every_dense_interface_round_trips_owned_memory() {
    let rt = runtime();
    let v = rt.register_vector(vec![1i32, 2, 3]).unwrap();
    let b = rt
        .register_vector(vec![1.5f32; 4].into_boxed_slice())
        .unwrap();
    // 3 x 2 matrix with ld 4: rows [0 1 2] and [4 5 6]; 3 and 7 are padding.
    let m = rt
        .register_matrix((0..8).collect::<Vec<i64>>(), 3, 2, 4)
        .unwrap();
    let blk = rt
        .register_block(vec![1u8; 2 * 2 * 2], [2, 2, 2], [2, 4])
        .unwrap();
    let t = rt
        .register_tensor(vec![0u16; 16], [2, 2, 2, 2], [2, 4, 8])
        .unwrap();
    let nd = rt.register_ndim(vec![0.0f64; 6], &[3, 2], &[3]).unwrap();
    run(&rt, &[(&v, AccessMode::RW), (&b, AccessMode::RW)], |call| {
        call.vector_mut::<i32>(0)?.iter_mut().for_each(|x| *x *= 10);
        call.vector_mut::<f32>(1)?[3] = 0.5;
        Ok(())
    })
    .unwrap();
    let rows = run(&rt, &[(&m, AccessMode::RW)], |call| {
        let mut a = call.matrix_mut::<i64>(0)?;
        assert_eq!((a.nx(), a.ny(), a.lds()), (3, 2, &[4][..]));
        for r in a.rows_mut() {
            r.iter_mut().for_each(|x| *x = -*x);
        }
        Ok(a.to_vec())
    })
    .unwrap();
    assert_eq!(rows, vec![0, -1, -2, -4, -5, -6]);
    let sums = run(
        &rt,
        &[
            (&blk, AccessMode::R),
            (&t, AccessMode::RW),
            (&nd, AccessMode::RW),
        ],
        |call| {
            let blk = call.block::<u8>(0)?;
            let mut t = call.tensor_mut::<u16>(1)?;
            t.set(&[1, 1, 1, 1], 9);
            let mut nd = call.ndim_mut::<f64>(2)?;
            nd.row_mut(1)[2] = 2.5;
            Ok((
                blk.to_vec().iter().map(|&x| x as u32).sum::<u32>(),
                nd.get(&[2, 1]),
            ))
        },
    )
    .unwrap();
    assert_eq!(sums, (8, 2.5));
    assert_eq!(
        rt.unregister_take::<Vec<i32>>(&v).unwrap(),
        vec![10, 20, 30]
    );
    assert_eq!(
        &*rt.unregister_take::<Box<[f32]>>(&b).unwrap(),
        &[1.5, 1.5, 1.5, 0.5]
    );
    assert_eq!(
        rt.unregister_take::<Vec<i64>>(&m).unwrap(),
        vec![0, -1, -2, 3, -4, -5, -6, 7],
        "padding untouched"
    );
    assert_eq!(rt.unregister_take::<Vec<u16>>(&t).unwrap()[15], 9);
    assert_eq!(rt.unregister_take::<Vec<f64>>(&nd).unwrap()[5], 2.5);
    assert_eq!(rt.unregister_take::<Vec<u8>>(&blk).unwrap(), vec![1; 8]);
    rt.shutdown();
}

#[test]
fn sparse_interfaces_round_trip_owned_memory() {
    let rt = runtime();
    let csr = Csr {
        nzval: vec![1.0f64, 2.0, 3.0],
        colind: vec![0, 2, 1],
        rowptr: vec![0, 2, 3],
    };
    let h = rt.register_csr(csr.clone(), 0).unwrap();
    assert!(rt
        .register_csr(
            Csr {
                nzval: vec![1.0f64],
                colind: vec![0, 1],
                rowptr: vec![0, 2]
            },
            0
        )
        .is_err());
    let coo = Coo {
        values: vec![5i32],
        rows: vec![1],
        columns: vec![0],
    };
    let c = rt.register_coo(coo.clone(), 2, 2).unwrap();
    assert_eq!(rt.unregister_take::<Csr<f64>>(&h).unwrap(), csr);
    assert_eq!(rt.unregister_take::<Coo<i32>>(&c).unwrap(), coo);
    rt.shutdown();
}

#[test]
fn views_check_interface_type_and_mode() {
    let rt = runtime();
    let v = rt.register_vector(vec![1u32; 4]).unwrap();
    let msg = |r: starpu_core::Result<()>| r.unwrap_err().message;
    let e = msg(run(&rt, &[(&v, AccessMode::R)], |call| {
        call.vector_mut::<u32>(0)?;
        Ok(())
    }));
    assert!(e.contains("mode R"), "{e}");
    let e = msg(run(&rt, &[(&v, AccessMode::R)], |call| {
        call.vector::<i32>(0)?;
        Ok(())
    }));
    assert!(e.contains("U32"), "{e}");
    let e = msg(run(&rt, &[(&v, AccessMode::R)], |call| {
        call.matrix::<u32>(0)?;
        Ok(())
    }));
    assert!(e.contains("not a STARPU_MATRIX_INTERFACE"), "{e}");
    // The same data twice: a read view and a write view may not coexist.
    let v2 = rt.register_vector(vec![0u32; 2]).unwrap();
    let e = msg(run(
        &rt,
        &[(&v2, AccessMode::RW), (&v2, AccessMode::RW)],
        |call| {
            let _a = call.vector::<u32>(0)?;
            call.vector_mut::<u32>(1)?;
            Ok(())
        },
    ));
    assert!(e.contains("overlap"), "{e}");
    // Once the first view is dropped, the second is fine.
    run(
        &rt,
        &[(&v2, AccessMode::RW), (&v2, AccessMode::RW)],
        |call| {
            let n = call.vector::<u32>(0)?.len();
            call.vector_mut::<u32>(1)?[0] = n as u32;
            Ok(())
        },
    )
    .unwrap();
    assert_eq!(rt.unregister_take::<Vec<u32>>(&v2).unwrap(), vec![2, 0]);
    // Asking for another type than the one registered leaves the handle registered.
    assert!(rt.unregister_take::<Vec<i64>>(&v).is_err());
    assert_eq!(rt.unregister_take::<Vec<u32>>(&v).unwrap(), vec![1; 4]);
    rt.shutdown();
}

#[test]
fn matrix_layouts_that_overlap_are_refused_at_registration() {
    let rt = runtime();
    assert!(
        rt.register_matrix(vec![0i8; 12], 4, 3, 3).is_err(),
        "ld < nx"
    );
    assert!(
        rt.register_matrix(vec![0i8; 5], 3, 2, 3).is_err(),
        "too short"
    );
    // An empty layout needs no element, but its sizes must still fit StarPU's fields; the
    // error names the one that does not.
    let e = rt
        .register_matrix(Vec::<i8>::new(), 0, 1, 1 << 33)
        .unwrap_err();
    assert!(e.message.contains("ld 8589934592 is too large"), "{e}");
    let e = rt
        .register_block(Vec::<i8>::new(), [1, 0, 1], [1, 1 << 32])
        .unwrap_err();
    assert!(e.message.contains("ldz 4294967296 is too large"), "{e}");
    let e = rt
        .register_tensor(Vec::<i8>::new(), [0, 1, 1, 1], [1 << 32, 1, 1])
        .unwrap_err();
    assert!(e.message.contains("leading dimension 4294967296"), "{e}");
    rt.shutdown();
}

/// Counts drops, standing for a numpy array or a Java buffer kept alive by a handle.
struct Owner(Arc<AtomicUsize>, #[allow(dead_code)] Vec<i64>);

impl Drop for Owner {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

#[test]
fn foreign_memory_is_kept_alive_by_its_owner_until_unregistration() {
    let rt = runtime();
    let drops = Arc::new(AtomicUsize::new(0));
    let mut data = vec![3i64; 5];
    let ptr = data.as_mut_ptr() as usize;
    let owner = Owner(drops.clone(), data);
    let iface = starpu_core::data::interfaces::VectorInterface::new(ptr, 5, 8);
    // SAFETY: the owner holds the vector the interface points to.
    let h = unsafe { rt.register_foreign(iface, ElemKind::I64, Some(Box::new(owner))) }.unwrap();
    let sum = run(&rt, &[(&h, AccessMode::R)], |call| {
        Ok(call.vector::<i64>(0)?.iter().sum::<i64>())
    })
    .unwrap();
    assert_eq!(sum, 15);
    assert_eq!(drops.load(Ordering::SeqCst), 0, "kept while registered");
    rt.unregister(&h, true).unwrap();
    assert_eq!(
        drops.load(Ordering::SeqCst),
        1,
        "released at unregistration"
    );
    drop(h);
    assert_eq!(drops.load(Ordering::SeqCst), 1);
    rt.shutdown();
}

#[test]
fn lazy_data_is_allocated_where_first_written() {
    let rt = runtime();
    let h = rt
        .register_lazy(
            starpu_core::data::interfaces::VectorInterface::new(0, 4, 8),
            ElemKind::F64,
        )
        .unwrap();
    assert!(!h.is_allocated_on(0));
    run(&rt, &[(&h, AccessMode::W)], |call| {
        call.vector_mut::<f64>(0)?
            .copy_from_slice(&[1.0, 2.0, 3.0, 4.0]);
        Ok(())
    })
    .unwrap();
    let got = run(&rt, &[(&h, AccessMode::R)], |call| {
        Ok(call.vector::<f64>(0)?.to_vec())
    })
    .unwrap();
    assert_eq!(got, vec![1.0, 2.0, 3.0, 4.0]);
    rt.unregister(&h, true).unwrap();
    rt.shutdown();
}

#[test]
fn partitioned_children_keep_the_element_type() {
    let rt = runtime();
    let m = rt.register_matrix(vec![1.0f64; 16], 4, 4, 4).unwrap();
    let parts = rt.partition(&m, &Filter::matrix_vertical_block(2)).unwrap();
    assert_eq!(parts.len(), 2);
    for p in &parts {
        assert_eq!(p.elem_kind(), ElemKind::F64);
        run(&rt, &[(p, AccessMode::RW)], |call| {
            let mut a = call.matrix_mut::<f64>(0)?;
            assert_eq!((a.nx(), a.ny()), (4, 2));
            a.rows_mut().flatten().for_each(|x| *x += 1.0);
            Ok(())
        })
        .unwrap();
    }
    let e = rt.partition(&m, &Filter::vector_block(2)).unwrap_err();
    assert!(e.message.contains("partitioned"), "{}", e.message);
    rt.unpartition(&m, 0).unwrap();
    let e = rt.partition(&m, &Filter::vector_block(2)).unwrap_err();
    assert!(e.message.contains("interface"), "{}", e.message);
    assert_eq!(rt.unregister_take::<Vec<f64>>(&m).unwrap(), vec![2.0; 16]);
    rt.shutdown();
}

/// A thread that holds data acquired and asks for it again in a mode that must wait for
/// its own acquisition gets `Deadlock` (StarPU hangs); reads after reads are fine, and
/// another thread's acquisition simply waits.
#[test]
fn acquiring_again_what_this_thread_holds_is_refused() {
    use starpu_core::data::AcquireNode;
    use starpu_core::ErrorKind;
    let rt = runtime();
    let x = rt.register_variable(1i64).unwrap();
    rt.acquire(&x, AcquireNode::Node(0), AccessMode::RW)
        .unwrap();
    for mode in [AccessMode::R, AccessMode::W, AccessMode::RW] {
        let e = rt.acquire(&x, AcquireNode::Node(0), mode).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Deadlock, "{mode:?}: {}", e.message);
    }
    // Another thread waits for the release, then gets the data.
    let (rt2, x2) = (rt.clone(), x.clone());
    let other = std::thread::spawn(move || {
        rt2.acquire(&x2, AcquireNode::Node(0), AccessMode::RW)
            .unwrap();
        rt2.release(&x2).unwrap();
    });
    std::thread::sleep(std::time::Duration::from_millis(20));
    rt.release(&x).unwrap();
    other.join().unwrap();
    // Two reads by one thread do not wait for each other.
    rt.acquire(&x, AcquireNode::Node(0), AccessMode::R).unwrap();
    rt.acquire(&x, AcquireNode::Node(0), AccessMode::R).unwrap();
    let e = rt
        .acquire(&x, AcquireNode::Node(0), AccessMode::RW)
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Deadlock);
    rt.release(&x).unwrap();
    rt.release(&x).unwrap();
    rt.acquire(&x, AcquireNode::Node(0), AccessMode::RW)
        .unwrap();
    rt.release(&x).unwrap();
    assert_eq!(rt.unregister_take::<i64>(&x).unwrap(), 1);
    rt.shutdown();
}

/// With sequential consistency off, an acquisition is not ordered after earlier tasks, but
/// it still waits for a task that holds the data now, as StarPU's data arbitration does
/// (StarPU's examples/dependency/task_end_dep.c reads its result that way).
#[test]
fn an_acquisition_outside_sequential_order_waits_for_the_task_holding_the_data() {
    use starpu_core::data::AcquireNode;
    use std::sync::atomic::AtomicBool;
    use std::sync::mpsc;
    let rt = runtime();
    let x = rt.register_variable(1i64).unwrap();
    let (started_tx, started_rx) = mpsc::channel();
    let (go_tx, go_rx) = mpsc::channel::<()>();
    let (started_tx, go_rx) = (Mutex::new(started_tx), Mutex::new(go_rx));
    let written = Arc::new(AtomicBool::new(false));
    let w = written.clone();
    let writer = Arc::new(
        Codelet::new("writer")
            .modes([AccessMode::RW])
            .cpu(move |call| {
                started_tx.lock().unwrap().send(()).unwrap();
                go_rx.lock().unwrap().recv().unwrap();
                *call.variable_mut::<i64>(0)? = 2;
                w.store(true, Ordering::SeqCst);
                Ok(())
            }),
    );
    rt.task(&writer)
        .buffer(&x, AccessMode::RW)
        .submit()
        .unwrap();
    started_rx.recv().unwrap();
    x.set_sequential_consistency(false);
    let granted_after_write = Arc::new(Mutex::new(None));
    let g = granted_after_write.clone();
    let w = written.clone();
    rt.acquire_cb(
        &x,
        AcquireNode::Node(0),
        AccessMode::R,
        Box::new(move || *g.lock().unwrap() = Some(w.load(Ordering::SeqCst))),
    )
    .unwrap();
    // The writer runs and holds the data: the acquisition is not granted yet.
    assert_eq!(*granted_after_write.lock().unwrap(), None);
    go_tx.send(()).unwrap();
    rt.wait_for_all().unwrap();
    assert_eq!(*granted_after_write.lock().unwrap(), Some(true));
    rt.release(&x).unwrap();
    assert_eq!(rt.unregister_take::<i64>(&x).unwrap(), 2);
    rt.shutdown();
}
