//! Data interfaces defined by applications (`struct starpu_data_interface_ops`), run by the
//! core's interface machinery like the built-in ones.
//!
//! The core handles every interface through its `InterfaceOps`; an application's ops table
//! becomes one with `COps`, which calls the table's C functions. Some of those functions
//! take a data handle where the core only has one description at hand (`get_size`,
//! `footprint`): they get a handle value with its lowest bit set, which stands for that
//! description alone, and `starpu_data_get_interface_on_node` answers it (descriptions
//! are 8-byte aligned, registered handles never have that bit).
//!
//! Registration calls the table's `register_data_handle`, which fills the description of
//! every node up to STARPU_MAXNODES: the nodes this build does not have get spare
//! descriptions, kept with the handle and dropped at unregistration.

use crate::abi::*;
use crate::ffi::{self, c_handle, handle, int_call, value_call};
use libc::{c_char, c_int, c_uint, c_void, size_t};
use starpu_core::data::interfaces::{self as ifaces, Description, InterfaceOps};
use starpu_core::data::Origin;
use starpu_core::memory::{Copier, Node, NodeKind};
use starpu_core::{DataHandle, Error, ErrorKind};
use std::collections::HashMap;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Mutex;

/// An application's ops table, as the core sees it.
struct COps {
    table: *const starpu_data_interface_ops,
    name: &'static str,
}

// SAFETY: ops tables are static data of the application, used from any thread as in StarPU.
unsafe impl Send for COps {}
unsafe impl Sync for COps {}

/// A handle value standing for description `desc` alone (see the module's documentation).
fn tagged(desc: *const u8) -> starpu_data_handle_t {
    (desc as usize | 1) as starpu_data_handle_t
}

/// The description a tagged handle value stands for.
pub(crate) fn untag(h: starpu_data_handle_t) -> Option<*mut c_void> {
    let v = h as usize;
    (v & 1 == 1).then_some((v & !1) as *mut c_void)
}

impl COps {
    fn t(&self) -> &starpu_data_interface_ops {
        // SAFETY: the table outlives every handle registered with it (StarPU's contract).
        unsafe { &*self.table }
    }
}

impl InterfaceOps for COps {
    fn id(&self) -> i32 {
        self.t().interfaceid
    }
    fn name(&self) -> &'static str {
        self.name
    }
    fn size(&self) -> usize {
        self.t().interface_size
    }
    unsafe fn data_size(&self, desc: *const u8) -> usize {
        self.t().get_size.map_or(0, |f| f(tagged(desc)))
    }
    unsafe fn alloc_size(&self, desc: *const u8) -> usize {
        match self.t().get_alloc_size {
            Some(f) => f(tagged(desc)),
            None => self.data_size(desc),
        }
    }
    unsafe fn footprint(&self, desc: *const u8) -> u32 {
        match self.t().footprint {
            Some(f) => f(tagged(desc)),
            None => starpu_core::data::hash::crc32c_be(self.data_size(desc) as u32, 0),
        }
    }
    unsafe fn describe(&self, desc: *const u8) -> String {
        let Some(f) = self.t().describe else {
            return self.name.to_string();
        };
        let mut buf = [0 as c_char; 256];
        f(desc as *mut c_void, buf.as_mut_ptr(), buf.len());
        ffi::string(buf.as_ptr()).unwrap_or_default()
    }
    unsafe fn data_ptr(&self, desc: *const u8) -> usize {
        self.t().to_pointer.map_or(0, |f| {
            f(desc as *mut c_void, starpu_core::memory::MAIN_RAM as c_uint) as usize
        })
    }
    unsafe fn allocate(&self, desc: *mut u8, node: &Node) -> starpu_core::Result<()> {
        let node = node.id();
        let f = self.t().allocate_data_on_node.ok_or_else(|| {
            Error::unsupported(format!(
                "interface {} has no allocate_data_on_node",
                self.name
            ))
        })?;
        if f(desc as *mut c_void, node as c_uint) < 0 {
            return Err(Error::new(
                ErrorKind::OutOfMemory,
                format!("interface {}: allocation on node {node} failed", self.name),
            ));
        }
        Ok(())
    }
    unsafe fn free(&self, desc: *mut u8, node: &Node) {
        if let Some(f) = self.t().free_data_on_node {
            f(desc as *mut c_void, node.id() as c_uint);
        }
    }
    unsafe fn copy(
        &self,
        src: *const u8,
        dst: *const u8,
        c: &mut dyn Copier,
    ) -> starpu_core::Result<()> {
        let (s, d) = (src as *mut c_void, dst as *mut c_void);
        let (sn, dn) = c.nodes();
        let (sn, dn) = (sn as c_uint, dn as c_uint);
        let m = self.t().copy_methods.as_ref().ok_or_else(|| {
            Error::unsupported(format!("interface {} has no copy methods", self.name))
        })?;
        let failed = |rc: c_int| {
            Error::invalid(format!(
                "interface {}: its copy from node {sn} to node {dn} failed ({rc})",
                self.name
            ))
        };
        // As StarPU: the generic method copies asynchronously (its regions join this
        // transfer, see `interface_copy.rs`), a method for the pair of kinds synchronously.
        if let Some(f) = m.any_to_any {
            let mut ctx = crate::interface_copy::AsyncCopy(c);
            let rc = f(s, sn, d, dn, &mut ctx as *mut _ as *mut c_void);
            return if rc == 0 || rc == -libc::EAGAIN {
                Ok(())
            } else {
                Err(failed(rc))
            };
        }
        let specific = match c.kinds() {
            (NodeKind::CpuRam, NodeKind::CpuRam) => m.ram_to_ram,
            (NodeKind::CpuRam, NodeKind::OpenCl) => m.ram_to_opencl,
            (NodeKind::OpenCl, NodeKind::CpuRam) => m.opencl_to_ram,
            (NodeKind::OpenCl, NodeKind::OpenCl) => m.opencl_to_opencl,
            (NodeKind::CpuRam, NodeKind::Cuda) => m.ram_to_cuda,
            (NodeKind::Cuda, NodeKind::CpuRam) => m.cuda_to_ram,
            (NodeKind::Cuda, NodeKind::Cuda) => m.cuda_to_cuda,
            _ => None,
        };
        let f = specific.ok_or_else(|| {
            Error::unsupported(format!(
                "interface {} has no copy method from node {sn} to node {dn} (nor any_to_any)",
                self.name
            ))
        })?;
        match f(s, sn, d, dn) {
            0 => Ok(()),
            rc => Err(failed(rc)),
        }
    }
    unsafe fn clear_buffers(&self, _desc: *mut u8) {
        // The table's register_data_handle sets the buffers of every node.
    }
}

