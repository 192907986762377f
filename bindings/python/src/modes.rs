//! Access modes as Python writes them: `"R"`, `"W"`, `"RW"`, with `"|COMMUTE"` optionally.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use starpu_core::AccessMode;

/// Parses a mode string; a `ValueError` names what is accepted.
pub(crate) fn parse(mode: &str) -> PyResult<AccessMode> {
    let (base, commute) = match mode.split_once('|') {
        Some((b, "COMMUTE")) => (b, true),
        Some(_) => return Err(bad(mode)),
        None => (mode, false),
    };
    let m = match base {
        "R" => AccessMode::R,
        "W" => AccessMode::W,
        "RW" => AccessMode::RW,
        _ => return Err(bad(mode)),
    };
    Ok(if commute { m | AccessMode::COMMUTE } else { m })
}

/// Parses the mode of an acquisition (no flags).
pub(crate) fn parse_plain(mode: &str) -> PyResult<AccessMode> {
    match mode {
        "R" => Ok(AccessMode::R),
        "W" => Ok(AccessMode::W),
        "RW" => Ok(AccessMode::RW),
        _ => Err(PyValueError::new_err(format!(
            "invalid access mode {mode:?}: expected 'R', 'W' or 'RW'"
        ))),
    }
}

fn bad(mode: &str) -> PyErr {
    PyValueError::new_err(format!(
        "invalid access mode {mode:?}: expected 'R', 'W' or 'RW', optionally followed by \
         '|COMMUTE'"
    ))
}
