//! Data interfaces: how a piece of data is laid out (a vector, a matrix with a leading
//! dimension, a CSR sparse matrix...).
//!
//! Each interface is a `#[repr(C)]` struct with StarPU's name and field names (the
//! "description" of one replica). Kernels in every language receive pointers to these
//! structs, so the layout is part of the ABI. The runtime handles descriptions through the
//! type-erased `InterfaceOps`, built once per interface type from the `Interface` trait.

/// The buffer methods of `Interface` for a dense interface (fields `ptr`, `dev_handle`,
/// `offset`): one allocation of `alloc_size` bytes, after which `pack` sets the leading
/// dimensions of a packed replica. Without `pack`, all but `allocate`.
macro_rules! dense_buffers {
    (pack: $pack:expr) => {
        fn allocate(&mut self, node: &Node) -> Result<()> {
            let h = node.alloc(self.alloc_size())?;
            (self.ptr, self.dev_handle, self.offset) = (node.ptr_of(h), h, 0);
            let pack: fn(&mut Self) = $pack;
            pack(self);
            Ok(())
        }
        dense_buffers!();
    };
    () => {
        fn data_ptr(&self) -> usize {
            self.ptr
        }
        fn free(&mut self, node: &Node) {
            node.free(self.dev_handle, self.alloc_size());
            *self = self.without_buffers();
        }
        fn without_buffers(&self) -> Self {
            Self {
                ptr: 0,
                dev_handle: 0,
                offset: 0,
                ..*self
            }
        }
    };
}

/// The buffer methods of `Interface` for a sparse interface: its three arrays
/// (`SparseArrays`), the values first.
macro_rules! sparse_buffers {
    () => {
        fn data_ptr(&self) -> usize {
            self.arrays()[0]
        }
        fn allocate(&mut self, node: &Node) -> Result<()> {
            sparse::allocate(self, node)
        }
        fn free(&mut self, node: &Node) {
            sparse::free(self, node)
        }
        fn copy_to(&self, dst: &Self, c: &mut dyn Copier) -> Result<()> {
            sparse::copy(self, dst, c)
        }
        fn without_buffers(&self) -> Self {
            sparse::without_arrays(self)
        }
    };
}

pub mod bcsr;
pub mod block;
pub mod coo;
pub mod csr;
pub mod matrix;
pub mod multiformat;
pub mod ndim;
mod sparse;
pub mod tensor;
pub mod variable;
pub mod vector;
pub mod void;

pub use bcsr::BcsrInterface;
pub use block::BlockInterface;
pub use coo::CooInterface;
pub use csr::CsrInterface;
pub use matrix::MatrixInterface;
pub use multiformat::{MultiformatInterface, MultiformatOps};
pub use ndim::NdimInterface;
pub use tensor::TensorInterface;
pub use variable::VariableInterface;
pub use vector::VectorInterface;
pub use void::VoidInterface;

use crate::error::Result;
use crate::memory::driver::Region;
use crate::memory::{Copier, Loc, Node};
use std::marker::PhantomData;
use std::ptr::NonNull;

/// `enum starpu_data_interface_id` values.
pub mod id {
    pub const UNKNOWN: i32 = -1;
    pub const MATRIX: i32 = 0;
    pub const BLOCK: i32 = 1;
    pub const VECTOR: i32 = 2;
    pub const CSR: i32 = 3;
    pub const BCSR: i32 = 4;
    pub const VARIABLE: i32 = 5;
    pub const VOID: i32 = 6;
    pub const MULTIFORMAT: i32 = 7;
    pub const COO: i32 = 8;
    pub const TENSOR: i32 = 9;
    pub const NDIM: i32 = 10;
    pub const MAX: i32 = 11;
}

