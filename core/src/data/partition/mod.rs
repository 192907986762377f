//! Partitioning: cutting a handle into children that tasks use instead of it.
//!
//! Two ways, as in StarPU:
//! - synchronous (`sync.rs`, `starpu_data_partition` / `starpu_data_unpartition`): the
//!   parent is cut once the tasks using it are done, and may not be used until it is
//!   gathered back;
//! - asynchronous plans (`plan.rs`, `switch.rs`, `implicit.rs`,
//!   `starpu_data_partition_plan` and the `*_submit` calls): any number of ways to cut a
//!   handle are planned up front; switching between the whole data and one (read-write)
//!   or several (read-only) sets of children is a task ordered with the others, submitted
//!   explicitly or by the runtime itself when a task uses a view that is not active.
//!
//! Children describe parts of the parent's buffers (no copy): `children.rs` builds them.
//! `Filter` says how to cut; the standard filters are in `data::filters`.

mod children;
pub(crate) use children::{check_filter, main_node, make_children};
pub(crate) mod plan;

pub(crate) use plan::PlanLinks;
pub use plan::SwitchOptions;

use super::filters::{block, matrix, ndim, sparse, tensor, vector};
use super::interfaces::{
    ops_of, BcsrInterface, BlockInterface, CsrInterface, Interface, InterfaceOps, MatrixInterface,
    NdimInterface, TensorInterface, VariableInterface, VectorInterface,
};
use super::DataHandle;
use crate::error::{Error, Result};

/// Fills child `id` (of `nparts`) from the parent's description; both are C interface
/// structs (the parent's of its interface, the child's of `child_ops`' or the parent's).
pub type FilterFn = dyn Fn(*const u8, *mut u8, usize, usize) -> Result<()> + Send + Sync;

/// The interface type of child `id`, when it differs from the parent's (pick filters).
pub type ChildOpsFn = dyn Fn(usize) -> Option<&'static dyn InterfaceOps> + Send + Sync;

/// How many children a filter makes of a given handle, when that depends on the data
/// (StarPU's `get_nchildren`).
pub type CountFn = dyn Fn(&DataHandle) -> Result<usize> + Send + Sync;

/// A picking filter of `filters::ndim`: (parent, child, dim, child id, first index).
type NdimPick<C> = fn(&NdimInterface, &mut C, usize, usize, u64) -> Result<()>;

/// How to cut a handle (StarPU's `struct starpu_data_filter`, in Rust terms).
///
/// ```
/// use starpu_core::{data::Filter, AccessMode, Codelet, Config, Runtime};
/// let rt = Runtime::start(Config { ncpus: Some(2), silent: true, ..Config::default() })?;
/// let v = rt.register_vector((0..10).collect::<Vec<i64>>())?;
/// let parts = rt.partition(&v, &Filter::vector_block(3))?;
/// let twice = std::sync::Arc::new(Codelet::new("twice").modes([AccessMode::RW]).cpu(|call| {
///     call.vector_mut::<i64>(0)?.iter_mut().for_each(|x| *x *= 2);
///     Ok(())
/// }));
/// for p in &parts {
///     rt.task(&twice).buffer(p, AccessMode::RW).submit()?;
/// }
/// rt.unpartition(&v, 0)?;
/// assert_eq!(rt.unregister_take::<Vec<i64>>(&v)?, (0..10).map(|x| 2 * x).collect::<Vec<_>>());
/// rt.shutdown();
/// # Ok::<(), starpu_core::Error>(())
/// ```
pub struct Filter {
    pub nchildren: usize,
    pub apply: Box<FilterFn>,
    pub child_ops: Option<Box<ChildOpsFn>>,
    /// The interface the parent must be of (`None`: any; raw filters check for themselves).
    pub parent_id: Option<i32>,
    /// Overrides `nchildren` with a count computed from the data.
    pub count: Option<Box<CountFn>>,
}

impl Filter {
    /// A filter working on the raw C descriptions (what C filter functions need).
    pub fn raw(
        nchildren: usize,
        apply: impl Fn(*const u8, *mut u8, usize, usize) + Send + Sync + 'static,
    ) -> Filter {
        Filter {
            nchildren,
            apply: Box::new(move |p, c, id, n| {
                apply(p, c, id, n);
                Ok(())
            }),
            child_ops: None,
            parent_id: None,
            count: None,
        }
    }

    /// A filter from parent interface `P` to child interface `C`:
    /// `f(parent, child, id, nchildren)` fills child `id`.
    pub fn typed<P: Interface, C: Interface>(
        nchildren: usize,
        f: impl Fn(&P, &mut C, usize, usize) + Send + Sync + 'static,
    ) -> Filter {
        Filter::checked::<P, C>(nchildren, move |p, c, id, n| {
            f(p, c, id, n);
            Ok(())
        })
    }