/// Every application ops table used so far, by address.
static ALL: Mutex<Option<HashMap<usize, &'static COps>>> = Mutex::new(None);

/// The application ops table of interface `id` (StarPU-MPI packs such data with it).
#[cfg(feature = "mpi")]
pub(crate) fn ops_table(id: i32) -> Option<*const starpu_data_interface_ops> {
    let all = ALL.lock().unwrap_or_else(|e| e.into_inner());
    let found = all.as_ref()?.values().find(|c| c.id() == id)?;
    Some(found.table)
}

/// One `COps` per application ops table, made once.
fn cops(table: *const starpu_data_interface_ops) -> &'static dyn InterfaceOps {
    let mut all = ALL.lock().unwrap_or_else(|e| e.into_inner());
    let map = all.get_or_insert_with(HashMap::new);
    *map.entry(table as usize).or_insert_with(|| {
        // SAFETY: `table` is a live ops table; its name, if any, a C string.
        let name = unsafe { ffi::string((*table).name) }
            .unwrap_or_else(|| "application-defined interface".into());
        Box::leak(Box::new(COps {
            table,
            name: Box::leak(name.into_boxed_str()),
        }))
    })
}

/// The core's ops for a C ops table: a built-in interface's, or the application's.
///
/// # Safety
/// `ops` points to a `struct starpu_data_interface_ops`.
pub unsafe fn core_ops(
    ops: *const starpu_data_interface_ops,
) -> starpu_core::Result<&'static dyn InterfaceOps> {
    let o = &*ops;
    if o.interfaceid < 0 || o.interfaceid >= ifaces::id::MAX {
        if o.interface_size == 0 {
            return Err(Error::invalid(format!(
                "interface {}: interface_size is 0",
                ffi::string(o.name).unwrap_or_default()
            )));
        }
        return Ok(cops(ops));
    }
    let core = builtin_ops(o.interfaceid)?;
    if o.interface_size != 0 && o.interface_size != core.size() {
        return Err(Error::invalid(format!(
            "interface size {} does not match {} ({} bytes)",
            o.interface_size,
            core.name(),
            core.size()
        )));
    }
    Ok(core)
}

/// The core's ops of built-in interface `id`.
fn builtin_ops(id: i32) -> starpu_core::Result<&'static dyn InterfaceOps> {
    use ifaces::*;
    Ok(match id {
        id::VARIABLE => ops_of::<VariableInterface>(),
        id::VECTOR => ops_of::<VectorInterface>(),
        id::MATRIX => ops_of::<MatrixInterface>(),
        id::BLOCK => ops_of::<BlockInterface>(),
        id::TENSOR => ops_of::<TensorInterface>(),
        id::NDIM => ops_of::<NdimInterface>(),
        id::CSR => ops_of::<CsrInterface>(),
        id::BCSR => ops_of::<BcsrInterface>(),
        id::COO => ops_of::<CooInterface>(),
        id::VOID => ops_of::<VoidInterface>(),
        id::MULTIFORMAT => ops_of::<MultiformatInterface>(),
        other => {
            return Err(Error::unsupported(format!(
                "built-in interface {other} does not exist"
            )))
        }
    })
}