/// One interface type: its C description struct and what the runtime does with it.
pub trait Interface: Copy + Send + Sync + 'static {
    const ID: i32;
    const NAME: &'static str;

    /// Bytes of data the description covers (`starpu_data_get_size`).
    fn data_size(&self) -> usize;

    /// Bytes a fresh replica needs (`starpu_data_get_alloc_size`).
    fn alloc_size(&self) -> usize {
        self.data_size()
    }

    /// A hash of the shape, for performance models (same shape, same footprint).
    fn footprint(&self) -> u32;

    /// One line for messages, e.g. `vector nx=10 elemsize=8`.
    fn describe(&self) -> String;

    /// Address of the (first) data buffer, 0 when none (`starpu_data_handle_to_pointer`).
    fn data_ptr(&self) -> usize;

    /// Points this description at freshly allocated, packed buffers on `node` (on a
    /// device, `dev_handle` is the device's buffer and `ptr` the address the CPU may use,
    /// 0 when it may not, as in StarPU).
    fn allocate(&mut self, node: &Node) -> Result<()>;

    /// Releases the buffers `allocate` obtained.
    fn free(&mut self, node: &Node);

    /// Describes the copy of the data `self` describes into the buffers `dst` describes
    /// (same shape), region by region (`Copier::copy`, `copy2d`): the copier carries it
    /// out between the two replicas' nodes.
    fn copy_to(&self, dst: &Self, c: &mut dyn Copier) -> Result<()>;

    /// This description with no buffers: the starting point of a replica not yet allocated.
    fn without_buffers(&self) -> Self;
}

/// The type-erased operations on descriptions, used wherever the interface type is not
/// known statically (data handles, filters, custom interfaces).
///
/// # Safety
/// Every `desc`, `src` and `dst` argument must point to a live description of this
/// interface type; buffer operations also need its buffers to be valid for its shape.
#[allow(clippy::missing_safety_doc)] // the contract above covers every method
pub trait InterfaceOps: Send + Sync {
    fn id(&self) -> i32;
    fn name(&self) -> &'static str;
    /// `sizeof` the description struct.
    fn size(&self) -> usize;
    unsafe fn data_size(&self, desc: *const u8) -> usize;
    unsafe fn alloc_size(&self, desc: *const u8) -> usize;
    unsafe fn footprint(&self, desc: *const u8) -> u32;
    unsafe fn describe(&self, desc: *const u8) -> String;
    unsafe fn data_ptr(&self, desc: *const u8) -> usize;
    unsafe fn allocate(&self, desc: *mut u8, node: &Node) -> Result<()>;
    unsafe fn free(&self, desc: *mut u8, node: &Node);
    /// Copies `src` into `dst` through `c` (the copier between their nodes).
    unsafe fn copy(&self, src: *const u8, dst: *const u8, c: &mut dyn Copier) -> Result<()>;
    unsafe fn clear_buffers(&self, desc: *mut u8);
}

struct Typed<T>(PhantomData<T>);

impl<T: Interface> InterfaceOps for Typed<T> {
    fn id(&self) -> i32 {
        T::ID
    }
    fn name(&self) -> &'static str {
        T::NAME
    }
    fn size(&self) -> usize {
        std::mem::size_of::<T>()
    }
    unsafe fn data_size(&self, desc: *const u8) -> usize {
        (*(desc as *const T)).data_size()
    }
    unsafe fn alloc_size(&self, desc: *const u8) -> usize {
        (*(desc as *const T)).alloc_size()
    }
    unsafe fn footprint(&self, desc: *const u8) -> u32 {
        (*(desc as *const T)).footprint()
    }
    unsafe fn describe(&self, desc: *const u8) -> String {
        (*(desc as *const T)).describe()
    }
    unsafe fn data_ptr(&self, desc: *const u8) -> usize {
        (*(desc as *const T)).data_ptr()
    }
    unsafe fn allocate(&self, desc: *mut u8, node: &Node) -> Result<()> {
        (*(desc as *mut T)).allocate(node)
    }
    unsafe fn free(&self, desc: *mut u8, node: &Node) {
        (*(desc as *mut T)).free(node)
    }
    unsafe fn copy(&self, src: *const u8, dst: *const u8, c: &mut dyn Copier) -> Result<()> {
        (*(src as *const T)).copy_to(&*(dst as *const T), c)
    }
    unsafe fn clear_buffers(&self, desc: *mut u8) {
        let d = desc as *mut T;
        *d = (*d).without_buffers();
    }
}

