//! What a kernel receives, and safe, typed views of its buffers.
//!
//! A CPU kernel gets a [`KernelCall`]: the task's buffers (StarPU's `void *buffers[]`, one
//! `#[repr(C)]` interface description per buffer, which C, Fortran, numpy and Java kernels
//! read in place), its arguments, and where it runs. Rust kernels use the typed views
//! instead of raw pointers:
//!
//! - `variable::<T>(i)` / `variable_mut`: the element of a variable;
//! - `vector::<T>(i)` / `vector_mut`: a vector as a slice;
//! - `matrix`, `block`, `tensor`, `ndim` (and `_mut`): an [`Array`], read or written row by
//!   row (a row is the run of contiguous elements along the first dimension; the other
//!   dimensions are spread by their leading dimensions).
//!
//! Each view checks the buffer's interface, the element type (the one the data was
//! registered with, or at least its size), and the access mode: a buffer the task reads
//! only (mode R) has no mutable view. Views of one call may not overlap when one of them is
//! mutable (the same data given twice to a task, say); such a request is an error.

use super::{Task, TaskSpec};
use crate::data::element::Element;
use crate::data::interfaces::{
    BlockInterface, Interface, MatrixInterface, NdimInterface, TensorInterface, VariableInterface,
    VectorInterface,
};
use crate::data::{AccessMode, DataHandle};
use crate::error::{Error, Result};
use smallvec::SmallVec;
use std::any::Any;
use std::cell::RefCell;
use std::ffi::c_void;
use std::marker::PhantomData;

/// One view alive in a call: the bytes it covers and whether it writes.
#[derive(Clone, Copy)]
struct Borrow {
    id: u32,
    start: usize,
    end: usize,
    mutable: bool,
}

/// What a CPU kernel receives for one execution of a task.
pub struct KernelCall<'a> {
    buffers: &'a [*mut c_void],
    task: &'a Task,
    spec: &'a TaskSpec,
    worker: usize,
    nimpl: usize,
    /// Size and rank of the team running the kernel ((1, 0) for a sequential task).
    team: (u32, u32),
    /// Several calls of one task run at once (SPMD): whole views of written buffers would
    /// alias between ranks, only rank parts are handed out.
    shared: bool,
    /// The buffers are in a device's memory (an OpenCL implementation): the CPU views
    /// are refused (`opencl()` gives the device buffers).
    on_device: bool,
    borrows: RefCell<(u32, SmallVec<[Borrow; 4]>)>,
}

