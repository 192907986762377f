//! Arguments of a task's kernel.
//!
//! Two forms, both available to every kernel through [`KernelCall`](super::KernelCall):
//! owned Rust values (`TaskBuilder::arg`, read back with `KernelCall::arg::<T>(i)`), and
//! StarPU's packed form of `STARPU_VALUE` / `starpu_codelet_pack_args`: a native `int`
//! count, then for each argument its `size_t` size and its bytes. Every face packs and
//! unpacks through this one implementation, so a C kernel can read what Fortran packed and
//! the other way round.

use crate::error::{Error, Result};
use std::any::Any;
use std::mem::size_of;

/// The arguments a task carries for its kernel.
#[derive(Default)]
pub struct TaskArgs {
    /// Owned values, in order.
    pub values: Vec<Box<dyn Any + Send + Sync>>,
    /// Packed bytes (`STARPU_VALUE`'s format, or any bytes a face wants to hand over).
    pub packed: Option<Box<[u8]>>,
}

impl TaskArgs {
    /// Argument `i` as a `T`.
    pub fn get<T: Any>(&self, i: usize) -> Result<&T> {
        let v = self.values.get(i).ok_or_else(|| {
            Error::invalid(format!(
                "kernel argument {i} does not exist (the task has {})",
                self.values.len()
            ))
        })?;
        v.downcast_ref::<T>().ok_or_else(|| {
            Error::invalid(format!(
                "kernel argument {i} is not a {}",
                std::any::type_name::<T>()
            ))
        })
    }

    /// The packed arguments, unpacked into their byte strings.
    pub fn unpacked(&self) -> Result<Vec<&[u8]>> {
        match &self.packed {
            None => Ok(Vec::new()),
            Some(p) => unpack(p),
        }
    }
}

/// Splits a packed buffer into its arguments, checking every length against the buffer.
pub fn unpack(buf: &[u8]) -> Result<Vec<&[u8]>> {
    let bad = || Error::invalid("packed arguments are truncated or malformed");
    let count = buf.get(..COUNT).ok_or_else(bad)?;
    let n = i32::from_ne_bytes(count.try_into().map_err(|_| bad())?);
    let mut pos = COUNT;
    let mut out = Vec::with_capacity(n.max(0) as usize);
    for _ in 0..n.max(0) {
        let len_bytes = buf.get(pos..pos + LEN).ok_or_else(bad)?;
        let len = usize::from_ne_bytes(len_bytes.try_into().map_err(|_| bad())?);
        pos += LEN;
        let end = pos.checked_add(len).ok_or_else(bad)?;
        out.push(buf.get(pos..end).ok_or_else(bad)?);
        pos = end;
    }
    Ok(out)
}

const COUNT: usize = size_of::<i32>();
const LEN: usize = size_of::<usize>();

/// Builds a packed argument buffer.
#[derive(Default)]
pub struct ArgPacker {
    buf: Vec<u8>,
    nargs: i32,
}

impl ArgPacker {
    pub fn new() -> Self {
        ArgPacker {
            buf: vec![0; COUNT],
            nargs: 0,
        }
    }

    pub fn push(&mut self, bytes: &[u8]) {
        if self.buf.is_empty() {
            self.buf.resize(COUNT, 0);
        }
        self.buf.extend_from_slice(&bytes.len().to_ne_bytes());
        self.buf.extend_from_slice(bytes);
        self.nargs += 1;
    }

    pub fn nargs(&self) -> i32 {
        self.nargs
    }

    pub fn finish(mut self) -> Vec<u8> {
        if self.buf.is_empty() {
            self.buf.resize(COUNT, 0);
        }
        self.buf[..COUNT].copy_from_slice(&self.nargs.to_ne_bytes());
        self.buf
    }
}

/// The size of the packed form of `parts`.
pub fn packed_len(parts: &[&[u8]]) -> usize {
    COUNT + parts.iter().map(|p| LEN + p.len()).sum::<usize>()
}

/// Writes the packed form of `parts` (as `ArgPacker` makes it) into `dst`, which is
/// [`packed_len`] bytes long: for a caller that holds every argument before it packs, one
/// buffer of the right size instead of a growing one and a copy.
pub fn pack_into(parts: &[&[u8]], dst: &mut [u8]) {
    assert_eq!(dst.len(), packed_len(parts), "pack_into: wrong buffer size");
    dst[..COUNT].copy_from_slice(&(parts.len() as i32).to_ne_bytes());
    let mut pos = COUNT;
    for p in parts {
        dst[pos..pos + LEN].copy_from_slice(&p.len().to_ne_bytes());
        pos += LEN;
        dst[pos..pos + p.len()].copy_from_slice(p);
        pos += p.len();
    }
}

