//! Registering data: from owned Rust memory (given back at unregistration), from foreign
//! memory kept alive by an owner object, or with no home buffer at all (the runtime
//! allocates it when first used, StarPU's home node -1).

use crate::data::interfaces::{
    BcsrInterface, BlockInterface, CooInterface, CsrInterface, Description, Interface,
    MatrixInterface, NdimInterface, TensorInterface, VariableInterface, VectorInterface,
    VoidInterface,
};
use crate::data::{registry, Buffer, Coo, Csr, DataHandle, ElemKind, Element, Origin};
use crate::error::{Error, Result};
use crate::memory::{self, NodeId};
use crate::runtime::Runtime;
use std::any::Any;

fn u32_of(what: &str, v: usize) -> Result<u32> {
    u32::try_from(v).map_err(|_| Error::invalid(format!("registration: {what} {v} is too large")))
}

/// Elements from the first to one past the last of a nested dense layout, checking that
/// each leading dimension covers the dimensions inside it.
fn dense_span(dims: &[usize], lds: &[usize]) -> Result<usize> {
    if dims.contains(&0) {
        return Ok(0);
    }
    let mut extent = dims[0];
    let mut last = dims[0] - 1;
    for (k, &ld) in lds.iter().enumerate() {
        if ld < extent {
            return Err(Error::invalid(format!(
                "registration: leading dimension {} is {ld}, less than the {extent} elements \
                 it must span",
                k + 1
            )));
        }
        last += (dims[k + 1] - 1) * ld;
        extent = ld * dims[k + 1];
    }
    Ok(last + 1)
}

/// Dimensions named by their kind alone in errors.
const UNNAMED: (&[&str], &[&str]) = (&[], &[]);

fn check_len(len: usize, needed: usize) -> Result<()> {
    if len < needed {
        return Err(Error::invalid(format!(
            "registration: the buffer has {len} elements, the layout needs {needed}"
        )));
    }
    Ok(())
}

impl Runtime {
    /// Registers a variable holding `value`; `unregister_take::<T>()` gives it back.
    ///
    /// ```
    /// use starpu_core::{AccessMode, Codelet, Config, Runtime};
    /// let rt = Runtime::start(Config { ncpus: Some(1), silent: true, ..Config::default() })?;
    /// let x = rt.register_variable(40i64)?;
    /// let add = std::sync::Arc::new(Codelet::new("add").modes([AccessMode::RW]).cpu(|call| {
    ///     *call.variable_mut::<i64>(0)? += *call.arg::<i64>(0)?;
    ///     Ok(())
    /// }));
    /// rt.task(&add).buffer(&x, AccessMode::RW).arg(2i64).submit()?;
    /// assert_eq!(rt.unregister_take::<i64>(&x)?, 42);
    /// rt.shutdown();
    /// # Ok::<(), starpu_core::Error>(())
    /// ```
    pub fn register_variable<T: Element>(&self, value: T) -> Result<DataHandle> {
        let mut owner = Box::new(value);
        let ptr = &mut *owner as *mut T as usize;
        let iface = VariableInterface::new(ptr, std::mem::size_of::<T>());
        // SAFETY: the box owns the element and is kept with the handle.
        unsafe { self.register_owned(iface, T::KIND, owner) }
    }

    /// Registers a vector over `data` (a `Vec<T>` or a `Box<[T]>`), given back by
    /// `unregister_take` as the same type.
    pub fn register_vector<T: Element, B: Buffer<T>>(&self, mut data: B) -> Result<DataHandle> {
        let iface = VectorInterface::new(
            data.as_mut_ptr() as usize,
            u32_of("vector length", data.len())?,
            std::mem::size_of::<T>(),
        );
        // SAFETY: `data` owns the elements and is kept with the handle.
        unsafe { self.register_owned(iface, T::KIND, Box::new(data)) }
    }

    /// Registers an `nx` x `ny` matrix over `data`: row `y` (StarPU's column) is the `nx`
    /// elements starting at `y * ld`.
    pub fn register_matrix<T: Element, B: Buffer<T>>(
        &self,
        data: B,
        nx: usize,
        ny: usize,
        ld: usize,
    ) -> Result<DataHandle> {
        let names = (&["nx", "ny"][..], &["ld"][..]);
        self.register_dense(data, &[nx, ny], &[ld], names, |ptr, d, l, size| {
            MatrixInterface::new(ptr, l[0], d[0], d[1], size)
        })
    }

