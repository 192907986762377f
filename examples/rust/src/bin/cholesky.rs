//! Tiled Cholesky factorisation (A = L L^T) of a symmetric positive definite matrix, on
//! `Vec<f64>` tiles, with the four classic tile kernels written in plain Rust.
//!
//! Each tile is a column-major `nb` x `nb` matrix registered as its own handle; the tasks
//! are submitted in the sequential algorithm's order and the runtime finds the
//! parallelism from their data accesses (implicit dependencies). Priorities favour the
//! critical path, as in StarPU's example. The result is checked against the input on a
//! sample of entries of L L^T.
//!
//! usage: `cholesky [N] [NB]`   (default 1024 128)

use starpu_core::{AccessMode, Codelet, Config, DataHandle, KernelCall, KernelError};
use std::sync::Arc;
use std::time::Instant;

type Kernel = fn(&KernelCall) -> Result<(), KernelError>;

/// Column-major element (i, j) of the test matrix: diagonally dominant, hence SPD.
fn a_entry(n: usize, i: usize, j: usize) -> f64 {
    if i == j {
        n as f64 + 1.0
    } else {
        1.0 / (1.0 + i.abs_diff(j) as f64)
    }
}

/// In place: the tile becomes its lower Cholesky factor.
fn potrf(call: &KernelCall) -> Result<(), KernelError> {
    let mut a = call.matrix_mut::<f64>(0)?;
    let nb = a.nx();
    for j in 0..nb {
        let d = a.get(&[j, j]);
        if d <= 0.0 {
            return Err(format!("matrix not positive definite at column {j}").into());
        }
        let d = d.sqrt();
        let col = a.row_mut(j);
        col[j] = d;
        for x in &mut col[j + 1..] {
            *x /= d;
        }
        for k in j + 1..nb {
            let l_kj = a.get(&[k, j]);
            let (src, dst) = (a.row(j)[k..].to_vec(), a.row_mut(k));
            for (x, s) in dst[k..].iter_mut().zip(src) {
                *x -= s * l_kj;
            }
        }
    }
    Ok(())
}

/// B := B L^-T, with L the lower factor of the diagonal tile (buffer 0).
fn trsm(call: &KernelCall) -> Result<(), KernelError> {
    let l = call.matrix::<f64>(0)?;
    let mut b = call.matrix_mut::<f64>(1)?;
    let nb = b.nx();
    for j in 0..nb {
        for k in 0..j {
            let l_jk = l.get(&[j, k]);
            let xk = b.row(k).to_vec();
            for (x, s) in b.row_mut(j).iter_mut().zip(&xk) {
                *x -= s * l_jk;
            }
        }
        let d = l.get(&[j, j]);
        for x in b.row_mut(j).iter_mut() {
            *x /= d;
        }
    }
    Ok(())
}

/// C := C - A A^T.
fn syrk(call: &KernelCall) -> Result<(), KernelError> {
    let a = call.matrix::<f64>(0)?;
    let mut c = call.matrix_mut::<f64>(1)?;
    update(&a, &a, &mut c);
    Ok(())
}

/// C := C - A B^T.
fn gemm(call: &KernelCall) -> Result<(), KernelError> {
    let a = call.matrix::<f64>(0)?;
    let b = call.matrix::<f64>(1)?;
    let mut c = call.matrix_mut::<f64>(2)?;
    update(&a, &b, &mut c);
    Ok(())
}

fn update(
    a: &starpu_core::task::kernel::Array<f64>,
    b: &starpu_core::task::kernel::Array<f64>,
    c: &mut starpu_core::task::kernel::ArrayMut<f64>,
) {
    let nb = c.nx();
    for j in 0..nb {
        for k in 0..nb {
            let b_jk = b.get(&[j, k]);
            if b_jk == 0.0 {
                continue;
            }
            for (x, s) in c.row_mut(j).iter_mut().zip(a.row(k)) {
                *x -= s * b_jk;
            }
        }
    }
}

