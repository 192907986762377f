//! Partitioning through the safe API: every standard filter, partition plans submitted
//! explicitly or by the runtime, nested plans, concurrent reads at several levels, and the
//! errors of misused plans.

mod common;

use starpu_core::data::interfaces::{BcsrInterface, CsrInterface, MatrixInterface};
use starpu_core::data::{Csr, Filter, SwitchOptions};
use starpu_core::{AccessMode, Codelet, DataHandle, ErrorKind, KernelCall, Runtime};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn runtime(ncpus: usize) -> Arc<Runtime> {
    common::runtime(ncpus, None)
}

/// A codelet applying `x = x * a + b` to every element of its one buffer, whatever its
/// dense interface; `a` and `b` are the task's two i64 arguments.
fn affine() -> Arc<Codelet> {
    Arc::new(
        Codelet::new("affine")
            .modes([AccessMode::RW])
            .cpu(|call: &KernelCall| {
                let (a, b) = (*call.arg::<i64>(0)?, *call.arg::<i64>(1)?);
                // A short pause makes tasks that wrongly overlap visible in the values.
                std::thread::sleep(Duration::from_millis(2));
                let h = call.handle(0)?;
                let f = |x: &mut i64| *x = *x * a + b;
                match h.ops().name() {
                    "STARPU_VARIABLE_INTERFACE" => f(&mut *call.variable_mut::<i64>(0)?),
                    "STARPU_VECTOR_INTERFACE" => call.vector_mut::<i64>(0)?.iter_mut().for_each(f),
                    "STARPU_MATRIX_INTERFACE" => {
                        call.matrix_mut::<i64>(0)?.rows_mut().flatten().for_each(f)
                    }
                    "STARPU_BLOCK_INTERFACE" => {
                        call.block_mut::<i64>(0)?.rows_mut().flatten().for_each(f)
                    }
                    "STARPU_TENSOR_INTERFACE" => {
                        call.tensor_mut::<i64>(0)?.rows_mut().flatten().for_each(f)
                    }
                    "STARPU_NDIM_INTERFACE" => {
                        call.ndim_mut::<i64>(0)?.rows_mut().flatten().for_each(f)
                    }
                    other => return Err(format!("affine: unexpected {other}").into()),
                }
                Ok(())
            }),
    )
}

fn apply(rt: &Runtime, cl: &Arc<Codelet>, h: &DataHandle, a: i64, b: i64) {
    rt.task(cl)
        .buffer(h, AccessMode::RW)
        .arg(a)
        .arg(b)
        .submit()
        .unwrap();
}

/// Cuts `h` by `f`, adds `1000 * (index + 1)` to every element of each piece and gathers
/// the pieces back; returns how many there were.
fn mark_pieces(rt: &Runtime, h: &DataHandle, f: &Filter) -> usize {
    let parts = rt.partition(h, f).unwrap();
    mark_children(rt, &parts);
    rt.unpartition(h, 0).unwrap();
    parts.len()
}

/// Every child gets `x = x * 1 + 1000 * (index + 1)`.
fn mark_children(rt: &Runtime, children: &[DataHandle]) {
    let cl = affine();
    for (i, c) in children.iter().enumerate() {
        apply(rt, &cl, c, 1, 1000 * (i as i64 + 1));
    }
}

/// [`mark_pieces`], then the values of `h`, unregistered.
fn marked(rt: &Runtime, h: &DataHandle, f: &Filter) -> Vec<i64> {
    mark_pieces(rt, h, f);
    rt.unregister_take::<Vec<i64>>(h).unwrap()
}

// ---------------------------------------------------------------- standard filters

#[test]
fn vector_filters_cut_where_starpu_does() {
    let rt = runtime(2);
    let cases: Vec<(Filter, Vec<i64>)> = vec![
        // 10 elements in 3: 4, 3, 3.
        (Filter::vector_block(3), vec![1, 1, 1, 1, 2, 2, 2, 3, 3, 3]),
        (
            Filter::vector_list(vec![2, 5, 3]),
            vec![1, 1, 2, 2, 2, 2, 2, 3, 3, 3],
        ),
        (
            Filter::vector_list_long(vec![6, 4]),
            vec![1, 1, 1, 1, 1, 1, 2, 2, 2, 2],
        ),
        (
            Filter::vector_divide_in_2(3),
            vec![1, 1, 1, 2, 2, 2, 2, 2, 2, 2],
        ),
        // Variables at indexes 4, 5, 6.
        (
            Filter::vector_pick_variable(3, 4),
            vec![0, 0, 0, 0, 1, 2, 3, 0, 0, 0],
        ),
    ];
    for (f, expected) in cases {
        let v = rt.register_vector(vec![0i64; 10]).unwrap();
        let got = marked(&rt, &v, &f);
        let want: Vec<i64> = expected.iter().map(|&k| k * 1000).collect();
        assert_eq!(got, want);
    }
    rt.shutdown();
}

