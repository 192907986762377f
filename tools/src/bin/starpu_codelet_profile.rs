//! `starpu_codelet_profile distrib.data codelet_name`: the durations of a codelet's
//! tasks by data size, per worker, from the `distrib.data` that `starpu_fxt_tool`
//! writes. Writes StarPU's per-worker extracts (`distrib.data.<worker>`) and gnuplot
//! script (`distrib.data.gp`), and the picture itself (`distrib.data.svg`).

use starpu_tools::chart::{Chart, Series, Style, PALETTE};
use starpu_tools::{fail, usage_exit, version_exit};
use std::collections::BTreeMap;
use std::fmt::Write as _;

const PROG: &str = "starpu_codelet_profile";

const USAGE: &str = "Offline tool to draw codelet profile over a traced execution

Usage: starpu_codelet_profile distrib.data codelet_name

Options:
	-h, --help          display this help and exit
	-v, --version       output version information and exit
";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("-h" | "--help") => usage_exit(USAGE, 0),
        Some("-v" | "--version") => version_exit(PROG),
        _ if args.len() < 2 => usage_exit(USAGE, 1),
        _ => {}
    }
    let (input, codelet) = (&args[0], &args[1]);
    let text = std::fs::read_to_string(input)
        .unwrap_or_else(|e| fail(PROG, &format!("cannot read {input}: {e}")));
    // Lines: codelet, worker, size, footprint, duration (ms).
    let mut per_arch: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() >= 5 && f[0] == codelet {
            per_arch.entry(f[1].to_string()).or_default().push(line);
        }
    }
    if per_arch.is_empty() {
        fail(PROG, &format!("no task of codelet '{codelet}' in {input}"));
    }
    let mut gp = format!(
        "#!/usr/bin/gnuplot -persist\nset term postscript eps enhanced color\nset logscale x\n\
         set logscale y\nset output \"{input}.eps\"\nset key top left\n\
         set xlabel \"Total data size\"\nset ylabel \"Execution time (ms)\"\nplot\t"
    );
    let mut chart = Chart {
        title: format!("Profile of codelet {codelet}"),
        xlabel: "Total data size (bytes)".into(),
        ylabel: "Execution time (ms)".into(),
        logx: true,
        logy: true,
        ..Default::default()
    };
    for (i, (arch, lines)) in per_arch.iter().enumerate() {
        println!("Arch {arch}");
        let sub = format!("{input}.{arch}");
        let mut body = lines.join("\n");
        body.push('\n');
        std::fs::write(&sub, body)
            .unwrap_or_else(|e| fail(PROG, &format!("cannot write {sub}: {e}")));
        if i > 0 {
            gp.push_str("  , ");
        }
        let _ = write!(
            gp,
            " \"{sub}\" using 3:5  title \"{} arch {arch}\"",
            codelet.replace('_', "\\\\_")
        );
        let mut s = Series::new(
            format!("{codelet} arch {arch}"),
            PALETTE[i % 8],
            Style::Points,
        );
        for l in lines {
            let f: Vec<&str> = l.split('\t').collect();
            if let (Ok(size), Ok(ms)) = (f[2].parse::<f64>(), f[4].parse::<f64>()) {
                s.points.push((size.max(1.0), ms));
            }
        }
        chart.series.push(s);
    }
    gp.push('\n');
    std::fs::write(format!("{input}.gp"), gp)
        .unwrap_or_else(|e| fail(PROG, &format!("cannot write {input}.gp: {e}")));
    let svg = format!("{input}.svg");
    std::fs::write(&svg, chart.to_svg(800.0, 560.0))
        .unwrap_or_else(|e| fail(PROG, &format!("cannot write {svg}: {e}")));
    eprintln!("{PROG}: wrote {input}.gp and {svg}");
}
