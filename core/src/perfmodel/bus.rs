//! The bus model: bandwidth and latency between memory nodes, measured the first time a
//! runtime with devices starts on a machine and kept in StarPU's layout under the
//! sampling directory (`bus/<host>.bandwidth`, `.latency`, `.config`), so later runs (and
//! StarPU's tools) read them. `STARPU_BUS_CALIBRATE=1` measures again. The model answers
//! how long a task's data takes to reach a node (`starpu_task_expected_data_transfer_time`),
//! which the model-based policies add to their predictions.

use crate::memory::{BusCosts, Loc, Memory, NodeId, MAIN_RAM};
use crate::task::TaskSpec;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

/// Bytes moved per bandwidth measurement, and how many times (StarPU: 32 MiB, 32 times;
/// less here so that a first start stays short: PoCL copies at several GB/s).
const SIZE: usize = 8 << 20;
const NITER: usize = 8;
/// Latency measurements (one byte each).
const NLAT: usize = 32;

/// `<sampling>/bus/<host>.<kind>`.
fn path(kind: &str) -> PathBuf {
    super::settings::sampling_base()
        .join("bus")
        .join(format!("{}.{kind}", super::settings::hostname()))
}

/// The node counts StarPU's `.config` file records: CPUs, then nodes per kind in the
/// order of `enum starpu_node_kind` (NUMA, CUDA, OpenCL, and the kinds this runtime
/// does not have).
fn config_text(ncpus: usize, mem: &Memory) -> String {
    use crate::memory::NodeKind;
    let count = |k: NodeKind| mem.nodes().iter().filter(|n| n.kind() == k).count();
    let mut s = String::from("# Current configuration\n");
    let _ = writeln!(s, "{ncpus} # Number of CPUs");
    for (n, name) in [
        (count(NodeKind::CpuRam), "NUMA"),
        (count(NodeKind::Cuda), "CUDA"),
        (count(NodeKind::OpenCl), "OpenCL"),
        (0, "Disk"),
        (0, "FPGA"),
        (0, "HIP"),
        (0, "MPI_MS"),
        (0, "TCPIP_MS"),
    ] {
        let _ = writeln!(s, "{n} # Number of {name} nodes");
    }
    s
}

/// The numbers of a `.config` file, comments dropped.
fn config_numbers(text: &str) -> Vec<u64> {
    text.lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .filter_map(|l| l.split_whitespace().next()?.parse().ok())
        .collect()
}

/// A table in StarPU's layout: a `#` header naming the destinations, then one line per
/// source node of `width` tab-separated values (NaN beyond the nodes that exist).
fn table_text(mem: &Memory, width: usize, value: impl Fn(usize, usize) -> f64) -> String {
    let mut s = String::from("# ");
    for n in mem.nodes() {
        let _ = write!(s, "to {}\t", n.name());
    }
    s.push('\n');
    let n = mem.node_count();
    for src in 0..width {
        let row: Vec<String> = (0..width)
            .map(|dst| {
                let v = if src < n && dst < n {
                    value(src, dst)
                } else {
                    f64::NAN
                };
                format!("{v:e}")
            })
            .collect();
        s += &row.join("\t");
        s.push('\n');
    }
    s
}

/// The `n` x `n` values of a table file (`None` if malformed).
fn parse_table(text: &str, n: usize) -> Option<Vec<f64>> {
    let rows: Vec<Vec<f64>> = text
        .lines()
        .filter(|l| !l.trim_start().starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            l.split_whitespace()
                .map(|v| match v.trim_start_matches('-') {
                    "nan" | "NaN" | "NAN" => Some(f64::NAN),
                    _ => v.parse().ok(),
                })
                .collect::<Option<Vec<f64>>>()
        })
        .collect::<Option<_>>()?;
    if rows.len() < n || rows.iter().take(n).any(|r| r.len() < n) {
        return None;
    }
    Some(rows.iter().take(n).flat_map(|r| r[..n].to_vec()).collect())
}

/// The costs kept by an earlier run for this configuration.
fn load(mem: &Memory, ncpus: usize) -> Option<BusCosts> {
    let config = std::fs::read_to_string(path("config")).ok()?;
    if config_numbers(&config) != config_numbers(&config_text(ncpus, mem)) {
        return None;
    }
    let n = mem.node_count();
    let bw = parse_table(&std::fs::read_to_string(path("bandwidth")).ok()?, n)?;
    let lat = parse_table(&std::fs::read_to_string(path("latency")).ok()?, n)?;
    Some(BusCosts::new(n, bw, lat))
}

/// Mean µs of `iter` copies of `size` bytes from `src` to `dst`.
fn time_copies(
    mem: &Memory,
    src: (NodeId, usize),
    dst: (NodeId, usize),
    size: usize,
    iter: usize,
) -> Option<f64> {
    let at = |node: NodeId, h: usize| {
        let ptr = mem.node(node).map_or(0, |n| n.ptr_of(h));
        Loc::new(ptr, h, 0)
    };
    let start = Instant::now();
    for _ in 0..iter {
        let t = mem
            .transfer(src.0, dst.0, |c| {
                c.copy(at(src.0, src.1), at(dst.0, dst.1), size)
            })
            .ok()?;
        t.wait().ok()?;
    }
    Some(start.elapsed().as_secs_f64() * 1e6 / iter as f64)
}