/// Offset of the first argument in a packed buffer.
pub const FIRST_ARG: usize = COUNT;

/// Number of arguments in a packed buffer.
///
/// # Safety
/// `buf` points to a packed buffer.
pub unsafe fn count(buf: *const u8) -> i32 {
    i32::from_ne_bytes(std::ptr::read_unaligned(buf as *const [u8; COUNT]))
}

/// The bytes of the argument at `offset` and the offset of the one after it.
///
/// # Safety
/// `offset` is `FIRST_ARG` or an offset this function returned, within a packed buffer.
pub unsafe fn arg_at<'a>(buf: *const u8, offset: usize) -> (&'a [u8], usize) {
    let len = usize::from_ne_bytes(std::ptr::read_unaligned(buf.add(offset) as *const [u8; LEN]));
    let start = offset + LEN;
    (std::slice::from_raw_parts(buf.add(start), len), start + len)
}

/// Reads a packed argument buffer argument by argument.
pub struct ArgReader {
    pos: *const u8,
    remaining: i32,
}

impl ArgReader {
    /// # Safety
    /// `buf` must point to a buffer produced by `ArgPacker` (or StarPU's packing), alive
    /// while the reader is used.
    pub unsafe fn new(buf: *const u8) -> ArgReader {
        ArgReader {
            pos: buf.add(FIRST_ARG),
            remaining: count(buf).max(0),
        }
    }

    pub fn remaining(&self) -> i32 {
        self.remaining
    }

    /// The next argument's bytes, or `None` once all were read.
    ///
    /// # Safety
    /// As for `new`: the slice borrows the packed buffer.
    pub unsafe fn next<'a>(&mut self) -> Option<&'a [u8]> {
        if self.remaining == 0 {
            return None;
        }
        let (data, next) = arg_at(self.pos, 0);
        self.pos = self.pos.add(next);
        self.remaining -= 1;
        Some(data)
    }

    /// Where the unread part starts.
    pub fn position(&self) -> *const u8 {
        self.pos
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let mut p = ArgPacker::new();
        p.push(&42i32.to_ne_bytes());
        p.push(&3.5f64.to_ne_bytes());
        p.push(b"");
        let buf = p.finish();
        unsafe {
            let mut r = ArgReader::new(buf.as_ptr());
            assert_eq!(r.remaining(), 3);
            assert_eq!(r.next().unwrap(), &42i32.to_ne_bytes());
            assert_eq!(r.next().unwrap(), &3.5f64.to_ne_bytes());
            assert_eq!(r.next().unwrap().len(), 0);
            assert!(r.next().is_none());
        }
    }

    #[test]
    fn safe_unpack_checks_lengths() {
        let mut p = ArgPacker::new();
        p.push(&7u64.to_ne_bytes());
        p.push(b"ab");
        let buf = p.finish();
        let args = unpack(&buf).unwrap();
        assert_eq!(args, vec![&7u64.to_ne_bytes()[..], b"ab"]);
        assert!(unpack(&buf[..buf.len() - 1]).is_err());
        assert!(unpack(&[]).is_err());
    }

    #[test]
    fn owned_arguments_are_typed() {
        let args = TaskArgs {
            values: vec![Box::new(3.5f64), Box::new("x")],
            packed: None,
        };
        assert_eq!(*args.get::<f64>(0).unwrap(), 3.5);
        assert!(args.get::<i32>(0).is_err());
        assert!(args.get::<f64>(2).is_err());
    }

    #[test]
    fn pack_into_writes_what_the_packer_makes() {
        let parts: [&[u8]; 3] = [&42i32.to_ne_bytes(), b"", b"abc"];
        let mut p = ArgPacker::new();
        parts.iter().for_each(|x| p.push(x));
        let mut dst = vec![0xffu8; packed_len(&parts)];
        pack_into(&parts, &mut dst);
        assert_eq!(dst, p.finish());
        let mut none = vec![0u8; packed_len(&[])];
        pack_into(&[], &mut none);
        assert_eq!(none, ArgPacker::new().finish());
    }

    #[test]
    fn empty_pack_has_zero_args() {
        let buf = ArgPacker::new().finish();
        assert_eq!(buf.len(), COUNT);
        unsafe { assert_eq!(ArgReader::new(buf.as_ptr()).remaining(), 0) };
    }
}
