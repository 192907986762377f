//! One clock shared by kernels and callbacks, and everything printed on stdout.
//!
//! Every line is written whole under the one lock (event lines come from worker threads),
//! and flushed, so the harness sees each line complete and in tick order of events.

use std::collections::BTreeSet;
use std::io::Write;
use std::sync::{Condvar, Mutex, MutexGuard};

#[derive(Default)]
pub struct State {
    clock: u64,
    started: BTreeSet<String>,
    called: BTreeSet<String>,
    open_gates: BTreeSet<i64>,
}

pub struct Events {
    state: Mutex<State>,
    cond: Condvar,
}

pub static EVENTS: Events = Events {
    state: Mutex::new(State {
        clock: 0,
        started: BTreeSet::new(),
        called: BTreeSet::new(),
        open_gates: BTreeSet::new(),
    }),
    cond: Condvar::new(),
};

fn write_line(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

impl Events {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes a tick and prints `@ev TICK KIND TASK [TEXT]`.
    pub fn event(&self, kind: &str, task: &str, text: Option<&str>) {
        let mut s = self.lock();
        s.clock += 1;
        match kind {
            "start" => {
                s.started.insert(task.to_string());
            }
            "cb" => {
                s.called.insert(task.to_string());
            }
            _ => {}
        }
        let tail = text.map(|t| format!(" {t}")).unwrap_or_default();
        write_line(&format!("@ev {} {kind} {task}{tail}", s.clock));
        self.cond.notify_all();
    }

    /// Prints an operation's output line.
    pub fn print(&self, line: &str) {
        let _s = self.lock();
        write_line(line);
    }

    /// `clock`: prints the current tick.
    pub fn clock(&self) {
        let s = self.lock();
        write_line(&format!("@clock {}", s.clock));
    }

    /// `await E`: until task E started, or callback `cb:T` ran.
    pub fn wait_for(&self, event: &str) {
        let mut s = self.lock();
        loop {
            let happened = match event.strip_prefix("cb:") {
                Some(t) => s.called.contains(t),
                None => s.started.contains(event),
            };
            if happened {
                return;
            }
            s = self.cond.wait(s).unwrap_or_else(|e| e.into_inner());
        }
    }

    pub fn open(&self, gate: i64) {
        self.lock().open_gates.insert(gate);
        self.cond.notify_all();
    }

    pub fn wait_gate(&self, gate: i64) {
        let mut s = self.lock();
        while !s.open_gates.contains(&gate) {
            s = self.cond.wait(s).unwrap_or_else(|e| e.into_inner());
        }
    }
}
