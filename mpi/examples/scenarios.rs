//! StarPU-MPI through its Rust API, on every process of `mpirun -np N` (N >= 2; the MPI
//! tests run it with 4): transfers waited for and detached, synchronous sends, receives
//! from any source, owner-computes task insertion with the task builder, a reduction
//! across processes, gathers, and errors for bad ranks. Exits 1 if any check fails.

use starpu_core::{AccessMode, Codelet, Config, DataHandle, Runtime};
use starpu_mpi::{any_source, Mpi, StartOptions, Transfer};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

static FAILURES: AtomicUsize = AtomicUsize::new(0);

macro_rules! check {
    ($mpi:expr, $cond:expr, $($fmt:tt)*) => {
        if !$cond {
            FAILURES.fetch_add(1, Ordering::SeqCst);
            eprintln!("[rank {}] {}:{}: check failed: {}: {}", $mpi.world_rank(), file!(), line!(),
                stringify!($cond), format!($($fmt)*));
        }
    };
}

fn value(rt: &Arc<Runtime>, h: &DataHandle) -> i64 {
    let v = rt.acquire_view(h, AccessMode::R).expect("acquire");
    let x = *v.views().variable::<i64>(0).expect("a variable");
    drop(v);
    x
}

fn point_to_point(mpi: &Mpi, rt: &Arc<Runtime>) -> starpu_core::Result<()> {
    let (me, n) = (mpi.world_rank(), mpi.world_size());
    let t = Transfer::default();
    // A ring with requests: receive from the previous rank, send to the next.
    let h = rt.register_variable(me as i64 * 10)?;
    let (next, prev) = ((me + 1) % n, (me + n - 1) % n);
    let incoming = rt.register_variable(0i64)?;
    let r = mpi.irecv(&incoming, prev, 1 << 40, &t)?;
    let s = mpi.isend(&h, next, 1 << 40, &t)?;
    let status = r.wait()?;
    s.wait()?;
    check!(
        mpi,
        status.source == prev && status.tag == 1 << 40 && status.size == 8,
        "status {status:?}"
    );
    check!(
        mpi,
        value(rt, &incoming) == prev as i64 * 10,
        "received {}",
        value(rt, &incoming)
    );

    // A synchronous send is not over before the receive is posted (after a barrier).
    if me == 0 {
        let s = mpi.isend(&h, 1, 2, &Transfer { sync: true, ..t })?;
        check!(mpi, s.test().is_none(), "a synchronous send ended early");
        mpi.barrier(mpi.world())?;
        s.wait()?;
    } else {
        mpi.barrier(mpi.world())?;
        if me == 1 {
            mpi.recv(&incoming, 0, 2, &t)?;
            check!(
                mpi,
                value(rt, &incoming) == 0,
                "sync value {}",
                value(rt, &incoming)
            );
        }
    }

    // Rank 0 receives one message from each other rank, from any source, detached.
    let got = Arc::new(AtomicUsize::new(0));
    if me == 0 {
        let handles: Vec<DataHandle> = (1..n)
            .map(|_| rt.register_variable(0i64))
            .collect::<Result<_, _>>()?;
        for x in &handles {
            let g = got.clone();
            mpi.irecv_detached(
                x,
                any_source(),
                3,
                &t,
                Some(Box::new(move |r| {
                    if r.is_ok() {
                        g.fetch_add(1, Ordering::SeqCst);
                    }
                })),
            )?;
        }
        mpi.wait_for_all()?;
        let mut sum: i64 = handles.iter().map(|x| value(rt, x)).sum();
        sum -= (1..n as i64).map(|r| r * 10).sum::<i64>();
        check!(
            mpi,
            sum == 0 && got.load(Ordering::SeqCst) == n as usize - 1,
            "any-source values off by {sum}"
        );
    } else {
        mpi.isend_detached(&h, 0, 3, &t, None)?;
        mpi.wait_for_all()?;
    }

    // Bad ranks are errors, on this process only.
    let e = mpi.isend(&h, n + 3, 4, &t).unwrap_err();
    check!(mpi, e.message.contains("does not exist"), "{e}");
    let e = mpi.irecv(&h, -5, 4, &t).unwrap_err();
    check!(mpi, e.message.contains("does not exist"), "{e}");
    Ok(())
}