    /// Registers an `nx` x `ny` x `nz` block over `data` with leading dimensions
    /// `ldy` (between rows) and `ldz` (between planes).
    pub fn register_block<T: Element, B: Buffer<T>>(
        &self,
        data: B,
        dims: [usize; 3],
        lds: [usize; 2],
    ) -> Result<DataHandle> {
        let names = (&["nx", "ny", "nz"][..], &["ldy", "ldz"][..]);
        self.register_dense(data, &dims, &lds, names, |ptr, d, l, size| {
            BlockInterface::new(ptr, l[0], l[1], d[0], d[1], d[2], size)
        })
    }

    /// Registers a four-dimensional tensor over `data`.
    pub fn register_tensor<T: Element, B: Buffer<T>>(
        &self,
        data: B,
        dims: [usize; 4],
        lds: [usize; 3],
    ) -> Result<DataHandle> {
        self.register_dense(data, &dims, &lds, UNNAMED, |ptr, d, l, size| {
            TensorInterface::new(ptr, [l[0], l[1], l[2]], [d[0], d[1], d[2], d[3]], size)
        })
    }

    /// Registers an array of `dims.len()` dimensions over `data`; `lds[k]` is the distance
    /// between consecutive indices of dimension `k + 1` (dimension 0 is contiguous).
    pub fn register_ndim<T: Element, B: Buffer<T>>(
        &self,
        data: B,
        dims: &[usize],
        lds: &[usize],
    ) -> Result<DataHandle> {
        if dims.is_empty() || lds.len() + 1 != dims.len() {
            return Err(Error::invalid(format!(
                "registration: {} dimensions need {} leading dimensions, {} given",
                dims.len(),
                dims.len().saturating_sub(1),
                lds.len()
            )));
        }
        self.register_dense(data, dims, lds, UNNAMED, |ptr, d, l, size| {
            let ldn: Vec<u32> = std::iter::once(1).chain(l.iter().copied()).collect();
            NdimInterface::new(ptr, d, &ldn, size)
        })
    }

