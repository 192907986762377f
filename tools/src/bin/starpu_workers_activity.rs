//! `starpu_workers_activity [-d dir] activity.data [start end]`: for each worker, the
//! share of each period spent executing tasks and sleeping, and the counts of submitted
//! and ready tasks, from the `activity.data` that `starpu_fxt_tool` writes. Writes
//! StarPU's gnuplot script (`activity.gp`, for `activity.eps`) and the picture itself
//! (`activity.svg`), without gnuplot.

use starpu_tools::chart::{stack_svg, Chart, Series, Style};
use starpu_tools::{fail, usage_exit, version_exit};
use std::collections::BTreeMap;
use std::path::PathBuf;

const PROG: &str = "starpu_workers_activity";

const USAGE: &str = "Offline tool to display the activity of the workers during the execution.

  The starpu_fxt_tool utility now generates a file named 'activity.data' which
  can be processed by this script to generate a plot named activity.svg

  Typical usage:
     starpu_fxt_tool -i /tmp/prof_file_foo_0 &&
     starpu_workers_activity activity.data

Options:
	-h, --help          display this help and exit
	-v, --version       output version information and exit
	-d directory        where to save output files, by default current directory
";

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None | Some("-h" | "--help") => usage_exit(USAGE, 0),
        Some("-v" | "--version") => version_exit(PROG),
        _ => {}
    }
    let mut odir = PathBuf::from(".");
    if args[0] == "-d" {
        if args.len() < 3 {
            usage_exit(USAGE, 1);
        }
        odir = PathBuf::from(&args[1]);
        args.drain(..2);
    }
    let input = &args[0];
    let text = std::fs::read_to_string(input).unwrap_or_else(|e| {
        eprintln!("Error. File <{input}> not found ({e})\n");
        usage_exit(USAGE, 1)
    });
    let mut names: BTreeMap<usize, String> = BTreeMap::new();
    // Per worker: (time ms, elapsed, executing, sleeping), and its lines as read.
    let mut rows: BTreeMap<usize, Vec<(f64, f64, f64, f64)>> = BTreeMap::new();
    let mut lines: BTreeMap<usize, String> = BTreeMap::new();
    let (mut ready, mut submitted) = (Vec::new(), Vec::new());
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let num = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
        match f[0] {
            "name" if f.len() >= 3 => {
                names.insert(f[1].parse().unwrap_or(0), f[2].to_string());
            }
            "cnt_ready" => ready.push((num(1) / 1000.0, num(2))),
            "cnt_submitted" => submitted.push((num(1) / 1000.0, num(2))),
            "set_profiling" => {}
            w => {
                if let Ok(w) = w.parse::<usize>() {
                    let l = lines.entry(w).or_default();
                    l.push_str(line);
                    l.push('\n');
                    rows.entry(w)
                        .or_default()
                        .push((num(1), num(2), num(3), num(4)));
                }
            }
        }
    }
    let all_times = rows.values().flatten().map(|r| r.0 / 1000.0);
    let (mut start, mut end) =
        all_times.fold((f64::INFINITY, 0f64), |(a, b), t| (a.min(t), b.max(t)));
    if args.len() >= 3 {
        start = args[1]
            .parse()
            .unwrap_or_else(|_| fail(PROG, "start must be a number"));
        end = args[2]
            .parse()
            .unwrap_or_else(|_| fail(PROG, "end must be a number"));
    }
    if !start.is_finite() {
        fail(PROG, &format!("{input} holds no worker activity"));
    }
    println!("START {start} END {end}");
    std::fs::create_dir_all(&odir)
        .unwrap_or_else(|e| fail(PROG, &format!("cannot create {}: {e}", odir.display())));

    // StarPU's gnuplot commands, kept for those who have gnuplot.
    let mut gp = format!(
        "set term postscript eps enhanced color\nset output \"{}/activity.eps\"\n\
         set xrange [{start}:{end}]\nset multiplot;\n",
        odir.display()
    );
    let mut charts = Vec::new();
    let mut counts = Chart {
        title: "Tasks submitted and ready".into(),
        xlabel: "Time (s)".into(),
        ylabel: "tasks".into(),
        xrange: Some((start, end)),
        ..Default::default()
    };
    let mut s = Series::new("submitted", "#999999", Style::Area);
    s.points = submitted;
    counts.series.push(s);
    let mut r = Series::new("ready", "#000000", Style::Area);
    r.points = ready;
    counts.series.push(r);
    charts.push(counts);
    for (w, pts) in &rows {
        let name = names
            .get(w)
            .cloned()
            .unwrap_or_else(|| format!("worker {w}"));
        // The worker's lines, which the script plots (StarPU's script extracts them too).
        let data = odir.join(format!("activity.worker{w}.data"));
        std::fs::write(&data, lines.get(w).map_or("", |s| s.as_str()))
            .unwrap_or_else(|e| fail(PROG, &format!("cannot write {}: {e}", data.display())));
        let d = data.display();
        gp.push_str(&format!(
            "set ylabel \"{name}\"\nplot \"{d}\" using ($2/1000):(100) with filledcurves y1=0.0 lt rgb \"#000000\" notitle,\\\n\
             \t\"{d}\" using ($2/1000):((100*($4+$5))/$3) with filledcurves y1=0.0 lt rgb \"#ff0000\" notitle,\\\n\
             \t\"{d}\" using ($2/1000):((100*$4)/$3) with filledcurves y1=0.0 lt rgb \"#00ff00\" notitle\n"
        ));
        let pct = |v: f64, e: f64| if e > 0.0 { 100.0 * v / e } else { 0.0 };
        let mut c = Chart {
            title: name,
            xlabel: "Time (s)".into(),
            ylabel: "% of the period".into(),
            xrange: Some((start, end)),
            yrange: Some((0.0, 100.0)),
            ..Default::default()
        };
        let mut idle = Series::new("idle", "#000000", Style::Area);
        let mut sleeping = Series::new("sleeping", "#ff0000", Style::Area);
        let mut exec = Series::new("executing", "#00c000", Style::Area);
        for (t, e, x, sl) in pts {
            let t = t / 1000.0;
            idle.points.push((t, 100.0));
            sleeping.points.push((t, pct(x + sl, *e)));
            exec.points.push((t, pct(*x, *e)));
        }
        c.series.extend([idle, sleeping, exec]);
        charts.push(c);
    }
    gp.push_str("unset multiplot\n");
    let gp_path = odir.join("activity.gp");
    std::fs::write(&gp_path, gp)
        .unwrap_or_else(|e| fail(PROG, &format!("cannot write {}: {e}", gp_path.display())));
    let svg = odir.join("activity.svg");
    std::fs::write(&svg, stack_svg(&charts, 900.0, 220.0))
        .unwrap_or_else(|e| fail(PROG, &format!("cannot write {}: {e}", svg.display())));
    eprintln!("{PROG}: wrote {}", svg.display());
}
