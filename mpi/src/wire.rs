//! How a piece of data travels: as the bytes of its replica on main memory, sent in place
//! when the replica is one contiguous run and packed otherwise (the core knows the runs
//! of every built-in interface), or through a `Codec` the application gave: pack and
//! unpack functions of its own interface, or an MPI datatype (`starpu_mpi_datatype_register`).
//!
//! Everything here runs on the progression thread while the data is held on main memory
//! (for reading when sending, for writing when receiving); codecs may make MPI calls.

use crate::comm::check;
use mpi::ffi;
use starpu_core::memory::MAIN_RAM;
use starpu_core::{DataHandle, Error, Result};
use std::collections::HashMap;
use std::sync::{Arc, RwLock};

/// Turns one kind of data into bytes and back.
pub trait Codec: Send + Sync {
    /// The value of `h` (held for reading on main memory), packed.
    fn pack(&self, h: &DataHandle) -> Result<Vec<u8>>;
    /// Writes packed `bytes` into `h` (held for writing on main memory).
    fn unpack(&self, h: &DataHandle, bytes: &[u8]) -> Result<()>;
}

/// Finds a codec for data whose layout the core does not know (set by a face that lets
/// applications define interfaces, e.g. C's `pack_data` / `unpack_data`).
pub type CodecProvider = dyn Fn(&DataHandle) -> Option<Arc<dyn Codec>> + Send + Sync;

/// What goes out for one send.
pub(crate) enum Outgoing {
    /// The replica itself: `len` bytes at `ptr`, valid while the data is held.
    InPlace {
        ptr: usize,
        len: usize,
    },
    Packed(Vec<u8>),
}

impl Outgoing {
    pub(crate) fn ptr_len(&self) -> (usize, usize) {
        match self {
            Outgoing::InPlace { ptr, len } => (*ptr, *len),
            Outgoing::Packed(v) => (v.as_ptr() as usize, v.len()),
        }
    }
}

/// A codec set for one handle, with a clone of the handle: the address stays its own.
type HandleCodec = (DataHandle, Arc<dyn Codec>);

/// The codecs applications registered, by handle and by interface.
#[derive(Default)]
pub(crate) struct Codecs {
    by_interface: RwLock<HashMap<i32, Arc<dyn Codec>>>,
    /// Keyed by handle address; the clone kept here keeps the address from being reused.
    by_handle: RwLock<HashMap<usize, HandleCodec>>,
    provider: RwLock<Option<Arc<CodecProvider>>>,
}

fn read<T>(l: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    l.read().unwrap_or_else(|e| e.into_inner())
}

fn write<T>(l: &RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    l.write().unwrap_or_else(|e| e.into_inner())
}

impl Codecs {
    pub(crate) fn set_for_interface(&self, id: i32, codec: Option<Arc<dyn Codec>>) {
        match codec {
            Some(c) => write(&self.by_interface).insert(id, c),
            None => write(&self.by_interface).remove(&id),
        };
    }

    pub(crate) fn set_for_handle(&self, h: &DataHandle, codec: Option<Arc<dyn Codec>>) {
        let key = h.as_ptr() as usize;
        let mut map = write(&self.by_handle);
        map.retain(|_, (k, _)| k.is_registered());
        match codec {
            Some(c) => map.insert(key, (h.clone(), c)),
            None => map.remove(&key),
        };
    }

    pub(crate) fn set_provider(&self, p: Arc<CodecProvider>) {
        *write(&self.provider) = Some(p);
    }

    fn codec(&self, h: &DataHandle) -> Option<Arc<dyn Codec>> {
        if let Some((k, c)) = read(&self.by_handle).get(&(h.as_ptr() as usize)) {
            if k.ptr_eq(h) {
                return Some(c.clone());
            }
        }
        if let Some(c) = read(&self.by_interface).get(&h.interface_id()) {
            return Some(c.clone());
        }
        let builtin = h.interface_id() < starpu_core::data::interfaces::id::MAX;
        if builtin {
            return None;
        }
        let p = read(&self.provider).clone()?;
        p(h)
    }

    /// What to send for `h`.
    pub(crate) fn outgoing(&self, h: &DataHandle) -> Result<Outgoing> {
        if let Some(c) = self.codec(h) {
            return c.pack(h).map(Outgoing::Packed);
        }
        let runs = h.runs_on(MAIN_RAM)?;
        match runs.as_slice() {
            [] => Ok(Outgoing::InPlace { ptr: 0, len: 0 }),
            [r] => Ok(Outgoing::InPlace {
                ptr: r.ptr,
                len: r.len,
            }),
            _ => h.pack_on(MAIN_RAM).map(Outgoing::Packed),
        }
    }