    /// Like `typed`, for a filter that may refuse (a part that does not exist, a position
    /// outside the data...): its error fails the partitioning.
    pub fn checked<P: Interface, C: Interface>(
        nchildren: usize,
        f: impl Fn(&P, &mut C, usize, usize) -> Result<()> + Send + Sync + 'static,
    ) -> Filter {
        let apply = move |parent: *const u8, child: *mut u8, id: usize, n: usize| {
            // SAFETY: partitioning checks the parent is a P (parent_id) and makes each
            // child's description of the child ops' type, C.
            unsafe { f(&*(parent as *const P), &mut *(child as *mut C), id, n) }
        };
        Filter {
            nchildren,
            apply: Box::new(apply),
            child_ops: (P::ID != C::ID).then(|| {
                let ops = ops_of::<C>();
                Box::new(move |_| Some(ops)) as Box<ChildOpsFn>
            }),
            parent_id: Some(P::ID),
            count: None,
        }
    }

    /// How many children this filter makes of `h`.
    pub fn nchildren_for(&self, h: &DataHandle) -> Result<usize> {
        let n = match &self.count {
            Some(count) => {
                crate::worker::as_callback("the filter's child count", None, || count(h))
                    .map_err(|e| Error::invalid(format!("partitioning: {e}")))??
            }
            None => self.nchildren,
        };
        if n == 0 {
            return Err(Error::invalid(
                "partitioning: a filter must make at least one child (nchildren is 0)",
            ));
        }
        Ok(n)
    }

    // Vector filters.

    /// `starpu_vector_filter_block`: `n` contiguous, nearly equal parts.
    pub fn vector_block(n: usize) -> Filter {
        Filter::checked(n, vector::block)
    }

    /// `starpu_vector_filter_block_shadow`: parts overlapping by `shadow` elements on each
    /// side (read-only use).
    pub fn vector_block_shadow(n: usize, shadow: u32) -> Filter {
        Filter::checked(n, move |p, c, id, n| {
            vector::block_shadow(p, c, id, n, shadow)
        })
    }

    /// `starpu_vector_filter_list`: parts of the given lengths.
    pub fn vector_list(lengths: Vec<u32>) -> Filter {
        Filter::checked(lengths.len(), move |p, c, id, _| {
            vector::list(p, c, id, &lengths)
        })
    }

    /// `starpu_vector_filter_list_long`: parts of the given lengths (C `long`s).
    pub fn vector_list_long(lengths: Vec<i64>) -> Filter {
        let n = lengths.len();
        let parsed: std::result::Result<Vec<u32>, _> =
            lengths.iter().map(|&l| u32::try_from(l)).collect();
        Filter::checked(n, move |p, c, id, _| match &parsed {
            Ok(l) => vector::list(p, c, id, l),
            Err(_) => Err(Error::invalid(format!(
                "part lengths must be between 0 and 2^32-1: {lengths:?}"
            ))),
        })
    }

    /// `starpu_vector_filter_divide_in_2`: the first `len_first` elements, then the rest.
    pub fn vector_divide_in_2(len_first: u32) -> Filter {
        Filter::checked(2, move |p, c, id, _| {
            vector::divide_in_2(p, c, id, len_first)
        })
    }

    /// `starpu_vector_filter_pick_variable`: `n` variables, elements `first`, `first+1`...
    pub fn vector_pick_variable(n: usize, first: u64) -> Filter {
        Filter::checked::<VectorInterface, VariableInterface>(n, move |p, c, id, _| {
            vector::pick_variable(p, c, id, first)
        })
    }

    // Matrix filters.

    /// `starpu_matrix_filter_block`: `n` parts along dimension 0 (`nx`).
    pub fn matrix_block(n: usize) -> Filter {
        Filter::checked(n, matrix::block)
    }

    /// `starpu_matrix_filter_block_shadow`.
    pub fn matrix_block_shadow(n: usize, shadow: u32) -> Filter {
        Filter::checked(n, move |p, c, id, n| {
            matrix::block_shadow(p, c, id, n, shadow)
        })
    }

    /// `starpu_matrix_filter_vertical_block`: `n` parts along dimension 1 (`ny`).
    pub fn matrix_vertical_block(n: usize) -> Filter {
        Filter::checked(n, matrix::vertical_block)
    }