impl<'a> KernelCall<'a> {
    pub(crate) fn new(
        buffers: &'a [*mut c_void],
        task: &'a Task,
        spec: &'a TaskSpec,
        worker: usize,
        nimpl: usize,
    ) -> KernelCall<'a> {
        KernelCall {
            buffers,
            task,
            spec,
            worker,
            nimpl,
            team: (1, 0),
            shared: false,
            on_device: false,
            borrows: RefCell::new((0, SmallVec::new())),
        }
    }

    /// The call of a kernel whose buffers are in a device's memory.
    pub(crate) fn on_device(mut self, yes: bool) -> KernelCall<'a> {
        self.on_device = yes;
        self
    }

    /// The call of rank `rank` in a team of `size` workers; `spmd`: every rank runs the
    /// kernel at once.
    pub(crate) fn in_team(mut self, size: u32, rank: u32, spmd: bool) -> KernelCall<'a> {
        self.team = (size, rank);
        self.shared = spmd && size > 1;
        self
    }

    /// How many workers run this task together (`starpu_combined_worker_get_size`): 1 for
    /// a sequential task or a parallel task given one worker.
    pub fn combined_size(&self) -> usize {
        self.team.0 as usize
    }

    /// This call's rank among them (`starpu_combined_worker_get_rank`), 0 to size - 1.
    pub fn combined_rank(&self) -> usize {
        self.team.1 as usize
    }

    /// This rank's share of vector buffer `i`, writable: the vector cut in
    /// `combined_size()` contiguous blocks (the first ones one element longer when it
    /// does not divide evenly), block `combined_rank()`. The way for SPMD ranks to write
    /// one buffer together (whole mutable views are refused to them: they would alias).
    ///
    /// ```
    /// use starpu_core::{AccessMode, Codelet, CodeletType, Config, Runtime};
    /// use std::sync::Arc;
    /// let rt = Runtime::start(Config { ncpus: Some(2), sched_policy: Some("peager".into()),
    ///                                  silent: true, ..Config::default() })?;
    /// let v = rt.register_vector(vec![1u64; 10])?;
    /// let cl = Arc::new(Codelet::new("double").modes([AccessMode::RW])
    ///     .parallel(CodeletType::Spmd, i32::MAX)
    ///     .cpu(|call| {
    ///         call.vector_part_mut::<u64>(0)?.iter_mut().for_each(|x| *x *= 2);
    ///         Ok(())
    ///     }));
    /// rt.task(&cl).buffer(&v, AccessMode::RW).submit()?;
    /// assert_eq!(rt.unregister_take::<Vec<u64>>(&v)?, vec![2u64; 10]);
    /// rt.shutdown();
    /// # Ok::<(), starpu_core::Error>(())
    /// ```
    pub fn vector_part_mut<T: Element>(&self, i: usize) -> Result<SliceMut<'_, T>> {
        let d = self.described::<VectorInterface>(i)?;
        self.check_elem::<T>(i, d.elemsize)?;
        let n = d.nx as usize;
        let (size, rank) = (self.team.0 as usize, self.team.1 as usize);
        let (base, extra) = (n / size, n % size);
        let start = rank * base + rank.min(extra);
        let len = base + usize::from(rank < extra);
        let elem = std::mem::size_of::<T>();
        let ptr = (d.ptr as *mut T).wrapping_add(start);
        let guard = self.borrow_range(i, ptr as usize, len * elem, true, true)?;
        // SAFETY: `len` live elements of type T from `start` (within the vector); the
        // other ranks' blocks do not overlap it, and no other view of this call does.
        Ok(SliceMut {
            data: unsafe { slice_from_mut(ptr, len) },
            _guard: guard,
        })
    }

    /// The per-buffer interface descriptions, as C kernels receive them
    /// (`void *buffers[]`). For faces; Rust kernels use the typed views.
    pub fn buffers(&self) -> &[*mut c_void] {
        self.buffers
    }

    pub fn nbuffers(&self) -> usize {
        self.buffers.len()
    }

    pub fn task(&self) -> &Task {
        self.task
    }

    /// The worker running the kernel.
    pub fn worker(&self) -> usize {
        self.worker
    }

    /// Which of the codelet's implementations runs.
    pub fn nimpl(&self) -> usize {
        self.nimpl
    }

    /// The data handle of buffer `i`.
    pub fn handle(&self, i: usize) -> Result<&DataHandle> {
        self.spec
            .accesses
            .get(i)
            .map(|a| &a.handle)
            .ok_or_else(|| self.no_buffer(i))
    }

    /// The mode buffer `i` is accessed in.
    pub fn mode(&self, i: usize) -> Result<AccessMode> {
        self.spec
            .accesses
            .get(i)
            .map(|a| a.mode)
            .ok_or_else(|| self.no_buffer(i))
    }

    fn no_buffer(&self, i: usize) -> Error {
        Error::invalid(format!(
            "buffer {i} does not exist (the task has {})",
            self.buffers.len()
        ))
    }

    /// The description of buffer `i` as interface `T`, `None` when it is of another
    /// interface (or there is no buffer `i`).
    pub fn interface<T: Interface>(&self, i: usize) -> Option<&T> {
        let p = *self.buffers.get(i)?;
        // SAFETY: every built-in description starts with its interface id (an i32); the
        // pointer is live for the kernel's duration.
        unsafe { (*(p as *const i32) == T::ID).then(|| &*(p as *const T)) }
    }

    /// Kernel argument `i` (given with `TaskBuilder::arg`) as a `T`.
    pub fn arg<T: Any>(&self, i: usize) -> Result<&T> {
        match &self.spec.args {
            Some(a) => a.get(i),
            None => Err(Error::invalid(format!(
                "kernel argument {i} does not exist (the task has none)"
            ))),
        }
    }

    /// The packed arguments (StarPU's `cl_arg` bytes), if the task has some.
    pub fn packed_args(&self) -> Option<&[u8]> {
        self.spec.args.as_ref()?.packed.as_deref()
    }

    /// The face's payload of the task, if it is a `T`.
    pub fn payload<T: Any>(&self) -> Option<&T> {
        self.spec.payload_as::<T>()
    }

    /// The element of variable buffer `i`, read-only.
    pub fn variable<T: Element>(&self, i: usize) -> Result<Ref<'_, T>> {
        let (ptr, guard) = self.variable_ptr::<T>(i, false)?;
        // SAFETY: the description points to one live element of type T (checked), which no
        // mutable view of this call covers (checked by `borrow`).
        Ok(Ref {
            value: unsafe { &*ptr },
            _guard: guard,
        })
    }

    /// The element of variable buffer `i`, writable (the mode must write).
    pub fn variable_mut<T: Element>(&self, i: usize) -> Result<RefMut<'_, T>> {
        let (ptr, guard) = self.variable_ptr::<T>(i, true)?;
        // SAFETY: as for `variable`, and no other view of this call covers it.
        Ok(RefMut {
            value: unsafe { &mut *ptr },
            _guard: guard,
        })
    }

    fn variable_ptr<T: Element>(&self, i: usize, mutable: bool) -> Result<(*mut T, Guard<'_>)> {
        let d = self.described::<VariableInterface>(i)?;
        self.check_elem::<T>(i, d.elemsize)?;
        let guard = self.borrow(i, d.ptr, std::mem::size_of::<T>(), mutable)?;
        Ok((d.ptr as *mut T, guard))
    }

    /// Vector buffer `i` as a slice, read-only.
    pub fn vector<T: Element>(&self, i: usize) -> Result<Slice<'_, T>> {
        let (ptr, n, guard) = self.vector_ptr::<T>(i, false)?;
        // SAFETY: n live elements of type T, no mutable view of this call over them.
        Ok(Slice {
            data: unsafe { slice_from(ptr, n) },
            _guard: guard,
        })
    }

    /// Vector buffer `i` as a mutable slice (the mode must write).
    pub fn vector_mut<T: Element>(&self, i: usize) -> Result<SliceMut<'_, T>> {
        let (ptr, n, guard) = self.vector_ptr::<T>(i, true)?;
        // SAFETY: n live elements of type T, no other view of this call over them.
        Ok(SliceMut {
            data: unsafe { slice_from_mut(ptr, n) },
            _guard: guard,
        })
    }

    fn vector_ptr<T: Element>(
        &self,
        i: usize,
        mutable: bool,
    ) -> Result<(*mut T, usize, Guard<'_>)> {
        let d = self.described::<VectorInterface>(i)?;
        self.check_elem::<T>(i, d.elemsize)?;
        let n = d.nx as usize;
        let guard = self.borrow(i, d.ptr, n * std::mem::size_of::<T>(), mutable)?;
        Ok((d.ptr as *mut T, n, guard))
    }

    /// Matrix buffer `i`: `nx` contiguous elements per row, `ny` rows `ld` apart.
    pub fn matrix<T: Element>(&self, i: usize) -> Result<Array<'_, T>> {
        let (shape, ptr, elemsize) = self.matrix_shape(i)?;
        self.array(i, ptr, elemsize, shape)
    }

    pub fn matrix_mut<T: Element>(&self, i: usize) -> Result<ArrayMut<'_, T>> {
        let (shape, ptr, elemsize) = self.matrix_shape(i)?;
        ArrayMut::upgrade(self.array(i, ptr, elemsize, shape))
    }

    fn matrix_shape(&self, i: usize) -> Result<(Shape, usize, usize)> {
        let d = self.described::<MatrixInterface>(i)?;
        Ok((Shape::new(&[d.nx, d.ny], &[d.ld]), d.ptr, d.elemsize))
    }

    /// Block buffer `i`: rows of `nx` elements, `ny` rows `ldy` apart, `nz` planes `ldz`
    /// apart.
    pub fn block<T: Element>(&self, i: usize) -> Result<Array<'_, T>> {
        let (shape, ptr, elemsize) = self.block_shape(i)?;
        self.array(i, ptr, elemsize, shape)
    }

    pub fn block_mut<T: Element>(&self, i: usize) -> Result<ArrayMut<'_, T>> {
        let (shape, ptr, elemsize) = self.block_shape(i)?;
        ArrayMut::upgrade(self.array(i, ptr, elemsize, shape))
    }

    fn block_shape(&self, i: usize) -> Result<(Shape, usize, usize)> {
        let d = self.described::<BlockInterface>(i)?;
        Ok((
            Shape::new(&[d.nx, d.ny, d.nz], &[d.ldy, d.ldz]),
            d.ptr,
            d.elemsize,
        ))
    }

    /// Tensor buffer `i` (four dimensions).
    pub fn tensor<T: Element>(&self, i: usize) -> Result<Array<'_, T>> {
        let (shape, ptr, elemsize) = self.tensor_shape(i)?;
        self.array(i, ptr, elemsize, shape)
    }

    pub fn tensor_mut<T: Element>(&self, i: usize) -> Result<ArrayMut<'_, T>> {
        let (shape, ptr, elemsize) = self.tensor_shape(i)?;
        ArrayMut::upgrade(self.array(i, ptr, elemsize, shape))
    }

    fn tensor_shape(&self, i: usize) -> Result<(Shape, usize, usize)> {
        let d = self.described::<TensorInterface>(i)?;
        Ok((
            Shape::new(&[d.nx, d.ny, d.nz, d.nt], &[d.ldy, d.ldz, d.ldt]),
            d.ptr,
            d.elemsize,
        ))
    }

    /// N-dimensional buffer `i`.
    pub fn ndim<T: Element>(&self, i: usize) -> Result<Array<'_, T>> {
        let (shape, ptr, elemsize) = self.ndim_shape(i)?;
        self.array(i, ptr, elemsize, shape)
    }

    pub fn ndim_mut<T: Element>(&self, i: usize) -> Result<ArrayMut<'_, T>> {
        let (shape, ptr, elemsize) = self.ndim_shape(i)?;
        ArrayMut::upgrade(self.array(i, ptr, elemsize, shape))
    }

    fn ndim_shape(&self, i: usize) -> Result<(Shape, usize, usize)> {
        let d = self.described::<NdimInterface>(i)?;
        let strides = d.strides();
        Ok((
            Shape::new(d.dims(), strides.get(1..).unwrap_or(&[])),
            d.ptr,
            d.elemsize,
        ))
    }

    fn array<T: Element>(
        &self,
        i: usize,
        ptr: usize,
        elemsize: usize,
        shape: Shape,
    ) -> Result<Array<'_, T>> {
        self.check_elem::<T>(i, elemsize)?;
        shape.check_layout(i)?;
        // Whether the view writes is decided by the caller; a read view is registered as
        // such and `ArrayMut::upgrade` upgrades it after checking the mode.
        let guard = self.borrow(i, ptr, shape.span() * elemsize, false)?;
        Ok(Array {
            ptr: ptr as *mut T,
            shape,
            guard,
            _t: PhantomData,
        })
    }

    /// The description of buffer `i`, which must be an `I`.
    fn described<I: Interface>(&self, i: usize) -> Result<&I> {
        let p = *self.buffers.get(i).ok_or_else(|| self.no_buffer(i))?;
        self.interface::<I>(i).ok_or_else(|| {
            // SAFETY: as in `interface`.
            let id = unsafe { *(p as *const i32) };
            Error::invalid(format!(
                "buffer {i} is not a {} (its interface id is {id})",
                I::NAME
            ))
        })
    }

    fn check_elem<T: Element>(&self, i: usize, elemsize: usize) -> Result<()> {
        let size = std::mem::size_of::<T>();
        let kind = self.handle(i)?.elem_kind();
        if elemsize != size || !kind.accepts::<T>() {
            return Err(Error::invalid(format!(
                "buffer {i} holds elements of {elemsize} bytes ({kind:?}), not {}",
                std::any::type_name::<T>()
            )));
        }
        Ok(())
    }

    /// Records a view of `len` bytes at `addr` for buffer `i`.
    fn borrow(&self, i: usize, addr: usize, len: usize, mutable: bool) -> Result<Guard<'_>> {
        self.borrow_range(i, addr, len, mutable, false)
    }

    /// `borrow`; `part`: a rank's own block (see `vector_part_mut`).
    fn borrow_range(
        &self,
        i: usize,
        addr: usize,
        len: usize,
        mutable: bool,
        part: bool,
    ) -> Result<Guard<'_>> {
        if mutable {
            self.check_writable(i)?;
        }
        if self.on_device {
            return Err(Error::invalid(format!(
                "buffer {i} is in a device's memory: the CPU cannot view it (an OpenCL \
                 implementation reads its buffers with call.opencl())"
            )));
        }
        if self.shared && !part && self.mode(i)?.writes() {
            return Err(Error::invalid(format!(
                "buffer {i} is written by an SPMD task running on {} workers at once: \
                 each rank may only view its own part (vector_part_mut)",
                self.team.0
            )));
        }
        let mut b = self.borrows.borrow_mut();
        let (start, end) = (addr, addr + len);
        let clash =
            b.1.iter()
                .any(|o| (mutable || o.mutable) && o.start < end && start < o.end && len > 0);
        if clash {
            return Err(Error::invalid(format!(
                "buffer {i}: a {} view would overlap another view of this task that {}",
                if mutable { "mutable" } else { "read" },
                if mutable { "is still alive" } else { "writes" }
            )));
        }
        b.0 += 1;
        let id = b.0;
        b.1.push(Borrow {
            id,
            start,
            end,
            mutable,
        });
        Ok(Guard {
            call: self,
            id,
            buffer: i,
        })
    }

    fn check_writable(&self, i: usize) -> Result<()> {
        let mode = self.mode(i)?;
        if mode.writes() || mode.is_scratch() {
            Ok(())
        } else {
            Err(Error::invalid(format!(
                "buffer {i} is accessed in mode {mode:?}: it cannot be written"
            )))
        }
    }
}