#[test]
fn shadow_filters_overlap_read_only_parts() {
    let rt = runtime(2);
    // 2 + 6 + 2 elements: 3 parts of 2 inner elements, each seeing 2 more on each side.
    let v = rt.register_vector((0..10).collect::<Vec<i64>>()).unwrap();
    let parts = rt
        .partition(&v, &Filter::vector_block_shadow(3, 2))
        .unwrap();
    let seen = Arc::new(Mutex::new(vec![Vec::new(); 3]));
    let s = seen.clone();
    let read = Arc::new(
        Codelet::new("read")
            .modes([AccessMode::R])
            .cpu(move |call| {
                let i = *call.arg::<usize>(0)?;
                s.lock().unwrap()[i] = call.vector::<i64>(0)?.to_vec();
                Ok(())
            }),
    );
    for (i, p) in parts.iter().enumerate() {
        rt.task(&read)
            .buffer(p, AccessMode::R)
            .arg(i)
            .submit()
            .unwrap();
    }
    rt.wait_for_all().unwrap();
    assert_eq!(
        *seen.lock().unwrap(),
        vec![
            vec![0, 1, 2, 3, 4, 5],
            vec![2, 3, 4, 5, 6, 7],
            vec![4, 5, 6, 7, 8, 9]
        ]
    );
    rt.unpartition(&v, 0).unwrap();
    rt.unregister(&v, true).unwrap();
    // Matrices and blocks: shadows along every axis make parts of the right shape.
    let m = rt.register_matrix(vec![0i64; 8 * 6], 8, 6, 8).unwrap();
    for (f, shape) in [
        (Filter::matrix_block_shadow(2, 1), (5, 6)),
        (Filter::matrix_vertical_block_shadow(2, 1), (8, 4)),
    ] {
        let parts = rt.partition(&m, &f).unwrap();
        let i: MatrixInterface = parts[1].interface(0).unwrap();
        assert_eq!((i.nx, i.ny, i.ld), (shape.0, shape.1, 8));
        rt.unpartition(&m, 0).unwrap();
    }
    rt.unregister(&m, true).unwrap();
    let b = rt
        .register_block(vec![0i64; 6 * 6 * 6], [6, 6, 6], [6, 36])
        .unwrap();
    for f in [
        Filter::block_block_shadow(2, 1),
        Filter::block_vertical_block_shadow(2, 1),
        Filter::block_depth_block_shadow(2, 1),
    ] {
        let parts = rt.partition(&b, &f).unwrap();
        assert_eq!(parts[0].size(), 4 * 6 * 6 * 8);
        rt.unpartition(&b, 0).unwrap();
    }
    let e = rt
        .partition(&b, &Filter::block_block_shadow(2, 4))
        .unwrap_err();
    assert!(e.message.contains("shadow"), "{}", e.message);
    rt.unregister(&b, true).unwrap();
    rt.shutdown();
}

#[test]
fn matrix_filters_cut_rows_columns_and_pick() {
    let rt = runtime(2);
    // 4 x 3 matrix, ld 5 (one padding element per column).
    let fresh = || vec![0i64; 5 * 3];
    let at = |x: usize, y: usize| x + 5 * y;
    // (filter, [(x, y, mark)]): element (x, y) ends up marked by child mark - 1.
    type Case = (Filter, Vec<(usize, usize, i64)>);
    let cases: Vec<Case> = vec![
        (
            Filter::matrix_block(2),
            vec![(1, 2, 1), (2, 0, 2), (3, 2, 2)],
        ),
        (
            Filter::matrix_vertical_block(3),
            vec![(0, 0, 1), (3, 1, 2), (0, 2, 3)],
        ),
        (
            Filter::matrix_pick_vector_y(2, 1),
            vec![(0, 0, 0), (2, 1, 1), (3, 2, 2)],
        ),
        (
            Filter::matrix_pick_variable(1, [2, 1]),
            vec![(2, 1, 1), (1, 1, 0), (2, 2, 0)],
        ),
    ];
    for (f, checks) in cases {
        let m = rt.register_matrix(fresh(), 4, 3, 5).unwrap();
        let got = marked(&rt, &m, &f);
        for (x, y, k) in checks {
            assert_eq!(got[at(x, y)], k * 1000, "({x}, {y})");
        }
        assert_eq!(got[4], 0, "padding untouched");
    }
    let m = rt.register_matrix(fresh(), 4, 3, 5).unwrap();
    let e = rt.partition(&m, &Filter::matrix_block(5)).unwrap_err();
    assert!(
        e.message.contains("cannot split 4 elements in 5 parts"),
        "{}",
        e.message
    );
    let e = rt
        .partition(&m, &Filter::matrix_pick_vector_y(2, 2))
        .unwrap_err();
    assert!(e.message.contains("outside"), "{}", e.message);
    assert!(
        !m.is_partitioned(),
        "a failed partitioning leaves the data whole"
    );
    rt.unregister(&m, true).unwrap();
    rt.shutdown();
}