fn codelet(name: &str, kernel: Kernel, modes: &[AccessMode]) -> Arc<Codelet> {
    Arc::new(Codelet::new(name).modes(modes.iter().copied()).cpu(kernel))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse())
        .collect::<Result<_, _>>()?;
    let n = args.first().copied().unwrap_or(1024);
    let nb = args.get(1).copied().unwrap_or(128);
    if nb == 0 || n % nb != 0 {
        return Err(format!("N ({n}) must be a multiple of NB ({nb})").into());
    }
    let nt = n / nb;

    let mut config = Config::default();
    config.apply_env()?;
    let rt = starpu_core::init(config)?;
    let (r, rw) = (AccessMode::R, AccessMode::RW);
    let potrf_cl = codelet("potrf", potrf, &[rw]);
    let trsm_cl = codelet("trsm", trsm, &[r, rw]);
    let syrk_cl = codelet("syrk", syrk, &[r, rw]);
    let gemm_cl = codelet("gemm", gemm, &[r, r, rw]);

    // Lower tiles only: tile (i, j), i >= j, holds rows i*nb.. and columns j*nb.. of A.
    let mut tiles: Vec<Vec<Option<DataHandle>>> = vec![vec![None; nt]; nt];
    for (i, row) in tiles.iter_mut().enumerate() {
        for (j, slot) in row.iter_mut().enumerate().take(i + 1) {
            let data: Vec<f64> = (0..nb * nb)
                .map(|e| a_entry(n, i * nb + e % nb, j * nb + e / nb))
                .collect();
            *slot = Some(rt.register_matrix(data, nb, nb, nb)?);
        }
    }
    let tile = |i: usize, j: usize| tiles[i][j].as_ref().expect("lower tile");

    let start = Instant::now();
    for k in 0..nt {
        let prio = |p: usize| (2 * nt - p) as i32;
        rt.task(&potrf_cl)
            .buffer(tile(k, k), rw)
            .priority(prio(2 * k))
            .submit()?;
        for i in k + 1..nt {
            rt.task(&trsm_cl)
                .buffer(tile(k, k), r)
                .buffer(tile(i, k), rw)
                .priority(prio(2 * k + i - k))
                .submit()?;
        }
        for i in k + 1..nt {
            rt.task(&syrk_cl)
                .buffer(tile(i, k), r)
                .buffer(tile(i, i), rw)
                .priority(prio(2 * k + i - k))
                .submit()?;
            for j in k + 1..i {
                rt.task(&gemm_cl)
                    .buffer(tile(i, k), r)
                    .buffer(tile(j, k), r)
                    .buffer(tile(i, j), rw)
                    .priority(prio(2 * k + i + j - 2 * k))
                    .submit()?;
            }
        }
    }
    rt.wait_for_all()?;
    let seconds = start.elapsed().as_secs_f64();

    // Gather L and check sampled entries of L L^T against A.
    let mut l = vec![0.0; n * n];
    for (i, row) in tiles.iter().enumerate() {
        for (j, t) in row.iter().enumerate().take(i + 1) {
            let data = rt.unregister_take::<Vec<f64>>(t.as_ref().expect("lower tile"))?;
            for (e, v) in data.into_iter().enumerate() {
                let (gi, gj) = (i * nb + e % nb, j * nb + e / nb);
                if gi >= gj {
                    l[gj * n + gi] = v;
                }
            }
        }
    }
    let mut worst: f64 = 0.0;
    for s in 0..2000usize {
        let (i, j) = ((s * 7919) % n, (s * 104_729) % n);
        let llt: f64 = (0..=i.min(j)).map(|k| l[k * n + i] * l[k * n + j]).sum();
        worst = worst.max((llt - a_entry(n, i, j)).abs());
    }
    let gflops = (n as f64).powi(3) / 3.0 / seconds / 1e9;
    println!(
        "cholesky: n={n} nb={nb} ({} tasks) on {} workers: {seconds:.3} s, {gflops:.2} GFlop/s, \
         max error on sampled entries of L L^T: {worst:.2e}",
        nt * (nt + 1) * (nt + 2) / 6,
        rt.workers().len()
    );
    drop(rt);
    starpu_core::shutdown()?;
    if worst > 1e-9 * n as f64 {
        return Err(format!("L L^T differs from A by {worst}").into());
    }
    println!("cholesky: ok");
    Ok(())
}