/// Keeps a view's borrow recorded until the view is dropped.
struct Guard<'a> {
    call: &'a KernelCall<'a>,
    id: u32,
    buffer: usize,
}

impl Guard<'_> {
    /// Turns a read borrow into a write borrow, if the mode and the other views allow.
    fn make_mutable(&self) -> Result<()> {
        self.call.check_writable(self.buffer)?;
        let mut b = self.call.borrows.borrow_mut();
        let me = *b.1.iter().find(|o| o.id == self.id).expect("live borrow");
        let clash = b
            .1
            .iter()
            .any(|o| o.id != self.id && o.start < me.end && me.start < o.end && me.end > me.start);
        if clash {
            return Err(Error::invalid(format!(
                "buffer {}: a mutable view would overlap another view of this task",
                self.buffer
            )));
        }
        for o in b.1.iter_mut().filter(|o| o.id == self.id) {
            o.mutable = true;
        }
        Ok(())
    }
}

impl Drop for Guard<'_> {
    fn drop(&mut self) {
        if let Ok(mut b) = self.call.borrows.try_borrow_mut() {
            b.1.retain(|o| o.id != self.id);
        }
    }
}

/// # Safety
/// `ptr` points to `n` live, initialised `T`s (or `n` is 0).
unsafe fn slice_from<'a, T>(ptr: *const T, n: usize) -> &'a [T] {
    if n == 0 || ptr.is_null() {
        &[]
    } else {
        std::slice::from_raw_parts(ptr, n)
    }
}

