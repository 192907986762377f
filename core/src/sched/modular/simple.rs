//! The layout of `starpu_sched_component_initialize_simple_scheduler`: a decision
//! component (the application's, or one of [`super::components`]), optionally under a
//! fifo, over the workers, grouped per worker, memory node or architecture, with optional
//! queues below the decision.

use crate::error::{Error, Result};

/// `STARPU_SCHED_SIMPLE_*`.
pub mod flags {
    pub const DECIDE_MASK: u32 = 3;
    pub const DECIDE_WORKERS: u32 = 1;
    pub const DECIDE_MEMNODES: u32 = 2;
    pub const DECIDE_ARCHS: u32 = 3;
    pub const PERFMODEL: u32 = 1 << 2;
    pub const IMPL: u32 = 1 << 3;
    pub const FIFO_ABOVE: u32 = 1 << 4;
    pub const FIFO_ABOVE_PRIO: u32 = 1 << 5;
    pub const FIFOS_BELOW: u32 = 1 << 6;
    pub const FIFOS_BELOW_PRIO: u32 = 1 << 7;
    pub const FIFOS_BELOW_READY: u32 = 1 << 8;
    pub const FIFOS_BELOW_EXP: u32 = 1 << 9;
    pub const WS_BELOW: u32 = 1 << 10;
    pub const COMBINED_WORKERS: u32 = 1 << 11;
    pub const PRE_DECISION: u32 = 1 << 12;
    /// Every flag this build knows.
    pub const ALL: u32 = (1 << 13) - 1;
}

/// What a tree offers to be built.
pub trait Builder {
    type Node: Copy;
    /// A fifo (or, `prio`, a priority queue) component.
    fn fifo(&mut self, prio: bool) -> Result<Self::Node>;
    fn eager(&mut self) -> Result<Self::Node>;
    fn work_stealing(&mut self) -> Result<Self::Node>;
    /// The leaf of `worker`.
    fn worker(&mut self, worker: usize) -> Result<Self::Node>;
    fn connect(&mut self, parent: Self::Node, child: Self::Node);
}

/// A worker, with what the layout groups it by.
#[derive(Debug, Clone, Copy)]
pub struct WorkerPlace {
    pub id: usize,
    pub node: usize,
    pub arch: u32,
}

/// Builds the layout for `decision` over `workers` and returns the root. Flags about
/// performance models (`PERFMODEL`, `IMPL`, `FIFOS_BELOW_READY`, `FIFOS_BELOW_EXP`) change
/// nothing here: no component of this build predicts times. `COMBINED_WORKERS` and
/// `PRE_DECISION` are refused.
pub fn build<B: Builder>(
    b: &mut B,
    decision: B::Node,
    flags: u32,
    workers: &[WorkerPlace],
) -> Result<B::Node> {
    let what = "starpu_sched_component_initialize_simple_scheduler";
    if flags & !flags::ALL != 0 {
        return Err(Error::invalid(format!(
            "{what}: unknown flags {:#x}",
            flags & !flags::ALL
        )));
    }
    for (f, name) in [
        (
            flags::COMBINED_WORKERS,
            "STARPU_SCHED_SIMPLE_COMBINED_WORKERS",
        ),
        (flags::PRE_DECISION, "STARPU_SCHED_SIMPLE_PRE_DECISION"),
    ] {
        if flags & f != 0 {
            return Err(Error::invalid(format!(
                "{what}: {name} is not implemented in this build"
            )));
        }
    }
    let below_prio = flags & flags::FIFOS_BELOW_PRIO != 0;
    let fifos_below = flags & (flags::FIFOS_BELOW | flags::FIFOS_BELOW_PRIO) != 0;
    let ws_below = flags & flags::WS_BELOW != 0;
    let decide = match flags & flags::DECIDE_MASK {
        0 => flags::DECIDE_WORKERS,
        d => d,
    };
    let root = if flags & (flags::FIFO_ABOVE | flags::FIFO_ABOVE_PRIO) != 0 {
        let f = b.fifo(flags & flags::FIFO_ABOVE_PRIO != 0)?;
        b.connect(f, decision);
        f
    } else {
        decision
    };
    if decide == flags::DECIDE_WORKERS {
        for w in workers {
            let leaf = b.worker(w.id)?;
            if fifos_below {
                let f = b.fifo(below_prio)?;
                b.connect(f, leaf);
                b.connect(decision, f);
            } else {
                b.connect(decision, leaf);
            }
        }
        return Ok(root);
    }
    // One group per memory node or architecture, in the order they first appear.
    let key = |w: &WorkerPlace| {
        if decide == flags::DECIDE_MEMNODES {
            w.node
        } else {
            w.arch as usize
        }
    };
    let mut groups: Vec<(usize, Vec<usize>)> = Vec::new();
    for w in workers {
        match groups.iter_mut().find(|(k, _)| *k == key(w)) {
            Some((_, v)) => v.push(w.id),
            None => groups.push((key(w), vec![w.id])),
        }
    }
    for (_, ids) in groups {
        let group = if ws_below {
            b.work_stealing()?
        } else if fifos_below {
            b.fifo(below_prio)?
        } else {
            b.eager()?
        };
        b.connect(decision, group);
        for id in ids {
            let leaf = b.worker(id)?;
            b.connect(group, leaf);
        }
    }
    Ok(root)
}
