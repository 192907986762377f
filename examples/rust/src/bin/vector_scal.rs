//! Scales a vector by a factor, one task per block: the handbook's first example, in Rust.
//!
//! The vector is a `Vec<f32>` handed to the runtime, cut into blocks with a filter; each
//! block is scaled by its own task; the vector comes back, scaled, at unregistration.

use starpu_core::data::Filter;
use starpu_core::{AccessMode, Codelet, Config};
use std::sync::Arc;

const N: usize = 1 << 20;
const NBLOCKS: usize = 8;
const FACTOR: f32 = 2.5;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut config = Config::default();
    config.apply_env()?;
    let rt = starpu_core::init(config)?;

    let scal = Arc::new(
        Codelet::new("vector_scal")
            .modes([AccessMode::RW])
            .cpu(|call| {
                let factor = *call.arg::<f32>(0)?;
                for x in call.vector_mut::<f32>(0)?.iter_mut() {
                    *x *= factor;
                }
                Ok(())
            }),
    );

    let v = rt.register_vector((0..N).map(|i| i as f32).collect::<Vec<f32>>())?;
    let blocks = rt.partition(&v, &Filter::vector_block(NBLOCKS))?;
    for b in &blocks {
        rt.task(&scal)
            .buffer(b, AccessMode::RW)
            .arg(FACTOR)
            .name("scal")
            .submit()?;
    }
    rt.wait_for_all()?;
    rt.unpartition(&v, 0)?;
    let result = rt.unregister_take::<Vec<f32>>(&v)?;

    let wrong = (0..N).filter(|&i| result[i] != i as f32 * FACTOR).count();
    println!(
        "vector_scal: {N} elements in {NBLOCKS} blocks scaled by {FACTOR} on {} workers: {}",
        rt.workers().len(),
        if wrong == 0 { "ok" } else { "WRONG" }
    );
    drop(rt);
    starpu_core::shutdown()?;
    if wrong != 0 {
        return Err(format!("{wrong} elements wrong").into());
    }
    Ok(())
}
