//! `starpu_perfmodel_display`: lists the performance models (`-l`), their directory
//! (`-d`), or prints one (`-s SYMBOL`), for every architecture or one (`-a cpu`,
//! `-a cpu:2`, `-a cuda0`...), one footprint (`-f 1b0ffd3a`), one parameter (`-p mean`),
//! or as XML (`-x`), as StarPU's tool does.

use starpu_tools::{configure_from_env, fail, models, usage_exit, version_exit};

const PROG: &str = "starpu_perfmodel_display";

const USAGE: &str = "Display a given perfmodel

Usage: starpu_perfmodel_display [ options ]

One must specify either -l or -s. -x can be used with -s
Options:
   -l			display all available models
   -s <symbol>		specify the symbol
   -x			display output in XML format
   -p <parameter>	specify the parameter (e.g. a, b, c, mean, stddev)
   -a <arch>		specify the architecture (e.g. cpu, cpu:k, cuda)
   -f <footprint>	display the history-based model for the specified footprint
   -d			display the directory storing performance models
   -h, --help		display this help and exit
   -v, --version	output version information and exit
";

fn main() {
    let (mut list, mut dir, mut xml) = (false, false, false);
    let (mut symbol, mut param, mut arch, mut footprint) = (None, None, None, None);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || {
            args.next()
                .unwrap_or_else(|| fail(PROG, &format!("option {a} requires an argument")))
        };
        match a.as_str() {
            "-l" | "--list" => list = true,
            "-d" | "--dir" => dir = true,
            "-x" => xml = true,
            "-s" | "--symbol" => symbol = Some(value()),
            "-p" | "--parameter" => param = Some(value()),
            "-a" | "--arch" => arch = Some(value()),
            "-f" | "--footprint" => {
                let v = value();
                let f = u32::from_str_radix(v.trim_start_matches("0x"), 16)
                    .unwrap_or_else(|_| fail(PROG, &format!("'{v}' is not a footprint (hex)")));
                footprint = Some(f);
            }
            "-h" | "--help" => usage_exit(USAGE, 0),
            "-v" | "--version" => version_exit(PROG),
            other => eprintln!("Unrecognized option: {other}"),
        }
    }
    configure_from_env(PROG);
    if list {
        print!("{}", models::list());
        return;
    }
    if dir {
        print!("{}", models::directory());
        return;
    }
    let Some(symbol) = symbol else {
        eprintln!("Incorrect usage, aborting");
        usage_exit(USAGE, 255)
    };
    let tables = models::load(&symbol).unwrap_or_else(|e| fail(PROG, &e));
    if xml {
        let state = starpu_core::perfmodel::state::state(&symbol, tables.kind);
        print!("{}", starpu_core::perfmodel::xml::to_xml(&state));
        return;
    }
    match models::print_all(&tables, arch.as_deref(), param.as_deref(), footprint) {
        Ok(text) => print!("{text}"),
        Err(e) => fail(PROG, &e),
    }
}
