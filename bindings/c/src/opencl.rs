//! StarPU's OpenCL API (`starpu_opencl.h`, declared by hand there: its prototypes use
//! OpenCL's types, which `starpu.h` includes only when built with OpenCL). OpenCL objects
//! travel as pointers; the core's OpenCL driver does the work. Functions that return an
//! OpenCL status return it; the others return StarPU's `EXIT_SUCCESS` / `EXIT_FAILURE`.
//!
//! A kernel that calls `STARPU_OPENCL_REPORT_ERROR` fails its task here (the header's
//! `starpu_opencl_report_error` asks `_starpu_opencl_kernel_failed`), where StarPU aborts
//! the process; outside a kernel it still aborts, as in StarPU.

use crate::abi::{starpu_opencl_program, STARPU_MAXOPENCLDEVS};
use crate::ffi::{self, guard};
use libc::{c_char, c_int, c_uint, c_void, size_t, uintptr_t};
use starpu_core::drivers::opencl::{self as ocl, program, raw, Device};
use starpu_core::memory::{Direction, Loc, NodeKind};
use std::cell::RefCell;
use std::ffi::CString;
use std::sync::Arc;

const EXIT_SUCCESS: c_int = 0;
const EXIT_FAILURE: c_int = 1;
const CL_SUCCESS: i32 = 0;
const CL_INVALID_VALUE: i32 = -30;
const CL_INVALID_DEVICE: i32 = -33;

/// The running runtime's OpenCL devices (none before init).
fn devices() -> Vec<Arc<Device>> {
    ffi::runtime().map_or_else(|_| Vec::new(), |rt| rt.devices().opencl.clone())
}

fn device(devid: c_int) -> Option<Arc<Device>> {
    usize::try_from(devid)
        .ok()
        .and_then(|d| devices().get(d).cloned())
}

/// The device of OpenCL memory node `node`.
fn device_of_node(node: c_uint) -> Option<Arc<Device>> {
    let mem = crate::nodes::memory();
    let n = mem.node(node as usize)?;
    (n.kind() == NodeKind::OpenCl)
        .then(|| device(n.devid() as c_int))
        .flatten()
}

/// Writes `v` through `out` if it is not NULL.
unsafe fn put<T>(out: *mut T, v: T) {
    if let Some(o) = out.as_mut() {
        *o = v;
    }
}

fn report(call: &str, e: &starpu_core::Error) {
    ffi::report(call, e);
}

/// `starpu_opencl_get_context`.
///
/// # Safety
/// `context` is NULL or writable.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn starpu_opencl_get_context(devid: c_int, context: *mut *mut c_void) {
    put(
        context,
        device(devid).map_or(std::ptr::null_mut(), |d| d.context_raw()),
    );
}

/// `starpu_opencl_get_device`.
///
/// # Safety
/// `dev` is NULL or writable.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn starpu_opencl_get_device(devid: c_int, dev: *mut *mut c_void) {
    put(
        dev,
        device(devid).map_or(std::ptr::null_mut(), |d| d.device_raw()),
    );
}

/// `starpu_opencl_get_queue`: the queue the device's kernels go to.
///
/// # Safety
/// `queue` is NULL or writable.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn starpu_opencl_get_queue(devid: c_int, queue: *mut *mut c_void) {
    put(
        queue,
        device(devid).map_or(std::ptr::null_mut(), |d| d.queue_raw()),
    );
}

/// `starpu_opencl_get_current_context`: the context of the calling OpenCL worker.
///
/// # Safety
/// `context` is NULL or writable.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn starpu_opencl_get_current_context(context: *mut *mut c_void) {
    put(
        context,
        ocl::current().map_or(std::ptr::null_mut(), |(_, d)| d.context_raw()),
    );
}

/// `starpu_opencl_get_current_queue`: the kernel queue of the calling OpenCL worker.
///
/// # Safety
/// `queue` is NULL or writable.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn starpu_opencl_get_current_queue(queue: *mut *mut c_void) {
    put(
        queue,
        ocl::current().map_or(std::ptr::null_mut(), |(_, d)| d.queue_raw()),
    );
}