/// # Safety
/// As `slice_from`, and nothing else refers to those elements for `'a`.
unsafe fn slice_from_mut<'a, T>(ptr: *mut T, n: usize) -> &'a mut [T] {
    if n == 0 || ptr.is_null() {
        &mut []
    } else {
        std::slice::from_raw_parts_mut(ptr, n)
    }
}

/// A read-only view of a variable's element.
pub struct Ref<'a, T> {
    value: &'a T,
    _guard: Guard<'a>,
}

impl<T> std::ops::Deref for Ref<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        self.value
    }
}

/// A writable view of a variable's element.
pub struct RefMut<'a, T> {
    value: &'a mut T,
    _guard: Guard<'a>,
}

impl<T> std::ops::Deref for RefMut<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        self.value
    }
}

impl<T> std::ops::DerefMut for RefMut<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        self.value
    }
}

/// A read-only view of a vector.
pub struct Slice<'a, T> {
    data: &'a [T],
    _guard: Guard<'a>,
}

impl<T> std::ops::Deref for Slice<'_, T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        self.data
    }
}

/// A writable view of a vector.
pub struct SliceMut<'a, T> {
    data: &'a mut [T],
    _guard: Guard<'a>,
}

impl<T> std::ops::Deref for SliceMut<'_, T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        self.data
    }
}

