//! Data for Java: registration of direct buffers (and of data without a home buffer),
//! acquisition, partitions and plans. Java keeps no partition state: it asks the core for a
//! handle's children, plans and registration, and for the memory and layout of a piece.

use crate::jvm::{self, GlobalObj};
use crate::natives::{check, fail, handle, long_array, longs, native, runtime};
use crate::protocol;
use jni::objects::{JByteBuffer, JLongArray, JObject};
use jni::sys::{jboolean, jint, jlong, jobject};
use jni::Env;
use starpu_core::data::interfaces::{MatrixInterface, VariableInterface, VectorInterface};
use starpu_core::data::{AcquireNode, Filter};
use starpu_core::memory::MAIN_RAM;
use starpu_core::{DataHandle, ElemKind, Error};
use std::ffi::c_void;

/// Where the elements of a variable, vector or matrix lie: `ny` rows of `nx` elements of
/// `elemsize` bytes, `ld` elements apart, from `address`.
#[derive(Clone, Copy)]
pub(crate) struct Layout {
    pub address: usize,
    pub nx: usize,
    pub ny: usize,
    pub ld: usize,
    pub elemsize: usize,
}

impl Layout {
    /// The bytes from the first element to the end of the last.
    pub(crate) fn span(&self) -> usize {
        if self.nx == 0 || self.ny == 0 {
            return 0;
        }
        ((self.ny - 1) * self.ld + self.nx) * self.elemsize
    }

    fn of_variable(v: &VariableInterface) -> Layout {
        Layout {
            address: v.ptr,
            nx: 1,
            ny: 1,
            ld: 1,
            elemsize: v.elemsize,
        }
    }

    fn of_vector(v: &VectorInterface) -> Layout {
        let nx = v.nx as usize;
        Layout {
            address: v.ptr,
            nx,
            ny: 1,
            ld: nx,
            elemsize: v.elemsize,
        }
    }

    fn of_matrix(m: &MatrixInterface) -> Layout {
        Layout {
            address: m.ptr,
            nx: m.nx as usize,
            ny: m.ny as usize,
            ld: m.ld as usize,
            elemsize: m.elemsize,
        }
    }

    /// The main-memory layout of `h` (a variable, vector or matrix).
    pub(crate) fn of_handle(h: &DataHandle) -> Option<Layout> {
        if let Some(v) = h.interface::<VariableInterface>(MAIN_RAM) {
            return Some(Self::of_variable(&v));
        }
        if let Some(v) = h.interface::<VectorInterface>(MAIN_RAM) {
            return Some(Self::of_vector(&v));
        }
        h.interface::<MatrixInterface>(MAIN_RAM)
            .map(|m| Self::of_matrix(&m))
    }

    /// The layout of buffer `i` of a kernel call.
    pub(crate) fn of_buffer(call: &starpu_core::KernelCall, i: usize) -> Option<Layout> {
        if let Some(v) = call.interface::<VariableInterface>(i) {
            return Some(Self::of_variable(v));
        }
        if let Some(v) = call.interface::<VectorInterface>(i) {
            return Some(Self::of_vector(v));
        }
        call.interface::<MatrixInterface>(i).map(Self::of_matrix)
    }
}

/// A direct `ByteBuffer` over `layout`'s memory (a local reference; null for memory not
/// allocated yet).
///
/// # Safety
/// `env` is the calling thread's environment; the memory stays valid while Java uses the
/// buffer (the runtime's replica of a registered handle, or a kernel's buffer during the call).
pub(crate) unsafe fn byte_buffer(env: *mut jni::sys::JNIEnv, layout: Layout) -> jobject {
    if layout.address == 0 {
        return std::ptr::null_mut();
    }
    crate::jvm::jni_raw!(
        env,
        NewDirectByteBuffer,
        layout.address as *mut c_void,
        layout.span() as jlong
    )
}