/// A `malloc`ed C string (NULL if memory is exhausted).
fn c_string(s: &str) -> *mut c_char {
    ffi::malloc_copy(&[s.as_bytes(), &[0]].concat()) as *mut c_char
}

/// Locates and reads source file `name` (StarPU's rules): (file, dir, source).
unsafe fn read_located(call: &str, name: *const c_char) -> Option<(String, String, String)> {
    let Some(name) = ffi::string(name) else {
        report(call, &starpu_core::Error::invalid("file name is NULL"));
        return None;
    };
    let Some((file, dir)) = program::locate_source(&name) else {
        report(
            call,
            &starpu_core::Error::invalid(format!("cannot locate file <{name}>")),
        );
        return None;
    };
    match std::fs::read_to_string(&file) {
        Ok(src) => Some((file.to_string_lossy().into_owned(), dir, src)),
        Err(e) => {
            report(
                call,
                &starpu_core::Error::invalid(format!("cannot read {}: {e}", file.display())),
            );
            None
        }
    }
}

/// `starpu_opencl_load_program_source`: the file's located name, directory and contents,
/// written into the caller's buffers (empty strings when the file is not found).
///
/// # Safety
/// The three buffers are large enough (StarPU's contract: no size is given).
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn starpu_opencl_load_program_source(
    source_file_name: *const c_char,
    located_file_name: *mut c_char,
    located_dir_name: *mut c_char,
    opencl_program_source: *mut c_char,
) {
    let call = "starpu_opencl_load_program_source";
    let (file, dir, src) =
        guard(call, None, || read_located(call, source_file_name)).unwrap_or_default();
    for (out, s) in [
        (located_file_name, &file),
        (located_dir_name, &dir),
        (opencl_program_source, &src),
    ] {
        if !out.is_null() {
            std::ptr::copy_nonoverlapping(s.as_ptr(), out as *mut u8, s.len());
            *out.add(s.len()) = 0;
        }
    }
}

/// `starpu_opencl_load_program_source_malloc`: the same, in buffers it allocates (freed by
/// the caller with `free`); NULL pointers when the file is not found.
///
/// # Safety
/// The three pointers are NULL or writable.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn starpu_opencl_load_program_source_malloc(
    source_file_name: *const c_char,
    located_file_name: *mut *mut c_char,
    located_dir_name: *mut *mut c_char,
    opencl_program_source: *mut *mut c_char,
) {
    let call = "starpu_opencl_load_program_source_malloc";
    let found = guard(call, None, || read_located(call, source_file_name));
    let null = std::ptr::null_mut();
    match found {
        Some((file, dir, src)) => {
            put(located_file_name, c_string(&file));
            put(located_dir_name, c_string(&dir));
            put(opencl_program_source, c_string(&src));
        }
        None => {
            put(located_file_name, null);
            put(located_dir_name, null);
            put(opencl_program_source, null);
        }
    }
}

/// The options string, "" for NULL.
unsafe fn options(build_options: *const c_char) -> String {
    ffi::string(build_options).unwrap_or_default()
}

/// Fills `programs` (one per device, NULL beyond).
unsafe fn store(programs: *mut starpu_opencl_program, built: &[usize]) {
    if let Some(p) = programs.as_mut() {
        p.programs = [std::ptr::null_mut(); STARPU_MAXOPENCLDEVS];
        for (slot, &b) in p.programs.iter_mut().zip(built) {
            *slot = b as *mut c_void;
        }
    }
}

/// Runs a program-making call: `EXIT_SUCCESS`, or `EXIT_FAILURE` with the error printed.
fn exit_call(call: &str, f: impl FnOnce() -> starpu_core::Result<()>) -> c_int {
    guard(call, EXIT_FAILURE, || match f() {
        Ok(()) => EXIT_SUCCESS,
        Err(e) => {
            report(call, &e);
            EXIT_FAILURE
        }
    })
}