/// The operations of interface type `T` (a zero-sized object, so leaking it costs nothing).
pub fn ops_of<T: Interface>() -> &'static dyn InterfaceOps {
    Box::leak(Box::new(Typed::<T>(PhantomData)))
}

/// Heap storage for one description, 8-byte aligned like every C interface struct.
/// The runtime mutates it in place (allocation fills pointers in) while kernels only ever
/// see it between such updates, hence the raw storage.
pub struct Description {
    ops: &'static dyn InterfaceOps,
    words: NonNull<u64>,
    nwords: usize,
}

// SAFETY: a description is plain data; mutation is serialised by the data handle's
// coherency protocol (no task uses a replica while the runtime reallocates it).
unsafe impl Send for Description {}
unsafe impl Sync for Description {}

impl Description {
    pub fn new<T: Interface>(value: T) -> Description {
        let d = Description::zeroed(ops_of::<T>());
        // SAFETY: the storage is large enough and aligned for T.
        unsafe { std::ptr::write(d.ptr() as *mut T, value) };
        d
    }

    /// A description of `ops`'s type holding a copy of `bytes` (a C caller's struct).
    ///
    /// # Safety
    /// `bytes` must point to `ops.size()` readable bytes.
    pub unsafe fn from_raw(ops: &'static dyn InterfaceOps, bytes: *const u8) -> Description {
        let d = Description::zeroed(ops);
        std::ptr::copy_nonoverlapping(bytes, d.ptr(), ops.size());
        d
    }

    pub(crate) fn zeroed(ops: &'static dyn InterfaceOps) -> Description {
        let nwords = ops.size().div_ceil(8).max(1);
        let words = Box::into_raw(vec![0u64; nwords].into_boxed_slice()) as *mut u64;
        Description {
            ops,
            words: NonNull::new(words).expect("Box::into_raw is never null"),
            nwords,
        }
    }

    pub fn ops(&self) -> &'static dyn InterfaceOps {
        self.ops
    }

    /// The C struct, as kernels see it.
    pub fn ptr(&self) -> *mut u8 {
        self.words.as_ptr() as *mut u8
    }

    /// Typed view, when this description is a `T`.
    pub fn get<T: Interface>(&self) -> Option<&T> {
        // SAFETY: the id check guarantees the storage holds a T.
        (self.ops.id() == T::ID && self.ops.size() == std::mem::size_of::<T>())
            .then(|| unsafe { &*(self.ptr() as *const T) })
    }

    /// A copy of the struct (same buffers, same shape).
    pub fn duplicate(&self) -> Description {
        // SAFETY: self.ptr() holds ops.size() bytes.
        unsafe { Description::from_raw(self.ops, self.ptr()) }
    }

    pub fn data_size(&self) -> usize {
        // SAFETY: the storage holds a description of ops's type.
        unsafe { self.ops.data_size(self.ptr()) }
    }

    pub fn alloc_size(&self) -> usize {
        unsafe { self.ops.alloc_size(self.ptr()) }
    }

    pub fn footprint(&self) -> u32 {
        unsafe { self.ops.footprint(self.ptr()) }
    }

    pub fn describe(&self) -> String {
        unsafe { self.ops.describe(self.ptr()) }
    }

    pub fn data_ptr(&self) -> usize {
        unsafe { self.ops.data_ptr(self.ptr()) }
    }
}

impl Drop for Description {
    fn drop(&mut self) {
        // SAFETY: words came from Box::into_raw of a boxed slice of nwords u64.
        unsafe {
            drop(Box::from_raw(std::ptr::slice_from_raw_parts_mut(
                self.words.as_ptr(),
                self.nwords,
            )));
        }
    }
}

