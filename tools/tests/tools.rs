//! The tools run on a model the runtime calibrated and a trace it recorded: their output
//! is checked against the model file (read with the core's own reader) and the trace.

use starpu_core::perfmodel::{file, settings, PerfArch, PerfModel};
use starpu_core::trace::TraceOutput;
use starpu_core::{AccessMode, Codelet, Config, Runtime};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

const SYMBOL: &str = "tools_test_scal";

/// Runs tool `name` with `args` in `dir`, with `home` as STARPU_HOME; returns stdout,
/// and fails the test on a non-zero exit.
fn tool(name: &str, args: &[&str], dir: &Path, home: &Path) -> String {
    let exe = match name {
        "starpu_perfmodel_display" => env!("CARGO_BIN_EXE_starpu_perfmodel_display"),
        "starpu_perfmodel_plot" => env!("CARGO_BIN_EXE_starpu_perfmodel_plot"),
        "starpu_fxt_tool" => env!("CARGO_BIN_EXE_starpu_fxt_tool"),
        "starpu_machine_display" => env!("CARGO_BIN_EXE_starpu_machine_display"),
        "starpu_tasks_rec_complete" => env!("CARGO_BIN_EXE_starpu_tasks_rec_complete"),
        "starpu_codelet_profile" => env!("CARGO_BIN_EXE_starpu_codelet_profile"),
        "starpu_workers_activity" => env!("CARGO_BIN_EXE_starpu_workers_activity"),
        other => panic!("no tool {other}"),
    };
    let out = Command::new(exe)
        .args(args)
        .current_dir(dir)
        .env("STARPU_HOME", home)
        .env("STARPU_NCPU", "2")
        .env("STARPU_SILENT", "1")
        .env_remove("STARPU_FXT_TRACE")
        .env_remove("STARPU_GENERATE_TRACE")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{name} {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Calibrates `SYMBOL` on vectors of two sizes with a traced runtime; returns the folder
/// holding STARPU_HOME and the trace.
fn calibrate_and_trace() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("starpu-tools-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let rt = Runtime::start(Config {
        ncpus: Some(2),
        silent: true,
        home: Some(dir.clone()),
        calibrate: 1,
        trace: true,
        trace_output: TraceOutput {
            dir: Some(dir.clone()),
            suffix: Some("trace".into()),
            generate: false,
            options: None,
        },
        ..Config::default()
    })
    .unwrap();
    let mut cl = Codelet::new("scal").modes([AccessMode::RW]).cpu(|call| {
        for x in call.vector_mut::<f64>(0)?.iter_mut() {
            *x *= 2.0;
        }
        Ok(())
    });
    cl.model = Some(PerfModel::history(SYMBOL));
    let cl = Arc::new(cl);
    for n in [1000usize, 100_000] {
        let v = rt.register_vector(vec![1.0f64; n]).unwrap();
        for _ in 0..12 {
            rt.task(&cl).buffer(&v, AccessMode::RW).submit().unwrap();
        }
        rt.wait_for_all().unwrap();
        rt.unregister(&v, true).unwrap();
    }
    rt.shutdown();
    dir
}