/// `starpu_opencl_load_opencl_from_string`: builds the source for every OpenCL device.
///
/// # Safety
/// `opencl_program_source` is a C string; `programs` is NULL or writable.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn starpu_opencl_load_opencl_from_string(
    opencl_program_source: *const c_char,
    programs: *mut starpu_opencl_program,
    build_options: *const c_char,
) -> c_int {
    exit_call("starpu_opencl_load_opencl_from_string", || {
        let src = ffi::string(opencl_program_source)
            .ok_or_else(|| starpu_core::Error::invalid("program source is NULL"))?;
        let built = program::build_all(&devices(), &src, &options(build_options))?;
        store(programs, &built);
        Ok(())
    })
}

/// `starpu_opencl_load_opencl_from_file`: builds a source file found by StarPU's rules,
/// its directory in the include path; nothing to do without OpenCL devices.
///
/// # Safety
/// As `starpu_opencl_load_opencl_from_string`.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn starpu_opencl_load_opencl_from_file(
    source_file_name: *const c_char,
    programs: *mut starpu_opencl_program,
    build_options: *const c_char,
) -> c_int {
    exit_call("starpu_opencl_load_opencl_from_file", || {
        store(programs, &[]);
        let devs = devices();
        if devs.is_empty() {
            return Ok(());
        }
        let (_, src, opts) = source_file(source_file_name, build_options)?;
        let built = program::build_all(&devs, &src, &opts)?;
        store(programs, &built);
        Ok(())
    })
}

/// The name, source and build options of a program file (its directory added to the
/// include path).
///
/// # Safety
/// Both arguments are C strings or NULL.
unsafe fn source_file(
    name: *const c_char,
    build_options: *const c_char,
) -> starpu_core::Result<(String, String, String)> {
    let name = ffi::string(name).ok_or_else(|| starpu_core::Error::invalid("file name is NULL"))?;
    let (src, opts) = program::read_source(&name, &options(build_options))?;
    Ok((name, src, opts))
}

/// `$STARPU_HOME` (the home directory by default), where binaries are kept.
fn home() -> std::path::PathBuf {
    ffi::runtime()
        .ok()
        .and_then(|rt| rt.config.home.clone())
        .or_else(|| std::env::var_os("STARPU_HOME").map(Into::into))
        .or_else(|| std::env::var_os("HOME").map(Into::into))
        .unwrap_or_else(|| ".".into())
}

/// `starpu_opencl_compile_opencl_from_string`: builds the source for every device and
/// keeps each binary under `$STARPU_HOME/.starpu/opencl/` as `file_name`.
///
/// # Safety
/// Both strings are C strings.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn starpu_opencl_compile_opencl_from_string(
    opencl_program_source: *const c_char,
    file_name: *const c_char,
    build_options: *const c_char,
) -> c_int {
    exit_call("starpu_opencl_compile_opencl_from_string", || {
        let src = ffi::string(opencl_program_source)
            .ok_or_else(|| starpu_core::Error::invalid("program source is NULL"))?;
        let name = ffi::string(file_name)
            .ok_or_else(|| starpu_core::Error::invalid("file name is NULL"))?;
        program::compile_to_binaries(&devices(), &home(), &src, &name, &options(build_options))
    })
}

/// `starpu_opencl_compile_opencl_from_file`.
///
/// # Safety
/// `source_file_name` is a C string.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn starpu_opencl_compile_opencl_from_file(
    source_file_name: *const c_char,
    build_options: *const c_char,
) -> c_int {
    exit_call("starpu_opencl_compile_opencl_from_file", || {
        let devs = devices();
        if devs.is_empty() {
            return Ok(());
        }
        let (name, src, opts) = source_file(source_file_name, build_options)?;
        program::compile_to_binaries(&devs, &home(), &src, &name, &opts)
    })
}