impl<T> std::ops::DerefMut for SliceMut<'_, T> {
    fn deref_mut(&mut self) -> &mut [T] {
        self.data
    }
}

/// Dimensions and leading dimensions (in elements) of a dense array.
#[derive(Debug, Clone)]
struct Shape {
    dims: SmallVec<[usize; 4]>,
    /// Distance between consecutive indices of dimension k + 1 (dimension 0 is contiguous).
    lds: SmallVec<[usize; 4]>,
}

impl Shape {
    fn new(dims: &[u32], lds: &[u32]) -> Shape {
        Shape {
            dims: dims.iter().map(|&d| d as usize).collect(),
            lds: lds.iter().map(|&l| l as usize).collect(),
        }
    }

    fn is_empty(&self) -> bool {
        self.dims.contains(&0)
    }

    /// Elements from the first to one past the last.
    fn span(&self) -> usize {
        if self.is_empty() {
            return 0;
        }
        1 + (self.dims[0] - 1)
            + self
                .dims
                .iter()
                .skip(1)
                .zip(&self.lds)
                .map(|(&d, &ld)| (d - 1) * ld)
                .sum::<usize>()
    }

    /// Rows never overlap: each leading dimension covers everything inside it.
    fn check_layout(&self, buffer: usize) -> Result<()> {
        if self.lds.len() + 1 < self.dims.len() {
            return Err(Error::invalid(format!(
                "buffer {buffer}: {} dimensions but {} leading dimensions",
                self.dims.len(),
                self.lds.len()
            )));
        }
        let mut extent = self.dims.first().copied().unwrap_or(0);
        for (k, &ld) in self.lds.iter().take(self.dims.len() - 1).enumerate() {
            if ld < extent && !self.is_empty() {
                return Err(Error::invalid(format!(
                    "buffer {buffer}: leading dimension {} is {ld}, less than the {extent} \
                     elements it must span",
                    k + 1
                )));
            }
            extent = ld * self.dims[k + 1];
        }
        Ok(())
    }