#[test]
fn block_and_tensor_filters_cover_every_axis() {
    let rt = runtime(2);
    // 2 x 3 x 4 block, packed: element (x, y, z) at x + 2y + 6z.
    for (axis, f) in [
        (0usize, Filter::block_block(2)),
        (1, Filter::block_vertical_block(3)),
        (2, Filter::block_depth_block(4)),
    ] {
        let b = rt
            .register_block(vec![0i64; 24], [2, 3, 4], [2, 6])
            .unwrap();
        let got = marked(&rt, &b, &f);
        for (i, v) in got.iter().enumerate() {
            let coord = [i % 2, (i / 2) % 3, i / 6][axis];
            assert_eq!(*v, 1000 * (coord as i64 + 1), "axis {axis} element {i}");
        }
    }
    type Pick = (Filter, Box<dyn Fn(usize, usize, usize) -> i64>);
    let picks: Vec<Pick> = vec![
        (
            Filter::block_pick_matrix_z(2, 1),
            Box::new(|_, _, z| if (1..3).contains(&z) { z as i64 } else { 0 }),
        ),
        (
            Filter::block_pick_matrix_y(1, 2),
            Box::new(|_, y, _| if y == 2 { 1 } else { 0 }),
        ),
        (
            Filter::block_pick_variable(1, [1, 2, 3]),
            Box::new(|x, y, z| i64::from((x, y, z) == (1, 2, 3))),
        ),
    ];
    for (f, want) in picks {
        let b = rt
            .register_block(vec![0i64; 24], [2, 3, 4], [2, 6])
            .unwrap();
        let got = marked(&rt, &b, &f);
        for (i, v) in got.iter().enumerate() {
            assert_eq!(*v, 1000 * want(i % 2, (i / 2) % 3, i / 6), "element {i}");
        }
    }
    // 2 x 2 x 2 x 3 tensor, packed: (x, y, z, t) at x + 2y + 4z + 8t.
    for axis in 0..4 {
        let t = rt
            .register_tensor(vec![0i64; 24], [2, 2, 2, 3], [2, 4, 8])
            .unwrap();
        let n = if axis == 3 { 3 } else { 2 };
        let got = marked(&rt, &t, &Filter::tensor_split(n, axis, 0));
        for (i, v) in got.iter().enumerate() {
            let coord = [i % 2, (i / 2) % 2, (i / 4) % 2, i / 8][axis];
            assert_eq!(*v, 1000 * (coord as i64 + 1), "axis {axis} element {i}");
        }
    }
    let t = rt
        .register_tensor(vec![0i64; 24], [2, 2, 2, 3], [2, 4, 8])
        .unwrap();
    mark_pieces(&rt, &t, &Filter::tensor_pick_block(2, 3, 1));
    let got = marked(&rt, &t, &Filter::tensor_pick_variable(1, [1, 1, 1, 0]));
    let want: Vec<i64> = (0..24)
        .map(|i| match (i, i / 8) {
            (7, _) => 1000,
            (_, 1) => 1000,
            (_, 2) => 2000,
            _ => 0,
        })
        .collect();
    assert_eq!(got, want);
    rt.shutdown();
}

#[test]
fn ndim_filters_cut_into_every_rank() {
    let rt = runtime(2);
    // 2 x 3 x 4, packed: (x, y, z) at x + 2y + 6z.
    let reg = |rt: &Runtime| {
        rt.register_ndim(vec![0i64; 24], &[2, 3, 4], &[2, 6])
            .unwrap()
    };
    let coords = |i: usize| [i % 2, (i / 2) % 3, i / 6];
    for (f, axis) in [
        (Filter::ndim_block(3, 1, 0), 1usize),
        (Filter::ndim_to_block(2, 2), 2),
    ] {
        let h = reg(&rt);
        let got = marked(&rt, &h, &f);
        for (i, v) in got.iter().enumerate() {
            let c = coords(i)[axis];
            let part = if axis == 2 { c / 2 } else { c };
            assert_eq!(*v, 1000 * (part as i64 + 1), "element {i}");
        }
    }
    // Picks: the (n-1)-dimension slices z = 1 and z = 2, then matrices y = 0 and y = 1.
    for (f, axis, first) in [
        (Filter::ndim_pick_ndim(2, 2, 1), 2usize, 1usize),
        (Filter::ndim_pick_matrix(2, 1, 0), 1, 0),
    ] {
        let h = reg(&rt);
        assert_eq!(mark_pieces(&rt, &h, &f), 2);
        let got = rt.unregister_take::<Vec<i64>>(&h).unwrap();
        for (i, v) in got.iter().enumerate() {
            let c = coords(i)[axis];
            let want = if (first..first + 2).contains(&c) {
                c - first + 1
            } else {
                0
            };
            assert_eq!(*v, 1000 * want as i64, "element {i}");
        }
    }
    let h = reg(&rt);
    let got = marked(&rt, &h, &Filter::ndim_pick_variable(1, vec![1, 2, 3]));
    assert_eq!(got[1 + 2 * 2 + 3 * 6], 1000);
    assert_eq!(got.iter().sum::<i64>(), 1000);
    // Lower ranks: 2-D to matrices and vectors, 1-D to vectors and variables, 4-D/5-D.
    let m = rt.register_ndim(vec![0i64; 6], &[3, 2], &[3]).unwrap();
    mark_pieces(&rt, &m, &Filter::ndim_to_matrix(2, 1));
    mark_pieces(&rt, &m, &Filter::ndim_pick_vector(2, 1, 0));
    assert_eq!(
        rt.unregister_take::<Vec<i64>>(&m).unwrap(),
        vec![2000, 2000, 2000, 4000, 4000, 4000]
    );
    // Picking along x leaves vectors whose elements are not contiguous: refused.
    let m = rt.register_ndim(vec![0i64; 6], &[3, 2], &[3]).unwrap();
    let e = rt
        .partition(&m, &Filter::ndim_pick_vector(3, 0, 0))
        .unwrap_err();
    assert!(e.message.contains("contiguous"), "{}", e.message);
    rt.unregister(&m, true).unwrap();
    let line = rt.register_ndim(vec![0i64; 4], &[4], &[]).unwrap();
    mark_pieces(&rt, &line, &Filter::ndim_to_vector(2));
    mark_pieces(&rt, &line, &Filter::ndim_1d_pick_variable(2, 1));
    assert_eq!(
        rt.unregister_take::<Vec<i64>>(&line).unwrap(),
        vec![1000, 2000, 4000, 2000]
    );
    let t4 = rt
        .register_ndim(vec![0i64; 16], &[2, 2, 2, 2], &[2, 4, 8])
        .unwrap();
    mark_pieces(&rt, &t4, &Filter::ndim_to_tensor(2, 3));
    let got = marked(&rt, &t4, &Filter::ndim_pick_block(1, 3, 1));
    for (i, v) in got.iter().enumerate() {
        assert_eq!(*v, if i < 8 { 1000 } else { 3000 }, "element {i}");
    }
    let t5 = rt
        .register_ndim(vec![0i64; 32], &[2, 2, 2, 2, 2], &[2, 4, 8, 16])
        .unwrap();
    let got = marked(&rt, &t5, &Filter::ndim_pick_tensor(2, 4, 0));
    assert!(got[..16].iter().all(|&v| v == 1000) && got[16..].iter().all(|&v| v == 2000));
    // Wrong ranks are refused.
    let h = reg(&rt);
    let e = rt.partition(&h, &Filter::ndim_to_matrix(2, 0)).unwrap_err();
    assert!(e.message.contains("2-dimension"), "{}", e.message);
    rt.unregister(&h, true).unwrap();
    let zero = rt.register_ndim(vec![7i64], &[1], &[]).unwrap();
    let e = rt
        .partition(&zero, &Filter::ndim_to_variable())
        .unwrap_err();
    assert!(e.message.contains("0-dimension"), "{}", e.message);
    rt.unregister(&zero, true).unwrap();
    rt.shutdown();
}

