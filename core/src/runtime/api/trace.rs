//! The trace: its recorder, snapshots, and the files written at shutdown.

use crate::runtime::Runtime;
use crate::trace::{export, file, Recorder, Trace};

impl Runtime {
    /// The events recorded so far (`Config::trace`, `STARPU_FXT_TRACE=1`).
    pub fn trace_snapshot(&self) -> Trace {
        self.trace.snapshot()
    }

    /// The runtime's trace recorder: start and stop it, add user events.
    pub fn tracer(&self) -> &Recorder {
        &self.trace
    }

    /// At shutdown: writes the raw trace file and, if asked, the views.
    pub(crate) fn finish_trace(&self) {
        if !self.trace.was_used() {
            return;
        }
        self.trace.set_on(false);
        let trace = self.trace.snapshot();
        let out = &self.config.trace_output;
        let raw = out.raw_path();
        if let Some(dir) = raw.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        match file::write(&raw, &trace) {
            Ok(()) => self.info(&format!("trace written to {}", raw.display())),
            Err(e) => self.warn(&format!(
                "cannot write the trace file {}: {e}",
                raw.display()
            )),
        }
        if out.generate {
            let mut opts = export::Options::default();
            for o in out.options.as_deref().unwrap_or("").split_whitespace() {
                if !opts.read_option(o) {
                    self.warn(&format!(
                        "STARPU_GENERATE_TRACE_OPTIONS: option <{o}> is not a valid option \
                         for starpu_fxt_tool"
                    ));
                }
            }
            opts.dir = out.dir.clone();
            if let Err(e) = export::generate(&trace, &opts) {
                self.warn(&format!("cannot write the trace views: {e}"));
            }
        }
    }
}
