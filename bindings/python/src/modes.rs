//! Access modes as Python writes them: StarPU's names joined by `|` (`"R"`, `"RW"`,
//! `"RW|COMMUTE"`, `"REDUX"`, `"SCRATCH"`), which the core parses and checks.

use crate::errors;
use pyo3::prelude::*;
use starpu_core::AccessMode;

/// Parses a mode string; an `InvalidArgumentError` (a `ValueError`) names what is wrong.
pub(crate) fn parse(py: Python<'_>, mode: &str) -> PyResult<AccessMode> {
    AccessMode::parse(mode).map_err(|e| errors::to_py(py, &e))
}
