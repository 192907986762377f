//! A CUDA device as a memory node: buffers are device addresses (`CUdeviceptr`, which the
//! CPU may not dereference but kernels use as is), copies are asynchronous on the
//! device's transfer streams, completions are events recorded after them.
//!
//! With unified addressing (every 64-bit platform CUDA supports) the driver tells host
//! from device memory by the address, so one copy call serves every direction; the
//! direction only picks the stream.

use super::device::{all, Device};
use super::error::{check, CuResult};
use crate::error::Result;
use crate::memory::driver::{Completion, Direction, NodeDriver, Region};
use crate::memory::{Loc, NodeKind};
use cudarc::driver::sys::{self, CUevent, CUstream};

/// An event recorded on a stream after a command.
pub(crate) struct CuEvent {
    event: CUevent,
    device: &'static Device,
}

// SAFETY: CUDA events may be queried and waited on from any thread (the device's context
// is bound first).
unsafe impl Send for CuEvent {}
unsafe impl Sync for CuEvent {}

impl CuEvent {
    /// An event recorded now on `stream` of `device`.
    pub(crate) fn record(device: &'static Device, stream: CUstream) -> CuResult<CuEvent> {
        device.bind()?;
        let mut event: CUevent = std::ptr::null_mut();
        let flags = sys::CUevent_flags::CU_EVENT_DISABLE_TIMING as u32;
        // SAFETY: the device's context is current; the stream belongs to it.
        unsafe {
            check(sys::cuEventCreate(&mut event, flags), "cuEventCreate")?;
            if let Err(e) = check(sys::cuEventRecord(event, stream), "cuEventRecord") {
                let _ = sys::cuEventDestroy_v2(event);
                return Err(e);
            }
        }
        Ok(CuEvent { event, device })
    }
}

impl Drop for CuEvent {
    fn drop(&mut self) {
        let _ = self.device.bind();
        // SAFETY: created in `record`, destroyed once.
        unsafe {
            let _ = sys::cuEventDestroy_v2(self.event);
        }
    }
}

impl Completion for CuEvent {
    fn wait(&self) -> Result<()> {
        self.device.bind()?;
        // SAFETY: a live event of the bound context.
        check(
            unsafe { sys::cuEventSynchronize(self.event) },
            "cuEventSynchronize",
        )
    }

    fn is_done(&self) -> bool {
        if self.device.bind().is_err() {
            return true;
        }
        // SAFETY: a live event of the bound context.
        unsafe { sys::cuEventQuery(self.event) != sys::CUresult::CUDA_ERROR_NOT_READY }
    }
}

/// The device's entry in the process-wide list (`&'static`: devices live as long as the
/// process, which events rely on).
fn statik(d: &Device) -> &'static Device {
    all()
        .iter()
        .find(|o| std::ptr::eq(&***o, d))
        .map(|o| &**o)
        .expect("CUDA devices come from drivers::cuda::all()")
}

impl Device {
    /// The transfer stream of copies going in `dir`: copies toward the device have their
    /// own, so that a copy back does not wait behind prefetches.
    pub(crate) fn transfer_stream(&self, dir: Direction, peer: bool) -> CuResult<CUstream> {
        let s = self.streams()?;
        Ok(match dir {
            Direction::ToDevice => s.to_device,
            Direction::Within if peer => s.peer,
            _ => s.from_device,
        })
    }

    /// Queues the copy of `r` from `src` to `dst` (addresses: host memory, this device's
    /// or a peer's) on `stream`.
    ///
    /// # Safety
    /// Both sides are valid for `r` until the stream reaches the copy; the device's
    /// context is current.
    pub(crate) unsafe fn queue_copy(
        &self,
        src: usize,
        dst: usize,
        r: Region,
        stream: CUstream,
    ) -> CuResult<()> {
        if r.is_contiguous() {
            return check(
                sys::cuMemcpyAsync(dst as u64, src as u64, r.bytes(), stream),
                "cuMemcpyAsync",
            );
        }
        let unified = sys::CUmemorytype::CU_MEMORYTYPE_UNIFIED;
        // SAFETY: all-zero is a valid CUDA_MEMCPY2D (no array, offsets 0).
        let mut p: sys::CUDA_MEMCPY2D = std::mem::zeroed();
        p.srcMemoryType = unified;
        p.srcDevice = src as u64;
        p.srcPitch = r.ld_src;
        p.dstMemoryType = unified;
        p.dstDevice = dst as u64;
        p.dstPitch = r.ld_dst;
        p.WidthInBytes = r.blocksize;
        p.Height = r.numblocks;
        check(sys::cuMemcpy2DAsync_v2(&p, stream), "cuMemcpy2DAsync")
    }

