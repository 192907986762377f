//! What the application registers from Rust: owned buffers (given back at unregistration)
//! and the sparse layouts' arrays. The registration methods are the runtime's
//! (`runtime/api/data/register.rs`).

use super::element::Element;
use std::any::Any;

/// Owned contiguous memory that can be registered: `Vec<T>` and `Box<[T]>`.
pub trait Buffer<T>: Any + Send + Sync {
    fn as_mut_ptr(&mut self) -> *mut T;
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl<T: Element> Buffer<T> for Vec<T> {
    fn as_mut_ptr(&mut self) -> *mut T {
        Vec::as_mut_ptr(self)
    }
    fn len(&self) -> usize {
        Vec::len(self)
    }
}

impl<T: Element> Buffer<T> for Box<[T]> {
    fn as_mut_ptr(&mut self) -> *mut T {
        <[T]>::as_mut_ptr(self)
    }
    fn len(&self) -> usize {
        <[T]>::len(self)
    }
}

/// The three arrays of a CSR (or BCSR) matrix registered from Rust, given back by
/// `unregister_take::<Csr<T>>()`.
#[derive(Debug, Clone, PartialEq)]
pub struct Csr<T> {
    /// Non-zero values (for BCSR: `r * c` values per block).
    pub nzval: Vec<T>,
    /// Column of each non-zero value (block).
    pub colind: Vec<u32>,
    /// Where each row starts in `nzval` / `colind`, plus one past the end.
    pub rowptr: Vec<u32>,
}

/// A COO matrix registered from Rust, given back by `unregister_take::<Coo<T>>()`.
#[derive(Debug, Clone, PartialEq)]
pub struct Coo<T> {
    pub values: Vec<T>,
    pub rows: Vec<u32>,
    pub columns: Vec<u32>,
}