/// Element kinds as Java names them (`Native.KIND_*`).
fn kind_of(code: jint) -> Result<(ElemKind, usize), Error> {
    Ok(match code {
        protocol::KIND_BYTE => (ElemKind::U8, 1),
        protocol::KIND_INT => (ElemKind::I32, 4),
        protocol::KIND_LONG => (ElemKind::I64, 8),
        protocol::KIND_FLOAT => (ElemKind::F32, 4),
        protocol::KIND_DOUBLE => (ElemKind::F64, 8),
        _ => return Err(Error::invalid(format!("unknown element kind {code}"))),
    })
}

/// Owns the Java buffer a handle was registered over, keeping it (and its memory) alive.
struct JavaBuffer(#[allow(dead_code)] GlobalObj);

/// Registers a variable (`shape` 0), vector (1) or matrix (2) of `nx` x `ny` elements at
/// `addr` (0: no home buffer, the runtime allocates it), kept alive by `owner`.
fn register(
    addr: usize,
    elem: (ElemKind, usize),
    shape: jint,
    nx: usize,
    ny: usize,
    owner: Option<Box<dyn std::any::Any + Send + Sync>>,
) -> Result<DataHandle, Error> {
    let rt = runtime()?;
    let (kind, size) = elem;
    let to_u32 = |n: usize| {
        u32::try_from(n).map_err(|_| Error::invalid(format!("registration: {n} elements")))
    };
    macro_rules! reg {
        ($iface:expr) => {
            if addr == 0 {
                rt.register_lazy($iface, kind)
            } else {
                // SAFETY: the caller checked that the buffer holds the data's bytes; it
                // stays valid while the handle holds its owner.
                unsafe { rt.register_foreign($iface, kind, owner) }
            }
        };
    }
    match shape {
        protocol::SHAPE_VARIABLE => reg!(VariableInterface::new(addr, size)),
        protocol::SHAPE_VECTOR => reg!(VectorInterface::new(addr, to_u32(nx)?, size)),
        protocol::SHAPE_MATRIX => reg!(MatrixInterface::new(
            addr,
            to_u32(nx)?,
            to_u32(nx)?,
            to_u32(ny)?,
            size
        )),
        _ => Err(Error::invalid(format!(
            "registration: unknown shape {shape}"
        ))),
    }
}

native!(Java_fr_labri_hpccloud_starpu_internal_Native_register(env,
    buffer: JByteBuffer<'local>, kind: jint, shape: jint, nx: jint, ny: jint) -> jlong {
    let elem = check(env, kind_of(kind))?;
    let (Ok(nx), Ok(ny)) = (usize::try_from(nx), usize::try_from(ny)) else {
        return fail(env, &Error::invalid(format!("registration: {nx} x {ny} elements")));
    };
    let (addr, owner) = if buffer.is_null() {
        (0, None)
    } else {
        let not_direct = || Error::invalid("registration: the buffer is not a direct buffer");
        let addr = env.get_direct_buffer_address(&buffer).map_err(|_| not_direct());
        let addr = check(env, addr)? as usize;
        let capacity = env.get_direct_buffer_capacity(&buffer).map_err(|_| not_direct());
        let capacity = check(env, capacity)?;
        let bytes = nx * ny * elem.1;
        if capacity < bytes {
            return fail(env, &Error::invalid(format!(
                "registration: the buffer holds {capacity} bytes, {bytes} are needed")));
        }
        // SAFETY: this thread's environment and a live local reference.
        let owner = JavaBuffer(unsafe { GlobalObj::new(env.get_raw(), buffer.as_raw()) });
        let owner: Box<dyn std::any::Any + Send + Sync> = Box::new(owner);
        (addr, Some(owner))
    };
    let h = check(env, register(addr, elem, shape, nx, ny, owner))?;
    Ok(h.as_ptr() as jlong)
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_registerObjects(env, count: jint) -> jlong {
    let rt = check(env, runtime())?;
    let Ok(count) = usize::try_from(count) else {
        return fail(env, &Error::invalid(format!("registration: negative size {count}")));
    };
    // The runtime orders accesses to a vector of Java objects through a byte vector of the
    // same length (partitioning cuts both the same way); the objects stay in Java.
    let h = check(env, rt.register_vector(vec![0u8; count]))?;
    Ok(h.as_ptr() as jlong)
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_isRegistered(_env, h: jlong) -> jboolean {
    Ok(handle(h).is_ok_and(|h| h.is_registered()))
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_unregister(env, h: jlong, how: jint) -> () {
    let rt = check(env, runtime())?;
    let h = check(env, handle(h))?;
    let r = match how {
        protocol::UNREGISTER => rt.unregister(&h, true),
        protocol::UNREGISTER_NO_COHERENCY => rt.unregister(&h, false),
        protocol::UNREGISTER_SUBMIT => rt.unregister_submit(&h),
        _ => Err(Error::invalid(format!("unknown way to unregister {how}"))),
    };
    check(env, r)
});

/// A direct buffer over the main-memory replica of `h` when it has no home buffer (Java
/// then reads it there while it holds the data acquired), null otherwise.
fn replica_of_homeless(env: &mut Env, h: &DataHandle) -> jobject {
    if h.home_node().is_some() {
        return std::ptr::null_mut();
    }
    match Layout::of_handle(h) {
        // SAFETY: this thread's environment; the replica stays allocated while acquired.
        Some(l) => unsafe { byte_buffer(env.get_raw(), l) },
        None => std::ptr::null_mut(),
    }
}

native!(Java_fr_labri_hpccloud_starpu_internal_Native_acquire(env, h: jlong, mode: jint) -> JObject<'local> {
    let rt = check(env, runtime())?;
    let h = check(env, handle(h))?;
    let mode = check(env, jvm::mode_of(mode))?;
    check(env, rt.acquire(&h, AcquireNode::Node(MAIN_RAM), mode))?;
    let b = replica_of_homeless(env, &h);
    // SAFETY: a local reference made on this thread (or null).
    Ok(unsafe { JObject::from_raw(env, b) })
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_release(env, h: jlong) -> () {
    let rt = check(env, runtime())?;
    let h = check(env, handle(h))?;
    check(env, rt.release(&h))
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_invalidate(env, h: jlong) -> () {
    let rt = check(env, runtime())?;
    let h = check(env, handle(h))?;
    check(env, rt.invalidate(&h))
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_setSequentialConsistency(env, h: jlong, on: jboolean) -> () {
    let h = check(env, handle(h))?;
    h.set_sequential_consistency(on);
    Ok(())
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_buffer(env, h: jlong) -> JObject<'local> {
    let h = check(env, handle(h))?;
    let b = match Layout::of_handle(&h) {
        // SAFETY: this thread's environment; a registered handle's main-memory replica is
        // the Java buffer it was registered over, or memory the runtime keeps while the
        // handle lives.
        Some(l) => unsafe { byte_buffer(env.get_raw(), l) },
        None => std::ptr::null_mut(),
    };
    // SAFETY: a local reference made on this thread (or null).
    Ok(unsafe { JObject::from_raw(env, b) })
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_layout(env, h: jlong) -> JLongArray<'local> {
    let h = check(env, handle(h))?;
    let Some(l) = Layout::of_handle(&h) else {
        return fail(env, &Error::invalid(format!(
            "data {}: only variables, vectors and matrices have a layout", h.label())));
    };
    let mut out = [0i64; 4];
    out[protocol::LAYOUT_ADDRESS] = l.address as i64;
    out[protocol::LAYOUT_NX] = l.nx as i64;
    out[protocol::LAYOUT_NY] = l.ny as i64;
    out[protocol::LAYOUT_LD] = l.ld as i64;
    long_array(env, &out)
});

/// The filters Java names (`Native.FILTER_*`).
fn filter(code: jint, parts: jint) -> Result<Filter, Error> {
    let n = usize::try_from(parts)
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| Error::invalid(format!("partitioning: {parts} parts asked for")))?;
    match code {
        protocol::FILTER_VECTOR_BLOCK => Ok(Filter::vector_block(n)),
        protocol::FILTER_MATRIX_BLOCK => Ok(Filter::matrix_block(n)),
        protocol::FILTER_MATRIX_VERTICAL_BLOCK => Ok(Filter::matrix_vertical_block(n)),
        _ => Err(Error::invalid(format!("unknown filter {code}"))),
    }
}

native!(Java_fr_labri_hpccloud_starpu_internal_Native_partition(env, h: jlong, code: jint, parts: jint) -> () {
    let rt = check(env, runtime())?;
    let h = check(env, handle(h))?;
    let f = check(env, filter(code, parts))?;
    check(env, rt.partition(&h, &f).map(drop))
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_unpartition(env, h: jlong) -> () {
    let rt = check(env, runtime())?;
    let h = check(env, handle(h))?;
    check(env, rt.unpartition(&h, MAIN_RAM))
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_nchildren(_env, h: jlong) -> jint {
    Ok(handle(h).map_or(0, |h| h.nchildren() as jint))
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_child(env, h: jlong, i: jint) -> jlong {
    let h = check(env, handle(h))?;
    let c = usize::try_from(i).ok().and_then(|i| h.child(i));
    Ok(c.map_or(0, |c| c.as_ptr() as jlong))
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_partitionPlan(env, h: jlong, code: jint, parts: jint) -> JLongArray<'local> {
    let rt = check(env, runtime())?;
    let h = check(env, handle(h))?;
    let f = check(env, filter(code, parts))?;
    let children = check(env, rt.partition_plan(&h, &f))?;
    let addrs: Vec<i64> = children.iter().map(|c| c.as_ptr() as i64).collect();
    long_array(env, &addrs)
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_planSwitch(env,
    h: jlong, children: JLongArray<'local>, how: jint) -> () {
    let rt = check(env, runtime())?;
    let parent = check(env, handle(h))?;
    let addrs = longs(env, &children)?;
    let children = check(env, addrs.into_iter().map(handle).collect::<Result<Vec<_>, _>>())?;
    let r = match how {
        protocol::PLAN_PARTITION => rt.partition_submit(&parent, &children),
        protocol::PLAN_PARTITION_READONLY => rt.partition_readonly_submit(&parent, &children),
        protocol::PLAN_READWRITE_UPGRADE => rt.partition_readwrite_upgrade_submit(&parent, &children),
        protocol::PLAN_READONLY_DOWNGRADE => rt.partition_readonly_downgrade_submit(&parent, &children),
        protocol::PLAN_UNPARTITION => rt.unpartition_submit(&parent, &children),
        protocol::PLAN_UNPARTITION_READONLY => rt.unpartition_readonly_submit(&parent, &children),
        protocol::PLAN_CLEAN => rt.partition_clean(&parent, &children, None),
        _ => Err(Error::invalid(format!("unknown partition plan switch {how}"))),
    };
    check(env, r)
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_nplans(env, h: jlong) -> jint {
    let h = check(env, handle(h))?;
    Ok(h.nplans() as jint)
});

native!(Java_fr_labri_hpccloud_starpu_internal_Native_setReductionMethods(env,
    h: jlong, shape: JObject<'local>, redux: JObject<'local>, init: JObject<'local>) -> () {
    let h = check(env, handle(h))?;
    let raw = env.get_raw();
    // SAFETY: this thread's environment; the objects are this call's live arguments.
    let methods = unsafe {
        crate::lent::reduction_methods(raw, shape.as_raw(), redux.as_raw(), init.as_raw())
    };
    check(env, h.set_reduction_methods(methods))
});
