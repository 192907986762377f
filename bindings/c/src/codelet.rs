//! From a C `struct starpu_codelet` to the core's `Codelet`.
//!
//! C programs pass the same (usually static) codelet for every task. Converting it each time
//! would cost more than the rest of a submission, so the conversion is cached per codelet
//! address, together with a snapshot of the fields it was made from: a codelet changed after
//! use, or another codelet at a reused stack address, is converted again.

use crate::abi::{starpu_codelet, starpu_cpu_func_t, starpu_task, STARPU_MAXIMPLEMENTATIONS};
use crate::consts;
use crate::job::CTask;
use libc::{c_char, c_int, c_uint, c_void};
use starpu_core::task::{CanExecute, Codelet, CodeletType, CpuKernel, KernelCall};
use starpu_core::AccessMode;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The bytes of the C struct a conversion was made from: any change to the codelet (or
/// another codelet at the same address) shows as a difference.
type Snapshot = [u8; std::mem::size_of::<starpu_codelet>()];

unsafe fn snapshot(cl: *const starpu_codelet) -> Snapshot {
    std::ptr::read_unaligned(cl as *const Snapshot)
}

fn same(a: &Snapshot, cl: *const starpu_codelet) -> bool {
    // SAFETY: cl points to a live codelet of that size.
    unsafe { std::slice::from_raw_parts(cl as *const u8, a.len()) == &a[..] }
}

type Entry = (usize, Box<Snapshot>, Arc<Codelet>);

thread_local! {
    /// The last codelet this thread submitted: the common case, without a lock.
    static LAST: RefCell<Option<Entry>> = const { RefCell::new(None) };
}

/// Every codelet converted so far, by address.
type Cache = HashMap<usize, (Box<Snapshot>, Arc<Codelet>)>;
static CACHE: Mutex<Option<Cache>> = Mutex::new(None);

/// The core codelet for C codelet `cl`.
///
/// # Safety
/// `cl` points to a live, initialised `struct starpu_codelet`.
pub unsafe fn lookup(cl: *mut starpu_codelet) -> Arc<Codelet> {
    let key = cl as usize;
    if let Some(hit) = LAST.with(|l| {
        l.borrow()
            .as_ref()
            .filter(|(k, s, _)| *k == key && same(s, cl))
            .map(|(_, _, c)| c.clone())
    }) {
        return hit;
    }
    let snap = Box::new(snapshot(cl));
    let converted = {
        let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        let map = cache.get_or_insert_with(HashMap::new);
        match map.get(&key) {
            Some((s, c)) if same(s, cl) => c.clone(),
            _ => {
                let c = Arc::new(convert(&*cl));
                map.insert(key, (snap.clone(), c.clone()));
                c
            }
        }
    };
    LAST.with(|l| *l.borrow_mut() = Some((key, snap, converted.clone())));
    converted
}

/// The CPU implementations, from `cpu_funcs`, the deprecated `cpu_func`, or by symbol
/// lookup of `cpu_funcs_name` (as StarPU does when only names are given).
pub(crate) unsafe fn cpu_functions(
    cl: &starpu_codelet,
) -> Vec<unsafe extern "C" fn(*mut *mut c_void, *mut c_void)> {
    let mut out = Vec::new();
    for i in 0..STARPU_MAXIMPLEMENTATIONS {
        let f = cl.cpu_funcs[i].or_else(|| lookup_symbol(cl.cpu_funcs_name[i]));
        match f {
            Some(f) => out.push(f),
            None => break,
        }
    }
    // STARPU_MULTIPLE_CPU_IMPLEMENTATIONS ((void*)-1) in cpu_func means "see cpu_funcs".
    if out.is_empty() {
        if let Some(f) = cl.cpu_func {
            if f as usize != usize::MAX {
                out.push(f);
            }
        }
    }
    out
}

unsafe fn lookup_symbol(name: *const c_char) -> starpu_cpu_func_t {
    if name.is_null() {
        return None;
    }
    let sym = libc::dlsym(libc::RTLD_DEFAULT, name);
    if sym.is_null() {
        None
    } else {
        Some(std::mem::transmute::<
            *mut c_void,
            unsafe extern "C" fn(*mut *mut c_void, *mut c_void),
        >(sym))
    }
}

/// The `where` mask: the codelet's, or derived from the implementations it has.
unsafe fn where_mask(cl: &starpu_codelet, ncpu: usize) -> u32 {
    if cl.r#where != 0 {
        return cl.r#where;
    }
    let mut w = 0u64;
    if ncpu > 0 {
        w |= consts::STARPU_CPU;
    }
    if cl.cuda_funcs[0].is_some() || cl.cuda_func.is_some() {
        w |= consts::STARPU_CUDA;
    }
    if cl.opencl_funcs[0].is_some() || cl.opencl_func.is_some() {
        w |= consts::STARPU_OPENCL;
    }
    if cl.hip_funcs[0].is_some() {
        w |= consts::STARPU_HIP;
    }
    w as u32
}

