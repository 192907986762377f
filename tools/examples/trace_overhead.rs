//! What recording a trace costs per task: the same small-task workloads run with the
//! recorder off and on, alternating in one process (so both see the same machine load),
//! several rounds; prints the median nanoseconds per task of each and their ratio.
//! Usage: `trace_overhead [tasks per round] [rounds]` (default 100000, 7).

use starpu_core::{AccessMode, Codelet, Config, Runtime};
use std::sync::Arc;
use std::time::Instant;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() -> Result<(), starpu_core::Error> {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().map_or(100_000, |a| a.parse().expect("tasks"));
    let rounds: usize = args.next().map_or(7, |a| a.parse().expect("rounds"));
    let rt = Runtime::start(Config {
        ncpus: Some(2),
        silent: true,
        ..Config::default()
    })?;
    let empty = Arc::new(Codelet::new("empty").cpu(|_| Ok(())));
    let bump = Arc::new(Codelet::new("bump").modes([AccessMode::RW]).cpu(|call| {
        *call.variable_mut::<u64>(0)? += 1;
        Ok(())
    }));
    let x = rt.register_variable(0u64)?;
    println!("workload\ttrace\tns/task (median of {rounds} rounds of {n} tasks)");
    for (name, chained) in [("independent", false), ("chain", true)] {
        let (mut off, mut on) = (Vec::new(), Vec::new());
        for _ in 0..rounds {
            for tracing in [false, true] {
                rt.tracer().set_on(tracing);
                let t = Instant::now();
                for _ in 0..n {
                    if chained {
                        rt.task(&bump).buffer(&x, AccessMode::RW).submit()?;
                    } else {
                        rt.task(&empty).submit()?;
                    }
                }
                rt.wait_for_all()?;
                let ns = t.elapsed().as_nanos() as f64 / n as f64;
                if tracing {
                    on.push(ns)
                } else {
                    off.push(ns)
                }
            }
        }
        rt.tracer().set_on(false);
        let (a, b) = (median(off), median(on));
        println!(
            "{name}\toff\t{a:.0}\n{name}\ton\t{b:.0}\t(x{:.3}, +{:.0} ns/task)",
            b / a,
            b - a
        );
    }
    let events = rt.trace_snapshot().events.len();
    println!("events recorded: {events}");
    rt.unregister(&x, true)?;
    rt.shutdown();
    Ok(())
}