    /// Where `size` bytes for `h` can be received in place, when they can.
    pub(crate) fn in_place(&self, h: &DataHandle, size: usize) -> Option<usize> {
        if self.codec(h).is_some() {
            return None;
        }
        match h.runs_on(MAIN_RAM).ok()?.as_slice() {
            [r] if r.len == size => Some(r.ptr),
            [] if size == 0 => Some(0),
            _ => None,
        }
    }

    /// Writes received bytes into `h`.
    pub(crate) fn deliver(&self, h: &DataHandle, bytes: &[u8]) -> Result<()> {
        match self.codec(h) {
            Some(c) => c.unpack(h, bytes),
            None => h.unpack_on(MAIN_RAM, bytes),
        }
    }
}

impl crate::Mpi {
    /// Sends and receives data of interface `id` through `codec` (`None`: back to the
    /// default) (`starpu_mpi_interface_datatype_register`).
    pub fn set_interface_codec(&self, id: i32, codec: Option<Arc<dyn Codec>>) {
        self.shared.codecs.set_for_interface(id, codec);
    }

    /// Sends and receives `h` through `codec` (`starpu_mpi_datatype_register`).
    pub fn set_handle_codec(&self, h: &DataHandle, codec: Option<Arc<dyn Codec>>) {
        self.shared.codecs.set_for_handle(h, codec);
    }

    /// Where codecs for application-defined interfaces come from when none was set.
    pub fn set_codec_provider(&self, p: Arc<CodecProvider>) {
        self.shared.codecs.set_provider(p);
    }
}

/// The address of `h`'s buffer on main memory (`starpu_data_handle_to_pointer`), which
/// an application's MPI datatype describes the data relative to.
pub fn buffer_of(h: &DataHandle) -> Result<usize> {
    let d = h
        .interface_on_node(MAIN_RAM)
        .ok_or_else(|| Error::invalid("data has no description on main memory"))?;
    // SAFETY: the description belongs to h, of h's interface type.
    let p = unsafe { h.ops().data_ptr(d as *const u8) };
    if p == 0 {
        return Err(Error::invalid(format!(
            "data {}: its interface gives no buffer address (to_pointer) for its MPI datatype",
            h.label()
        )));
    }
    Ok(p)
}

/// Packs the data at `base` that MPI datatype `t` describes. On the progression thread
/// (a codec's `pack`) only.
pub fn mpi_pack(base: usize, t: ffi::MPI_Datatype) -> Result<Vec<u8>> {
    // SAFETY: MPI calls on the progression thread; `base` holds the data `t` describes
    // (the application's contract).
    unsafe {
        let world = ffi::RSMPI_COMM_WORLD;
        let mut size = 0;
        check("MPI_Pack_size", ffi::MPI_Pack_size(1, t, world, &mut size))?;
        let mut out = vec![0u8; size.max(0) as usize];
        let mut pos = 0;
        check(
            "MPI_Pack",
            ffi::MPI_Pack(
                base as *const _,
                1,
                t,
                out.as_mut_ptr() as *mut _,
                size,
                &mut pos,
                world,
            ),
        )?;
        out.truncate(pos.max(0) as usize);
        Ok(out)
    }
}

/// Unpacks `bytes` (made by `mpi_pack` with the same datatype) into the data at `base`.
pub fn mpi_unpack(base: usize, t: ffi::MPI_Datatype, bytes: &[u8]) -> Result<()> {
    // SAFETY: as for mpi_pack, the data held for writing.
    unsafe {
        let world = ffi::RSMPI_COMM_WORLD;
        let mut size = 0;
        check("MPI_Pack_size", ffi::MPI_Pack_size(1, t, world, &mut size))?;
        if bytes.len() > size.max(0) as usize {
            return Err(Error::invalid(format!(
                "{} bytes arrived, the MPI datatype holds {size}",
                bytes.len()
            )));
        }
        let mut pos = 0;
        check(
            "MPI_Unpack",
            ffi::MPI_Unpack(
                bytes.as_ptr() as *const _,
                bytes.len() as i32,
                &mut pos,
                base as *mut _,
                1,
                t,
                world,
            ),
        )
    }
}