/// `starpu_opencl_load_binary_opencl`: builds the binaries a compile call kept.
///
/// # Safety
/// `kernel_id` is a C string; `programs` NULL or writable.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn starpu_opencl_load_binary_opencl(
    kernel_id: *const c_char,
    programs: *mut starpu_opencl_program,
) -> c_int {
    exit_call("starpu_opencl_load_binary_opencl", || {
        let name = ffi::string(kernel_id)
            .ok_or_else(|| starpu_core::Error::invalid("kernel id is NULL"))?;
        let built = program::load_binaries(&devices(), &home(), &name)?;
        store(programs, &built);
        Ok(())
    })
}

/// `starpu_opencl_unload_opencl`: releases the programs.
///
/// # Safety
/// `programs` is NULL or filled by a load call.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn starpu_opencl_unload_opencl(
    programs: *mut starpu_opencl_program,
) -> c_int {
    if let Some(p) = programs.as_mut() {
        let all: Vec<usize> = p.programs.iter().map(|&x| x as usize).collect();
        program::release_all(&all);
        p.programs = [std::ptr::null_mut(); STARPU_MAXOPENCLDEVS];
    }
    CL_SUCCESS
}

/// `starpu_opencl_load_kernel`: kernel `kernel_name` of the program of device `devid`,
/// and that device's kernel queue. An OpenCL status.
///
/// # Safety
/// `kernel` and `queue` are writable; `programs` was filled by a load call.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn starpu_opencl_load_kernel(
    kernel: *mut *mut c_void,
    queue: *mut *mut c_void,
    programs: *mut starpu_opencl_program,
    kernel_name: *const c_char,
    devid: c_int,
) -> c_int {
    let call = "starpu_opencl_load_kernel";
    guard(call, CL_INVALID_VALUE, || {
        let Some(d) = device(devid) else {
            report(
                call,
                &starpu_core::Error::invalid(format!("no OpenCL device {devid}")),
            );
            return CL_INVALID_DEVICE;
        };
        put(queue, d.queue_raw());
        let program = programs
            .as_ref()
            .and_then(|p| p.programs.get(devid as usize).copied())
            .unwrap_or(std::ptr::null_mut());
        let Some(name) = ffi::string(kernel_name) else {
            return CL_INVALID_VALUE;
        };
        match program::create_kernel(program as usize, &name) {
            Ok(k) => {
                put(kernel, k as *mut c_void);
                CL_SUCCESS
            }
            Err(e) => {
                report(call, &e);
                put(kernel, std::ptr::null_mut());
                ocl_status(&e)
            }
        }
    })
}

/// The OpenCL status a driver error came from (`CL_INVALID_VALUE` if none is given).
fn ocl_status(e: &starpu_core::Error) -> i32 {
    e.message
        .split("OpenCL error ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .and_then(|s| s.parse().ok())
        .unwrap_or(CL_INVALID_VALUE)
}

/// `starpu_opencl_release_kernel`.
/// cbindgen:ignore
#[no_mangle]
pub extern "C" fn starpu_opencl_release_kernel(kernel: *mut c_void) -> c_int {
    match program::release_kernel(kernel as usize) {
        Ok(()) => CL_SUCCESS,
        Err(e) => {
            report("starpu_opencl_release_kernel", &e);
            ocl_status(&e)
        }
    }
}

/// `starpu_opencl_collect_stats`: the kernel's duration, from its event (the queues are
/// made with profiling), counted in the task's profiling information when profiling is
/// on. Always 0.
/// cbindgen:ignore
#[no_mangle]
pub extern "C" fn starpu_opencl_collect_stats(event: *mut c_void) -> c_int {
    let _ = raw::event_duration_ns(event);
    0
}

/// `starpu_opencl_error_string`: StarPU's message for an OpenCL status.
/// cbindgen:ignore
#[no_mangle]
pub extern "C" fn starpu_opencl_error_string(status: i32) -> *const c_char {
    thread_local! {
        static LAST: RefCell<CString> = RefCell::new(CString::default());
    }
    let s = CString::new(ocl::error_string(status)).unwrap_or_default();
    LAST.with(|l| {
        *l.borrow_mut() = s;
        l.borrow().as_ptr()
    })
}

/// `starpu_opencl_display_error`: StarPU's line about a failed OpenCL call.
///
/// # Safety
/// The strings are NULL or C strings.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn starpu_opencl_display_error(
    func: *const c_char,
    file: *const c_char,
    line: c_int,
    msg: *const c_char,
    status: i32,
) {
    let s = |p| ffi::string(p).unwrap_or_else(|| "(null)".into());
    eprintln!(
        "[starpu] oops in {} ({}:{line}) ({}) ... <{}> ({status}) ",
        s(func),
        s(file),
        s(msg),
        ocl::error_string(status)
    );
}