#[test]
fn sparse_filters_cut_row_bands_and_blocks() {
    let rt = runtime(2);
    // 4 x 4: rows [1 2 . .] [. 3 . .] [. . . .] [4 . 5 6]
    let csr = Csr {
        nzval: vec![1i64, 2, 3, 4, 5, 6],
        colind: vec![0, 1, 1, 0, 2, 3],
        rowptr: vec![0, 2, 3, 3, 6],
    };
    let h = rt.register_csr(csr, 0).unwrap();
    let parts = rt.partition(&h, &Filter::csr_vertical_block(2)).unwrap();
    let bands: Vec<CsrInterface> = parts.iter().map(|p| p.interface(0).unwrap()).collect();
    assert_eq!(
        bands
            .iter()
            .map(|b| (b.nrow, b.nnz, b.firstentry))
            .collect::<Vec<_>>(),
        vec![(2, 3, 0), (2, 3, 3)]
    );
    rt.unpartition(&h, 0).unwrap();
    let e = rt
        .partition(&h, &Filter::csr_vertical_block(5))
        .unwrap_err();
    assert!(e.message.contains("rows"), "{}", e.message);
    rt.unregister(&h, true).unwrap();

    // 2 block rows of 2x2 blocks: row 0 has blocks at columns 0 and 1, row 1 at column 1.
    let bcsr = Csr {
        nzval: (1..=12i64).collect(),
        colind: vec![0, 1, 1],
        rowptr: vec![0, 2, 3],
    };
    let h = rt.register_bcsr(bcsr, 0, 2, 2).unwrap();
    let blocks = rt.partition(&h, &Filter::bcsr_canonical_block()).unwrap();
    assert_eq!(blocks.len(), 3, "one child per stored block");
    let m: MatrixInterface = blocks[2].interface(0).unwrap();
    assert_eq!((m.nx, m.ny, m.ld), (2, 2, 2));
    mark_children(&rt, &blocks);
    rt.unpartition(&h, 0).unwrap();
    let bands = rt.partition(&h, &Filter::bcsr_vertical_block(2)).unwrap();
    let b: BcsrInterface = bands[1].interface(0).unwrap();
    assert_eq!((b.nrow, b.nnz, b.firstentry), (1, 1, 2));
    rt.unpartition(&h, 0).unwrap();
    let back = rt.unregister_take::<Csr<i64>>(&h).unwrap();
    let want: Vec<i64> = (1..=12i64).map(|v| v + 1000 * ((v - 1) / 4 + 1)).collect();
    assert_eq!(back.nzval, want);
    rt.shutdown();
}

// ---------------------------------------------------------------- partition plans

/// The matrix of fmultiple_submit: element (x, y) of a 6 x 6 matrix is x + 100 y.
fn fmultiple_matrix(rt: &Runtime) -> (DataHandle, Vec<DataHandle>, Vec<DataHandle>) {
    let data: Vec<i64> = (0..36).map(|i| (i % 6) + 100 * (i / 6)).collect();
    let m = rt.register_matrix(data, 6, 6, 6).unwrap();
    let vert = rt.partition_plan(&m, &Filter::matrix_block(2)).unwrap();
    let horiz = rt
        .partition_plan(&m, &Filter::matrix_vertical_block(2))
        .unwrap();
    (m, vert, horiz)
}

