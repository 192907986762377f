//! The handbook's token ring over StarPU-MPI, in Rust: each process receives the token
//! from the previous one, increments it in a task, and passes it on, `loops` times
//! around the ring. Run it with `mpirun -np 4 target/release/examples/rust_ring`.

use starpu_core::{AccessMode, Codelet, Config};
use starpu_mpi::{StartOptions, Transfer};
use std::sync::Arc;

fn main() -> starpu_core::Result<()> {
    let loops: i64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(16);
    let rt = starpu_core::init(Config::default())?;
    let mpi = starpu_mpi::init(rt.clone(), StartOptions::default())?;
    let (me, n) = (mpi.world_rank(), mpi.world_size());
    let token = rt.register_variable(0i64)?;
    let increment = Arc::new(
        Codelet::new("increment")
            .modes([AccessMode::RW])
            .cpu(|call| {
                *call.variable_mut::<i64>(0)? += 1;
                Ok(())
            }),
    );
    let t = Transfer::default();
    for lap in 0..loops {
        let tag = lap * n as i64 + me as i64;
        if lap > 0 || me > 0 {
            mpi.irecv_detached(&token, (me + n - 1) % n, tag, &t, None)?;
        }
        rt.task(&increment)
            .buffer(&token, AccessMode::RW)
            .submit()?;
        if lap < loops - 1 || me < n - 1 {
            mpi.isend_detached(&token, (me + 1) % n, tag + 1, &t, None)?;
        }
    }
    mpi.wait_for_all()?;
    let value = rt.unregister_take::<i64>(&token)?;
    starpu_mpi::shutdown()?;
    starpu_core::shutdown()?;
    if me == n - 1 {
        println!("token = {value} (expected {})", loops * n as i64);
        if value != loops * n as i64 {
            std::process::exit(1);
        }
    }
    Ok(())
}
