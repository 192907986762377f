//! `starpu_perfmodel_plot`: draws a performance model, the mean time per data size of
//! each architecture and implementation with its deviation, its regressions, and with
//! `-i` the tasks of a recorded trace. Writes StarPU's gnuplot script and data files
//! (`starpu_<symbol>.gp`, `starpu_<symbol>_avg.data`, `starpu_<symbol>.data`), and the
//! picture itself as `starpu_<symbol>.svg`, without gnuplot.

use starpu_core::perfmodel::state::Tables;
use starpu_core::trace::model::Model;
use starpu_tools::chart::{Chart, Series, Style, PALETTE};
use starpu_tools::models::{self, archs, e};
use starpu_tools::{configure_from_env, fail, usage_exit, version_exit};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

const PROG: &str = "starpu_perfmodel_plot";

const USAGE: &str = "Draw a graph corresponding to the execution time of a given perfmodel
Usage: starpu_perfmodel_plot [ options ]

One must specify a symbol with the -s option or use -l or -d
Options:
   -d			display the directory storing performance models
   -l			display all available models
   -s <symbol>		specify the symbol
   -f			draw GFlop/s instead of time
   -i <trace files>	input trace files recorded with STARPU_FXT_TRACE=1
   -lc			display all combinations of a given model
   -c <combination>	specify the combination (use the option -lc to list all combinations of a given model)
   -o <directory>	specify directory in which to create output files (current directory by default)
   -h, --help		display this help and exit
   -v, --version	output version information and exit
";

struct Opts {
    symbol: Option<String>,
    list: bool,
    dir: bool,
    list_combs: bool,
    comb: Option<usize>,
    gflops: bool,
    inputs: Vec<PathBuf>,
    out: PathBuf,
}

fn parse() -> Opts {
    let mut o = Opts {
        symbol: None,
        list: false,
        dir: false,
        list_combs: false,
        comb: None,
        gflops: false,
        inputs: Vec::new(),
        out: PathBuf::from("."),
    };
    let mut args = std::env::args().skip(1);
    let mut reading_inputs = false;
    while let Some(a) = args.next() {
        let mut value = || {
            args.next()
                .unwrap_or_else(|| fail(PROG, &format!("{a} requires an argument")))
        };
        match a.as_str() {
            "-s" => o.symbol = Some(value()),
            "-l" => o.list = true,
            "-d" => o.dir = true,
            "-lc" => o.list_combs = true,
            "-f" => o.gflops = true,
            "-c" => {
                let v = value();
                o.comb = Some(
                    v.parse()
                        .unwrap_or_else(|_| fail(PROG, "-c takes a number")),
                );
            }
            "-o" => o.out = PathBuf::from(value()),
            "-i" => {
                o.inputs.push(PathBuf::from(value()));
                reading_inputs = true;
                continue;
            }
            "-e" | "-se" => fail(PROG, "energy models are not available in this build"),
            "-h" | "--help" => usage_exit(USAGE, 0),
            "-v" | "--version" => version_exit(PROG),
            f if reading_inputs && !f.starts_with('-') => {
                o.inputs.push(PathBuf::from(f));
                continue;
            }
            other => fail(PROG, &format!("unknown option {other}")),
        }
        reading_inputs = false;
    }
    if o.symbol.is_none() && !o.list && !o.dir {
        eprintln!("Incorrect usage, aborting");
        usage_exit(USAGE, 255);
    }
    o
}

/// One drawn architecture and implementation: its name, and its history entries as
/// (size, mean, deviation, flops), in microseconds.
struct Curve {
    name: String,
    entries: Vec<(f64, f64, f64, f64)>,
    linear: Option<(f64, f64)>,
    nonlinear: Option<(f64, f64, f64)>,
}

fn curves(t: &Tables, comb: Option<usize>) -> Vec<Curve> {
    let mut out = Vec::new();
    for a in archs(t) {
        if comb.is_some_and(|c| c != a.comb) {
            continue;
        }
        for (nimpl, p) in &a.impls {
            let r = &p.regression;
            let mut entries: Vec<(f64, f64, f64, f64)> = p
                .entries
                .iter()
                .map(|en| (en.size as f64, en.mean, en.deviation, en.flops))
                .collect();
            entries.sort_by(|x, y| x.0.total_cmp(&y.0));
            out.push(Curve {
                name: a.arch.name(*nimpl, a.comb),
                entries,
                linear: (!r.alpha.is_nan() && !r.beta.is_nan()).then_some((r.alpha, r.beta)),
                nonlinear: (!r.a.is_nan() && !r.b.is_nan() && !r.c.is_nan())
                    .then_some((r.a, r.b, r.c)),
            });
        }
    }
    out
}