/// A CRC32 over the dimensions of a shape, StarPU's way of footprinting data.
pub fn footprint_of(dims: &[u64]) -> u32 {
    let mut crc: u32 = 0xffff_ffff;
    for d in dims {
        for b in d.to_le_bytes() {
            crc ^= b as u32;
            for _ in 0..8 {
                let mask = (crc & 1).wrapping_neg();
                crc = (crc >> 1) ^ (0x82f6_3b78 & mask);
            }
        }
    }
    !crc
}

/// Copies `src` into `dst`, both in main RAM (tests, and copies that never leave RAM).
///
/// # Safety
/// Both descriptions point to live RAM buffers of the same shape.
pub unsafe fn copy_in_ram<T: Interface>(src: &T, dst: &T) -> Result<()> {
    src.copy_to(dst, &mut RamCopier)
}

/// The copier of two RAM replicas: plain memory copies.
pub struct RamCopier;

impl Copier for RamCopier {
    fn copy_region(&mut self, src: Loc, dst: Loc, r: Region) -> Result<()> {
        // SAFETY: the caller of `copy_in_ram` vouches for both buffers.
        unsafe {
            copy_2d(
                src.addr(),
                r.ld_src,
                dst.addr(),
                r.ld_dst,
                r.blocksize,
                r.numblocks,
            )
        };
        Ok(())
    }
}

/// Copies `rows` rows of `row_bytes` bytes between two strided layouts (leading dimensions
/// in bytes).
///
/// # Safety
/// Both regions must be valid for the given shape.
pub unsafe fn copy_2d(
    src: usize,
    src_ld: usize,
    dst: usize,
    dst_ld: usize,
    row_bytes: usize,
    rows: usize,
) {
    if src == dst {
        return;
    }
    if src_ld == row_bytes && dst_ld == row_bytes {
        std::ptr::copy_nonoverlapping(src as *const u8, dst as *mut u8, row_bytes * rows);
        return;
    }
    for r in 0..rows {
        std::ptr::copy_nonoverlapping(
            (src + r * src_ld) as *const u8,
            (dst + r * dst_ld) as *mut u8,
            row_bytes,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn description_round_trips_a_typed_struct() {
        let v = VectorInterface::new(0x1000, 10, 8);
        let d = Description::new(v);
        assert_eq!(d.ops().id(), id::VECTOR);
        assert_eq!(d.get::<VectorInterface>().unwrap().nx, 10);
        assert!(d.get::<MatrixInterface>().is_none());
        assert_eq!(d.data_size(), 80);
        assert_eq!(d.duplicate().get::<VectorInterface>().unwrap().ptr, 0x1000);
    }

    #[test]
    fn footprint_depends_on_shape_only() {
        assert_eq!(footprint_of(&[10, 8]), footprint_of(&[10, 8]));
        assert_ne!(footprint_of(&[10, 8]), footprint_of(&[8, 10]));
    }

    #[test]
    fn copy_2d_honours_leading_dimensions() {
        let src: Vec<u8> = (0..12).collect(); // 3 rows of 4, ld 4
        let mut dst = vec![0u8; 3 * 6]; // ld 6
        unsafe { copy_2d(src.as_ptr() as usize, 4, dst.as_mut_ptr() as usize, 6, 4, 3) };
        assert_eq!(&dst[6..10], &[4, 5, 6, 7]);
        assert_eq!(&dst[4..6], &[0, 0]);
    }

    #[test]
    fn copy2d_refuses_overlapping_blocks_and_leaves_the_destination() {
        let src: Vec<u8> = (0..12).collect();
        let mut dst = vec![0u8; 12];
        let (s, d) = (
            Loc::ptr(src.as_ptr() as usize),
            Loc::ptr(dst.as_mut_ptr() as usize),
        );
        // Blocks of 4 bytes only 3 apart in the destination would overlap.
        let e = RamCopier.copy2d(s, d, 4, 3, 4, 3).unwrap_err();
        assert!(e.message.contains("overlap"), "{}", e.message);
        assert_eq!(dst, vec![0u8; 12]);
        RamCopier.copy2d(s, d, 4, 3, 4, 4).unwrap();
        assert_eq!(dst, src);
    }
}