/// Measures main RAM <-> each device: (bandwidth MB/s, latency µs) both ways.
fn measure(mem: &Memory) -> BusCosts {
    let n = mem.node_count();
    let mut bw = vec![f64::NAN; n * n];
    let mut lat = vec![0.0; n * n];
    let ram = crate::memory::alloc_ram(SIZE).ok();
    for d in 1..n {
        let Some(node) = mem.node(d) else { continue };
        let (Some(host), Ok(dev)) = (ram, node.alloc(SIZE)) else {
            continue;
        };
        for (s, t) in [((MAIN_RAM, host), (d, dev)), ((d, dev), (MAIN_RAM, host))] {
            let us = time_copies(mem, s, t, SIZE, NITER);
            let l = time_copies(mem, s, t, 1, NLAT);
            if let (Some(us), Some(l)) = (us, l) {
                bw[s.0 * n + t.0] = SIZE as f64 / (us - l).max(1e-3);
                lat[s.0 * n + t.0] = l;
            }
        }
        node.free(dev, SIZE);
        node.release_cache();
    }
    if let Some(p) = ram {
        crate::memory::free_ram(p);
    }
    // Between two devices the data goes through main RAM.
    for a in 1..n {
        for b in (1..n).filter(|&b| b != a) {
            let (b1, b2) = (bw[a * n], bw[b]);
            bw[a * n + b] = 1.0 / (1.0 / b1 + 1.0 / b2);
            lat[a * n + b] = lat[a * n] + lat[b];
        }
    }
    mem.stats.reset();
    BusCosts::new(n, bw, lat)
}

/// Writes the costs where `load` finds them (errors are reported, not fatal: the run
/// goes on with what it measured).
fn save(mem: &Memory, ncpus: usize, costs: &BusCosts) -> std::io::Result<()> {
    let dir = path("config");
    if let Some(parent) = dir.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let width = crate::memory::MAX_NODES;
    std::fs::write(path("config"), config_text(ncpus, mem))?;
    std::fs::write(
        path("bandwidth"),
        table_text(mem, width, |s, d| costs.bandwidth(s, d)),
    )?;
    std::fs::write(
        path("latency"),
        table_text(mem, width, |s, d| costs.latency(s, d)),
    )
}

/// Gives `mem` its transfer costs: read from the sampling directory, or measured now (and
/// saved) when there are none for this machine's configuration or `STARPU_BUS_CALIBRATE`
/// asks for new ones. Nothing to do with main RAM alone.
pub fn calibrate(mem: &Memory, ncpus: usize) {
    if !mem.has_devices() || mem.bus().is_some() {
        return;
    }
    let again = crate::env::env_int("STARPU_BUS_CALIBRATE")
        .ok()
        .flatten()
        .is_some_and(|v| v > 0);
    let known = if again { None } else { load(mem, ncpus) };
    let costs = known.unwrap_or_else(|| {
        let c = measure(mem);
        if let Err(e) = save(mem, ncpus, &c) {
            eprintln!(
                "[starpu] warning: cannot save the bus model under {}: {e}",
                path("").display()
            );
        }
        c
    });
    mem.set_bus(costs);
}

/// µs for the data `spec` reads to reach memory node `node`
/// (`starpu_task_expected_data_transfer_time`): per buffer read and neither on `node` nor
/// on its way there, the cheapest transfer from a node holding it.
pub fn expected_transfer_time(spec: &TaskSpec, node: NodeId) -> f64 {
    spec.accesses
        .iter()
        .filter(|a| a.mode.reads() && !a.mode.is_scratch() && !a.mode.is_redux())
        .map(|a| data_transfer_time(&a.handle, node))
        .sum()
}

/// µs to bring `h`'s value to `node` (`starpu_data_expected_transfer_time`).
pub fn data_transfer_time(h: &impl super::ModelData, node: NodeId) -> f64 {
    let mem = h.memory();
    if !mem.has_devices() || h.is_valid_on(node) || h.is_requested_on(node) {
        return 0.0;
    }
    let size = h.size();
    (0..mem.node_count())
        .filter(|&s| h.is_valid_on(s))
        .map(|s| mem.predict_transfer(s, node, size))
        .fold(None, |best: Option<f64>, t| {
            Some(best.map_or(t, |b| b.min(t)))
        })
        .unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_round_trip_in_starpus_layout() {
        let mem = Memory::ram_only();
        let text = table_text(&mem, 4, |s, d| (s * 10 + d) as f64);
        assert!(text.starts_with("# to NUMA 0\t\n"));
        assert_eq!(text.lines().count(), 5);
        assert_eq!(parse_table(&text, 1), Some(vec![0.0]));
        let nan = "# x\nnan\t1.5e3\n-nan\t2\n";
        let t = parse_table(nan, 2).unwrap();
        assert!(t[0].is_nan() && t[2].is_nan());
        assert_eq!((t[1], t[3]), (1500.0, 2.0));
        assert_eq!(parse_table("# x\n1 2\n", 2), None);
    }

    #[test]
    fn config_files_compare_by_their_numbers() {
        let mem = Memory::ram_only();
        let a = config_text(4, &mem);
        assert_eq!(config_numbers(&a)[..4], [4, 1, 0, 0]);
        assert_ne!(config_numbers(&a), config_numbers(&config_text(8, &mem)));
    }
}
