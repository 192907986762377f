//! Access modes as Python writes them: StarPU's names joined by `|` (`"R"`, `"RW"`,
//! `"RW|COMMUTE"`, `"REDUX"`, `"SCRATCH"`), which the core parses and checks.

use crate::errors;
use pyo3::prelude::*;
use starpu_core::{AccessMode, Codelet};

/// Parses a mode string; an `InvalidArgumentError` (a `ValueError`) names what is wrong.
pub(crate) fn parse(py: Python<'_>, mode: &str) -> PyResult<AccessMode> {
    AccessMode::parse(mode).map_err(|e| errors::to_py(py, &e))
}

/// Parses each mode of a list.
pub(crate) fn parse_all(py: Python<'_>, modes: &[String]) -> PyResult<Vec<AccessMode>> {
    modes.iter().map(|m| parse(py, m)).collect()
}

/// `cl` with the buffers `modes` declares, or with variable buffers (each task gives its
/// data and their modes) when it declares none.
pub(crate) fn declare(py: Python<'_>, cl: Codelet, modes: Option<&[String]>) -> PyResult<Codelet> {
    Ok(match modes {
        Some(m) => cl.modes(parse_all(py, m)?),
        None => cl.variable_buffers(),
    })
}
