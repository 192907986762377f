//! How C data travels: MPI datatypes the application registers for an interface or a
//! handle (`starpu_mpi_datatype_register`...), and the `pack_data` / `peek_data` /
//! `unpack_data` functions of application-defined interfaces. A datatype function that
//! answers -1 for some data falls back to packing, as in StarPU.

use super::{call, handle};
use crate::abi::{starpu_data_handle_t, starpu_data_interface_ops};
use crate::custom_interface;
use crate::ffi::c_handle;
use crate::memory::{starpu_free_on_node_flags, starpu_malloc_on_node_flags};
use libc::{c_int, c_uint, c_void};
use starpu_core::memory::MAIN_RAM;
use starpu_core::{DataHandle, Error, Result};
use starpu_mpi::ffi::MPI_Datatype;
use starpu_mpi::wire::{self, Codec};
use std::sync::Arc;

pub type starpu_mpi_datatype_allocate_func_t =
    Option<unsafe extern "C" fn(starpu_data_handle_t, *mut MPI_Datatype) -> c_int>;
pub type starpu_mpi_datatype_node_allocate_func_t =
    Option<unsafe extern "C" fn(starpu_data_handle_t, c_uint, *mut MPI_Datatype) -> c_int>;
pub type starpu_mpi_datatype_free_func_t = Option<unsafe extern "C" fn(*mut MPI_Datatype)>;

#[derive(Clone, Copy)]
enum Allocate {
    Plain(unsafe extern "C" fn(starpu_data_handle_t, *mut MPI_Datatype) -> c_int),
    Node(unsafe extern "C" fn(starpu_data_handle_t, c_uint, *mut MPI_Datatype) -> c_int),
}

/// The application's functions for one kind of data.
struct CCodec {
    datatype: Option<(Allocate, starpu_mpi_datatype_free_func_t)>,
    /// The ops table of an application-defined interface.
    table: Option<*const starpu_data_interface_ops>,
}

// SAFETY: function pointers and a static ops table of the application.
unsafe impl Send for CCodec {}
unsafe impl Sync for CCodec {}

impl CCodec {
    /// Runs `f` with the handle's MPI datatype, or returns `None` when there is none (no
    /// functions, or they answered -1 for this data).
    fn with_datatype<R>(
        &self,
        h: &DataHandle,
        f: impl FnOnce(MPI_Datatype) -> Result<R>,
    ) -> Option<Result<R>> {
        let (alloc, free) = self.datatype?;
        let mut t = MPI_Datatype(std::ptr::null_mut());
        // SAFETY: the application's allocation function, on the progression thread.
        let r = unsafe {
            match alloc {
                Allocate::Plain(a) => a(c_handle(h), &mut t),
                Allocate::Node(a) => a(c_handle(h), MAIN_RAM as c_uint, &mut t),
            }
        };
        if r < 0 {
            return None;
        }
        let out = f(t);
        if let Some(free) = free {
            // SAFETY: the datatype its allocation function made.
            unsafe { free(&mut t) };
        }
        Some(out)
    }

    fn table(&self) -> Option<&starpu_data_interface_ops> {
        // SAFETY: ops tables are static data of the application.
        self.table.map(|t| unsafe { &*t })
    }
}

impl Codec for CCodec {
    fn pack(&self, h: &DataHandle) -> Result<Vec<u8>> {
        if let Some(r) = self.with_datatype(h, |t| wire::mpi_pack(wire::buffer_of(h)?, t)) {
            return r;
        }
        let Some(t) = self.table() else {
            return h.pack_on(MAIN_RAM);
        };
        let pack = t.pack_data.ok_or_else(|| no_functions(h, "pack_data"))?;
        let (mut ptr, mut count): (*mut c_void, isize) = (std::ptr::null_mut(), 0);
        // SAFETY: the interface's pack function; it allocates with starpu_malloc_on_node_flags.
        let r = unsafe { pack(c_handle(h), MAIN_RAM as c_uint, &mut ptr, &mut count) };
        if r < 0 || count < 0 || (ptr.is_null() && count > 0) {
            return Err(Error::invalid(format!(
                "data {}: its pack_data failed ({r})",
                h.label()
            )));
        }
        let bytes = if count == 0 {
            Vec::new()
        } else {
            // SAFETY: pack_data filled `count` bytes at `ptr`.
            unsafe { std::slice::from_raw_parts(ptr as *const u8, count as usize) }.to_vec()
        };
        if !ptr.is_null() {
            starpu_free_on_node_flags(MAIN_RAM as c_uint, ptr as usize, count as usize, 0);
        }
        Ok(bytes)
    }

    fn unpack(&self, h: &DataHandle, bytes: &[u8]) -> Result<()> {
        if let Some(r) = self.with_datatype(h, |t| wire::mpi_unpack(wire::buffer_of(h)?, t, bytes))
        {
            return r;
        }
        let Some(t) = self.table() else {
            return h.unpack_on(MAIN_RAM, bytes);
        };
        let node = MAIN_RAM as c_uint;
        // SAFETY: the interface's functions, with a buffer of bytes.len() bytes; unpack_data
        // frees its buffer (StarPU's contract), so it gets one of its own.
        let r = unsafe {
            if let Some(peek) = t.peek_data {
                peek(
                    c_handle(h),
                    node,
                    bytes.as_ptr() as *mut c_void,
                    bytes.len(),
                )
            } else if let Some(unpack) = t.unpack_data {
                let buf = starpu_malloc_on_node_flags(node, bytes.len().max(1), 0) as *mut u8;
                if buf.is_null() {
                    return Err(Error::new(
                        starpu_core::ErrorKind::OutOfMemory,
                        "cannot allocate an unpack buffer",
                    ));
                }
                std::ptr::copy_nonoverlapping(bytes.as_ptr(), buf, bytes.len());
                unpack(c_handle(h), node, buf as *mut c_void, bytes.len())
            } else {
                return Err(no_functions(h, "peek_data or unpack_data"));
            }
        };
        if r < 0 {
            return Err(Error::invalid(format!(
                "data {}: its unpack function failed ({r})",
                h.label()
            )));
        }
        Ok(())
    }
}