/// Checks the values of `m` after the plans tests' computation: whole x*2, vertical
/// halves +1 and +2, horizontal halves x*3 and x*5, whole +7 (and unregisters it).
fn check_plans_result(rt: &Runtime, m: &DataHandle) {
    let got = rt.unregister_take::<Vec<i64>>(m).unwrap();
    for (i, v) in got.iter().enumerate() {
        let (x, y) = ((i % 6) as i64, (i / 6) as i64);
        let add = if x < 3 { 1 } else { 2 };
        let mul = if y < 3 { 3 } else { 5 };
        assert_eq!(*v, ((x + 100 * y) * 2 + add) * mul + 7, "({x}, {y})");
    }
}

#[test]
fn explicit_plans_switch_between_views_in_submission_order() {
    let rt = runtime(2);
    let (m, vert, horiz) = fmultiple_matrix(&rt);
    assert_eq!(m.nplans(), 2);
    let cl = affine();
    // Whole: x*2; vertical halves: +1 and +2; horizontal halves: x*3 and x*5; whole: +7.
    apply(&rt, &cl, &m, 2, 0);
    rt.partition_submit(&m, &vert).unwrap();
    apply(&rt, &cl, &vert[0], 1, 1);
    apply(&rt, &cl, &vert[1], 1, 2);
    rt.unpartition_submit(&m, &vert).unwrap();
    rt.partition_submit(&m, &horiz).unwrap();
    apply(&rt, &cl, &horiz[0], 3, 0);
    apply(&rt, &cl, &horiz[1], 5, 0);
    rt.unpartition_submit(&m, &horiz).unwrap();
    apply(&rt, &cl, &m, 1, 7);
    rt.partition_clean(&m, &vert, None).unwrap();
    rt.partition_clean(&m, &horiz, None).unwrap();
    assert_eq!(m.nplans(), 0);
    check_plans_result(&rt, &m);
    rt.shutdown();
}

#[test]
fn implicit_plans_switch_by_themselves() {
    let rt = runtime(2);
    let (m, vert, horiz) = fmultiple_matrix(&rt);
    let cl = affine();
    // The same computation as above, no switch submitted by the application.
    apply(&rt, &cl, &m, 2, 0);
    apply(&rt, &cl, &vert[0], 1, 1);
    apply(&rt, &cl, &vert[1], 1, 2);
    apply(&rt, &cl, &horiz[0], 3, 0);
    apply(&rt, &cl, &horiz[1], 5, 0);
    apply(&rt, &cl, &m, 1, 7);
    rt.partition_clean(&m, &vert, None).unwrap();
    rt.partition_clean(&m, &horiz, None).unwrap();
    check_plans_result(&rt, &m);
    rt.shutdown();
}

/// A codelet checking (without writing) that every element of a matrix buffer is
/// `x * factor + offset` for its coordinates in the whole 6 x 6 matrix; failures counted.
fn checker(failures: Arc<AtomicUsize>) -> Arc<Codelet> {
    Arc::new(
        Codelet::new("check")
            .modes([AccessMode::R])
            .cpu(move |call| {
                let (factor, x0, y0) = (
                    *call.arg::<i64>(0)?,
                    *call.arg::<i64>(1)?,
                    *call.arg::<i64>(2)?,
                );
                let m = call.matrix::<i64>(0)?;
                for (y, row) in m.rows().enumerate() {
                    for (x, v) in row.iter().enumerate() {
                        let want = factor * ((x0 + x as i64) + 100 * (y0 + y as i64));
                        if *v != want {
                            failures.fetch_add(1, Ordering::SeqCst);
                        }
                    }
                }
                Ok(())
            }),
    )
}

fn check(rt: &Runtime, cl: &Arc<Codelet>, h: &DataHandle, factor: i64, x0: i64, y0: i64) {
    rt.task(cl)
        .buffer(h, AccessMode::R)
        .arg(factor)
        .arg(x0)
        .arg(y0)
        .submit()
        .unwrap();
}