    /// Registers `data`, laid out in `dims` with leading dimensions `lds` (checked against
    /// its length; `names` name them in errors), as the interface `describe` makes of its
    /// address, the sizes as `u32` and the element size.
    fn register_dense<T: Element, B: Buffer<T>, I: Interface>(
        &self,
        mut data: B,
        dims: &[usize],
        lds: &[usize],
        names: (&[&str], &[&str]),
        describe: impl FnOnce(usize, &[u32], &[u32], usize) -> I,
    ) -> Result<DataHandle> {
        check_len(data.len(), dense_span(dims, lds)?)?;
        let narrow = |values: &[usize], names: &[&str], what: &'static str| {
            values
                .iter()
                .enumerate()
                .map(|(k, &v)| u32_of(names.get(k).copied().unwrap_or(what), v))
                .collect::<Result<Vec<u32>>>()
        };
        let d = narrow(dims, names.0, "dimension")?;
        let l = narrow(lds, names.1, "leading dimension")?;
        let iface = describe(data.as_mut_ptr() as usize, &d, &l, std::mem::size_of::<T>());
        // SAFETY: `data` owns the elements (length checked) and is kept with the handle.
        unsafe { self.register_owned(iface, T::KIND, Box::new(data)) }
    }

    /// Registers a CSR sparse matrix of `rowptr.len() - 1` rows.
    pub fn register_csr<T: Element>(&self, csr: Csr<T>, firstentry: u32) -> Result<DataHandle> {
        let nrow = check_sparse(&csr, 1, firstentry)?;
        let mut csr = Box::new(csr);
        let iface = CsrInterface::new(
            u32_of("nnz", csr.colind.len())?,
            nrow,
            csr.nzval.as_mut_ptr() as usize,
            csr.colind.as_mut_ptr(),
            csr.rowptr.as_mut_ptr(),
            firstentry,
            std::mem::size_of::<T>(),
        );
        // SAFETY: the arrays are owned by the box kept with the handle; lengths checked.
        unsafe { self.register_owned(iface, T::KIND, csr) }
    }

    /// Registers a BCSR sparse matrix of `r` x `c` blocks.
    pub fn register_bcsr<T: Element>(
        &self,
        csr: Csr<T>,
        firstentry: u32,
        r: usize,
        c: usize,
    ) -> Result<DataHandle> {
        let nrow = check_sparse(&csr, r * c, firstentry)?;
        let mut csr = Box::new(csr);
        let iface = BcsrInterface::new(
            u32_of("nnz", csr.colind.len())?,
            nrow,
            csr.nzval.as_mut_ptr() as usize,
            csr.colind.as_mut_ptr(),
            csr.rowptr.as_mut_ptr(),
            firstentry,
            u32_of("r", r)?,
            u32_of("c", c)?,
            std::mem::size_of::<T>(),
        );
        // SAFETY: as for `register_csr`.
        unsafe { self.register_owned(iface, T::KIND, csr) }
    }

    /// Registers an `nx` x `ny` COO sparse matrix.
    pub fn register_coo<T: Element>(
        &self,
        coo: Coo<T>,
        nx: usize,
        ny: usize,
    ) -> Result<DataHandle> {
        let n = coo.values.len();
        if coo.rows.len() != n || coo.columns.len() != n {
            return Err(Error::invalid(format!(
                "registration: COO arrays differ in length ({n} values, {} rows, {} columns)",
                coo.rows.len(),
                coo.columns.len()
            )));
        }
        let mut coo = Box::new(coo);
        let iface = CooInterface::new(
            u32_of("nx", nx)?,
            u32_of("ny", ny)?,
            u32_of("number of values", n)?,
            coo.columns.as_mut_ptr(),
            coo.rows.as_mut_ptr(),
            coo.values.as_mut_ptr() as usize,
            std::mem::size_of::<T>(),
        );
        // SAFETY: as for `register_csr`.
        unsafe { self.register_owned(iface, T::KIND, coo) }
    }

    /// Registers data without content, used only for dependencies (`starpu_void_data_register`).
    pub fn register_void(&self) -> Result<DataHandle> {
        // SAFETY: a void description has no buffer.
        unsafe {
            self.register_description(
                Some(memory::MAIN_RAM),
                Description::new(VoidInterface::new()),
                Origin::default(),
            )
        }
    }

    /// Registers data of the shape `iface` describes with no home buffer: the runtime
    /// allocates it where a task first needs it (StarPU's home node -1). The description's
    /// pointers are ignored.
    pub fn register_lazy<I: Interface>(&self, iface: I, elem: ElemKind) -> Result<DataHandle> {
        let desc = Description::new(iface.without_buffers());
        // SAFETY: with no home node, the description's buffers are never read.
        unsafe { self.register_description(None, desc, Origin { elem, owner: None }) }
    }

    /// Registers memory the runtime does not own (a numpy array, a Java direct buffer, a C
    /// or Fortran array) on main memory. `owner`, if given, is kept alive while the data is
    /// registered and dropped when it is unregistered (or given back by `unregister_take`).
    ///
    /// # Safety
    /// The buffers `iface` points to must be valid for its shape, of element type `elem`
    /// when it is not `Unknown`, and stay valid and otherwise unused while the handle is
    /// registered (the owner may guarantee it).
    pub unsafe fn register_foreign<I: Interface>(
        &self,
        iface: I,
        elem: ElemKind,
        owner: Option<Box<dyn Any + Send + Sync>>,
    ) -> Result<DataHandle> {
        self.register_description(
            Some(memory::MAIN_RAM),
            Description::new(iface),
            Origin { elem, owner },
        )
    }

    /// # Safety
    /// As `register_foreign`, with `owner` owning the buffers.
    unsafe fn register_owned<I: Interface>(
        &self,
        iface: I,
        elem: ElemKind,
        owner: Box<dyn Any + Send + Sync>,
    ) -> Result<DataHandle> {
        self.register_foreign(iface, elem, Some(owner))
    }

    /// Registers a type-erased description (C callers, custom interfaces) whose buffers
    /// live on `home` (`None`: allocated on first use).
    ///
    /// # Safety
    /// With a home node, as for `register_foreign`.
    pub unsafe fn register_description(
        &self,
        home: Option<NodeId>,
        desc: Description,
        origin: Origin,
    ) -> Result<DataHandle> {
        self.check_accepting()?;
        if let Some(n) = home {
            if self.memory.kind(n).is_none() {
                return Err(Error::invalid(format!(
                    "registration: home node {n} does not exist"
                )));
            }
            // (An application-defined interface may not tell where its buffers are.)
            let builtin = desc.ops().id() < crate::data::interfaces::id::MAX;
            if builtin && desc.data_ptr() == 0 && desc.data_size() > 0 {
                return Err(Error::invalid(format!(
                    "registration: {} registered on node {n} with a NULL buffer (use no home \
                     node to let the runtime allocate it)",
                    desc.describe()
                )));
            }
        }
        let h = DataHandle::new(
            &self.memory,
            home,
            desc,
            self.default_sequential_consistency(),
            origin,
        );
        registry::publish(&h);
        Ok(h)
    }

    /// Registers new data of the same interface and shape as `like`, without a home buffer
    /// (`starpu_data_register_same`): the runtime allocates it when first used.
    pub fn register_like(&self, like: &DataHandle) -> Result<DataHandle> {
        let desc = like.home_description();
        // SAFETY: the description's buffers are cleared: nothing is read through them.
        unsafe {
            desc.ops().clear_buffers(desc.ptr());
            self.register_description(
                None,
                desc,
                Origin {
                    elem: like.elem_kind(),
                    owner: None,
                },
            )
        }
    }

    /// Unregisters `h` (waiting for its tasks, bringing its value home) and gives back the
    /// memory it was registered from, as the type it was registered as (`T` for a
    /// variable, the `Vec<T>` or `Box<[T]>` of a vector or dense array, [`Csr`], [`Coo`]).
    /// If `h` was not registered from an `O`, nothing happens and an error says so.
    pub fn unregister_take<O: Any>(&self, h: &DataHandle) -> Result<O> {
        self.unregister_take_as(h, true)
    }

    /// `unregister_take`; with `coherent` false the value is not brought home first
    /// (`starpu_data_unregister_no_coherency`).
    pub fn unregister_take_as<O: Any>(&self, h: &DataHandle, coherent: bool) -> Result<O> {
        if !h.owner_is::<O>() {
            return Err(Error::invalid(format!(
                "unregistration: data {} was not registered from a {}",
                h.label(),
                std::any::type_name::<O>()
            )));
        }
        let owner = self.unregister_owned(h, coherent)?;
        owner
            .and_then(|o| o.downcast::<O>().ok())
            .map(|b| *b)
            .ok_or_else(|| {
                Error::invalid(format!(
                    "unregistration: the memory of data {} was taken already",
                    h.label()
                ))
            })
    }
}

