//! An OpenCL device as a memory node: buffers are `cl_mem` objects, copies are
//! non-blocking commands on the device's transfer queue, completions are their events.

use super::device::Device;
use super::error::cl_error;
use crate::error::Result;
use crate::memory::driver::{Completion, Direction, NodeDriver, Region};
use crate::memory::{Loc, NodeKind};
use cl3::types::{cl_command_queue, cl_event, cl_mem};
use std::ffi::c_void;

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
    /// The queue of copies going in `dir`.
    fn transfer_queue(&self, dir: Direction) -> Result<cl_command_queue> {
        let o = self.opened()?;
        Ok(match dir {
            Direction::ToDevice => o.transfers,
            _ => o.out,
        })
    }

    /// RAM to device: a (rectangular) write of `r` from the address `host`.
    unsafe fn write(&self, host: usize, mem: cl_mem, offset: usize, r: Region) -> Result<cl_event> {
        let q = self.transfer_queue(Direction::ToDevice)?;
        let nb = super::cl::CL_FALSE;
        let e = if r.is_contiguous() {
            cl3::command_queue::enqueue_write_buffer(
                q,
                mem,
                nb,
                offset,
                r.bytes(),
                host as *const c_void,
                0,
                std::ptr::null(),
            )
        } else {
            let region = [r.blocksize, r.numblocks, 1];
            cl3::command_queue::enqueue_write_buffer_rect(
                q,
                mem,
                nb,
                origin(offset).as_ptr(),
                origin(0).as_ptr(),
                region.as_ptr(),
                r.ld_dst,
                0,
                r.ld_src,
                0,
                host as *const c_void,
                0,
                std::ptr::null(),
            )
        };
        e.map_err(|e| cl_error(e, "clEnqueueWriteBuffer"))
    }

    /// Device to RAM: a (rectangular) read of `r` into the address `host`.
    unsafe fn read(&self, mem: cl_mem, offset: usize, host: usize, r: Region) -> Result<cl_event> {
        let q = self.transfer_queue(Direction::FromDevice)?;
        let nb = super::cl::CL_FALSE;
        let e = if r.is_contiguous() {
            cl3::command_queue::enqueue_read_buffer(
                q,
                mem,
                nb,
                offset,
                r.bytes(),
                host as *mut c_void,
                0,
                std::ptr::null(),
            )
        } else {
            let region = [r.blocksize, r.numblocks, 1];
            cl3::command_queue::enqueue_read_buffer_rect(
                q,
                mem,
                nb,
                origin(offset).as_ptr(),
                origin(0).as_ptr(),
                region.as_ptr(),
                r.ld_src,
                0,
                r.ld_dst,
                0,
                host as *mut c_void,
                0,
                std::ptr::null(),
            )
        };
        e.map_err(|e| cl_error(e, "clEnqueueReadBuffer"))
    }

    /// Device to device (one context).
    unsafe fn copy_within(&self, src: Loc, dst: Loc, r: Region) -> Result<cl_event> {
        let q = self.transfer_queue(Direction::Within)?;
        let (s, d) = (src.handle as cl_mem, dst.handle as cl_mem);
        let e = if r.is_contiguous() {
            cl3::command_queue::enqueue_copy_buffer(
                q,
                s,
                d,
                src.offset,
                dst.offset,
                r.bytes(),
                0,
                std::ptr::null(),
            )
        } else {
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
        };
        e.map_err(|e| cl_error(e, "clEnqueueCopyBuffer"))
    }
}

impl NodeDriver for Device {
    fn kind(&self) -> NodeKind {
        NodeKind::OpenCl
    }

    fn name(&self) -> String {
        self.name.clone()
    }

    fn total_memory(&self) -> Option<usize> {
        (self.global_mem > 0).then_some(self.global_mem as usize)
    }

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
        let e = match dir {
            Direction::ToDevice => self.write(src.addr(), dst.handle as cl_mem, dst.offset, r)?,
            Direction::FromDevice => self.read(src.handle as cl_mem, src.offset, dst.addr(), r)?,
            Direction::Within => self.copy_within(src, dst, r)?,
        };
        // Without a flush some implementations start the command only at the next wait.
        let _ = cl3::command_queue::flush(self.transfer_queue(dir)?);
        Ok(Some(Box::new(ClEvent(e))))
    }
}
