//! Copies between two memory nodes. A data interface describes its copy as a few region
//! copies between the buffers of two replicas ([`Copier`]); the transfer engine hands each
//! region to the driver of the device side, which starts it asynchronously, and gathers
//! their completions into one [`Transfer`].

use super::driver::{Completion, Direction, Region};
use super::node::Node;
use super::NodeKind;
use crate::error::{Error, Result};
use std::time::Instant;

/// One end of a copy: a buffer as an interface describes it (StarPU's `ptr`,
/// `dev_handle` and `offset`). In main RAM the address is `ptr` (or `handle + offset`
/// when `ptr` is not set); on a device, the driver's `handle` at byte `offset`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Loc {
    pub ptr: usize,
    pub handle: usize,
    pub offset: usize,
}

impl Loc {
    /// A buffer described by StarPU's three fields.
    pub fn new(ptr: usize, handle: usize, offset: usize) -> Loc {
        Loc {
            ptr,
            handle,
            offset,
        }
    }

    /// A buffer given by its handle alone (the arrays of sparse interfaces: an address in
    /// RAM, the device's buffer elsewhere).
    pub fn ptr(handle: usize) -> Loc {
        Loc {
            ptr: handle,
            handle,
            offset: 0,
        }
    }

    /// The same buffer, `bytes` further.
    pub fn at(self, bytes: usize) -> Loc {
        Loc {
            ptr: if self.ptr == 0 { 0 } else { self.ptr + bytes },
            handle: self.handle,
            offset: self.offset + bytes,
        }
    }

    /// The address in main RAM.
    pub fn addr(&self) -> usize {
        if self.ptr != 0 {
            self.ptr
        } else {
            self.handle + self.offset
        }
    }
}

/// What an interface's copy is made of.
pub trait Copier {
    /// The source and destination nodes (main RAM for both unless said).
    fn nodes(&self) -> (usize, usize) {
        (super::MAIN_RAM, super::MAIN_RAM)
    }

    /// The kinds of the source and destination nodes.
    fn kinds(&self) -> (NodeKind, NodeKind) {
        (NodeKind::CpuRam, NodeKind::CpuRam)
    }

    /// Copies region `r` of `src` into `dst`.
    fn copy_region(&mut self, src: Loc, dst: Loc, r: Region) -> Result<()>;

    /// Copies `size` contiguous bytes.
    fn copy(&mut self, src: Loc, dst: Loc, size: usize) -> Result<()> {
        self.copy_region(src, dst, Region::contiguous(size))
    }

    /// Copies `numblocks` blocks of `blocksize` bytes, `ld_src` / `ld_dst` bytes apart.
    fn copy2d(
        &mut self,
        src: Loc,
        dst: Loc,
        blocksize: usize,
        numblocks: usize,
        ld_src: usize,
        ld_dst: usize,
    ) -> Result<()> {
        let r = Region {
            blocksize,
            numblocks,
            ld_src,
            ld_dst,
        };
        r.check()?;
        self.copy_region(src, dst, r)
    }
}

/// Whether data goes from `s` to `d` in one copy: through RAM on one side, or within one
/// device.
pub(super) fn direct(s: &Node, d: &Node) -> bool {
    s.kind() == NodeKind::CpuRam
        || d.kind() == NodeKind::CpuRam
        || s.driver().same_device(d.driver())
}

/// The copier between two nodes: each region goes to the driver of the device side.
pub(super) struct NodeCopier<'a> {
    src: &'a Node,
    dst: &'a Node,
    dir: Direction,
    events: Vec<Box<dyn Completion>>,
    bytes: usize,
}

impl<'a> NodeCopier<'a> {
    pub(super) fn new(src: &'a Node, dst: &'a Node) -> Result<NodeCopier<'a>> {
        let dir = match (src.kind(), dst.kind()) {
            (NodeKind::CpuRam, NodeKind::CpuRam) => Direction::Within,
            (NodeKind::CpuRam, _) => Direction::ToDevice,
            (_, NodeKind::CpuRam) => Direction::FromDevice,
            _ if direct(src, dst) => Direction::Within,
            _ => {
                return Err(Error::unsupported(format!(
                    "no direct copy from memory node {} to {}: go through main RAM",
                    src.id(),
                    dst.id()
                )))
            }
        };
        Ok(NodeCopier {
            src,
            dst,
            dir,
            events: Vec::new(),
            bytes: 0,
        })
    }

    pub(super) fn finish(self) -> Transfer {
        Transfer {
            events: self.events,
            bytes: self.bytes,
            started: Instant::now(),
            route: (self.src.id(), self.dst.id()),
        }
    }
}

impl Copier for NodeCopier<'_> {
    fn nodes(&self) -> (usize, usize) {
        (self.src.id(), self.dst.id())
    }

    fn kinds(&self) -> (NodeKind, NodeKind) {
        (self.src.kind(), self.dst.kind())
    }

    fn copy_region(&mut self, src: Loc, dst: Loc, region: Region) -> Result<()> {
        if region.bytes() == 0 {
            return Ok(());
        }
        region.check()?;
        let driver = match self.dir {
            Direction::FromDevice => self.src.driver(),
            _ => self.dst.driver(),
        };
        // SAFETY: the interfaces describe live buffers of their replicas, which the data
        // side keeps (and the source unchanged) until the transfer is over.
        if let Some(e) = unsafe { driver.copy(self.dir, src, dst, region)? } {
            self.events.push(e);
        }
        self.bytes += region.bytes();
        Ok(())
    }
}

/// A copy between two nodes, possibly still running.
pub struct Transfer {
    events: Vec<Box<dyn Completion>>,
    bytes: usize,
    started: Instant,
    route: (usize, usize),
}

impl Transfer {
    /// A transfer with nothing left to do.
    pub fn done_now(src: usize, dst: usize) -> Transfer {
        Transfer {
            events: Vec::new(),
            bytes: 0,
            started: Instant::now(),
            route: (src, dst),
        }
    }

    /// Waits until the copy is over.
    pub fn wait(&self) -> Result<()> {
        for e in &self.events {
            e.wait()?;
        }
        Ok(())
    }

    /// Whether the copy is over.
    pub fn done(&self) -> bool {
        self.events.iter().all(|e| e.is_done())
    }

    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The source and destination nodes.
    pub fn route(&self) -> (usize, usize) {
        self.route
    }

    /// Microseconds since the copy started.
    pub fn elapsed_us(&self) -> f64 {
        self.started.elapsed().as_secs_f64() * 1e6
    }
}
