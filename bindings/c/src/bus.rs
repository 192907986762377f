//! The bus model as StarPU's C API shows it (`starpu_perfmodel.h`, `starpu_scheduler.h`):
//! bandwidth, latency and predicted transfer times between memory nodes, from the costs
//! the core measured (or read) at start. With main RAM alone there is no bus: times are 0.

use crate::abi::starpu_data_handle_t;
use crate::ffi::{handle, value_call};
use libc::{c_char, c_int, c_uint, size_t};
use starpu_core::perfmodel::bus;

fn costs<R>(f: impl FnOnce(&starpu_core::memory::BusCosts) -> R, none: R) -> R {
    let mem = crate::nodes::memory();
    match mem.bus() {
        Some(c) => f(c),
        None => none,
    }
}

/// `starpu_transfer_bandwidth`: MB/s from `src_node` to `dst_node` (NaN when unknown).
#[no_mangle]
pub extern "C" fn starpu_transfer_bandwidth(src_node: c_uint, dst_node: c_uint) -> f64 {
    costs(
        |c| c.bandwidth(src_node as usize, dst_node as usize),
        f64::NAN,
    )
}

/// `starpu_transfer_latency`: µs from `src_node` to `dst_node`.
#[no_mangle]
pub extern "C" fn starpu_transfer_latency(src_node: c_uint, dst_node: c_uint) -> f64 {
    costs(|c| c.latency(src_node as usize, dst_node as usize), 0.0)
}

/// `starpu_transfer_predict`: µs to move `size` bytes from `src_node` to `dst_node`.
#[no_mangle]
pub extern "C" fn starpu_transfer_predict(src_node: c_uint, dst_node: c_uint, size: size_t) -> f64 {
    crate::nodes::memory().predict_transfer(src_node as usize, dst_node as usize, size)
}

/// `starpu_data_expected_transfer_time`: µs to bring `h` to `memory_node` for an access in
/// `mode` (0 for a write-only access, or when the data is there or on its way).
#[no_mangle]
pub extern "C" fn starpu_data_expected_transfer_time(
    h: starpu_data_handle_t,
    memory_node: c_uint,
    mode: c_uint,
) -> f64 {
    value_call("starpu_data_expected_transfer_time", 0.0, || {
        let h = handle(h)?;
        crate::nodes::check(memory_node as usize)?;
        Ok(if mode & 1 == 0 {
            0.0
        } else {
            bus::data_transfer_time(&h, memory_node as usize)
        })
    })
}

/// Writes `text` to the C stream `f`.
unsafe fn fput(f: *mut libc::FILE, text: &str) {
    if let Ok(s) = std::ffi::CString::new(text) {
        libc::fputs(s.as_ptr(), f);
    }
}

/// `starpu_bus_print_bandwidth`: the bandwidth (MB/s) and latency (µs) tables.
///
/// # Safety
/// `f` is a valid `FILE *`.
#[no_mangle]
pub unsafe extern "C" fn starpu_bus_print_bandwidth(f: *mut libc::FILE) {
    let mem = crate::nodes::memory();
    let names: Vec<String> = mem.nodes().iter().map(|n| n.name()).collect();
    let mut s = String::from("from/to\t");
    names.iter().for_each(|n| s += &format!("{n}\t"));
    s.push('\n');
    let n = names.len();
    let rows = |s: &mut String, v: &dyn Fn(usize, usize) -> f64| {
        for (src, name) in names.iter().enumerate() {
            *s += &format!("{name}\t");
            (0..n).for_each(|dst| *s += &format!("{:.0}\t", v(src, dst)));
            s.push('\n');
        }
    };
    rows(&mut s, &|a, b| {
        starpu_transfer_bandwidth(a as c_uint, b as c_uint)
    });
    s.push('\n');
    rows(&mut s, &|a, b| {
        starpu_transfer_latency(a as c_uint, b as c_uint)
    });
    fput(f, &s);
}

/// `starpu_bus_print_affinity`: StarPU prints which NUMA node is closest to each GPU;
/// with one NUMA node every device has the same affinity.
///
/// # Safety
/// `f` is a valid `FILE *`.
#[no_mangle]
pub unsafe extern "C" fn starpu_bus_print_affinity(f: *mut libc::FILE) {
    let mem = crate::nodes::memory();
    let mut s = String::from("# GPU\tNUMA in preference order (logical index)\n");
    for node in mem.nodes().iter().filter(|n| !n.is_ram()) {
        s += &format!("{}\t0\n", node.name());
    }
    fput(f, &s);
}

/// `starpu_bus_print_filenames`: where the bus model files are.
///
/// # Safety
/// `f` is a valid `FILE *`.
#[no_mangle]
pub unsafe extern "C" fn starpu_bus_print_filenames(f: *mut libc::FILE) {
    let base = starpu_core::perfmodel::settings::sampling_base().join("bus");
    let host = starpu_core::perfmodel::settings::hostname();
    let mut s = String::new();
    for kind in ["bandwidth", "latency", "config"] {
        s += &format!(
            "{kind}: {}\n",
            base.join(format!("{host}.{kind}")).display()
        );
    }
    fput(f, &s);
}

/// `starpu_memory_node_get_name`: "NUMA 0", "OpenCL 0"...
///
/// # Safety
/// `name` has room for `size` bytes.
#[no_mangle]
pub unsafe extern "C" fn starpu_memory_node_get_name(
    node: c_uint,
    name: *mut c_char,
    size: size_t,
) -> c_int {
    let Some(n) = crate::nodes::memory().node(node as usize).map(|n| n.name()) else {
        return -libc::EINVAL;
    };
    if name.is_null() || size == 0 {
        return -libc::EINVAL;
    }
    let len = n.len().min(size - 1);
    std::ptr::copy_nonoverlapping(n.as_ptr(), name as *mut u8, len);
    *name.add(len) = 0;
    len as c_int
}