    /// Starts the copy of `r` from `src` to `dst` going in `dir` and returns its event.
    ///
    /// # Safety
    /// As `NodeDriver::copy`.
    pub(crate) unsafe fn start_copy(
        &self,
        dir: Direction,
        src: Loc,
        dst: Loc,
        r: Region,
    ) -> CuResult<CuEvent> {
        self.bind()?;
        // A copy within the node whose source is another device's buffer comes from a peer.
        let peer = dir == Direction::Within && !self.owns(src.addr());
        let stream = self.transfer_stream(dir, peer)?;
        self.queue_copy(src.addr(), dst.addr(), r, stream)?;
        CuEvent::record(statik(self), stream)
    }

    /// Whether `addr` is memory of this device.
    fn owns(&self, addr: usize) -> bool {
        let mut ordinal: i32 = -1;
        let attr = sys::CUpointer_attribute::CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL;
        // SAFETY: the attribute is an int; an address the driver does not know is an error.
        let r = unsafe {
            sys::cuPointerGetAttribute(
                &mut ordinal as *mut i32 as *mut std::ffi::c_void,
                attr,
                addr as u64,
            )
        };
        r != sys::CUresult::CUDA_SUCCESS || ordinal as usize == self.ordinal
    }
}

impl NodeDriver for Device {
    node_identity!(NodeKind::Cuda, total_mem);

    fn alloc(&self, size: usize) -> Result<usize> {
        self.bind()?;
        let mut p: sys::CUdeviceptr = 0;
        // SAFETY: the context is current; CUDA refuses size 0.
        let r = unsafe { sys::cuMemAlloc_v2(&mut p, size.max(1)) };
        check(r, &format!("cuMemAlloc of {size} bytes on {}", self.name))?;
        Ok(p as usize)
    }

    unsafe fn free(&self, handle: usize) {
        if self.bind().is_ok() {
            let _ = sys::cuMemFree_v2(handle as u64);
        }
    }

    fn ptr_of(&self, handle: usize) -> usize {
        // Kernels take device addresses: the buffer's own (StarPU's CUDA `ptr`).
        handle
    }

    unsafe fn copy(
        &self,
        dir: Direction,
        src: Loc,
        dst: Loc,
        r: Region,
    ) -> Result<Option<Box<dyn Completion>>> {
        let e = self
            .start_copy(dir, src, dst, r)
            .map_err(|e| cu_error_context(e, dir))?;
        Ok(Some(Box::new(e)))
    }

    fn same_device(&self, other: &dyn NodeDriver) -> bool {
        let me = self as *const Device as *const ();
        let them = other as *const dyn NodeDriver as *const ();
        if me == them {
            return true;
        }
        // Another CUDA device this one has peer access to: copies go directly.
        other.kind() == NodeKind::Cuda
            && all().iter().any(|d| {
                std::ptr::eq(&**d as *const Device as *const (), them)
                    && self.peers().contains(&d.ordinal)
            })
    }
}

/// Names the direction in a copy's error.
fn cu_error_context(e: crate::error::Error, dir: Direction) -> crate::error::Error {
    let what = match dir {
        Direction::ToDevice => "copy to a CUDA device",
        Direction::FromDevice => "copy from a CUDA device",
        Direction::Within => "copy between CUDA buffers",
    };
    crate::error::Error::new(e.kind, format!("{what}: {}", e.message))
}
