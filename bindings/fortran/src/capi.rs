//! The C face's exported functions these helpers call, by their StarPU names.
//!
//! Declared here rather than reached through the C face's Rust modules: the helpers
//! depend on StarPU's C API only, whatever file of bindings/c defines it.

use crate::sched_ctx::_starpu_sched_ctx_options;
use crate::types::{
    starpu_codelet, starpu_codelet_pack_arg_data, starpu_conf, starpu_data_filter,
    starpu_data_handle_t, starpu_data_interface_ops, starpu_task,
};
use libc::{c_char, c_int, c_uint, c_void, size_t};

/// A filter function (`struct starpu_data_filter.filter_func`).
pub type FilterFunc =
    unsafe extern "C" fn(*mut c_void, *mut c_void, *mut starpu_data_filter, c_uint, c_uint);

extern "C" {
    pub fn starpu_conf_init(conf: *mut starpu_conf) -> c_int;
    pub fn starpu_codelet_init(cl: *mut starpu_codelet);

    pub fn starpu_data_acquire(h: starpu_data_handle_t, mode: c_uint) -> c_int;
    pub fn starpu_data_partition(h: starpu_data_handle_t, f: *mut starpu_data_filter);
    pub fn starpu_data_get_nb_children(h: starpu_data_handle_t) -> c_int;
    pub fn starpu_data_get_child(h: starpu_data_handle_t, i: c_uint) -> starpu_data_handle_t;

    pub fn starpu_task_declare_deps_array(
        t: *mut starpu_task,
        n: c_uint,
        deps: *mut *mut starpu_task,
    );

    pub fn starpu_worker_get_type(id: c_int) -> c_uint;
    pub fn starpu_worker_get_count_by_type(kind: c_uint) -> c_int;
    pub fn starpu_worker_get_ids_by_type(kind: c_uint, ids: *mut c_int, max: c_int) -> c_uint;
    pub fn starpu_worker_get_by_type(kind: c_uint, num: c_int) -> c_int;
    pub fn starpu_worker_get_by_devid(kind: c_uint, devid: c_int) -> c_int;
    pub fn starpu_worker_get_type_as_string(kind: c_uint) -> *const c_char;
    pub fn starpu_topology_print(out: *mut libc::FILE);

    pub fn starpu_codelet_pack_arg_init(s: *mut starpu_codelet_pack_arg_data);
    pub fn starpu_codelet_pack_arg(
        s: *mut starpu_codelet_pack_arg_data,
        p: *const c_void,
        n: size_t,
    );
    pub fn starpu_codelet_pack_arg_fini(
        s: *mut starpu_codelet_pack_arg_data,
        cl_arg: *mut *mut c_void,
        size: *mut size_t,
    );
    pub fn starpu_codelet_unpack_arg_init(
        s: *mut starpu_codelet_pack_arg_data,
        cl_arg: *mut c_void,
        size: size_t,
    );
    pub fn starpu_codelet_pick_arg(
        s: *mut starpu_codelet_pack_arg_data,
        p: *mut *mut c_void,
        n: *mut size_t,
    );
    pub fn starpu_codelet_unpack_arg_fini(s: *mut starpu_codelet_pack_arg_data);

    // The filters `fstarpu_df_alloc_*` preset.
    pub fn starpu_vector_filter_block(
        f: *mut c_void,
        c: *mut c_void,
        d: *mut starpu_data_filter,
        i: c_uint,
        n: c_uint,
    );
    pub fn starpu_vector_filter_block_shadow(
        f: *mut c_void,
        c: *mut c_void,
        d: *mut starpu_data_filter,
        i: c_uint,
        n: c_uint,
    );
    pub fn starpu_vector_filter_list(
        f: *mut c_void,
        c: *mut c_void,
        d: *mut starpu_data_filter,
        i: c_uint,
        n: c_uint,
    );
    pub fn starpu_vector_filter_divide_in_2(
        f: *mut c_void,
        c: *mut c_void,
        d: *mut starpu_data_filter,
        i: c_uint,
        n: c_uint,
    );
    pub fn starpu_matrix_filter_block(
        f: *mut c_void,
        c: *mut c_void,
        d: *mut starpu_data_filter,
        i: c_uint,
        n: c_uint,
    );
    pub fn starpu_matrix_filter_block_shadow(
        f: *mut c_void,
        c: *mut c_void,
        d: *mut starpu_data_filter,
        i: c_uint,
        n: c_uint,
    );
    pub fn starpu_matrix_filter_vertical_block(
        f: *mut c_void,
        c: *mut c_void,
        d: *mut starpu_data_filter,
        i: c_uint,
        n: c_uint,
    );
    pub fn starpu_matrix_filter_vertical_block_shadow(
        f: *mut c_void,
        c: *mut c_void,
        d: *mut starpu_data_filter,
        i: c_uint,
        n: c_uint,
    );
    pub fn starpu_block_filter_block(
        f: *mut c_void,
        c: *mut c_void,
        d: *mut starpu_data_filter,
        i: c_uint,
        n: c_uint,
    );
    pub fn starpu_block_filter_block_shadow(
        f: *mut c_void,
        c: *mut c_void,
        d: *mut starpu_data_filter,
        i: c_uint,
        n: c_uint,
    );
    pub fn starpu_block_filter_vertical_block(
        f: *mut c_void,
        c: *mut c_void,
        d: *mut starpu_data_filter,
        i: c_uint,
        n: c_uint,
    );
    pub fn starpu_block_filter_vertical_block_shadow(
        f: *mut c_void,
        c: *mut c_void,
        d: *mut starpu_data_filter,
        i: c_uint,
        n: c_uint,
    );

    pub fn starpu_csr_filter_vertical_block(
        f: *mut c_void,
        c: *mut c_void,
        d: *mut starpu_data_filter,
        i: c_uint,
        n: c_uint,
    );
    pub fn starpu_bcsr_filter_canonical_block(
        f: *mut c_void,
        c: *mut c_void,
        d: *mut starpu_data_filter,
        i: c_uint,
        n: c_uint,
    );
    pub fn starpu_bcsr_filter_canonical_block_get_nchildren(
        d: *mut starpu_data_filter,
        h: starpu_data_handle_t,
    ) -> c_uint;
    pub fn starpu_bcsr_filter_canonical_block_child_ops(
        d: *mut starpu_data_filter,
        child: c_uint,
    ) -> *mut starpu_data_interface_ops;

    // Scheduling contexts: the body of `starpu_sched_ctx_create` once its options are
    // read (the C face's variadic walker calls it too), and the display of a context.
    pub fn _starpu_sched_ctx_create_with(
        workerids: *const c_int,
        nworkers: c_int,
        name: *const c_char,
        o: *const _starpu_sched_ctx_options,
    ) -> c_uint;
    pub fn starpu_sched_ctx_display_workers(ctx: c_uint, f: *mut libc::FILE);

    /// glibc's standard error stream (`starpu_topology_print` writes to a FILE).
    pub static mut stderr: *mut libc::FILE;
}
