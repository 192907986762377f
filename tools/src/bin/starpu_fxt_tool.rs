//! `starpu_fxt_tool`: turns a trace file recorded with `STARPU_FXT_TRACE=1`
//! (`prof_file_<USER>_0`) into `paje.trace`, `trace.json`, `dag.dot`, `tasks.rec`,
//! `data.rec`, `trace.rec`, `sched_tasks.rec`, `activity.data`, `distrib.data` and
//! `trace.html`, with StarPU's options.

use starpu_core::trace::export::{self, Options};
use starpu_tools::{fail, usage_exit, version_exit};
use std::path::PathBuf;

const PROG: &str = "starpu_fxt_tool";

const USAGE: &str = "Generate a trace in the Paje format

Usage: starpu_fxt_tool [ options ]

Options:
   -i <input file[s]>	specify the input file[s]
   -o <output file>	specify the paje output filename
   -d <directory>	specify the directory in which to save files
   -c			use a different colour for every type of task
   -no-events		do not show events
   -no-counter		do not show scheduler counters
   -no-bus		do not show PCI bus transfers
   -no-flops		do not show flops
   -no-smooth		avoid smoothing values for gflops etc.
   -no-acquire		do not show application data acquisitions tasks in DAG
   -label-deps		add label on dependencies.
   -memory-states	show detailed memory states of handles
   -internal		show StarPU-internal tasks in DAG
   -number-events	generate a file counting events by type
   -use-task-color	propagate the specified task color to the contexts
   -h, --help		display this help and exit
   -v, --version	output version information and exit

Besides StarPU's files, trace.json (Chrome trace events: Perfetto, chrome://tracing)
and trace.html (a timeline for any browser) are written.
";

fn main() {
    let mut opts = Options::default();
    let mut inputs: Vec<PathBuf> = Vec::new();
    let mut args = std::env::args().skip(1);
    let mut reading_inputs = false;
    while let Some(a) = args.next() {
        let mut value = |what: &str| {
            args.next()
                .unwrap_or_else(|| fail(PROG, &format!("{a} needs {what}")))
        };
        match a.as_str() {
            "-i" => {
                inputs.push(value("a file").into());
                reading_inputs = true;
                continue;
            }
            "-o" => {
                let o = value("a file name");
                opts.outputs.insert("paje.trace".into(), Some(o.into()));
            }
            "-d" => opts.dir = Some(value("a directory").into()),
            "-h" | "--help" => usage_exit(USAGE, 0),
            "-v" | "--version" => version_exit(PROG),
            o if opts.read_option(o) => {}
            f if reading_inputs && !f.starts_with('-') => {
                inputs.push(f.into());
                continue;
            }
            other => {
                eprintln!("{PROG}: unknown option {other}");
                usage_exit(USAGE, 77)
            }
        }
        reading_inputs = false;
    }
    if inputs.is_empty() {
        eprintln!("Incorrect usage, aborting");
        usage_exit(USAGE, 77);
    }
    if inputs.len() > 1 {
        fail(
            PROG,
            "merging the traces of several processes is not supported yet: give one file",
        );
    }
    match export::generate_from_file(&inputs[0], &opts) {
        Ok(files) => {
            for f in files {
                eprintln!("{PROG}: wrote {}", f.display());
            }
        }
        Err(e) => fail(PROG, &e.message),
    }
}