/// The value drawn for an entry: milliseconds, or GFlop/s with `-f`; with its deviation.
fn value(gflops: bool, (_, mean, dev, flops): (f64, f64, f64, f64)) -> (f64, f64) {
    if gflops {
        (
            flops / (mean * 1000.0),
            flops * dev / (mean * mean * 1000.0),
        )
    } else {
        (0.001 * mean, 0.001 * dev)
    }
}

/// (architecture name, size, time in ms) of the tasks of `symbol` in the trace files.
fn measured(inputs: &[PathBuf], symbol: &str) -> Vec<(String, f64, f64)> {
    let mut out = Vec::new();
    for f in inputs {
        let t = starpu_core::trace::file::read(f).unwrap_or_else(|e| fail(PROG, &e.message));
        let m = Model::of(&t);
        for task in &m.tasks {
            if task.model.as_deref() != Some(symbol) {
                continue;
            }
            let (Some(s), Some(e), Some(w)) = (task.start_ns, task.end_ns, task.worker) else {
                continue;
            };
            let kind = t
                .workers
                .get(w)
                .map_or(starpu_core::worker::WorkerKind::Cpu, |w| w.kind);
            let arch = format!(
                "{}0_impl{}",
                starpu_core::perfmodel::arch::archtype_name(kind),
                task.nimpl
            );
            out.push((arch, task.size as f64, e.saturating_sub(s) as f64 / 1e6));
        }
    }
    out
}

fn write(path: &Path, text: &str) {
    std::fs::write(path, text)
        .unwrap_or_else(|e| fail(PROG, &format!("cannot write {}: {e}", path.display())));
}

