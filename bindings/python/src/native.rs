//! Native kernels: a C function from a shared library, with StarPU's CPU kernel signature
//! `void f(void *buffers[], void *cl_arg)`, run by the workers without the GIL.
//!
//! The function receives StarPU's interface structures for its data (a numpy vector is a
//! `struct starpu_vector_interface`, read with `STARPU_VECTOR_GET_PTR` and friends) and its
//! scalar arguments packed as `STARPU_VALUE` packs them (`starpu_codelet_unpack_args`'s
//! format: an `int` count, then for each argument its `size_t` size and its bytes).

use crate::modes;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use starpu_core::{Codelet, KernelCall};
use std::collections::HashMap;
use std::ffi::c_void;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

type CpuFunc = unsafe extern "C" fn(*mut *mut c_void, *mut c_void);

/// Libraries loaded: kept for the life of the process (a task may still run their code).
static LIBRARIES: Mutex<Option<HashMap<PathBuf, Arc<libloading::Library>>>> = Mutex::new(None);

fn library(path: &PathBuf) -> Result<Arc<libloading::Library>, libloading::Error> {
    let mut libs = LIBRARIES.lock().unwrap_or_else(|e| e.into_inner());
    let libs = libs.get_or_insert_with(HashMap::new);
    if let Some(l) = libs.get(path) {
        return Ok(l.clone());
    }
    // SAFETY: loading a library runs its initialisers: the caller asked for this library.
    let lib = Arc::new(unsafe { libloading::Library::new(path) }?);
    libs.insert(path.clone(), lib.clone());
    Ok(lib)
}

/// A C kernel to submit like a Python function: `task_submit()(kernel, array, 2.0)`.
/// Data arguments (numpy arrays and other buffers, handles) become its `buffers`, the
/// other arguments its packed `cl_arg` (int as int64_t, float as double, bool as int,
/// bytes and numpy scalars as their bytes).
#[pyclass(frozen, module = "starpu", name = "NativeKernel")]
pub(crate) struct NativeKernel {
    pub(crate) codelet: Arc<Codelet>,
}

#[pymethods]
impl NativeKernel {
    fn __repr__(&self) -> String {
        format!("<starpu.NativeKernel {}>", self.codelet.display_name())
    }
}

/// `starpu.native_kernel(path, symbol, modes=None)`: the function `symbol` of the shared
/// library at `path`, as a kernel. `modes` declares the access mode of each data argument
/// (as `starpu.Codelet` does); without it each task says (`modes=`), R by default.
#[pyfunction]
#[pyo3(signature = (path, symbol, modes=None))]
pub(crate) fn native_kernel(
    py: Python<'_>,
    path: PathBuf,
    symbol: &str,
    modes: Option<Vec<String>>,
) -> PyResult<NativeKernel> {
    let lib = library(&path)
        .map_err(|e| PyValueError::new_err(format!("cannot load {}: {e}", path.display())))?;
    // SAFETY: the symbol is declared with StarPU's CPU kernel signature, as documented;
    // the library stays loaded for the life of the process.
    let func: CpuFunc = unsafe {
        *lib.get::<CpuFunc>(symbol.as_bytes()).map_err(|e| {
            PyValueError::new_err(format!("no function {symbol} in {}: {e}", path.display()))
        })?
    };
    let kernel = move |call: &KernelCall| {
        let args = call
            .packed_args()
            .map_or(std::ptr::null_mut(), |a| a.as_ptr() as *mut c_void);
        // SAFETY: the buffers are the task's interface descriptions, live for the call;
        // the kernel follows StarPU's contract for them and for cl_arg.
        unsafe { func(call.buffers().as_ptr() as *mut *mut c_void, args) };
        Ok(())
    };
    let cl = modes::declare(py, Codelet::new(symbol).cpu(kernel), modes.as_deref())?;
    Ok(NativeKernel {
        codelet: Arc::new(cl),
    })
}
