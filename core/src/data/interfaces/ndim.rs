//! `struct starpu_ndim_interface`: an array of any number of dimensions, `nn[i]` elements
//! along dimension `i`, consecutive elements along it `ldn[i]` elements apart.
//!
//! The `nn` and `ldn` arrays are shared by every description: the description is a plain
//! `Copy` C struct that the runtime duplicates freely, so the arrays cannot be owned by one
//! copy. Each distinct array is interned once and kept for the life of the process, so the
//! memory is bounded by the number of distinct shapes and stays reachable (no leak report).

use super::{footprint_of, Interface};
use crate::error::Result;
use crate::memory::{Copier, Loc, Node};
use libc::size_t;
use std::collections::HashSet;
use std::sync::Mutex;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct NdimInterface {
    pub id: i32,
    pub ptr: usize,
    pub dev_handle: usize,
    pub offset: size_t,
    pub allocsize: size_t,
    pub nn: *mut u32,
    pub ldn: *mut u32,
    pub ndim: size_t,
    pub elemsize: size_t,
}

// SAFETY: plain description of buffers; access is serialised by the data handle.
unsafe impl Send for NdimInterface {}
unsafe impl Sync for NdimInterface {}

/// The interned copy of `values`. Readers must treat it as read-only (it is shared).
fn intern_array(values: &[u32]) -> *mut u32 {
    static INTERNED: Mutex<Option<HashSet<Box<[u32]>>>> = Mutex::new(None);
    let mut table = INTERNED.lock().unwrap_or_else(|e| e.into_inner());
    let table = table.get_or_insert_with(HashSet::new);
    if let Some(existing) = table.get(values) {
        // The boxed slice's heap buffer never moves, even when the set rehashes.
        return existing.as_ptr() as *mut u32;
    }
    let boxed: Box<[u32]> = values.into();
    let ptr = boxed.as_ptr() as *mut u32;
    table.insert(boxed);
    ptr
}

impl NdimInterface {
    pub fn new(ptr: usize, nn: &[u32], ldn: &[u32], elemsize: usize) -> Self {
        let ndim = nn.len();
        let mut d = NdimInterface {
            id: Self::ID,
            ptr,
            dev_handle: ptr,
            offset: 0,
            allocsize: 0,
            nn: intern_array(nn),
            ldn: intern_array(&ldn[..ndim.min(ldn.len())]),
            ndim,
            elemsize,
        };
        d.allocsize = d.data_size();
        d
    }

    pub fn dims(&self) -> &[u32] {
        if self.ndim == 0 || self.nn.is_null() {
            return &[];
        }
        // SAFETY: nn holds ndim entries for the life of the description.
        unsafe { std::slice::from_raw_parts(self.nn, self.ndim) }
    }

    pub fn strides(&self) -> &[u32] {
        if self.ndim == 0 || self.ldn.is_null() {
            return &[];
        }
        // SAFETY: ldn holds ndim entries for the life of the description.
        unsafe { std::slice::from_raw_parts(self.ldn, self.ndim) }
    }

    /// Gives this description arrays of its own (after a byte copy shared them).
    pub fn own_arrays(&mut self) {
        let (nn, ldn) = (self.dims().to_vec(), self.strides().to_vec());
        self.nn = intern_array(&nn);
        self.ldn = intern_array(&ldn);
    }

    /// Where the elements are, for copies.
    fn loc(&self) -> Loc {
        Loc::new(self.ptr, self.dev_handle, self.offset)
    }

    /// Copies `src`'s elements into `dst` dimension by dimension (the two innermost
    /// dimensions as one strided region).
    fn copy_dims(
        &self,
        dst: &Self,
        dim: usize,
        soff: usize,
        doff: usize,
        c: &mut dyn Copier,
    ) -> Result<()> {
        let e = self.elemsize;
        let nn = self.dims();
        if dim <= 1 {
            let (rows, sld, dld) = if self.ndim <= 1 {
                (1, 0, 0)
            } else {
                (
                    nn[1] as usize,
                    self.strides()[1] as usize * e,
                    dst.strides()[1] as usize * e,
                )
            };
            let row = nn[0] as usize * e;
            return c.copy2d(
                self.loc().at(soff),
                dst.loc().at(doff),
                row,
                rows,
                sld.max(row),
                dld.max(row),
            );
        }
        for i in 0..nn[dim] as usize {
            self.copy_dims(
                dst,
                dim - 1,
                soff + i * self.strides()[dim] as usize * e,
                doff + i * dst.strides()[dim] as usize * e,
                c,
            )?;
        }
        Ok(())
    }
}

impl Interface for NdimInterface {
    const ID: i32 = super::id::NDIM;
    const NAME: &'static str = "STARPU_NDIM_INTERFACE";

    fn data_size(&self) -> usize {
        self.dims().iter().map(|&n| n as usize).product::<usize>() * self.elemsize
    }
    fn alloc_size(&self) -> usize {
        self.allocsize.max(self.data_size())
    }
    fn footprint(&self) -> u32 {
        let dims: Vec<u64> = self.dims().iter().map(|&n| n as u64).collect();
        footprint_of(&dims)
    }
    fn describe(&self) -> String {
        format!("ndim nn={:?} elemsize={}", self.dims(), self.elemsize)
    }
    fn data_ptr(&self) -> usize {
        self.ptr
    }
    fn allocate(&mut self, node: &Node) -> Result<()> {
        let h = node.alloc(self.alloc_size())?;
        (self.ptr, self.dev_handle, self.offset) = (node.ptr_of(h), h, 0);
        let mut packed = Vec::with_capacity(self.ndim);
        let mut stride = 1u32;
        for &n in self.dims() {
            packed.push(stride);
            stride *= n;
        }
        self.ldn = intern_array(&packed);
        Ok(())
    }
    fn free(&mut self, node: &Node) {
        node.free(self.dev_handle, self.alloc_size());
        *self = self.without_buffers();
    }
    fn copy_to(&self, dst: &Self, c: &mut dyn Copier) -> Result<()> {
        if self.ndim == 0 {
            c.copy(self.loc(), dst.loc(), self.elemsize)
        } else {
            self.copy_dims(dst, self.ndim - 1, 0, 0, c)
        }
    }
    fn without_buffers(&self) -> Self {
        let mut d = NdimInterface {
            ptr: 0,
            dev_handle: 0,
            offset: 0,
            ..*self
        };
        d.own_arrays();
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copy_between_padded_and_packed_3d() {
        // 2 x 2 x 2 with padded lines (ldn = 1, 3, 6) into a packed array.
        let src: Vec<f64> = (0..12).map(|x| x as f64).collect();
        let s = NdimInterface::new(src.as_ptr() as usize, &[2, 2, 2], &[1, 3, 6], 8);
        let mem = crate::memory::Memory::ram_only();
        let ram = mem.node(crate::memory::MAIN_RAM).unwrap();
        let mut d = s.without_buffers();
        d.allocate(ram).unwrap();
        unsafe { super::super::copy_in_ram(&s, &d) }.unwrap();
        let out = unsafe { std::slice::from_raw_parts(d.ptr as *const f64, 8) };
        assert_eq!(out, &[0.0, 1.0, 3.0, 4.0, 6.0, 7.0, 9.0, 10.0]);
        assert_eq!(d.strides(), &[1, 2, 4]);
        d.free(ram);
    }
}