/// Runs a C kernel: fills `task->interfaces` as StarPU does, then calls
/// `f(buffers, cl_arg)`.
fn c_kernel(f: unsafe extern "C" fn(*mut *mut c_void, *mut c_void)) -> CpuKernel {
    Arc::new(move |call: &KernelCall| {
        let task = call
            .payload::<CTask>()
            .ok_or("a C codelet used by a task that is not a C task")?
            .ptr();
        let buffers = call.buffers();
        // SAFETY: the C task lives as long as its submission; buffers hold the interface
        // pointers, as C kernels expect. The ranks of an SPMD task share the task: only
        // rank 0 fills them (the others run at the same time).
        unsafe {
            if call.combined_rank() == 0 {
                for (slot, b) in (*task).interfaces.iter_mut().zip(buffers) {
                    *slot = *b;
                }
            }
            f(buffers.as_ptr() as *mut *mut c_void, (*task).cl_arg);
        }
        Ok(())
    })
}

/// The OpenCL implementations, from `opencl_funcs` or the deprecated `opencl_func`, with
/// their `opencl_flags`.
pub(crate) unsafe fn opencl_functions(
    cl: &starpu_codelet,
) -> Vec<(unsafe extern "C" fn(*mut *mut c_void, *mut c_void), u8)> {
    let mut out: Vec<_> = cl
        .opencl_funcs
        .iter()
        .zip(cl.opencl_flags)
        .map_while(|(f, flags)| f.map(|f| (f, flags as u8)))
        .collect();
    // STARPU_MULTIPLE_OPENCL_IMPLEMENTATIONS ((void*)-1) means "see opencl_funcs".
    if out.is_empty() {
        if let Some(f) = cl.opencl_func.filter(|f| *f as usize != usize::MAX) {
            out.push((f, 0));
        }
    }
    out
}

/// The CUDA implementations, from `cuda_funcs` or the deprecated `cuda_func`, with their
/// `cuda_flags`.
pub(crate) unsafe fn cuda_functions(
    cl: &starpu_codelet,
) -> Vec<(unsafe extern "C" fn(*mut *mut c_void, *mut c_void), u8)> {
    let mut out: Vec<_> = cl
        .cuda_funcs
        .iter()
        .zip(cl.cuda_flags)
        .map_while(|(f, flags)| f.map(|f| (f, flags as u8)))
        .collect();
    // STARPU_MULTIPLE_CUDA_IMPLEMENTATIONS ((void*)-1) means "see cuda_funcs".
    if out.is_empty() {
        if let Some(f) = cl.cuda_func.filter(|f| *f as usize != usize::MAX) {
            out.push((f, 0));
        }
    }
    out
}

/// A CUDA implementation: a C kernel that fails its task when it reports an error
/// (`STARPU_CUDA_REPORT_ERROR`, `STARPU_CUBLAS_REPORT_ERROR`...).
fn c_cuda_kernel(f: unsafe extern "C" fn(*mut *mut c_void, *mut c_void)) -> CpuKernel {
    let run = c_kernel(f);
    Arc::new(move |call: &KernelCall| {
        run(call)?;
        crate::cuda::take_kernel_failure()
    })
}

/// Whether the OpenCL kernel that just ran on this thread reported an error
/// (`STARPU_OPENCL_REPORT_ERROR`): the failure of its task.
pub(crate) fn opencl_kernel_failure() -> starpu_core::task::KernelResult {
    #[cfg(feature = "opencl")]
    if let Some(status) = crate::opencl::take_kernel_failure() {
        return Err(format!(
            "the OpenCL kernel reported error {status} ({})",
            starpu_core::drivers::opencl::error_string(status)
        )
        .into());
    }
    Ok(())
}

/// An OpenCL implementation: a C kernel that fails its task when it reports an OpenCL
/// error (`STARPU_OPENCL_REPORT_ERROR`).
fn c_opencl_kernel(f: unsafe extern "C" fn(*mut *mut c_void, *mut c_void)) -> CpuKernel {
    let run = c_kernel(f);
    Arc::new(move |call: &KernelCall| {
        run(call)?;
        opencl_kernel_failure()
    })
}

fn c_can_execute(f: unsafe extern "C" fn(c_uint, *mut starpu_task, c_uint) -> c_int) -> CanExecute {
    Arc::new(move |worker, task, nimpl| {
        let t = task
            .payload::<CTask>()
            .map_or(std::ptr::null_mut(), CTask::ptr);
        // SAFETY: a C function of the application, given its task (live while submitted).
        unsafe { f(worker as c_uint, t, nimpl as c_uint) != 0 }
    })
}

