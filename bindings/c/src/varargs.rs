//! Exports of the C-variadic entry points under their public names.
//!
//! Their bodies are C (csrc/varargs.c), because stable Rust cannot define C-variadic
//! functions. A naked function made of a single jump gives each public name to its C
//! body: the jump leaves registers and stack untouched, so the variadic arguments arrive
//! exactly as the caller passed them. Rust exports the symbol, which a C object linked
//! into the cdylib could not do past Rust's export list.

/// Gives each public name to its C body with a naked jump (the C bodies are declared by
/// the caller). Also used for the parallel workers' entry points (parallel_workers.rs).
macro_rules! jump_exports {
    ($($public:ident => $body:ident),* $(,)?) => {
        $(
            #[doc = concat!("`", stringify!($public), "` (body in C, under csrc/).")]
            /// cbindgen:ignore
            #[no_mangle]
            #[unsafe(naked)]
            pub unsafe extern "C" fn $public() {
                #[cfg(target_arch = "x86_64")]
                core::arch::naked_asm!("jmp {f}", f = sym $body);
                #[cfg(target_arch = "aarch64")]
                core::arch::naked_asm!("b {f}", f = sym $body);
            }
        )*
    };
}
pub(crate) use jump_exports;

macro_rules! variadic_export {
    ($($public:ident => $body:ident),* $(,)?) => {
        extern "C" {
            $(fn $body();)*
        }
        jump_exports! { $($public => $body),* }
    };
}

variadic_export! {
    starpu_task_insert => _starpu_c_task_insert,
    starpu_insert_task => _starpu_c_insert_task,
    starpu_task_build => _starpu_c_task_build,
    starpu_task_set => _starpu_c_task_set,
    starpu_codelet_pack_args => _starpu_c_codelet_pack_args,
    starpu_codelet_unpack_args => _starpu_c_codelet_unpack_args,
    starpu_data_get_sub_data => _starpu_c_data_get_sub_data,
    starpu_data_vget_sub_data => _starpu_c_data_vget_sub_data,
    starpu_data_map_filters => _starpu_c_data_map_filters,
    starpu_data_vmap_filters => _starpu_c_data_vmap_filters,
    starpu_tag_declare_deps => _starpu_c_tag_declare_deps,
    starpu_task_declare_deps => _starpu_c_task_declare_deps,
    starpu_task_declare_end_deps => _starpu_c_task_declare_end_deps,
    starpu_data_set_coordinates => _starpu_c_data_set_coordinates,
    starpu_sched_ctx_create => _starpu_c_sched_ctx_create,
    starpu_perfmodel_set_per_devices_cost_function => _starpu_c_perfmodel_set_per_devices_cost_function,
    starpu_perfmodel_get_model_per_devices => _starpu_c_perfmodel_get_model_per_devices,
}