    /// `starpu_matrix_filter_vertical_block_shadow`.
    pub fn matrix_vertical_block_shadow(n: usize, shadow: u32) -> Filter {
        Filter::checked(n, move |p, c, id, n| {
            matrix::vertical_block_shadow(p, c, id, n, shadow)
        })
    }

    /// `starpu_matrix_filter_pick_vector_y`: `n` vectors, columns `first`, `first+1`...
    pub fn matrix_pick_vector_y(n: usize, first: u64) -> Filter {
        Filter::checked::<MatrixInterface, VectorInterface>(n, move |p, c, id, _| {
            matrix::pick_vector_y(p, c, id, first)
        })
    }

    /// `starpu_matrix_filter_pick_variable`: the element at (x, y), in each of `n`
    /// children (StarPU gives every child the same element).
    pub fn matrix_pick_variable(n: usize, pos: [u32; 2]) -> Filter {
        Filter::checked::<MatrixInterface, VariableInterface>(n, move |p, c, _, _| {
            matrix::pick_variable(p, c, pos)
        })
    }

    // Block filters.

    /// `starpu_block_filter_block`: `n` parts along x.
    pub fn block_block(n: usize) -> Filter {
        Self::block_split(n, 0, 0)
    }

    /// `starpu_block_filter_block_shadow`.
    pub fn block_block_shadow(n: usize, shadow: u32) -> Filter {
        Self::block_split(n, 0, shadow)
    }

    /// `starpu_block_filter_vertical_block`: `n` parts along y.
    pub fn block_vertical_block(n: usize) -> Filter {
        Self::block_split(n, 1, 0)
    }

    /// `starpu_block_filter_vertical_block_shadow`.
    pub fn block_vertical_block_shadow(n: usize, shadow: u32) -> Filter {
        Self::block_split(n, 1, shadow)
    }

    /// `starpu_block_filter_depth_block`: `n` parts along z.
    pub fn block_depth_block(n: usize) -> Filter {
        Self::block_split(n, 2, 0)
    }

    /// `starpu_block_filter_depth_block_shadow`.
    pub fn block_depth_block_shadow(n: usize, shadow: u32) -> Filter {
        Self::block_split(n, 2, shadow)
    }

    fn block_split(n: usize, axis: usize, shadow: u32) -> Filter {
        Filter::checked::<BlockInterface, BlockInterface>(n, move |p, c, id, n| {
            block::split(p, c, axis, id, n, shadow)
        })
    }

    /// `starpu_block_filter_pick_matrix_z`: `n` x-y planes from z = `first`.
    pub fn block_pick_matrix_z(n: usize, first: u64) -> Filter {
        Filter::checked::<BlockInterface, MatrixInterface>(n, move |p, c, id, _| {
            block::pick_matrix_z(p, c, id, first)
        })
    }

    /// `starpu_block_filter_pick_matrix_y`: `n` x-z planes from y = `first`.
    pub fn block_pick_matrix_y(n: usize, first: u64) -> Filter {
        Filter::checked::<BlockInterface, MatrixInterface>(n, move |p, c, id, _| {
            block::pick_matrix_y(p, c, id, first)
        })
    }

    /// `starpu_block_filter_pick_variable`: the element at (x, y, z).
    pub fn block_pick_variable(n: usize, pos: [u32; 3]) -> Filter {
        Filter::checked::<BlockInterface, VariableInterface>(n, move |p, c, _, _| {
            block::pick_variable(p, c, pos)
        })
    }

    // Tensor filters.

    /// `starpu_tensor_filter_block` (axis 0), `_vertical_block` (1), `_depth_block` (2),
    /// `_time_block` (3), and their `_shadow` forms with `shadow` > 0.
    pub fn tensor_split(n: usize, axis: usize, shadow: u32) -> Filter {
        Filter::checked::<TensorInterface, TensorInterface>(n, move |p, c, id, n| {
            tensor::split(p, c, axis, id, n, shadow)
        })
    }

    /// `starpu_tensor_filter_block`: `n` parts along x.
    pub fn tensor_block(n: usize) -> Filter {
        Self::tensor_split(n, 0, 0)
    }

    /// `starpu_tensor_filter_vertical_block`: `n` parts along y.
    pub fn tensor_vertical_block(n: usize) -> Filter {
        Self::tensor_split(n, 1, 0)
    }

    /// `starpu_tensor_filter_depth_block`: `n` parts along z.
    pub fn tensor_depth_block(n: usize) -> Filter {
        Self::tensor_split(n, 2, 0)
    }

    /// `starpu_tensor_filter_time_block`: `n` parts along t.
    pub fn tensor_time_block(n: usize) -> Filter {
        Self::tensor_split(n, 3, 0)
    }