/// Descriptions for the nodes this build does not have, which `register_data_handle`
/// functions fill like the others.
struct Spares(Vec<Description>);

/// The description of `h` on `node`, spare descriptions included.
pub(crate) fn interface_on_node(h: &DataHandle, node: usize) -> Option<*mut c_void> {
    if let Some(p) = h.interface_on_node(node) {
        return Some(p);
    }
    let first_spare = h.memory().node_count();
    h.with_owner(|o| {
        let spares = o?.downcast_ref::<Spares>()?;
        spares
            .0
            .get(node.checked_sub(first_spare)?)
            .map(|d| d.ptr() as *mut c_void)
    })
}

/// Registers data described by `data_interface` with ops table `ops` on `home`.
///
/// # Safety
/// As `starpu_data_register`.
pub(crate) unsafe fn register(
    home: c_int,
    data_interface: *mut c_void,
    ops: *mut starpu_data_interface_ops,
) -> starpu_core::Result<DataHandle> {
    ffi::non_null(data_interface, "data_interface")?;
    ffi::non_null(ops, "ops")?;
    if (*ops).interfaceid == UNKNOWN_INTERFACE_ID {
        (*ops).interfaceid = starpu_data_interface_get_next_id();
    }
    let core = core_ops(ops)?;
    let desc = Description::from_raw(core, data_interface as *const u8);
    let custom = core.id() >= ifaces::id::MAX;
    let origin = if custom {
        let spares = (crate::nodes::count()..MAX_NODES)
            .map(|_| Description::from_raw(core, data_interface as *const u8))
            .collect();
        Origin {
            owner: Some(Box::new(Spares(spares))),
            ..Origin::default()
        }
    } else {
        Origin::default()
    };
    let h = ffi::with_runtime(|rt| rt.register_description(ffi::home_node(home)?, desc, origin))?;
    if custom {
        if let Some(f) = (*ops).register_data_handle {
            f(c_handle(&h), home, data_interface);
        }
    }
    Ok(h)
}

/// `STARPU_UNKNOWN_INTERFACE_ID`: an ops table whose id is to be given at registration.
const UNKNOWN_INTERFACE_ID: i32 = -1;

/// `STARPU_MAXNODES`: how many node descriptions `register_data_handle` functions fill.
const MAX_NODES: usize = 4;

static NEXT_ID: AtomicI32 = AtomicI32::new(ifaces::id::MAX);

/// `starpu_data_interface_get_next_id`: a new interface id for an application's interface.
#[no_mangle]
pub extern "C" fn starpu_data_interface_get_next_id() -> c_int {
    NEXT_ID.fetch_add(1, Ordering::Relaxed)
}

/// `starpu_data_register_ops`: gives an application's ops table its id ahead of use.
///
/// # Safety
/// `ops` is NULL or points to an ops table.
#[no_mangle]
pub unsafe extern "C" fn starpu_data_register_ops(ops: *mut starpu_data_interface_ops) {
    if let Some(o) = ops.as_mut() {
        if o.interfaceid == UNKNOWN_INTERFACE_ID {
            o.interfaceid = starpu_data_interface_get_next_id();
        }
    }
}

/// `starpu_data_register_same`: new data like `src` (same interface and shape), allocated
/// by the runtime when first used.
///
/// # Safety
/// `dst` points to writable memory for a handle.
#[no_mangle]
pub unsafe extern "C" fn starpu_data_register_same(
    dst: *mut starpu_data_handle_t,
    src: starpu_data_handle_t,
) {
    let h = value_call("starpu_data_register_same", std::ptr::null_mut(), || {
        ffi::non_null(dst, "handle pointer")?;
        let src = handle(src)?;
        let h = ffi::with_runtime(|rt| rt.register_like(&src))?;
        Ok(c_handle(&h))
    });
    if !dst.is_null() {
        *dst = h;
    }
}

/// `starpu_data_ptr_register`: the application set the buffers of `h` on `node` (the
/// `starpu_*_ptr_register` helpers call it before filling the description).
#[no_mangle]
pub extern "C" fn starpu_data_ptr_register(h: starpu_data_handle_t, node: c_uint) {
    let _ = int_call("starpu_data_ptr_register", || {
        let h = handle(h)?;
        if node as usize >= h.memory().node_count() {
            return Err(Error::invalid(format!("memory node {node} does not exist")));
        }
        h.mark_allocated(node as usize);
        Ok(())
    });
}

/// `starpu_check_on_node`: checks that `ptr` may hold `size` bytes on `node`.
#[no_mangle]
pub extern "C" fn starpu_check_on_node(node: c_int, ptr: libc::uintptr_t, size: size_t) {
    let e = if node < 0 || node as usize >= crate::nodes::count() {
        starpu_core::Error::invalid(format!("memory node {node} does not exist"))
    } else if ptr == 0 && size > 0 {
        starpu_core::Error::invalid(format!("NULL buffer of {size} bytes on node {node}"))
    } else {
        return;
    };
    crate::ffi::report("starpu_check_on_node", &e);
}