#[test]
fn the_tools_read_what_the_runtime_wrote() {
    let dir = calibrate_and_trace();
    let host = settings::hostname();
    let model_file = format!("{SYMBOL}.{host}");
    let tables = file::read(&settings::codelets_dir().join(&model_file)).unwrap();
    let per = tables.get(&PerfArch::cpu(), 0).expect("calibrated on cpu0");
    assert_eq!(per.entries.len(), 2, "{per:?}");

    // starpu_perfmodel_display -l / -s / -f / -a / -p
    let list = tool("starpu_perfmodel_display", &["-l"], &dir, &dir);
    assert!(list.contains(&format!("file: <{model_file}>")), "{list}");
    let shown = tool("starpu_perfmodel_display", &["-s", SYMBOL], &dir, &dir);
    assert!(
        shown.contains("# performance model for cpu0_impl0 (Comb0)"),
        "{shown}"
    );
    for en in &per.entries {
        let line = shown
            .lines()
            .find(|l| l.starts_with(&format!("{:08x}", en.footprint)))
            .unwrap_or_else(|| panic!("no line for {:08x} in\n{shown}", en.footprint));
        let f: Vec<&str> = line.split('\t').map(str::trim).collect();
        assert_eq!(f[1].parse::<usize>().unwrap(), en.size);
        let mean: f64 = f[3].parse().unwrap();
        assert!(
            (mean - en.mean).abs() <= en.mean * 1e-5,
            "{line} vs {}",
            en.mean
        );
        assert_eq!(f[5].parse::<u32>().unwrap(), en.nsample);
    }
    let first = &per.entries[0];
    let fp = format!("{:08x}", first.footprint);
    let one = tool(
        "starpu_perfmodel_display",
        &["-s", SYMBOL, "-f", &fp],
        &dir,
        &dir,
    );
    assert_eq!(
        one.lines()
            .filter(|l| l.starts_with(|c: char| c.is_ascii_hexdigit()))
            .count(),
        1,
        "{one}"
    );
    let cpu = tool(
        "starpu_perfmodel_display",
        &["-s", SYMBOL, "-a", "cpu"],
        &dir,
        &dir,
    );
    assert_eq!(cpu, shown);
    let none = tool(
        "starpu_perfmodel_display",
        &["-s", SYMBOL, "-a", "cuda"],
        &dir,
        &dir,
    );
    assert!(none.is_empty(), "{none}");
    let means = tool(
        "starpu_perfmodel_display",
        &["-s", SYMBOL, "-p", "mean"],
        &dir,
        &dir,
    );
    let values: Vec<f64> = means
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect();
    assert_eq!(values.len(), 2, "{means}");

    // starpu_perfmodel_plot: the script, the averages, the picture.
    let trace_file = dir.join("trace_0");
    let plot_dir = dir.join("plot");
    let p = plot_dir.to_str().unwrap();
    tool(
        "starpu_perfmodel_plot",
        &["-s", SYMBOL, "-o", p, "-i", trace_file.to_str().unwrap()],
        &dir,
        &dir,
    );
    let gp = std::fs::read_to_string(plot_dir.join(format!("starpu_{SYMBOL}.gp"))).unwrap();
    assert!(
        gp.contains("with errorlines title \"Average cpu0-impl0 (Comb0)\""),
        "{gp}"
    );
    assert!(gp.contains(&format!("set output \"starpu_{SYMBOL}.png\"")));
    let avg = std::fs::read_to_string(plot_dir.join(format!("starpu_{SYMBOL}_avg.data"))).unwrap();
    assert_eq!(avg.lines().count(), 2);
    let data = std::fs::read_to_string(plot_dir.join(format!("starpu_{SYMBOL}.data"))).unwrap();
    assert_eq!(data.lines().count(), 24, "every traced task is a point");
    let svg = std::fs::read_to_string(plot_dir.join(format!("starpu_{SYMBOL}.svg"))).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("Average cpu0_impl0"));
    assert_eq!(svg.matches("<circle").count(), 2 + 24);

    // starpu_fxt_tool, then the tools reading its files.
    let views = dir.join("views");
    tool(
        "starpu_fxt_tool",
        &[
            "-i",
            trace_file.to_str().unwrap(),
            "-d",
            views.to_str().unwrap(),
            "-c",
        ],
        &dir,
        &dir,
    );
    for f in starpu_core::trace::export::FILES
        .iter()
        .filter(|f| **f != "number_events.data")
    {
        assert!(views.join(f).is_file(), "{f}");
    }
    let completed = tool(
        "starpu_tasks_rec_complete",
        &[views.join("tasks.rec").to_str().unwrap()],
        &dir,
        &dir,
    );
    let est: Vec<&str> = completed
        .lines()
        .filter(|l| l.starts_with("EstimatedTime: "))
        .collect();
    assert_eq!(est.len(), 24, "{completed}");
    for l in &est {
        let v: Vec<f64> = l["EstimatedTime: ".len()..]
            .split(' ')
            .map(|x| x.parse().unwrap())
            .collect();
        assert_eq!(v.len(), 2, "one estimate per worker: {l}");
        assert!(
            per.entries
                .iter()
                .any(|en| (en.mean - v[0]).abs() <= en.mean * 1e-5),
            "{l}"
        );
    }
    let distrib = views.join("distrib.data");
    let profile = tool(
        "starpu_codelet_profile",
        &[distrib.to_str().unwrap(), SYMBOL],
        &views,
        &dir,
    );
    assert!(profile.contains("Arch "), "{profile}");
    assert!(views.join("distrib.data.gp").is_file());
    assert!(std::fs::read_to_string(views.join("distrib.data.svg"))
        .unwrap()
        .contains("<circle"));
    let act = tool(
        "starpu_workers_activity",
        &[
            "-d",
            views.to_str().unwrap(),
            views.join("activity.data").to_str().unwrap(),
        ],
        &views,
        &dir,
    );
    assert!(act.starts_with("START "), "{act}");
    let svg = std::fs::read_to_string(views.join("activity.svg")).unwrap();
    assert!(svg.contains("CPU 0") && svg.contains("executing"));

    // starpu_machine_display
    let m = tool("starpu_machine_display", &[], &dir, &dir);
    assert!(m.contains("2 STARPU_CPU_WORKER workers:"), "{m}");
    assert!(m.contains("No STARPU_CUDA_WORKER worker"), "{m}");
    let c = tool(
        "starpu_machine_display",
        &["-w", "CPU", "-c", "-n"],
        &dir,
        &dir,
    );
    assert!(c.lines().any(|l| l == "2 STARPU_CPU_WORKER workers"), "{c}");
    assert!(!c.contains("CUDA") && !c.contains("topology"), "{c}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_gets_a_clear_error() {
    let dir = std::env::temp_dir();
    let out = Command::new(env!("CARGO_BIN_EXE_starpu_perfmodel_display"))
        .args(["-s", "no_such_model_anywhere"])
        .env("STARPU_HOME", &dir)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("could not be loaded"), "{err}");
    let bogus = dir.join(format!("not-a-trace-{}", std::process::id()));
    std::fs::write(&bogus, "hello\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_starpu_fxt_tool"))
        .args(["-i", bogus.to_str().unwrap()])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a starpu-rs trace file"));
    let _ = std::fs::remove_file(&bogus);
}