    /// `starpu_tensor_filter_pick_block_y` (axis 1), `_z` (2), `_t` (3): `n` blocks from
    /// index `first` of that axis.
    pub fn tensor_pick_block(n: usize, axis: usize, first: u64) -> Filter {
        Filter::checked::<TensorInterface, BlockInterface>(n, move |p, c, id, _| {
            tensor::pick_block(p, c, axis, id, first)
        })
    }

    /// `starpu_tensor_filter_pick_variable`: the element at (x, y, z, t).
    pub fn tensor_pick_variable(n: usize, pos: [u32; 4]) -> Filter {
        Filter::checked::<TensorInterface, VariableInterface>(n, move |p, c, _, _| {
            tensor::pick_variable(p, c, pos)
        })
    }

    // N-dimension array filters (`dim` is StarPU's `filter_arg`).

    /// `starpu_ndim_filter_block` / `_block_shadow`: `n` parts along `dim`.
    pub fn ndim_block(n: usize, dim: usize, shadow: u32) -> Filter {
        Filter::checked::<NdimInterface, NdimInterface>(n, move |p, c, id, n| {
            ndim::block(p, c, dim, id, n, shadow)
        })
    }

    /// `starpu_ndim_filter_to_tensor`: a 4-dimension array cut along `dim` into tensors.
    pub fn ndim_to_tensor(n: usize, dim: usize) -> Filter {
        Filter::checked::<NdimInterface, TensorInterface>(n, move |p, c, id, n| {
            ndim::to_tensor(p, c, dim, id, n)
        })
    }

    /// `starpu_ndim_filter_to_block`: a 3-dimension array cut along `dim` into blocks.
    pub fn ndim_to_block(n: usize, dim: usize) -> Filter {
        Filter::checked::<NdimInterface, BlockInterface>(n, move |p, c, id, n| {
            ndim::to_block(p, c, dim, id, n)
        })
    }

    /// `starpu_ndim_filter_to_matrix`: a 2-dimension array cut along `dim` into matrices.
    pub fn ndim_to_matrix(n: usize, dim: usize) -> Filter {
        Filter::checked::<NdimInterface, MatrixInterface>(n, move |p, c, id, n| {
            ndim::to_matrix(p, c, dim, id, n)
        })
    }

    /// `starpu_ndim_filter_to_vector`: a 1-dimension array cut into vectors.
    pub fn ndim_to_vector(n: usize) -> Filter {
        Filter::checked::<NdimInterface, VectorInterface>(n, ndim::to_vector)
    }

    /// `starpu_ndim_filter_to_variable`: a 0-dimension array as a variable.
    pub fn ndim_to_variable() -> Filter {
        Filter::checked::<NdimInterface, VariableInterface>(1, ndim::to_variable)
    }

    /// `n` children of type `C`, made by `pick` from index `first` of `dim` on.
    fn ndim_pick<C: Interface>(n: usize, dim: usize, first: u64, pick: NdimPick<C>) -> Filter {
        Filter::checked::<NdimInterface, C>(n, move |p, c, id, _| pick(p, c, dim, id, first))
    }

    /// `starpu_ndim_filter_pick_ndim`: `n` (n-1)-dimension arrays from index `first` of
    /// `dim`.
    pub fn ndim_pick_ndim(n: usize, dim: usize, first: u64) -> Filter {
        Filter::ndim_pick(n, dim, first, ndim::pick_ndim)
    }

    /// `starpu_ndim_filter_5d_pick_tensor`.
    pub fn ndim_pick_tensor(n: usize, dim: usize, first: u64) -> Filter {
        Filter::ndim_pick(n, dim, first, ndim::pick_tensor)
    }

    /// `starpu_ndim_filter_4d_pick_block`.
    pub fn ndim_pick_block(n: usize, dim: usize, first: u64) -> Filter {
        Filter::ndim_pick(n, dim, first, ndim::pick_block)
    }

    /// `starpu_ndim_filter_3d_pick_matrix`.
    pub fn ndim_pick_matrix(n: usize, dim: usize, first: u64) -> Filter {
        Filter::ndim_pick(n, dim, first, ndim::pick_matrix)
    }

    /// `starpu_ndim_filter_2d_pick_vector`.
    pub fn ndim_pick_vector(n: usize, dim: usize, first: u64) -> Filter {
        Filter::ndim_pick(n, dim, first, ndim::pick_vector)
    }