#[test]
fn readonly_plans_upgrade_and_downgrade() {
    // fmultiple_submit_readonly, with explicit switches, then the same implicitly.
    for explicit in [true, false] {
        let rt = runtime(2);
        let failures = Arc::new(AtomicUsize::new(0));
        let ck = checker(failures.clone());
        let cl = affine();
        let (m, vert, horiz) = fmultiple_matrix(&rt);
        let check_all = |factor: i64| {
            check(&rt, &ck, &vert[0], factor, 0, 0);
            check(&rt, &ck, &vert[1], factor, 3, 0);
            check(&rt, &ck, &horiz[0], factor, 0, 0);
            check(&rt, &ck, &horiz[1], factor, 0, 3);
            check(&rt, &ck, &m, factor, 0, 0);
        };
        if explicit {
            rt.partition_readonly_submit(&m, &vert).unwrap();
            rt.partition_readonly_submit(&m, &horiz).unwrap();
        }
        check_all(1);
        if explicit {
            rt.unpartition_submit(&m, &horiz).unwrap();
            rt.unpartition_submit(&m, &vert).unwrap();
        }
        apply(&rt, &cl, &m, 2, 0);
        if explicit {
            rt.partition_readonly_submit(&m, &vert).unwrap();
            rt.partition_readonly_submit(&m, &horiz).unwrap();
        }
        check_all(2);
        if explicit {
            rt.unpartition_submit(&m, &vert).unwrap();
            rt.partition_readwrite_upgrade_submit(&m, &horiz).unwrap();
        }
        apply(&rt, &cl, &horiz[0], 2, 0);
        apply(&rt, &cl, &horiz[1], 2, 0);
        if explicit {
            rt.unpartition_readonly_submit(&m, &horiz).unwrap();
            rt.partition_readonly_submit(&m, &vert).unwrap();
        }
        check_all(4);
        if explicit {
            rt.unpartition_submit(&m, &vert).unwrap();
            rt.unpartition_submit(&m, &horiz).unwrap();
        }
        apply(&rt, &cl, &m, 2, 0);
        // Fill through the children in write mode, then downgrade to read them all.
        apply(&rt, &cl, &vert[0], 0, 5);
        apply(&rt, &cl, &vert[1], 0, 5);
        if explicit {
            rt.partition_readonly_downgrade_submit(&m, &vert).unwrap();
        }
        check(&rt, &ck, &m, 0, 0, 0); // every element is 5: factor 0 fails, counted below
        rt.wait_for_all().unwrap();
        let fives = failures.swap(0, Ordering::SeqCst);
        assert_eq!(
            fives, 36,
            "explicit={explicit}: the check of 5s saw them all"
        );
        rt.partition_clean(&m, &vert, None).unwrap();
        rt.partition_clean(&m, &horiz, None).unwrap();
        assert_eq!(rt.unregister_take::<Vec<i64>>(&m).unwrap(), vec![5; 36]);
        rt.shutdown();
    }
}

#[test]
fn reads_at_two_levels_run_concurrently() {
    let rt = runtime(2);
    let (m, vert, horiz) = fmultiple_matrix(&rt);
    rt.partition_readonly_submit(&m, &vert).unwrap();
    // Two readers, one of the whole matrix and one of a child: each waits until the other
    // has started, which only works if they run at the same time (the guard only turns a
    // deadlock into a failure).
    let started = Arc::new([AtomicBool::new(false), AtomicBool::new(false)]);
    let met = Arc::new(AtomicUsize::new(0));
    let (s, mt) = (started.clone(), met.clone());
    let rendezvous = Arc::new(
        Codelet::new("rendezvous")
            .modes([AccessMode::R])
            .cpu(move |call| {
                let me = *call.arg::<usize>(0)?;
                s[me].store(true, Ordering::SeqCst);
                let guard = Instant::now() + Duration::from_secs(60);
                while !s[1 - me].load(Ordering::SeqCst) {
                    if Instant::now() > guard {
                        return Err("the other reader never started".into());
                    }
                    std::thread::yield_now();
                }
                mt.fetch_add(1, Ordering::SeqCst);
                Ok(())
            }),
    );
    // On two different workers, whatever the scheduling policy.
    rt.task(&rendezvous)
        .buffer(&m, AccessMode::R)
        .arg(0usize)
        .worker(0)
        .submit()
        .unwrap();
    rt.task(&rendezvous)
        .buffer(&vert[1], AccessMode::R)
        .arg(1usize)
        .worker(1)
        .submit()
        .unwrap();
    rt.wait_for_all().unwrap();
    assert_eq!(met.load(Ordering::SeqCst), 2);
    rt.partition_clean(&m, &vert, None).unwrap();
    rt.partition_clean(&m, &horiz, None).unwrap();
    rt.unregister(&m, true).unwrap();
    rt.shutdown();
}

#[test]
fn nested_plans_switch_the_whole_tree() {
    let rt = runtime(2);
    let cl = affine();
    // 16 elements; halves; the second half cut in quarters of 2.
    let v = rt.register_vector(vec![1i64; 16]).unwrap();
    let halves = rt.partition_plan(&v, &Filter::vector_block(2)).unwrap();
    let quarters = rt
        .partition_plan(&halves[1], &Filter::vector_block(4))
        .unwrap();
    apply(&rt, &cl, &v, 10, 0); // 10 everywhere
    apply(&rt, &cl, &quarters[2], 1, 5); // elements 12, 13: 15
    apply(&rt, &cl, &halves[0], 2, 0); // elements 0..8: 20
    apply(&rt, &cl, &halves[1], 1, 1); // gathers the quarters: 11, and 16 at 12, 13
    apply(&rt, &cl, &quarters[0], 3, 0); // elements 8, 9: 33
    apply(&rt, &cl, &v, 1, 100); // everything gathered: +100
                                 // Nested explicit switches: partition the half, then its quarters.
    rt.partition_submit(&v, &halves).unwrap();
    rt.partition_submit(&halves[1], &quarters).unwrap();
    apply(&rt, &cl, &quarters[3], 0, -1);
    // Unpartitioning the root gathers the quarters first.
    rt.unpartition_submit(&v, &halves).unwrap();
    rt.partition_clean(&v, &halves, None).unwrap();
    assert_eq!(v.nplans(), 0);
    let got = rt.unregister_take::<Vec<i64>>(&v).unwrap();
    let want: Vec<i64> = (0..16)
        .map(|i| match i {
            0..=7 => 120,
            8 | 9 => 133,
            12 | 13 => 116,
            14 | 15 => -1,
            _ => 111,
        })
        .collect();
    assert_eq!(got, want);
    rt.shutdown();
}