thread_local! {
    /// The OpenCL status a kernel reported with `STARPU_OPENCL_REPORT_ERROR`.
    static KERNEL_FAILURE: std::cell::Cell<Option<i32>> = const { std::cell::Cell::new(None) };
}

/// Called by the header's `starpu_opencl_report_error` after the message: in a task's
/// kernel, records the failure (the task fails when the kernel returns) and returns 1;
/// elsewhere returns 0 and the header aborts, as StarPU does.
/// cbindgen:ignore
#[no_mangle]
pub extern "C" fn _starpu_opencl_kernel_failed(status: i32) -> c_int {
    if starpu_core::task::current_task().is_none() {
        return 0;
    }
    KERNEL_FAILURE.with(|f| f.set(Some(status)));
    1
}

/// The failure a kernel reported while running (cleared).
pub(crate) fn take_kernel_failure() -> Option<i32> {
    KERNEL_FAILURE.with(|f| f.take())
}

/// `starpu_opencl_allocate_memory`: a buffer of `size` bytes on device `devid`.
///
/// # Safety
/// `addr` is writable.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn starpu_opencl_allocate_memory(
    devid: c_int,
    addr: *mut *mut c_void,
    size: size_t,
    flags: u64,
) -> i32 {
    let Some(d) = device(devid) else {
        return CL_INVALID_DEVICE;
    };
    match raw::create_buffer(&d, size, flags) {
        Ok(m) => {
            put(addr, m);
            CL_SUCCESS
        }
        Err(s) => s,
    }
}

/// The body of StarPU's three copy calls: the copy from `src` to `dst` on the device of
/// `node`, waited for unless `event` is given. Returns the OpenCL status, with `*ret`
/// -EAGAIN when the copy runs (its event in `*event`), 0 when it is over.
///
/// # Safety
/// As the copy calls.
unsafe fn copy_call(
    node: c_uint,
    dir: Direction,
    (src, dst): (Loc, Loc),
    size: size_t,
    event: *mut *mut c_void,
    ret: *mut c_int,
) -> i32 {
    let Some(d) = device_of_node(node) else {
        return CL_INVALID_DEVICE;
    };
    match raw::copy(&d, dir, src, dst, size, event.is_null()) {
        Ok(ev) => {
            if event.is_null() {
                put(ret, 0);
            } else {
                *event = ev;
                put(ret, -libc::EAGAIN);
            }
            CL_SUCCESS
        }
        Err(s) => s,
    }
}

/// A buffer of a device at `offset`.
fn buf(mem: *mut c_void, offset: size_t) -> Loc {
    Loc::new(0, mem as usize, offset)
}

/// `starpu_opencl_copy_ram_to_opencl`.
///
/// # Safety
/// `ptr` holds `size` readable bytes; `buffer` is a buffer of `dst_node`'s device.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn starpu_opencl_copy_ram_to_opencl(
    ptr: *mut c_void,
    _src_node: c_uint,
    buffer: *mut c_void,
    dst_node: c_uint,
    size: size_t,
    offset: size_t,
    event: *mut *mut c_void,
    ret: *mut c_int,
) -> i32 {
    let ends = (Loc::ptr(ptr as usize), buf(buffer, offset));
    copy_call(dst_node, Direction::ToDevice, ends, size, event, ret)
}