fn main() {
    let o = parse();
    configure_from_env(PROG);
    if o.dir {
        print!("{}", models::directory());
        return;
    }
    if o.list {
        print!("{}", models::list());
        return;
    }
    let symbol = o.symbol.clone().expect("checked in parse");
    let tables = models::load(&symbol).unwrap_or_else(|e| fail(PROG, &e));
    if o.list_combs {
        print!("{}", models::list_combs(&symbol, &tables));
        return;
    }
    std::fs::create_dir_all(&o.out)
        .unwrap_or_else(|e| fail(PROG, &format!("cannot create {}: {e}", o.out.display())));
    let prefix = if o.gflops { "gflops_" } else { "" };
    let base = format!("starpu_{prefix}{symbol}");
    let gp_path = o.out.join(format!("{base}.gp"));
    let avg_path = o.out.join(format!("{base}_avg.data"));
    let data_path = o.out.join(format!("starpu_{symbol}.data"));
    let curves = curves(&tables, o.comb);
    let points = measured(&o.inputs, &symbol);

    // The averages file: one row per size, two columns (mean, deviation) per curve.
    let mut sizes: Vec<f64> = curves
        .iter()
        .flat_map(|c| c.entries.iter().map(|e| e.0))
        .collect();
    sizes.sort_by(f64::total_cmp);
    sizes.dedup();
    let with_entries: Vec<&Curve> = curves.iter().filter(|c| !c.entries.is_empty()).collect();
    let mut avg = String::new();
    for s in &sizes {
        let _ = write!(avg, "{:<15} ", *s as u64);
        for c in &with_entries {
            match c.entries.iter().find(|en| en.0 == *s) {
                Some(en) => {
                    let (v, d) = value(o.gflops, *en);
                    let _ = write!(avg, "\t{:<15}\t{:<15}", e(v), e(d));
                }
                None => avg.push_str("\t\"\"\t\"\""),
            }
        }
        avg.push('\n');
    }
    write(&avg_path, &avg);
    if !o.inputs.is_empty() {
        let mut d = String::new();
        for (arch, size, ms) in &points {
            let _ = writeln!(d, "{arch}\t{size:.6}\t{ms:.6}");
        }
        write(&data_path, &d);
    }

    // StarPU's gnuplot script.
    let host = starpu_core::perfmodel::settings::hostname();
    let mut gp =
        String::from("#!/usr/bin/gnuplot -persist\n\nset term postscript eps enhanced color\n");
    let _ = writeln!(gp, "set output \"{base}.eps\"");
    let _ = writeln!(
        gp,
        "set title \"Model for codelet {} on {host}\"",
        symbol.replace('_', "-")
    );
    gp.push_str("set xlabel \"Total data size\"\n");
    gp.push_str(if o.gflops {
        "set ylabel \"GFlop/s\"\n"
    } else {
        "set ylabel \"Time (ms)\"\n"
    });
    gp.push_str("\nset key top left\nset logscale x\nset logscale y\n\n");
    if o.inputs.is_empty() || o.gflops {
        gp.push_str("set xrange [1 < * < 10**9 : 1 < * < 10**9]\n\n");
    }
    let mut plots: Vec<String> = Vec::new();
    if !o.inputs.is_empty() && !o.gflops {
        let mut archs: Vec<&String> = points.iter().map(|p| &p.0).collect();
        archs.sort();
        archs.dedup();
        for a in archs {
            plots.push(format!(
                "\"< grep '^{a}' {}\" using 2:3 title \"Profiling {}\"",
                data_path.display(),
                a.replace('_', "-")
            ));
        }
    }
    if !o.gflops {
        for c in &curves {
            if let Some((a, b, cc)) = c.nonlinear {
                plots.push(format!(
                    "0.001 * {a} * x ** {b} + 0.001 * {cc} title \"Non-Linear Regression {}\"",
                    c.name
                ));
            } else if let Some((al, be)) = c.linear {
                plots.push(format!(
                    "0.001 * {al} * x ** {be} title \"Linear Regression {}\"",
                    c.name
                ));
            }
        }
    }
    for (i, c) in with_entries.iter().enumerate() {
        plots.push(format!(
            "\"{}\" using 1:{}:{} with errorlines title \"Average {}\"",
            avg_path.display(),
            2 + 2 * i,
            3 + 2 * i,
            c.name.replace('_', "-")
        ));
    }
    let _ = write!(gp, "plot\t{}", plots.join(",\\\n\t"));
    let _ = write!(gp, "\nset term png\nset output \"{base}.png\"\nreplot\n\n");
    write(&gp_path, &gp);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(&gp_path, std::fs::Permissions::from_mode(0o755));
    }

    // The same picture, drawn here.
    let mut chart = Chart {
        title: format!("Model for codelet {symbol} on {host}"),
        xlabel: "Total data size (bytes)".into(),
        ylabel: if o.gflops { "GFlop/s" } else { "Time (ms)" }.into(),
        logx: true,
        logy: true,
        ..Default::default()
    };
    for (i, c) in with_entries.iter().enumerate() {
        let mut s = Series::new(
            format!("Average {}", c.name),
            PALETTE[i % 8],
            Style::LinesPoints,
        );
        for en in &c.entries {
            let (v, d) = value(o.gflops, *en);
            s.points.push((en.0, v));
            s.yerr.push(d);
        }
        chart.series.push(s);
    }
    if !o.gflops {
        for (i, c) in curves.iter().enumerate() {
            let color = PALETTE[(i + 4) % 8];
            if let Some((a, b, cc)) = c.nonlinear {
                let f = move |x: f64| 0.001 * (a * x.powf(b) + cc);
                chart.series.push(Series::new(
                    format!("Non-Linear Regression {}", c.name),
                    color,
                    Style::Function(Box::new(f)),
                ));
            } else if let Some((al, be)) = c.linear {
                let f = move |x: f64| 0.001 * al * x.powf(be);
                chart.series.push(Series::new(
                    format!("Linear Regression {}", c.name),
                    color,
                    Style::Function(Box::new(f)),
                ));
            }
        }
        if !points.is_empty() {
            let mut s = Series::new("Profiling (tasks of the trace)", "#999999", Style::Points);
            s.points = points.iter().map(|p| (p.1, p.2)).collect();
            chart.series.push(s);
        }
    }
    let svg_path = o.out.join(format!("{base}.svg"));
    write(&svg_path, &chart.to_svg(800.0, 560.0));
    eprintln!("[starpu] Gnuplot file <{}> generated", gp_path.display());
    eprintln!("[starpu] Picture <{}> generated", svg_path.display());
}
