//! Packing a replica into bytes and back (what StarPU-MPI sends), and acquisitions
//! released exactly.

mod common;

use starpu_core::data::{AcquireNode, Csr};
use starpu_core::memory::MAIN_RAM;
use starpu_core::AccessMode;
use std::sync::mpsc;

#[test]
fn a_strided_matrix_packs_into_another_leading_dimension() {
    let rt = common::runtime(1, None);
    // 3 x 2 matrix, ld 4: the gaps are not part of the packed form.
    let a = rt
        .register_matrix(vec![1.0f64, 2.0, 3.0, -1.0, 4.0, 5.0, 6.0, -1.0], 3, 2, 4)
        .unwrap();
    let b = rt.register_matrix(vec![0.0f64; 6], 3, 2, 3).unwrap();
    rt.acquire(&a, AcquireNode::Node(MAIN_RAM), AccessMode::R)
        .unwrap();
    let bytes = a.pack_on(MAIN_RAM).unwrap();
    rt.release(&a).unwrap();
    assert_eq!(bytes.len(), 6 * 8);
    assert_eq!(a.packed_size_on(MAIN_RAM).unwrap(), 48);
    assert_eq!(
        b.runs_on(MAIN_RAM).unwrap().len(),
        1,
        "a gapless matrix is one run"
    );
    rt.acquire(&b, AcquireNode::Node(MAIN_RAM), AccessMode::W)
        .unwrap();
    b.unpack_on(MAIN_RAM, &bytes).unwrap();
    let short = b.unpack_on(MAIN_RAM, &bytes[..40]).unwrap_err();
    assert!(
        short.message.contains("takes 48 bytes, 40 bytes arrived"),
        "{short}"
    );
    rt.release(&b).unwrap();
    assert_eq!(
        rt.unregister_take::<Vec<f64>>(&b).unwrap(),
        vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    );
    rt.unregister(&a, true).unwrap();
    rt.shutdown();
}

#[test]
fn a_csr_matrix_packs_its_three_arrays() {
    let rt = common::runtime(1, None);
    let csr = |v: [f32; 3]| Csr {
        nzval: v.to_vec(),
        colind: vec![0, 1, 1],
        rowptr: vec![0, 2, 3],
    };
    let a = rt.register_csr(csr([1.0, 2.0, 3.0]), 0).unwrap();
    let b = rt.register_csr(csr([0.0; 3]), 0).unwrap();
    assert_eq!(a.runs_on(MAIN_RAM).unwrap().len(), 3);
    let bytes = a.pack_on(MAIN_RAM).unwrap();
    assert_eq!(bytes.len(), 3 * 4 + 3 * 4 + 3 * 4);
    b.unpack_on(MAIN_RAM, &bytes).unwrap();
    let back = rt.unregister_take::<Csr<f32>>(&b).unwrap();
    assert_eq!(back.nzval, vec![1.0, 2.0, 3.0]);
    let void = rt.register_void().unwrap();
    assert_eq!(void.pack_on(MAIN_RAM).unwrap(), Vec::<u8>::new());
    rt.shutdown();
}

/// A layer's acquisition of `h`, once granted.
fn granted(
    rt: &starpu_core::Runtime,
    h: &starpu_core::DataHandle,
    mode: AccessMode,
    sequential: bool,
) -> starpu_core::runtime::Acquisition {
    let (tx, rx) = mpsc::channel();
    let node = AcquireNode::Node(MAIN_RAM);
    let a = rt
        .acquire_exact(
            h,
            node,
            mode,
            sequential,
            Box::new(move || tx.send(()).unwrap()),
        )
        .unwrap();
    rx.recv().unwrap();
    a
}

#[test]
fn an_exact_release_ends_its_own_acquisition() {
    let rt = common::runtime(1, None);
    let x = rt.register_variable(1i32).unwrap();
    // Two readers at once: ours, then the application's through `acquire`.
    let ours = granted(&rt, &x, AccessMode::R, true);
    assert!(
        !x.is_acquired(),
        "a layer's acquisition is not the application's"
    );
    assert!(
        rt.release(&x).is_err(),
        "the application's release does not end it"
    );
    rt.acquire(&x, AcquireNode::Node(MAIN_RAM), AccessMode::R)
        .unwrap();
    rt.release_acquired(ours);
    assert!(
        x.is_acquired(),
        "the application's acquisition is still held"
    );
    rt.release(&x).unwrap();
    assert!(!x.is_acquired());
    // Without sequential consistency, a write acquisition does not wait for a reader.
    rt.acquire(&x, AcquireNode::Node(MAIN_RAM), AccessMode::R)
        .unwrap();
    let w = granted(&rt, &x, AccessMode::W, false);
    rt.release_acquired(w);
    rt.release(&x).unwrap();
    // Unregistration waits for a layer's acquisition (here released by another thread).
    let held = granted(&rt, &x, AccessMode::R, true);
    let releaser = {
        let rt = rt.clone();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(20));
            rt.release_acquired(held);
        })
    };
    assert_eq!(rt.unregister_take::<i32>(&x).unwrap(), 1);
    releaser.join().unwrap();
    rt.shutdown();
}