/// `starpu_opencl_copy_opencl_to_ram`.
///
/// # Safety
/// `ptr` holds `size` writable bytes; `buffer` is a buffer of `src_node`'s device.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn starpu_opencl_copy_opencl_to_ram(
    buffer: *mut c_void,
    src_node: c_uint,
    ptr: *mut c_void,
    _dst_node: c_uint,
    size: size_t,
    offset: size_t,
    event: *mut *mut c_void,
    ret: *mut c_int,
) -> i32 {
    let ends = (buf(buffer, offset), Loc::ptr(ptr as usize));
    copy_call(src_node, Direction::FromDevice, ends, size, event, ret)
}

/// `starpu_opencl_copy_opencl_to_opencl`: within one device.
///
/// # Safety
/// Both buffers belong to the device of `src_node` and hold the ranges.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn starpu_opencl_copy_opencl_to_opencl(
    src: *mut c_void,
    src_node: c_uint,
    src_offset: size_t,
    dst: *mut c_void,
    _dst_node: c_uint,
    dst_offset: size_t,
    size: size_t,
    event: *mut *mut c_void,
    ret: *mut c_int,
) -> i32 {
    let ends = (buf(src, src_offset), buf(dst, dst_offset));
    copy_call(src_node, Direction::Within, ends, size, event, ret)
}

/// `starpu_opencl_copy_async_sync`: a copy between any two nodes (one of them OpenCL):
/// -EAGAIN when it runs asynchronously (`event` given), 0 when done, an OpenCL status on
/// failure.
///
/// # Safety
/// As the three copy calls.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn starpu_opencl_copy_async_sync(
    src: uintptr_t,
    src_offset: size_t,
    src_node: c_uint,
    dst: uintptr_t,
    dst_offset: size_t,
    dst_node: c_uint,
    size: size_t,
    event: *mut *mut c_void,
) -> i32 {
    let kind = |n: c_uint| crate::nodes::kind(n as usize);
    let (s, d) = (src as *mut c_void, dst as *mut c_void);
    let (ram_src, ram_dst) = (Loc::ptr(src + src_offset), Loc::ptr(dst + dst_offset));
    let (dev_src, dev_dst) = (buf(s, src_offset), buf(d, dst_offset));
    let (node, dir, ends) = match (kind(src_node), kind(dst_node)) {
        (Some(NodeKind::CpuRam), Some(NodeKind::OpenCl)) => {
            (dst_node, Direction::ToDevice, (ram_src, dev_dst))
        }
        (Some(NodeKind::OpenCl), Some(NodeKind::CpuRam)) => {
            (src_node, Direction::FromDevice, (dev_src, ram_dst))
        }
        (Some(NodeKind::OpenCl), Some(NodeKind::OpenCl)) => {
            (src_node, Direction::Within, (dev_src, dev_dst))
        }
        _ => return CL_INVALID_VALUE,
    };
    let mut ret: c_int = 0;
    let status = copy_call(node, dir, ends, size, event, &mut ret);
    if status == CL_SUCCESS {
        ret
    } else {
        status
    }
}

/// Sets argument `index` of `kernel` (the body of `starpu_opencl_set_kernel_args`, in
/// csrc/opencl_args.c, calls it for each argument).
///
/// # Safety
/// `value` points to `size` readable bytes.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn _starpu_opencl_set_kernel_arg(
    kernel: *mut c_void,
    index: c_uint,
    size: size_t,
    value: *const c_void,
) -> i32 {
    ocl::raw::set_kernel_arg(kernel, index, size, value)
        .err()
        .unwrap_or(CL_SUCCESS)
}

extern "C" {
    fn _starpu_c_opencl_set_kernel_args();
}

crate::varargs::jump_exports! {
    starpu_opencl_set_kernel_args => _starpu_c_opencl_set_kernel_args,
}
