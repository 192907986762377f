//! An OpenCL device as a memory node: buffers are `cl_mem` objects, copies are
//! non-blocking commands on the device's transfer queue, completions are their events.

use super::device::Device;
use super::error::cl_error;
use super::raw::Status;
use crate::error::Result;
use crate::memory::driver::{Completion, Direction, NodeDriver, Region};
use crate::memory::{Loc, NodeKind};
use cl3::types::{cl_command_queue, cl_event, cl_mem};

/// A command's event.
pub(crate) struct ClEvent(pub(crate) cl_event);

// SAFETY: OpenCL events may be waited on and queried from any thread.
unsafe impl Send for ClEvent {}
unsafe impl Sync for ClEvent {}

impl ClEvent {
    /// The command's status: `CL_COMPLETE` (0), a later stage (> 0) or an error (< 0).
    fn status(&self) -> i32 {
        cl3::event::get_event_data(self.0, super::cl::CL_EVENT_COMMAND_EXECUTION_STATUS)
            .ok()
            .and_then(|b| {
                b.get(..4)
                    .map(|s| i32::from_ne_bytes([s[0], s[1], s[2], s[3]]))
            })
            .unwrap_or(super::cl::CL_COMPLETE)
    }
}

impl Drop for ClEvent {
    fn drop(&mut self) {
        // SAFETY: the event came from an enqueue call and is released once.
        unsafe {
            let _ = cl3::event::release_event(self.0);
        }
    }
}

impl Completion for ClEvent {
    fn wait(&self) -> Result<()> {
        cl3::event::wait_for_events(&[self.0]).map_err(|e| cl_error(e, "clWaitForEvents"))?;
        match self.status() {
            s if s < 0 => Err(cl_error(s, "an OpenCL command")),
            _ => Ok(()),
        }
    }

    fn is_done(&self) -> bool {
        self.status() <= super::cl::CL_COMPLETE
    }
}

/// `[x, y, z]` for the rectangle calls.
fn origin(x: usize) -> [usize; 3] {
    [x, 0, 0]
}

impl Device {
    /// The queue of copies going in `dir`: copies to the device have their own, so that
    /// a copy back does not wait behind prefetches.
    fn transfer_queue(&self, dir: Direction) -> Status<cl_command_queue> {
        let o = self.opened_status()?;
        Ok(match dir {
            Direction::ToDevice => o.transfers,
            _ => o.out,
        })
    }

    /// Enqueues the copy of `r` from `src` to `dst` going in `dir` (an address in RAM
    /// on the host side, a buffer and offset on the device side), non-blocking, on that
    /// direction's queue, and flushes it: its event, or the OpenCL status and the call.
    ///
    /// # Safety
    /// The RAM side holds `r` until the event completes; the buffers belong to this
    /// device and hold their ranges.
    pub(crate) unsafe fn enqueue_copy(
        &self,
        dir: Direction,
        src: Loc,
        dst: Loc,
        r: Region,
    ) -> std::result::Result<cl_event, (i32, &'static str)> {
        let q = self
            .transfer_queue(dir)
            .map_err(|e| (e, "opening the device"))?;
        let e = match dir {
            Direction::ToDevice => {
                let e = host_copy(q, true, src.addr(), dst.handle as cl_mem, dst.offset, r);
                e.map_err(|e| (e, "clEnqueueWriteBuffer"))?
            }
            Direction::FromDevice => {
                let e = host_copy(q, false, dst.addr(), src.handle as cl_mem, src.offset, r);
                e.map_err(|e| (e, "clEnqueueReadBuffer"))?
            }
            Direction::Within => {
                copy_within(q, src, dst, r).map_err(|e| (e, "clEnqueueCopyBuffer"))?
            }
        };
        // Without a flush some implementations start the command only at the next wait.
        let _ = cl3::command_queue::flush(q);
        Ok(e)
    }
}

/// Between RAM and the device: a (rectangular) write of `r` from the address `host` into
/// `mem` at `offset` when `to_device`, else a read of it into `host`.
unsafe fn host_copy(
    q: cl_command_queue,
    to_device: bool,
    host: usize,
    mem: cl_mem,
    offset: usize,
    r: Region,
) -> Status<cl_event> {
    use cl3::command_queue as cq;
    let (nb, none) = (super::cl::CL_FALSE, std::ptr::null());
    if r.is_contiguous() {
        return match to_device {
            true => cq::enqueue_write_buffer(q, mem, nb, offset, r.bytes(), host as _, 0, none),
            false => cq::enqueue_read_buffer(q, mem, nb, offset, r.bytes(), host as _, 0, none),
        };
    }
    let (at_buf, at_ram, size) = (origin(offset), origin(0), [r.blocksize, r.numblocks, 1]);
    let (buf, ram, region) = (at_buf.as_ptr(), at_ram.as_ptr(), size.as_ptr());
    // Row pitches: the buffer's, then the host's.
    let (ld_buf, ld_ram) = match to_device {
        true => (r.ld_dst, r.ld_src),
        false => (r.ld_src, r.ld_dst),
    };
    match to_device {
        true => cq::enqueue_write_buffer_rect(
            q, mem, nb, buf, ram, region, ld_buf, 0, ld_ram, 0, host as _, 0, none,
        ),
        false => cq::enqueue_read_buffer_rect(
            q, mem, nb, buf, ram, region, ld_buf, 0, ld_ram, 0, host as _, 0, none,
        ),
    }
}

/// Device to device (one context).
unsafe fn copy_within(q: cl_command_queue, src: Loc, dst: Loc, r: Region) -> Status<cl_event> {
    let (s, d) = (src.handle as cl_mem, dst.handle as cl_mem);
    if r.is_contiguous() {
        return cl3::command_queue::enqueue_copy_buffer(
            q,
            s,
            d,
            src.offset,
            dst.offset,
            r.bytes(),
            0,
            std::ptr::null(),
        );
    }
    let region = [r.blocksize, r.numblocks, 1];
    cl3::command_queue::enqueue_copy_buffer_rect(
        q,
        s,
        d,
        origin(src.offset).as_ptr(),
        origin(dst.offset).as_ptr(),
        region.as_ptr(),
        r.ld_src,
        0,
        r.ld_dst,
        0,
        0,
        std::ptr::null(),
    )
}

impl NodeDriver for Device {
    node_identity!(NodeKind::OpenCl, global_mem);

    fn alloc(&self, size: usize) -> Result<usize> {
        let ctx = self.opened()?.context;
        // SAFETY: a plain device buffer (no host pointer); OpenCL refuses size 0.
        let mem = unsafe {
            cl3::memory::create_buffer(
                ctx,
                super::cl::CL_MEM_READ_WRITE,
                size.max(1),
                std::ptr::null_mut(),
            )
        }
        .map_err(|e| cl_error(e, &format!("clCreateBuffer of {size} bytes")))?;
        Ok(mem as usize)
    }

    unsafe fn free(&self, handle: usize) {
        let _ = cl3::memory::release_mem_object(handle as cl_mem);
    }

    fn ptr_of(&self, _handle: usize) -> usize {
        0
    }

    unsafe fn copy(
        &self,
        dir: Direction,
        src: Loc,
        dst: Loc,
        r: Region,
    ) -> Result<Option<Box<dyn Completion>>> {
        let e = self
            .enqueue_copy(dir, src, dst, r)
            .map_err(|(e, call)| cl_error(e, call))?;
        Ok(Some(Box::new(ClEvent(e))))
    }
}
