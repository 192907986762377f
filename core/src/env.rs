//! StarPU's environment variables, read the same way everywhere: an empty value counts
//! as unset, and a malformed number is an error that names the variable.
//!
//! The lowest layer of the core (beside `error`): every subsystem reads its own
//! variables with these, and `config` lays the runtime-wide ones over a `Config`.

use crate::error::{Error, Result};

/// Reads an environment variable, treating an empty value as unset.
pub fn env_var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

/// Reads an integer environment variable; a malformed value is an error naming the variable.
pub fn env_int(name: &str) -> Result<Option<i64>> {
    parse_int(name, env_var(name))
}

/// The integer `value` of variable `name` (`None`: unset); a malformed value is an error
/// naming the variable.
pub fn parse_int(name: &str, value: Option<String>) -> Result<Option<i64>> {
    match value {
        None => Ok(None),
        Some(v) => v
            .trim()
            .parse::<i64>()
            .map(Some)
            .map_err(|_| Error::invalid(format!("{name}={v:?} is not an integer"))),
    }
}

/// Reads a floating-point environment variable; a malformed value is an error naming the
/// variable.
pub fn env_float(name: &str) -> Result<Option<f64>> {
    match env_var(name) {
        None => Ok(None),
        Some(v) => v
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .map(Some)
            .ok_or_else(|| Error::invalid(format!("{name}={v:?} is not a number"))),
    }
}