    fn nrows(&self) -> usize {
        if self.is_empty() {
            0
        } else {
            self.dims.iter().skip(1).product()
        }
    }

    /// Offset in elements of row `r` (rows numbered along dimension 1 first).
    fn row_offset(&self, mut r: usize) -> usize {
        let mut off = 0;
        for (k, &d) in self.dims.iter().enumerate().skip(1) {
            off += (r % d) * self.lds[k - 1];
            r /= d;
        }
        off
    }

    fn offset(&self, idx: &[usize]) -> Option<usize> {
        if idx.len() != self.dims.len() || idx.iter().zip(&self.dims).any(|(i, d)| i >= d) {
            return None;
        }
        Some(
            idx[0]
                + idx[1..]
                    .iter()
                    .zip(&self.lds)
                    .map(|(i, ld)| i * ld)
                    .sum::<usize>(),
        )
    }
}

/// A read-only view of a dense array (matrix, block, tensor, ndim).
///
/// Rows are the contiguous runs along dimension 0; they are numbered along dimension 1
/// first, then 2, and so on: row `y + ny * z` of a block is the run at `(·, y, z)`.
pub struct Array<'a, T> {
    ptr: *mut T,
    shape: Shape,
    guard: Guard<'a>,
    _t: PhantomData<&'a T>,
}

impl<'a, T: Element> Array<'a, T> {
    /// Number of elements along each dimension (`[nx, ny]` for a matrix).
    pub fn dims(&self) -> &[usize] {
        &self.shape.dims
    }

    /// Elements along dimension 0 (a row's length).
    pub fn nx(&self) -> usize {
        self.shape.dims.first().copied().unwrap_or(0)
    }

    /// Elements along dimension 1 (1 for a one-dimensional array).
    pub fn ny(&self) -> usize {
        self.shape.dims.get(1).copied().unwrap_or(1)
    }