#[test]
fn plans_on_data_without_a_home_and_switch_callbacks() {
    let rt = runtime(2);
    let cl = affine();
    let v = rt
        .register_lazy(
            starpu_core::data::interfaces::VectorInterface::new(0, 6, 8),
            starpu_core::ElemKind::I64,
        )
        .unwrap();
    let parts = rt.partition_plan(&v, &Filter::vector_block(3)).unwrap();
    for (i, p) in parts.iter().enumerate() {
        apply(&rt, &cl, p, 0, i as i64); // write-only use: the parent had no value
    }
    let called = Arc::new(AtomicUsize::new(0));
    let c = called.clone();
    rt.unpartition_submit_with(
        &v,
        &parts,
        SwitchOptions {
            sequential_consistency: Some(true),
            gathering_node: Some(0),
            callback: Some(Box::new(move || {
                c.fetch_add(1, Ordering::SeqCst);
            })),
        },
    )
    .unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let s = seen.clone();
    let read = Arc::new(
        Codelet::new("read")
            .modes([AccessMode::R])
            .cpu(move |call| {
                *s.lock().unwrap() = call.vector::<i64>(0)?.to_vec();
                Ok(())
            }),
    );
    rt.task(&read).buffer(&v, AccessMode::R).submit().unwrap();
    rt.wait_for_all().unwrap();
    assert_eq!(called.load(Ordering::SeqCst), 1);
    assert_eq!(*seen.lock().unwrap(), vec![0, 0, 1, 1, 2, 2]);
    rt.partition_clean(&v, &parts, None).unwrap();
    rt.unregister(&v, false).unwrap();
    rt.shutdown();
}

#[test]
fn unregistering_a_parent_gathers_and_cleans_its_plans() {
    let rt = runtime(2);
    let cl = affine();
    let v = rt.register_vector(vec![1i64; 4]).unwrap();
    let parts = rt.partition_plan(&v, &Filter::vector_block(2)).unwrap();
    let spare = rt.partition_plan(&v, &Filter::vector_block(4)).unwrap();
    apply(&rt, &cl, &parts[1], 1, 4);
    let e = rt.unregister(&parts[0], true).unwrap_err();
    assert!(e.message.contains("partition_clean"), "{}", e.message);
    assert_eq!(
        rt.unregister_take::<Vec<i64>>(&v).unwrap(),
        vec![1, 1, 5, 5]
    );
    rt.wait_for_all().unwrap();
    let e = rt
        .task(&cl)
        .buffer(&spare[0], AccessMode::RW)
        .arg(1i64)
        .arg(1i64)
        .submit();
    assert!(e.is_err(), "the plans went with their parent");
    rt.shutdown();
}

#[test]
fn misused_plans_are_refused_with_a_reason() {
    let rt = runtime(2);
    let v = rt.register_vector(vec![0i64; 8]).unwrap();
    let w = rt.register_vector(vec![0i64; 8]).unwrap();
    let halves = rt.partition_plan(&v, &Filter::vector_block(2)).unwrap();
    let quarters = rt.partition_plan(&v, &Filter::vector_block(4)).unwrap();
    let err = |r: starpu_core::Result<()>, needle: &str| {
        let e = r.unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidArgument);
        assert!(
            e.message.contains(needle),
            "{needle:?} not in {:?}",
            e.message
        );
    };
    err(rt.unpartition_submit(&v, &halves), "not active");
    err(
        rt.partition_readwrite_upgrade_submit(&v, &halves),
        "not active read-only",
    );
    err(
        rt.partition_readonly_downgrade_submit(&v, &halves),
        "not active read-write",
    );
    err(rt.partition_submit(&w, &halves), "another data");
    err(rt.partition_submit(&v, &halves[..1]), "2 children, 1 given");
    err(
        rt.partition_submit(&v, &[halves[0].clone(), halves[0].clone()]),
        "given twice",
    );
    err(rt.partition_submit(&v, &[]), "no children");
    err(
        rt.partition_submit(&v, std::slice::from_ref(&w)),
        "not a child",
    );
    rt.partition_submit(&v, &halves).unwrap();
    err(rt.partition_submit(&v, &halves), "already partitioned");
    err(rt.partition_submit(&v, &quarters), "another partitioning");
    err(rt.partition_readonly_submit(&v, &quarters), "read-write");
    err(
        rt.partition(&v, &Filter::vector_block(2)).map(drop),
        "partition plans",
    );
    rt.unpartition_submit(&v, &halves).unwrap();
    rt.partition_readonly_submit(&v, &halves).unwrap();
    rt.partition_readonly_submit(&v, &quarters).unwrap();
    err(rt.partition_readonly_submit(&v, &halves), "active already");
    err(
        rt.partition_readwrite_upgrade_submit(&v, &halves),
        "other read-only",
    );
    err(
        rt.partition(&halves[0], &Filter::vector_block(2)).map(drop),
        "child of a partition plan",
    );
    err(
        rt.unpartition_submit_with(
            &v,
            &halves,
            SwitchOptions {
                gathering_node: Some(99),
                ..SwitchOptions::default()
            },
        ),
        "no memory node 99",
    );
    w.set_sequential_consistency(false);
    err(
        rt.partition_plan(&w, &Filter::vector_block(2)).map(drop),
        "sequential consistency",
    );
    rt.partition_clean(&v, &halves, None).unwrap();
    err(rt.partition_submit(&v, &halves), "not a child");
    rt.partition_clean(&v, &quarters, Some(0)).unwrap();
    rt.unregister(&v, true).unwrap();
    rt.unregister(&w, true).unwrap();
    rt.shutdown();
}

