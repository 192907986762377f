//! `starpu_tasks_rec_complete [input [output]]`: copies a `tasks.rec` file, adding to each
//! task that names a performance model an `EstimatedTime:` field, the model's expected
//! time (in microseconds) on each worker of this machine, `inf` where it has no entry,
//! as StarPU's tool does. Standard input and output when no file is named.

use starpu_core::sched::SchedView;
use starpu_core::Runtime;
use starpu_tools::{configure_from_env, fail, models, usage_exit, version_exit};
use std::collections::HashMap;
use std::io::{Read, Write};

const PROG: &str = "starpu_tasks_rec_complete";

const USAGE: &str =
    "Complete a tasks.rec file with additional information, notably estimated termination times.

Usage: starpu_tasks_rec_complete [input-file [output-file]]

If input or output file names are not given, stdin and stdout are used.
";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("-h" | "--help") => usage_exit(USAGE, 0),
        Some("-v" | "--version") => version_exit(PROG),
        _ => {}
    }
    let mut input = String::new();
    match args.first() {
        Some(f) => {
            input = std::fs::read_to_string(f)
                .unwrap_or_else(|e| fail(PROG, &format!("couldn't open {f} for read: {e}")))
        }
        None => {
            std::io::stdin()
                .read_to_string(&mut input)
                .unwrap_or_else(|e| fail(PROG, &format!("cannot read standard input: {e}")));
        }
    }
    let mut config = configure_from_env(PROG);
    config.trace = false;
    config.trace_output.generate = false;
    let rt = Runtime::start(config).unwrap_or_else(|e| fail(PROG, &e.message));
    let archs: Vec<_> = (0..rt.workers().len()).map(|w| rt.worker_arch(w)).collect();
    rt.shutdown();

    let mut loaded: HashMap<String, starpu_core::perfmodel::state::Tables> = HashMap::new();
    let mut out = String::new();
    let (mut model, mut footprint, mut already) = (None::<String>, 0u32, false);
    for line in input.lines().chain(std::iter::once("")) {
        if line.trim().is_empty() {
            if let (Some(m), false) = (model.take(), already) {
                if !loaded.contains_key(&m) {
                    let t = models::load(&m).unwrap_or_else(|e| fail(PROG, &e));
                    loaded.insert(m.clone(), t);
                }
                let t = &loaded[&m];
                let est: Vec<String> = archs
                    .iter()
                    .map(|a| {
                        t.get(a, 0)
                            .and_then(|p| p.entry(footprint))
                            .map_or("inf".to_string(), |en| models::e(en.mean))
                    })
                    .collect();
                out.push_str(&format!("EstimatedTime: {}\n", est.join(" ")));
            }
            model = None;
            already = false;
            if !out.is_empty() && !out.ends_with("\n\n") {
                out.push('\n');
            }
            continue;
        }
        match line.split_once(':') {
            Some(("Model", v)) => model = Some(v.trim().to_string()),
            Some(("Footprint", v)) => {
                footprint = u32::from_str_radix(v.trim(), 16).unwrap_or(0);
            }
            Some(("EstimatedTime", _)) => already = true,
            _ => {}
        }
        out.push_str(line);
        out.push('\n');
    }
    let r = match args.get(1) {
        Some(f) => std::fs::write(f, &out),
        None => std::io::stdout().write_all(out.as_bytes()),
    };
    if let Err(e) = r {
        fail(PROG, &format!("cannot write the output: {e}"));
    }
}
