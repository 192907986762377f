//! A small traced program for a first look at the views: vectors of several sizes are
//! scaled (a codelet with a history model, calibrated here), then summed pairwise into a
//! tree, with a user event between the phases. Usage: `trace_demo DIR` writes the raw
//! trace and its views into DIR and the model under DIR/.starpu (`STARPU_HOME=DIR`).

use starpu_core::perfmodel::PerfModel;
use starpu_core::trace::TraceOutput;
use starpu_core::{AccessMode, Codelet, Config, Runtime};
use std::sync::Arc;

fn main() -> Result<(), starpu_core::Error> {
    let dir = std::path::PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| ".".into()));
    let rt = Runtime::start(Config {
        ncpus: Some(2),
        silent: true,
        home: Some(dir.clone()),
        calibrate: 1,
        trace: true,
        trace_output: TraceOutput {
            dir: Some(dir.clone()),
            suffix: Some("demo".into()),
            generate: true,
            options: None,
        },
        ..Config::default()
    })?;
    let mut scal = Codelet::new("scal").modes([AccessMode::RW]).cpu(|call| {
        // A few passes so that the time grows with the size.
        for _ in 0..20 {
            for x in call.vector_mut::<f64>(0)?.iter_mut() {
                *x = *x * 1.000001 + 0.5;
            }
        }
        Ok(())
    });
    scal.model = Some(PerfModel::history("demo_scal"));
    scal.color = 0x2e86c1;
    let scal = Arc::new(scal);
    let add = Arc::new(
        Codelet::new("add")
            .modes([AccessMode::RW, AccessMode::R])
            .cpu(|call| {
                let b: Vec<f64> = call.vector::<f64>(1)?.to_vec();
                for (x, y) in call.vector_mut::<f64>(0)?.iter_mut().zip(b) {
                    *x += y;
                }
                Ok(())
            }),
    );
    let sizes = [2_000usize, 8_000, 32_000, 128_000];
    let mut vs = Vec::new();
    for round in 0..3 {
        rt.tracer().iteration_push(round);
        for (i, n) in sizes.iter().enumerate() {
            for _ in 0..2 {
                let v = rt.register_vector(vec![1.0f64; *n])?;
                for _ in 0..3 {
                    rt.task(&scal)
                        .buffer(&v, AccessMode::RW)
                        .priority(i as i32)
                        .submit()?;
                }
                vs.push(v);
            }
        }
        rt.tracer().iteration_pop();
    }
    rt.tracer().user_string("reduction", false);
    // Pairwise sums of vectors of the same size.
    let mut level: Vec<_> = vs.into_iter().collect();
    while level.len() > sizes.len() {
        let mut next = Vec::new();
        let mut rest = Vec::new();
        while let Some(a) = level.pop() {
            let n = a.size();
            match level.iter().position(|b| b.size() == n) {
                Some(j) => {
                    let b = level.remove(j);
                    rt.task(&add)
                        .buffer(&a, AccessMode::RW)
                        .buffer(&b, AccessMode::R)
                        .submit()?;
                    rt.unregister(&b, true)?;
                    next.push(a);
                }
                None => rest.push(a),
            }
        }
        next.extend(rest);
        level = next;
    }
    rt.wait_for_all()?;
    for v in level {
        rt.unregister(&v, true)?;
    }
    rt.shutdown();
    println!("trace_demo: views in {}", dir.display());
    Ok(())
}