#[test]
fn manual_plans_switch_only_when_asked() {
    let rt = runtime(2);
    let cl = affine();
    let v = rt.register_vector(vec![1i64; 4]).unwrap();
    let parts = rt.partition_plan(&v, &Filter::vector_block(2)).unwrap();
    rt.set_partition_automatic(&v, false);
    rt.partition_submit(&v, &parts).unwrap();
    apply(&rt, &cl, &parts[0], 3, 0);
    rt.wait_for_all().unwrap();
    // Using the parent does not gather the children: the plan is still active after it.
    apply(&rt, &cl, &v, 1, 1);
    rt.wait_for_all().unwrap();
    rt.unpartition_submit(&v, &parts).unwrap();
    rt.partition_clean(&v, &parts, None).unwrap();
    assert_eq!(
        rt.unregister_take::<Vec<i64>>(&v).unwrap(),
        vec![4, 4, 2, 2]
    );
    rt.shutdown();
}

#[test]
fn a_child_given_twice_to_a_task_is_switched_for_both_accesses() {
    let rt = runtime(2);
    let v = rt.register_vector(vec![1i64; 4]).unwrap();
    let halves = rt.partition_plan(&v, &Filter::vector_block(2)).unwrap();
    // Read and read-write access to the same child: the plan must be active read-write.
    let cl = Arc::new(
        Codelet::new("twice")
            .modes([AccessMode::R, AccessMode::RW])
            .cpu(|call| {
                call.vector_mut::<i64>(1)?.iter_mut().for_each(|x| *x += 10);
                Ok(())
            }),
    );
    rt.task(&cl)
        .buffer(&halves[1], AccessMode::R)
        .buffer(&halves[1], AccessMode::RW)
        .submit()
        .unwrap();
    let cl2 = affine();
    apply(&rt, &cl2, &v, 2, 0);
    rt.partition_clean(&v, &halves, None).unwrap();
    assert_eq!(
        rt.unregister_take::<Vec<i64>>(&v).unwrap(),
        vec![2, 2, 22, 22]
    );
    rt.shutdown();
}

#[test]
fn along_axis_cuts_any_dense_array_evenly_or_by_lengths() {
    let rt = runtime(2);
    let cl = affine();
    // A 4 x 3 matrix (ld 5): rows (axis 1) of 1 and 2, then columns (axis 0) evenly.
    let m = rt
        .register_matrix((0..15).collect::<Vec<i64>>(), 4, 3, 5)
        .unwrap();
    let rows = Filter::along_axis(&m, 1, 2, Some(vec![1, 2])).unwrap();
    let parts = rt.partition_plan(&m, &rows).unwrap();
    let i: MatrixInterface = parts[1].interface(0).unwrap();
    assert_eq!((i.nx, i.ny, i.ld), (4, 2, 5));
    apply(&rt, &cl, &parts[1], 0, 7); // rows 1 and 2 become 7 (the implicit switch)
    rt.partition_clean(&m, &parts, None).unwrap();
    let cols = rt
        .partition(&m, &Filter::along_axis(&m, 0, 3, None).unwrap())
        .unwrap();
    let sizes: Vec<usize> = cols.iter().map(|c| c.size() / 8).collect();
    assert_eq!(sizes, [6, 3, 3]); // 2, 1, 1 columns of 3 rows
    apply(&rt, &cl, &cols[0], 10, 0);
    rt.unpartition(&m, 0).unwrap();
    let values = rt.unregister_take::<Vec<i64>>(&m).unwrap();
    assert_eq!(&values[..4], &[0, 10, 2, 3]);
    assert_eq!(&values[5..9], &[70, 70, 7, 7]);
    // Five dimensions: an ndim cut along its last axis.
    let n = rt
        .register_ndim(vec![1i64; 32], &[2, 2, 2, 2, 2], &[2, 4, 8, 16])
        .unwrap();
    let halves = rt
        .partition(&n, &Filter::along_axis(&n, 4, 2, None).unwrap())
        .unwrap();
    assert_eq!(halves[1].size(), 16 * 8);
    rt.unpartition(&n, 0).unwrap();
    // Bad cuts are refused: lengths that do not cover the axis, an axis that does not
    // exist, an interface without axes.
    for f in [
        Filter::along_axis(&n, 4, 2, Some(vec![1, 2])).unwrap(),
        Filter::along_axis(&n, 5, 2, None).unwrap(),
    ] {
        assert_eq!(
            rt.partition(&n, &f).unwrap_err().kind,
            ErrorKind::InvalidArgument
        );
    }
    assert!(Filter::along_axis(&n, 0, 2, Some(vec![2])).is_err());
    let v = rt.register_void().unwrap();
    assert!(Filter::along_axis(&v, 0, 2, None).is_err());
    rt.shutdown();
}
