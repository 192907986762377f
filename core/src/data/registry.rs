//! The registered handles, by identity and by home address.
//!
//! Bindings hand out a handle's address (`DataHandle::as_ptr`) as their handle value (C's
//! `starpu_data_handle_t`, a Java `long`). Resolving it here, instead of dereferencing it,
//! turns a stale or bogus handle into an error rather than a crash.

use super::DataHandle;
use crate::error::{Error, Result};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

/// Addresses are already well spread: a multiplicative hash is enough and much cheaper
/// than SipHash on the submission path.
#[derive(Default)]
pub struct AddrHasher(u64);

impl Hasher for AddrHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_usize(&mut self, n: usize) {
        self.0 = (n as u64)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(29);
    }
}

/// A map keyed by addresses (of handles, of buffers), with [`AddrHasher`].
pub type AddrMap<V> = HashMap<usize, V, BuildHasherDefault<AddrHasher>>;

#[derive(Default)]
struct Maps {
    by_handle: AddrMap<DataHandle>,
    by_data: AddrMap<DataHandle>,
}

static REGISTRY: RwLock<Option<Maps>> = RwLock::new(None);

fn read() -> RwLockReadGuard<'static, Option<Maps>> {
    REGISTRY.read().unwrap_or_else(|e| e.into_inner())
}

fn write() -> RwLockWriteGuard<'static, Option<Maps>> {
    REGISTRY.write().unwrap_or_else(|e| e.into_inner())
}

/// The application buffer `h` was registered with, the key of `by_data`.
fn home_address(h: &DataHandle) -> Option<usize> {
    let home = h.home_node()?;
    let addr = h.0.replicas[home].desc.data_ptr();
    (addr != 0).then_some(addr)
}

pub(crate) fn publish(h: &DataHandle) {
    let mut g = write();
    let maps = g.get_or_insert_with(Maps::default);
    maps.by_handle.insert(h.as_ptr() as usize, h.clone());
    if let Some(addr) = home_address(h) {
        maps.by_data.entry(addr).or_insert_with(|| h.clone());
    }
}

pub(crate) fn retract(h: &DataHandle) {
    let mut g = write();
    if let Some(maps) = g.as_mut() {
        maps.by_handle.remove(&(h.as_ptr() as usize));
        if let Some(addr) = home_address(h) {
            if maps.by_data.get(&addr).is_some_and(|v| v.ptr_eq(h)) {
                maps.by_data.remove(&addr);
            }
        }
    }
}

/// The registered handle whose address is `addr`.
pub fn resolve(addr: usize) -> Result<DataHandle> {
    if addr == 0 {
        return Err(Error::invalid("data handle is NULL"));
    }
    read()
        .as_ref()
        .and_then(|m| m.by_handle.get(&addr).cloned())
        .ok_or_else(|| {
            Error::invalid(format!(
                "{addr:#x} is not a registered data handle (never registered, or unregistered)"
            ))
        })
}

/// The handle registered with home buffer `ptr` (`starpu_data_lookup`).
pub fn lookup_data(ptr: usize) -> Option<DataHandle> {
    read().as_ref()?.by_data.get(&ptr).cloned()
}

/// Every registered handle.
pub fn all() -> Vec<DataHandle> {
    read()
        .as_ref()
        .map_or_else(Vec::new, |m| m.by_handle.values().cloned().collect())
}

/// Number of registered handles (for leak reports at shutdown).
pub fn count() -> usize {
    read().as_ref().map_or(0, |m| m.by_handle.len())
}