fn owner_computes(mpi: &Mpi, rt: &Arc<Runtime>) -> starpu_core::Result<()> {
    let (me, n) = (mpi.world_rank(), mpi.world_size());
    // x[r] = r, owned by rank r; then x[r] += x[r - 1] for r = 1..n in order: a prefix sum.
    let x: Vec<DataHandle> = (0..n)
        .map(|r| rt.register_variable(if r == me { r as i64 } else { -1 }))
        .collect::<Result<_, _>>()?;
    for (r, h) in x.iter().enumerate() {
        mpi.data_register(h, 100 + r as i64, r as i32, mpi.world())?;
    }
    let add = Arc::new(
        Codelet::new("add")
            .modes([AccessMode::RW, AccessMode::R])
            .cpu(|call| {
                let b = *call.variable::<i64>(1)?;
                *call.variable_mut::<i64>(0)? += b;
                Ok(())
            }),
    );
    for r in 1..n as usize {
        let p = mpi
            .task(&add)
            .buffer(&x[r], AccessMode::RW)
            .buffer(&x[r - 1], AccessMode::R)
            .submit()?;
        check!(
            mpi,
            p.xrank == r as i32 && p.do_execute == (me as usize == r),
            "placement {p:?}"
        );
    }
    // Executed elsewhere on purpose: the last rank's value comes back to it.
    let last = x.last().expect("one per rank");
    let twice = Arc::new(Codelet::new("twice").modes([AccessMode::RW]).cpu(|call| {
        *call.variable_mut::<i64>(0)? *= 2;
        Ok(())
    }));
    mpi.task(&twice)
        .buffer(last, AccessMode::RW)
        .execute_on_node(0)
        .submit()?;
    mpi.wait_for_all()?;
    let prefix = (me as i64) * (me as i64 + 1) / 2;
    let want = if me == n - 1 { 2 * prefix } else { prefix };
    check!(
        mpi,
        value(rt, &x[me as usize]) == want,
        "x[{me}] = {}, expected {want}",
        value(rt, &x[me as usize])
    );

    // A reduction: each rank adds its rank + 1 (on its own data's owner), reduced at rank 0.
    let sum = rt.register_variable(if me == 0 { 1000i64 } else { 0 })?;
    mpi.data_register(&sum, 999, 0, mpi.world())?;
    let init = Arc::new(Codelet::new("zero").modes([AccessMode::W]).cpu(|call| {
        *call.variable_mut::<i64>(0)? = 0;
        Ok(())
    }));
    let fold = Arc::new(
        Codelet::new("fold")
            .modes([AccessMode::RW, AccessMode::R])
            .cpu(|call| {
                let b = *call.variable::<i64>(1)?;
                *call.variable_mut::<i64>(0)? += b;
                Ok(())
            }),
    );
    sum.set_reduction_methods(starpu_core::data::ReductionMethods { redux: fold, init })?;
    let contribute = Arc::new(
        Codelet::new("contribute")
            .modes([AccessMode::REDUX])
            .cpu(|call| {
                let k = *call.arg::<i64>(0)?;
                *call.variable_mut::<i64>(0)? += k;
                Ok(())
            }),
    );
    for r in 0..n {
        mpi.task(&contribute)
            .buffer(&sum, AccessMode::REDUX)
            .execute_on_node(r)
            .arg(r as i64 + 1)
            .submit()?;
    }
    mpi.redux_data(mpi.world(), &sum, 0)?;
    mpi.wait_for_all()?;
    if me == 0 {
        let want = 1000 + (n as i64) * (n as i64 + 1) / 2;
        check!(
            mpi,
            value(rt, &sum) == want,
            "reduced {} expected {want}",
            value(rt, &sum)
        );
    }

    // Gather every x at rank 0.
    mpi.gather_detached(&x, 0, mpi.world(), None, None)?;
    mpi.wait_for_all()?;
    if me == 0 {
        let got: Vec<i64> = x.iter().map(|h| value(rt, h)).collect();
        let want: Vec<i64> = (0..n as i64)
            .map(|r| r * (r + 1) / 2 * if r == n as i64 - 1 { 2 } else { 1 })
            .collect();
        check!(mpi, got == want, "gathered {got:?}, expected {want:?}");
    }
    // A task on data not registered with StarPU-MPI is refused on every process.
    let loose = rt.register_variable(0i64)?;
    let e = mpi
        .task(&twice)
        .buffer(&loose, AccessMode::RW)
        .submit()
        .unwrap_err();
    check!(
        mpi,
        e.message.contains("not registered with StarPU-MPI"),
        "{e}"
    );
    Ok(())
}

fn main() -> starpu_core::Result<()> {
    let rt = starpu_core::init(Config {
        ncpus: Some(1),
        silent: true,
        ..Config::default()
    })?;
    let mpi = starpu_mpi::init(rt.clone(), StartOptions::default())?;
    if mpi.world_size() < 2 {
        eprintln!("needs at least 2 processes");
        std::process::exit(1);
    }
    point_to_point(&mpi, &rt)?;
    owner_computes(&mpi, &rt)?;
    let me = mpi.world_rank();
    starpu_mpi::shutdown()?;
    drop(mpi);
    starpu_core::shutdown()?;
    let failures = FAILURES.load(Ordering::SeqCst);
    if failures > 0 {
        eprintln!("[rank {me}] {failures} check(s) failed");
        std::process::exit(1);
    }
    Ok(())
}