    /// Leading dimensions: distance in elements between consecutive indices of
    /// dimensions 1, 2, ... (`[ld]` for a matrix).
    pub fn lds(&self) -> &[usize] {
        &self.shape.lds
    }

    pub fn nrows(&self) -> usize {
        self.shape.nrows()
    }

    /// Row `r` (see the type's documentation for the numbering).
    pub fn row(&self, r: usize) -> &[T] {
        assert!(r < self.nrows(), "row {r} of {}", self.nrows());
        // SAFETY: the layout was checked: row r lies inside the data, nx elements long.
        unsafe { slice_from(self.ptr.add(self.shape.row_offset(r)), self.nx()) }
    }

    pub fn rows(&self) -> impl Iterator<Item = &[T]> + '_ {
        (0..self.nrows()).map(|r| self.row(r))
    }

    /// The element at `idx` (one index per dimension).
    pub fn get(&self, idx: &[usize]) -> T {
        let off = self
            .shape
            .offset(idx)
            .unwrap_or_else(|| panic!("index {idx:?} outside {:?}", self.shape.dims));
        // SAFETY: the offset is inside the checked layout.
        unsafe { *self.ptr.add(off) }
    }

    /// Every element, row after row.
    pub fn to_vec(&self) -> Vec<T> {
        self.rows().flatten().copied().collect()
    }
}

/// A writable view of a dense array; rows as for [`Array`].
pub struct ArrayMut<'a, T>(Array<'a, T>);

impl<'a, T: Element> ArrayMut<'a, T> {
    fn upgrade(a: Result<Array<'a, T>>) -> Result<ArrayMut<'a, T>> {
        let a = a?;
        a.guard.make_mutable()?;
        Ok(ArrayMut(a))
    }

    pub fn row_mut(&mut self, r: usize) -> &mut [T] {
        assert!(r < self.0.nrows(), "row {r} of {}", self.0.nrows());
        // SAFETY: rows do not overlap (checked layout) and this view is the only one over
        // the data; the borrow of self keeps the row unique.
        unsafe { slice_from_mut(self.0.ptr.add(self.0.shape.row_offset(r)), self.0.nx()) }
    }

    /// Every row, mutably, in order.
    pub fn rows_mut(&mut self) -> impl Iterator<Item = &mut [T]> + '_ {
        let (ptr, nx) = (self.0.ptr, self.0.nx());
        let shape = &self.0.shape;
        // SAFETY: distinct rows are disjoint (checked layout), so handing them out together
        // creates no aliasing; they borrow self for their lifetime.
        (0..shape.nrows()).map(move |r| unsafe { slice_from_mut(ptr.add(shape.row_offset(r)), nx) })
    }

    pub fn set(&mut self, idx: &[usize], value: T) {
        let off = self
            .0
            .shape
            .offset(idx)
            .unwrap_or_else(|| panic!("index {idx:?} outside {:?}", self.0.shape.dims));
        // SAFETY: inside the checked layout, and this view is unique.
        unsafe { *self.0.ptr.add(off) = value };
    }
}

impl<'a, T> std::ops::Deref for ArrayMut<'a, T> {
    type Target = Array<'a, T>;
    fn deref(&self) -> &Array<'a, T> {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_numbered_along_dimension_1_then_2() {
        let s = Shape::new(&[2, 3, 2], &[4, 16]);
        assert_eq!(s.nrows(), 6);
        assert_eq!(s.row_offset(0), 0);
        assert_eq!(s.row_offset(2), 8);
        assert_eq!(s.row_offset(3), 16);
        assert_eq!(s.row_offset(5), 16 + 8);
        assert_eq!(s.span(), 16 + 8 + 2);
        assert_eq!(s.offset(&[1, 2, 1]), Some(1 + 8 + 16));
        assert_eq!(s.offset(&[2, 0, 0]), None);
    }

    #[test]
    fn overlapping_layouts_are_refused() {
        assert!(Shape::new(&[4, 3], &[4]).check_layout(0).is_ok());
        assert!(Shape::new(&[4, 3], &[3]).check_layout(0).is_err());
        assert!(Shape::new(&[2, 3, 2], &[2, 5]).check_layout(0).is_err());
        assert!(Shape::new(&[2, 3, 2], &[2, 6]).check_layout(0).is_ok());
    }
}
