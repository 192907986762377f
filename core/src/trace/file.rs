//! The raw trace file (`prof_file_<USER>_0`), what `starpu_fxt_tool -i` reads. Text, one
//! item per line, so that it can be read, diffed and grepped:
//!
//! ```text
//! starpu-rs-trace 1
//! worker <id> <kind: cpu|cuda|opencl> <cpu or -1> <memory node> <name>
//! thread <index> <worker id or -1>
//! string <id> <text, with \\ \n escaped>
//! event <thread> <time ns> <code> <task> <a> <b> <c> <x>
//! ```
//!
//! Workers, threads and strings come before the events that name them; events are in
//! time order. An event's five numbers are the recorder's raw record
//! ([`super::RawEvent`]); their meaning by code is [`super::What::decode`].

use super::{RawEvent, Trace, WorkerInfo};
use crate::error::{Error, Result};
use crate::worker::WorkerKind;
use std::io::{BufWriter, Write};
use std::path::Path;

const MAGIC: &str = "starpu-rs-trace";
const VERSION: u32 = 1;

fn kind_name(k: WorkerKind) -> &'static str {
    crate::perfmodel::arch::archtype_name(k)
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('\n', "\\n")
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some(o) => out.push(o),
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Writes `t` to `out` in the raw format.
pub fn write_to(out: &mut dyn Write, t: &Trace) -> std::io::Result<()> {
    writeln!(out, "{MAGIC} {VERSION}")?;
    for w in &t.workers {
        writeln!(
            out,
            "worker {} {} {} {} {}",
            w.id,
            kind_name(w.kind),
            w.cpu.map_or(-1, |c| c as i64),
            w.node,
            escape(&w.name)
        )?;
    }
    for (i, w) in t.threads.iter().enumerate() {
        writeln!(out, "thread {i} {}", w.map_or(-1, |w| w as i64))?;
    }
    for (i, s) in t.strings.iter().enumerate() {
        writeln!(out, "string {i} {}", escape(s))?;
    }
    for r in &t.events {
        let e = &r.raw;
        writeln!(
            out,
            "event {} {} {} {} {} {} {} {}",
            r.thread, r.time_ns, e.code, e.task, e.a, e.b, e.c, e.x
        )?;
    }
    Ok(())
}

/// Writes `t` to the file `path`.
pub fn write(path: &Path, t: &Trace) -> std::io::Result<()> {
    let mut out = BufWriter::new(std::fs::File::create(path)?);
    write_to(&mut out, t)?;
    out.flush()
}

/// Reads a trace from the text of a raw file; `what` names it in errors.
pub fn parse(text: &str, what: &str) -> Result<Trace> {
    let bad = |n: usize, why: &str| Error::invalid(format!("{what}, line {}: {why}", n + 1));
    let mut lines = text.lines().enumerate();
    match lines.next() {
        Some((_, l)) if l.split_whitespace().next() == Some(MAGIC) => {
            let v: u32 = l
                .split_whitespace()
                .nth(1)
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| bad(0, "no version after the file's magic"))?;
            if v > VERSION {
                return Err(bad(
                    0,
                    &format!("trace format version {v} is newer than this reader ({VERSION})"),
                ));
            }
        }
        _ => {
            return Err(Error::invalid(format!(
                "{what} is not a starpu-rs trace file (it does not start with '{MAGIC}'; \
                 FxT files written by StarPU itself need StarPU's starpu_fxt_tool)"
            )))
        }
    }
    let mut t = Trace::default();
    for (n, line) in lines {
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "worker" => {
                let f: Vec<&str> = rest.splitn(5, ' ').collect();
                if f.len() < 4 {
                    return Err(bad(n, "a worker line has id, kind, cpu, node and name"));
                }
                let num = |s: &str| s.parse::<i64>().map_err(|_| bad(n, "not a number"));
                let kind = WorkerKind::ALL
                    .into_iter()
                    .find(|k| kind_name(*k) == f[1])
                    .ok_or_else(|| bad(n, &format!("unknown worker kind '{}'", f[1])))?;
                t.workers.push(WorkerInfo {
                    id: num(f[0])? as usize,
                    kind,
                    cpu: usize::try_from(num(f[2])?).ok(),
                    node: num(f[3])? as usize,
                    name: unescape(f.get(4).copied().unwrap_or("")),
                });
            }
            "thread" => {
                let w = rest
                    .split_whitespace()
                    .nth(1)
                    .and_then(|w| w.parse::<i64>().ok())
                    .ok_or_else(|| bad(n, "a thread line has an index and a worker id"))?;
                t.add_thread(usize::try_from(w).ok());
            }
            "string" => {
                let (id, s) = rest.split_once(' ').unwrap_or((rest, ""));
                let id: usize = id.parse().map_err(|_| bad(n, "bad string id"))?;
                if id != t.strings.len() {
                    return Err(bad(n, "strings must come in id order"));
                }
                t.strings.push(unescape(s));
            }
            "event" => {
                let v: Vec<u64> = rest
                    .split_whitespace()
                    .map(|x| x.parse::<u64>())
                    .collect::<std::result::Result<_, _>>()
                    .map_err(|_| bad(n, "an event has 8 numbers"))?;
                if v.len() != 8 {
                    return Err(bad(n, "an event has 8 numbers"));
                }
                if v[0] as usize >= t.threads.len() {
                    return Err(bad(n, "the event names a thread not declared before"));
                }
                t.push_raw(
                    v[0] as u32,
                    RawEvent {
                        time: v[1],
                        code: v[2] as u16,
                        task: v[3],
                        a: v[4],
                        b: v[5],
                        c: v[6] as u32,
                        x: v[7] as u16,
                    },
                );
            }
            "" => {}
            k if k.starts_with('#') => {}
            other => return Err(bad(n, &format!("unknown line kind '{other}'"))),
        }
    }
    t.sort();
    Ok(t)
}

/// Reads the raw file `path`.
pub fn read(path: &Path) -> Result<Trace> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::invalid(format!("cannot read {}: {e}", path.display())))?;
    parse(&text, &path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trace_reads_back_as_written() {
        let mut t = Trace {
            workers: vec![WorkerInfo {
                id: 0,
                kind: WorkerKind::Cpu,
                name: "CPU 0".into(),
                cpu: Some(3),
                node: 0,
            }],
            strings: vec!["".into(), "scal\nx\\y".into()],
            ..Default::default()
        };
        let th = t.add_thread(Some(0));
        t.push_raw(
            th,
            RawEvent {
                time: 5,
                task: 1,
                a: 2,
                b: u64::MAX,
                c: 7,
                code: 1,
                x: 3,
            },
        );
        let mut out = Vec::new();
        write_to(&mut out, &t).unwrap();
        let back = parse(std::str::from_utf8(&out).unwrap(), "test").unwrap();
        assert_eq!(back.workers, t.workers);
        assert_eq!(back.strings, t.strings);
        assert_eq!(back.threads, t.threads);
        assert_eq!(back.events, t.events);
    }

    #[test]
    fn other_files_are_refused_with_a_reason() {
        let e = parse("hello\n", "f").unwrap_err();
        assert!(e.message.contains("not a starpu-rs trace"), "{e}");
        let e = parse("starpu-rs-trace 1\nevent 0 1 2\n", "f").unwrap_err();
        assert!(e.message.contains("line 2"), "{e}");
    }
}
