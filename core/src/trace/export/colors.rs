//! Colours as StarPU gives them: in the DAG a task takes its own colour if it has one,
//! else (option `-c`) a colour hashed from its name, else its worker's (shades of green
//! for CPU workers, yellow to red for accelerators); in Paje a kind of task takes its
//! colour, else the hashed one (`-c`), else StarPU's "Executing" green.

use super::Options;
use crate::hash::crc32c_string;
use crate::trace::model::TaskInfo;
use crate::trace::Trace;
use crate::worker::WorkerKind;

const CPU_COLORS: [&str; 8] = [
    "/greens9/7",
    "/greens9/6",
    "/greens9/5",
    "/greens9/4",
    "/greens9/9",
    "/greens9/3",
    "/greens9/2",
    "/greens9/1",
];
const ACCEL_COLORS: [&str; 9] = [
    "/ylorrd9/9",
    "/ylorrd9/6",
    "/ylorrd9/3",
    "/ylorrd9/1",
    "/ylorrd9/8",
    "/ylorrd9/7",
    "/ylorrd9/4",
    "/ylorrd9/2",
    "/ylorrd9/1",
];

/// The Graphviz colour of worker `w`: CPU workers take the greens in turn, accelerators
/// the yellow-to-reds, each in the order the workers come.
pub fn worker_color(trace: &Trace, w: usize) -> &'static str {
    let cpu = |k: WorkerKind| k == WorkerKind::Cpu;
    let Some(me) = trace.workers.iter().find(|x| x.id == w) else {
        return "#aaaaaa";
    };
    let rank = trace
        .workers
        .iter()
        .filter(|x| x.id < w && cpu(x.kind) == cpu(me.kind))
        .count();
    if cpu(me.kind) {
        CPU_COLORS[rank % CPU_COLORS.len()]
    } else {
        ACCEL_COLORS[rank % ACCEL_COLORS.len()]
    }
}

/// StarPU's per-name colour components (each 0..1023).
fn hashed(name: &str) -> (u32, u32, u32) {
    let h = crc32c_string(name, 0);
    (
        crc32c_string("red", h) % 1024,
        crc32c_string("green", h) % 1024,
        crc32c_string("blue", h) % 1024,
    )
}

/// The DAG's fill and font colours for `t`.
pub fn task_color(trace: &Trace, t: &TaskInfo, opts: &Options) -> (String, &'static str) {
    let (fill, lum) = if t.color != 0 {
        let c = t.color;
        (
            format!("#{c:06x}"),
            ((c & 0xff) + ((c >> 8) & 0xff) + ((c >> 16) & 0xff)) / 256,
        )
    } else if opts.per_task_colour {
        let (r, g, b) = hashed(t.label());
        let (r, g, b) = (r / 4, g / 4, b / 4);
        (format!("#{r:02x}{g:02x}{b:02x}"), (r + g + b) / 256)
    } else {
        let c = t.worker.map_or("#aaaaaa", |w| worker_color(trace, w));
        (c.to_string(), 0)
    };
    (fill, if lum <= 1 { "white" } else { "black" })
}

/// The colour of a kind of task (by name, with its task colour) in Paje and the
/// timelines, as red, green, blue in 0..1.
pub fn state_rgb(name: &str, color: u32, opts: &Options) -> (f32, f32, f32) {
    if color != 0 {
        let c = |s: u32| ((color >> s) & 0xff) as f32 / 255.0;
        (c(16), c(8), c(0))
    } else if opts.per_task_colour {
        let (r, g, b) = hashed(name);
        let sum = (r + g + b).max(1) as f32;
        (r as f32 / sum, g as f32 / sum, b as f32 / sum)
    } else {
        (0.0, 0.6, 0.4)
    }
}

/// A distinct colour per kind of task for the timelines, where one green for every task
/// would hide which task is which: the task's colour, else one from its name.
pub fn timeline_rgb(name: &str, color: u32) -> (f32, f32, f32) {
    if color != 0 {
        return state_rgb(name, color, &Options::default());
    }
    let (r, g, b) = hashed(name);
    // Scaled into 0.25..0.85 so that text stays readable on every colour.
    let f = |v: u32| 0.25 + 0.6 * (v as f32 / 1023.0);
    (f(r), f(g), f(b))
}

/// `#rrggbb` for components in 0..1.
pub fn hex((r, g, b): (f32, f32, f32)) -> String {
    let c = |v: f32| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
    format!("#{:02x}{:02x}{:02x}", c(r), c(g), c(b))
}
