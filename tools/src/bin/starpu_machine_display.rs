//! `starpu_machine_display`: the processing units the runtime finds (workers by kind,
//! combined workers), the CPU each worker is bound to, the memory nodes, and the buses
//! between them, with StarPU's options (`-w TYPE`, `-c`, `-n`, `-i`, `-f`).

use starpu_core::worker::WorkerKind;
use starpu_core::Runtime;
use starpu_tools::{configure_from_env, fail, usage_exit, version_exit};

const PROG: &str = "starpu_machine_display";

const USAGE: &str = "Show the processing units that StarPU can use,
and the bandwidth and affinity measured between the memory nodes.

Usage: starpu_machine_display [OPTION]

Options:
	-h, --help          display this help and exit
	-v, --version       output version information and exit
	-i, --info          display the name of the files containing the information
	-f, --force         force bus sampling and show measures 
	-w, --worker <type> only show workers of the given type
	-c, --count         only display the number of workers
	-n, --notopology    do not display the bandwidth and affinity
";

/// The environment variables StarPU's tool echoes.
const ENV: &[&str] = &[
    "STARPU_NCPU",
    "STARPU_NCPUS",
    "STARPU_NCUDA",
    "STARPU_NOPENCL",
    "STARPU_WORKERS_CPUID",
    "STARPU_RESERVE_NCPU",
    "STARPU_MAIN_THREAD_BIND",
    "STARPU_MAIN_THREAD_CPUID",
    "STARPU_HOSTNAME",
];

fn kind_of(name: &str) -> Option<WorkerKind> {
    WorkerKind::ALL.into_iter().find(|k| {
        k.name() == name || starpu_core::perfmodel::arch::archtype_name(*k) == name.to_lowercase()
    })
}

fn show(rt: &Runtime, kind: WorkerKind, count_only: bool) {
    let ids = rt.worker_ids(Some(kind));
    if count_only {
        println!("{} {} workers", ids.len(), kind.name());
        return;
    }
    match ids.len() {
        0 => println!("No {} worker", kind.name()),
        n => {
            println!(
                "{n} {} worker{}:",
                kind.name(),
                if n == 1 { "" } else { "s" }
            );
            for id in ids {
                println!("\t{}", rt.workers()[id].name);
            }
        }
    }
}

fn main() {
    let (mut info, mut count, mut topology) = (false, false, true);
    let mut only: Option<String> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "-i" | "--info" => info = true,
            "-f" | "--force" => {}
            "-c" | "--count" => count = true,
            "-n" | "--notopology" => topology = false,
            "-w" | "--worker" => {
                only = Some(args.next().unwrap_or_else(|| fail(PROG, "-w needs a type")))
            }
            "-h" | "--help" => usage_exit(USAGE, 0),
            "-v" | "--version" => version_exit(PROG),
            other => {
                eprintln!("Unknown arg {other}");
                usage_exit(USAGE, 1)
            }
        }
    }
    let mut config = configure_from_env(PROG);
    config.trace = false;
    config.trace_output.generate = false;
    let rt = Runtime::start(config).unwrap_or_else(|e| fail(PROG, &e.message));
    if info {
        let dir = starpu_core::perfmodel::settings::sampling_base().join("bus");
        println!(
            "bus files: {} (this build measures no bus: main memory is its only memory node)",
            dir.display()
        );
        rt.shutdown();
        return;
    }
    let host = starpu_core::perfmodel::settings::hostname();
    println!("Real hostname: {host} (StarPU hostname: {host})");
    let set: Vec<String> = ENV
        .iter()
        .filter_map(|v| std::env::var(v).ok().map(|x| format!("\t{v}={x}")))
        .collect();
    if !set.is_empty() {
        println!("Environment variables\n{}\n", set.join("\n"));
    }
    match only {
        Some(t) => match kind_of(&t) {
            Some(k) => show(&rt, k, count),
            None => eprintln!("Unknown worker type '{t}'"),
        },
        None => {
            println!("StarPU has found :");
            for k in WorkerKind::ALL {
                show(&rt, k, count);
            }
            let combined = rt.combined_workers();
            if !combined.is_empty() {
                println!("\t{} Combined workers", combined.len());
                for c in combined {
                    let names: Vec<&str> = c
                        .members
                        .iter()
                        .map(|m| rt.workers()[*m].name.as_str())
                        .collect();
                    println!("\t\t{}\t", names.join("\t"));
                }
            }
        }
    }
    if topology {
        println!("\ntopology ... (hwloc logical indexes)");
        for w in rt.workers() {
            let cpu = w
                .cpu
                .map_or("not bound".to_string(), |c| format!("core {c}"));
            println!("\t{cpu}\t{}\tmemory node {}", w.name, w.node);
        }
        println!("\nbandwidth (MB/s) and latency (us)...");
        println!("from/to\tNUMA 0");
        println!("NUMA 0\t0\t(one memory node: no bus to measure)");
    }
    rt.shutdown();
}