    /// `starpu_ndim_filter_1d_pick_variable`: `n` variables from element `first`.
    pub fn ndim_1d_pick_variable(n: usize, first: u64) -> Filter {
        Filter::checked::<NdimInterface, VariableInterface>(n, move |p, c, id, _| {
            ndim::pick_variable_1d(p, c, id, first)
        })
    }

    /// `starpu_ndim_filter_pick_variable`: the element at `pos`.
    pub fn ndim_pick_variable(n: usize, pos: Vec<u32>) -> Filter {
        Filter::checked::<NdimInterface, VariableInterface>(n, move |p, c, _, _| {
            ndim::pick_variable(p, c, &pos)
        })
    }

    // Any dense interface.

    /// Cuts a vector, matrix, block, tensor or ndim (the interface of `parent`) along
    /// dimension `axis` (0 is x, the contiguous one): into `nparts` nearly equal parts
    /// (StarPU's block filters), or into parts of `lengths` elements, which must cover the
    /// axis (those filters given chunk sizes in `filter_arg_ptr`). For faces whose arrays
    /// have any number of dimensions (numpy), so they need not pick a filter per interface.
    pub fn along_axis(
        parent: &DataHandle,
        axis: usize,
        nparts: usize,
        lengths: Option<Vec<u32>>,
    ) -> Result<Filter> {
        use super::filters::dense::AsDense;
        fn make<I: AsDense>(axis: usize, nparts: usize, lengths: Option<Vec<u32>>) -> Filter {
            Filter::checked::<I, I>(nparts, move |p, c, id, n| {
                super::filters::dense::apply(p, c, |d| {
                    if axis >= d.dims.len() {
                        return Err(Error::invalid(format!(
                            "dimension {axis} does not exist: the data has {}",
                            d.dims.len()
                        )));
                    }
                    match &lengths {
                        Some(l) => d.part_of_list(axis, id, l),
                        None => d.split(axis, id, n, 0),
                    }
                })
            })
        }
        if lengths.as_ref().is_some_and(|l| l.len() != nparts) {
            return Err(Error::invalid(format!(
                "{nparts} parts need {nparts} lengths, not {}",
                lengths.map_or(0, |l| l.len())
            )));
        }
        Ok(match parent.interface_id() {
            VectorInterface::ID => make::<VectorInterface>(axis, nparts, lengths),
            MatrixInterface::ID => make::<MatrixInterface>(axis, nparts, lengths),
            BlockInterface::ID => make::<BlockInterface>(axis, nparts, lengths),
            TensorInterface::ID => make::<TensorInterface>(axis, nparts, lengths),
            NdimInterface::ID => make::<NdimInterface>(axis, nparts, lengths),
            _ => {
                return Err(Error::invalid(format!(
                    "data {} is not a vector, matrix, block, tensor or ndim array: it cannot \
                     be cut along an axis",
                    parent.label()
                )))
            }
        })
    }

    // Sparse filters.

    /// `starpu_csr_filter_vertical_block`: `n` bands of consecutive rows.
    pub fn csr_vertical_block(n: usize) -> Filter {
        Filter::checked::<CsrInterface, CsrInterface>(n, sparse::csr_vertical_block)
    }

    /// `starpu_bcsr_filter_vertical_block`: `n` bands of consecutive block rows.
    pub fn bcsr_vertical_block(n: usize) -> Filter {
        Filter::checked::<BcsrInterface, BcsrInterface>(n, sparse::bcsr_vertical_block)
    }

    /// `starpu_bcsr_filter_canonical_block`: one dense `r` x `c` matrix per stored block
    /// (as many children as the matrix stores blocks).
    pub fn bcsr_canonical_block() -> Filter {
        let mut f = Filter::checked::<BcsrInterface, MatrixInterface>(0, |p, c, id, _| {
            sparse::bcsr_canonical_block(p, c, id)
        });
        f.count = Some(Box::new(|h| {
            h.interface::<BcsrInterface>(h.home_node().unwrap_or(crate::memory::MAIN_RAM))
                .map(|b| b.nnz as usize)
                .ok_or_else(|| Error::invalid(format!("data {} is not a BCSR matrix", h.label())))
        }));
        f
    }
}

/// Walks down the partition tree: child `path[0]` of `root`, then its child `path[1]`...
/// (`starpu_data_get_sub_data`).
pub fn sub_data(root: &DataHandle, path: &[usize]) -> Result<DataHandle> {
    let mut h = root.clone();
    for (depth, &i) in path.iter().enumerate() {
        let n = h.nchildren();
        h = h.child(i).ok_or_else(|| {
            Error::invalid(format!(
                "no child {i} at depth {depth} of data {} (it has {n} children)",
                root.label()
            ))
        })?;
    }
    Ok(h)
}
