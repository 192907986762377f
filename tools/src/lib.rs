//! What StarPU's command-line tools share here: reading performance models through
//! starpu-core's own model code (one parser for the runtime and the tools), drawing
//! charts as SVG (no gnuplot needed), and the small conventions of StarPU's tools
//! (usage on `-h`, the version on `-v`, exit codes).

pub mod chart;
pub mod models;

/// Prints `text` (a tool's usage) on stderr and exits with `code`.
pub fn usage_exit(text: &str, code: i32) -> ! {
    eprint!("{text}");
    std::process::exit(code)
}

/// Prints the tool's version line, as StarPU's tools do, and exits.
pub fn version_exit(prog: &str) -> ! {
    eprintln!("{prog} (starpu-rs) {}", env!("CARGO_PKG_VERSION"));
    std::process::exit(0)
}

/// Reports `msg` as the tool's error and exits with status 1.
pub fn fail(prog: &str, msg: &str) -> ! {
    eprintln!("{prog}: {msg}");
    std::process::exit(1)
}

/// The configuration StarPU's environment describes (`STARPU_HOME`,
/// `STARPU_PERF_MODEL_DIR`, `STARPU_HOSTNAME`...), with the model settings applied, so
/// that tools find the files the runtime wrote.
pub fn configure_from_env(prog: &str) -> starpu_core::Config {
    let mut c = starpu_core::Config {
        silent: true,
        ..Default::default()
    };
    if let Err(e) = c.apply_env() {
        fail(prog, &e.message);
    }
    starpu_core::perfmodel::settings::configure(&c);
    c
}