fn no_functions(h: &DataHandle, what: &str) -> Error {
    Error::invalid(format!(
        "data {} ({}) cannot be sent to another process: its interface has no {what} and no \
         MPI datatype is registered for it (starpu_mpi_interface_datatype_register)",
        h.label(),
        h.ops().name()
    ))
}

fn table_of_interface(id: c_int) -> Option<*const starpu_data_interface_ops> {
    (id >= starpu_core::data::interfaces::id::MAX)
        .then(|| custom_interface::ops_table(id))
        .flatten()
}

/// Makes application-defined interfaces travel through their pack functions; set once
/// StarPU-MPI starts.
pub(crate) fn install_provider(m: &starpu_mpi::Mpi) {
    m.set_codec_provider(Arc::new(|h: &DataHandle| {
        let table = table_of_interface(h.interface_id())?;
        Some(Arc::new(CCodec {
            datatype: None,
            table: Some(table),
        }) as Arc<dyn Codec>)
    }));
}

fn codec(alloc: Allocate, free: starpu_mpi_datatype_free_func_t, id: c_int) -> Arc<dyn Codec> {
    Arc::new(CCodec {
        datatype: Some((alloc, free)),
        table: table_of_interface(id),
    })
}

fn register_handle(
    name: &str,
    h: starpu_data_handle_t,
    alloc: Option<Allocate>,
    free: starpu_mpi_datatype_free_func_t,
) -> c_int {
    call(name, |m| {
        let alloc = alloc.ok_or_else(|| Error::invalid("the allocation function is NULL"))?;
        let h = handle(h)?;
        m.set_handle_codec(&h, Some(codec(alloc, free, h.interface_id())));
        Ok(())
    })
}

fn register_interface(
    name: &str,
    id: c_int,
    alloc: Option<Allocate>,
    free: starpu_mpi_datatype_free_func_t,
) -> c_int {
    call(name, |m| {
        let alloc = alloc.ok_or_else(|| Error::invalid("the allocation function is NULL"))?;
        m.set_interface_codec(id, Some(codec(alloc, free, id)));
        Ok(())
    })
}

/// `starpu_mpi_datatype_register`: `h` travels as the MPI datatype `allocate` builds.
#[no_mangle]
pub extern "C" fn starpu_mpi_datatype_register(
    h: starpu_data_handle_t,
    allocate: starpu_mpi_datatype_allocate_func_t,
    free: starpu_mpi_datatype_free_func_t,
) -> c_int {
    register_handle(
        "starpu_mpi_datatype_register",
        h,
        allocate.map(Allocate::Plain),
        free,
    )
}

/// `starpu_mpi_datatype_node_register`.
#[no_mangle]
pub extern "C" fn starpu_mpi_datatype_node_register(
    h: starpu_data_handle_t,
    allocate: starpu_mpi_datatype_node_allocate_func_t,
    free: starpu_mpi_datatype_free_func_t,
) -> c_int {
    register_handle(
        "starpu_mpi_datatype_node_register",
        h,
        allocate.map(Allocate::Node),
        free,
    )
}

/// `starpu_mpi_interface_datatype_register`: data of interface `id` travel as the MPI
/// datatype `allocate` builds for each.
#[no_mangle]
pub extern "C" fn starpu_mpi_interface_datatype_register(
    id: c_int,
    allocate: starpu_mpi_datatype_allocate_func_t,
    free: starpu_mpi_datatype_free_func_t,
) -> c_int {
    register_interface(
        "starpu_mpi_interface_datatype_register",
        id,
        allocate.map(Allocate::Plain),
        free,
    )
}

/// `starpu_mpi_interface_datatype_node_register`.
#[no_mangle]
pub extern "C" fn starpu_mpi_interface_datatype_node_register(
    id: c_int,
    allocate: starpu_mpi_datatype_node_allocate_func_t,
    free: starpu_mpi_datatype_free_func_t,
) -> c_int {
    register_interface(
        "starpu_mpi_interface_datatype_node_register",
        id,
        allocate.map(Allocate::Node),
        free,
    )
}

/// `starpu_mpi_datatype_unregister`.
#[no_mangle]
pub extern "C" fn starpu_mpi_datatype_unregister(h: starpu_data_handle_t) -> c_int {
    call("starpu_mpi_datatype_unregister", |m| {
        m.set_handle_codec(&handle(h)?, None);
        Ok(())
    })
}

/// `starpu_mpi_interface_datatype_unregister`.
#[no_mangle]
pub extern "C" fn starpu_mpi_interface_datatype_unregister(id: c_int) -> c_int {
    call("starpu_mpi_interface_datatype_unregister", |m| {
        m.set_interface_codec(id, None);
        Ok(())
    })
}
