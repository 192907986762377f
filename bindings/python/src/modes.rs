//! Access modes as Python writes them: StarPU's names joined by `|` (`"R"`, `"RW"`,
//! `"RW|COMMUTE"`, `"REDUX"`, `"SCRATCH"`), looked up in the core's table of names and
//! checked by the core.

use crate::errors;
use pyo3::prelude::*;
use starpu_core::AccessMode;

/// Parses a mode string; an `InvalidArgumentError` (a `ValueError`) names what is wrong.
pub(crate) fn parse(py: Python<'_>, mode: &str) -> PyResult<AccessMode> {
    let mut bits = 0;
    for part in mode.split('|') {
        let Some((_, m)) = AccessMode::NAMED.iter().find(|(name, _)| *name == part) else {
            let names: Vec<&str> = AccessMode::NAMED.iter().map(|(n, _)| *n).collect();
            return Err(errors::invalid(
                py,
                format!(
                    "invalid access mode {mode:?}: {part:?} is not one of {}",
                    names.join(", ")
                ),
            ));
        };
        bits |= m.bits();
    }
    AccessMode::from_bits(bits)
        .map_err(|e| errors::invalid(py, format!("invalid access mode {mode:?}: {}", e.message)))
}