/// Checks a CSR/BCSR matrix's arrays agree; returns its number of (block) rows.
fn check_sparse<T>(csr: &Csr<T>, per_entry: usize, firstentry: u32) -> Result<u32> {
    let nnz = csr.colind.len();
    let bad = |why: String| {
        Err(Error::invalid(format!(
            "registration: sparse matrix: {why}"
        )))
    };
    if csr.rowptr.is_empty() {
        return bad("rowptr must hold one entry per row plus one".into());
    }
    if csr.nzval.len() != nnz * per_entry {
        return bad(format!(
            "{} values for {nnz} entries of {per_entry} value(s)",
            csr.nzval.len()
        ));
    }
    let past_end = csr
        .rowptr
        .last()
        .copied()
        .unwrap_or(0)
        .checked_sub(firstentry);
    if csr.rowptr.windows(2).any(|w| w[0] > w[1]) || past_end.is_none_or(|e| e as usize > nnz) {
        return bad(
            "rowptr must be non-decreasing, from firstentry to at most nnz after it".into(),
        );
    }
    u32_of("rows", csr.rowptr.len() - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_layouts_are_checked() {
        assert_eq!(dense_span(&[3, 2], &[4]).unwrap(), 7);
        assert!(dense_span(&[3, 2], &[2]).is_err());
        assert_eq!(dense_span(&[2, 2, 2], &[2, 4]).unwrap(), 8);
        assert_eq!(dense_span(&[0, 2], &[1]).unwrap(), 0);
    }
}