unsafe fn convert(cl: &starpu_codelet) -> Codelet {
    let funcs = cpu_functions(cl);
    let nbuffers =
        (cl.nbuffers != consts::STARPU_VARIABLE_NBUFFERS).then_some(cl.nbuffers.max(0) as usize);
    let modes = match nbuffers {
        Some(n) => (0..n)
            .map(|i| AccessMode::from_bits_retain(mode_of(cl, i)))
            .collect(),
        None => Vec::new(),
    };
    let (opencl_funcs, opencl_flags): (Vec<_>, Vec<_>) = opencl_functions(cl)
        .into_iter()
        .map(|(f, flags)| (c_opencl_kernel(f), flags))
        .unzip();
    let (cuda_funcs, cuda_flags): (Vec<_>, Vec<_>) = cuda_functions(cl)
        .into_iter()
        .map(|(f, flags)| (c_cuda_kernel(f), flags))
        .unzip();
    Codelet {
        name: crate::ffi::string(cl.name),
        where_mask: where_mask(cl, funcs.len()),
        cpu_funcs: funcs.into_iter().map(c_kernel).collect(),
        cuda_funcs,
        cuda_flags,
        opencl_funcs,
        opencl_flags,
        nbuffers,
        modes,
        can_execute: cl.can_execute.map(c_can_execute),
        kind: match cl.r#type {
            1 => CodeletType::Spmd,
            2 => CodeletType::ForkJoin,
            _ => CodeletType::Seq,
        },
        max_parallelism: cl.max_parallelism,
        model: crate::perfmodel::convert(cl.model),
        color: cl.color,
        flags: cl.flags as u32,
    }
}

/// A multiformat conversion codelet (`cpu_to_opencl_cl`, `cuda_to_cpu_cl`...) as a core
/// codelet: its functions are called as `f(buffers, NULL)`, as StarPU calls them (the
/// conversion belongs to no C task). `None` for a NULL codelet.
///
/// # Safety
/// `cl` is NULL or points to a live, initialised `struct starpu_codelet`.
pub unsafe fn conversion(cl: *const starpu_codelet) -> Option<Arc<Codelet>> {
    let cl = cl.as_ref()?;
    let name = crate::ffi::string(cl.name).unwrap_or_else(|| "conversion_task".into());
    let call = |f: unsafe extern "C" fn(*mut *mut c_void, *mut c_void)| {
        move |call: &KernelCall| -> starpu_core::task::KernelResult {
            // SAFETY: an application conversion function, given the handle's interface.
            unsafe {
                f(
                    call.buffers().as_ptr() as *mut *mut c_void,
                    std::ptr::null_mut(),
                )
            };
            Ok(())
        }
    };
    let mut out = Codelet::new(name);
    for f in cpu_functions(cl) {
        out = out.cpu(call(f));
    }
    for (f, _) in opencl_functions(cl) {
        let run = call(f);
        out = out.opencl(move |c| {
            run(c)?;
            opencl_kernel_failure()
        });
    }
    for (f, _) in cuda_functions(cl) {
        let run = call(f);
        out = out.cuda(move |c| {
            run(c)?;
            crate::cuda::take_kernel_failure()
        });
    }
    Some(Arc::new(out))
}

/// Mode of buffer `i` as the codelet declares it (0 when it leaves it to the task).
///
/// # Safety
/// `dyn_modes`, when set, holds at least `i + 1` entries.
pub unsafe fn mode_of(cl: &starpu_codelet, i: usize) -> u32 {
    if !cl.dyn_modes.is_null() {
        *cl.dyn_modes.add(i)
    } else {
        cl.modes.get(i).copied().unwrap_or(0)
    }
}

/// `starpu_codelet_init`: an all-zero codelet.
///
/// # Safety
/// `cl` points to writable memory for a codelet.
#[no_mangle]
pub unsafe extern "C" fn starpu_codelet_init(cl: *mut starpu_codelet) {
    if !cl.is_null() {
        std::ptr::write_bytes(cl, 0, 1);
    }
}

/// `starpu_codelet_nop`: a codelet that runs nowhere (`STARPU_NOWHERE`), for tasks that
/// only carry dependencies or tags. The application may change it, as in StarPU.
#[no_mangle]
pub static mut starpu_codelet_nop: starpu_codelet = starpu_codelet {
    r#where: crate::consts::STARPU_NOWHERE as u32,
    name: c"starpu_codelet_nop".as_ptr(),
    // SAFETY: zero is a valid value of every other field (NULL pointers, no functions).
    ..unsafe { std::mem::zeroed() }
};
