//! Partitioning numpy arrays along an axis. The core cuts (`Filter::along_axis`), keeps the
//! plans and switches between views; this module only turns the numpy axis into StarPU's
//! dimension and gives each child the numpy view of its part (what Python tasks receive).
//!
//! As in StarPU's Python module, `Handle.partition` makes a partition plan: the children
//! are usable at once and the parent stays usable, the runtime switching between the
//! whole array and its parts as tasks use them. `Handle.partition(...,
//! synchronous=True)` is C's `starpu_data_partition` (the parent unusable until
//! `unpartition`).

use crate::errors::{self, IntoPy};
use crate::handle::{is_ndarray, Content, Handle, HandleState};
use crate::runtime;
use pyo3::prelude::*;
use pyo3::types::{PySlice, PyTuple};
use starpu_core::data::filters::chunk;
use starpu_core::data::{DataHandle, Filter};
use starpu_core::memory::MAIN_RAM;
use starpu_core::Runtime;
use std::sync::Arc;

/// How the children are made.
#[derive(Clone, Copy)]
pub(crate) enum Cut {
    /// `starpu_data_partition_plan` (StarPU's Python `partition`).
    Plan,
    /// `starpu_data_partition`.
    Sync,
}

/// A switch between views of a plan (`starpu_data_partition_submit` and friends).
pub(crate) type Switch = fn(&Runtime, &DataHandle, &[DataHandle]) -> starpu_core::Result<()>;

fn data_of(children: &[Py<Handle>]) -> Vec<DataHandle> {
    children
        .iter()
        .map(|h| h.get().state.data.clone())
        .collect()
}

impl HandleState {
    /// Cuts this array into `nchildren` parts along numpy axis `dim`, of `chunks_list`
    /// lengths or nearly equal.
    pub(crate) fn cut(
        &self,
        py: Python<'_>,
        nchildren: usize,
        dim: usize,
        chunks_list: Option<Vec<i64>>,
        how: Cut,
    ) -> PyResult<Vec<Py<Handle>>> {
        let Content::Buffer { obj, layout } = &self.content else {
            return Err(errors::invalid(py, "only numpy arrays can be partitioned"));
        };
        let obj = obj.bind(py);
        if !is_ndarray(obj) {
            return Err(errors::invalid(py, "only numpy arrays can be partitioned"));
        }
        if !layout.described {
            return Err(errors::invalid(
                py,
                "this array's strides have no StarPU description: partition \
                 numpy.ascontiguousarray(array) instead",
            ));
        }
        let nd = layout.axes.len();
        let Some(axis) = layout.dim_of_axis(dim) else {
            return Err(errors::invalid(
                py,
                format!("dim {dim} does not exist: the array has {nd} dimension(s)"),
            ));
        };
        let lengths = match chunks_list.filter(|c| !c.is_empty()) {
            None => None,
            Some(c) => Some(
                c.iter()
                    .map(|&x| u32::try_from(x))
                    .collect::<Result<Vec<u32>, _>>()
                    .map_err(|_| {
                        errors::invalid(py, format!("chunks_list holds a negative size: {c:?}"))
                    })?,
            ),
        };
        let filter = Filter::along_axis(&self.data, axis, nchildren, lengths.clone()).py(py)?;
        let rt = runtime::runtime(py)?;
        let parent = &self.data;
        let kids = match how {
            Cut::Plan => rt.partition_plan(parent, &filter),
            Cut::Sync => py.detach(|| rt.partition(parent, &filter)),
        }
        .py(py)?;
        // Each child's Python object: the numpy view of its part.
        let total: u32 = obj.getattr("shape")?.get_item(dim)?.extract()?;
        let mut first = 0u32;
        let mut out = Vec::with_capacity(kids.len());
        for (i, kid) in kids.into_iter().enumerate() {
            let len = lengths
                .as_ref()
                .map_or_else(|| chunk(total, nchildren, i).0, |l| l[i]);
            let index = (0..nd).map(|a| {
                if a == dim {
                    PySlice::new(py, first as isize, (first + len) as isize, 1)
                } else {
                    PySlice::full(py)
                }
            });
            let view = obj.get_item(PyTuple::new(py, index)?)?;
            out.push(Py::new(
                py,
                Handle::wrap(HandleState::part(kid, &view, self.needs_mode)?),
            )?);
            first += len;
        }
        Ok(out)
    }

    /// Ends a partitioning: gathers a synchronous one back (waiting for its tasks), or
    /// forgets the plan of `children` (`starpu_data_partition_clean`: gathered and its
    /// children unregistered once their tasks are done). The core says which it is.
    pub(crate) fn uncut(&self, py: Python<'_>, children: Option<&[Py<Handle>]>) -> PyResult<()> {
        let rt = runtime::runtime(py)?;
        let parent = &self.data;
        if parent.is_partitioned() {
            return py.detach(|| rt.unpartition(parent, MAIN_RAM)).py(py);
        }
        let Some(children) = children else {
            return Err(errors::invalid(
                py,
                "unpartition: the data is not partitioned synchronously: give the children \
                 of the partition plan to forget",
            ));
        };
        let kids = data_of(children);
        py.detach(|| rt.partition_clean(parent, &kids, None)).py(py)
    }

    /// Switches between this data and the plan of `children` (`switch`'s way).
    pub(crate) fn switch(
        &self,
        py: Python<'_>,
        children: &[Py<Handle>],
        switch: Switch,
    ) -> PyResult<()> {
        let rt = runtime::runtime(py)?;
        let kids = data_of(children);
        let parent = &self.data;
        py.detach(|| switch(&rt, parent, &kids)).py(py)
    }

    /// The state of the view of a part: its data and its numpy view.
    fn part(data: DataHandle, view: &Bound<'_, PyAny>, needs_mode: bool) -> PyResult<Arc<Self>> {
        HandleState::new(
            data,
            Content::Buffer {
                obj: view.clone().unbind(),
                layout: crate::layout::describe(view)?,
            },
            None,
            needs_mode,
            false,
        )
    }
}
