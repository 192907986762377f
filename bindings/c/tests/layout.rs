//! The C header and the Rust definitions it comes from must agree on every public
//! struct's size and field offsets: a C compiler (and a C++ one) reads the generated
//! header, prints what it sees, and we compare with `size_of` / `offset_of!`.

use starpu::abi::*;
use std::process::Command;

/// The C spelling of a Rust field name (`r#where` is `where`).
fn c_name(rust: &str) -> &str {
    rust.trim_start_matches("r#")
}

macro_rules! layouts {
    ($($kind:tt $c:ident = $rust:ty { $($f:tt),* $(,)? }),* $(,)?) => {
        /// (name, value) pairs: `struct` for sizes, `struct.field` for offsets.
        fn rust_layout() -> Vec<(String, usize)> {
            let mut v = Vec::new();
            $(
                v.push((stringify!($c).to_string(), std::mem::size_of::<$rust>()));
                $(v.push((
                    format!("{}.{}", stringify!($c), c_name(stringify!($f))),
                    std::mem::offset_of!($rust, $f),
                ));)*
            )*
            v
        }

        /// A program printing the same pairs as the C compiler sees them.
        fn c_program() -> String {
            let mut s = String::from(
                "#include <starpu.h>\n#include <stdio.h>\n#include <stddef.h>\nint main(void)\n{\n",
            );
            $(
                let ty = format!("{} {}", stringify!($kind), stringify!($c));
                s += &format!("  printf(\"{} %zu\\n\", sizeof({ty}));\n", stringify!($c));
                $(s += &format!(
                    "  printf(\"{}.{} %zu\\n\", offsetof({ty}, {}));\n",
                    stringify!($c),
                    c_name(stringify!($f)),
                    c_name(stringify!($f))
                );)*
            )*
            s + "  return 0;\n}\n"
        }
    };
}

layouts! {
    struct starpu_codelet = starpu_codelet { r#where, can_execute, r#type, max_parallelism, cpu_func, cuda_func, opencl_func, cpu_funcs, cuda_funcs, cuda_flags, opencl_funcs, opencl_flags, hip_funcs, hip_flags, sycl_funcs, sycl_flags, max_fpga_funcs, cpu_funcs_name, recursive_task_func, recursive_task_gen_dag_func, nbuffers, modes, dyn_modes, specific_nodes, nodes, dyn_nodes, model, energy_model, per_worker_stats, name, color, callback_func, flags, perf_counter_sample, perf_counter_values, checked },
    struct starpu_task = starpu_task { name, file, line, cl, cl_ret, cl_ret_size, r#where, nbuffers, dyn_handles, dyn_interfaces, dyn_modes, dyn_nodes, handles, interfaces, modes, nodes, handles_sequential_consistency, cl_arg, cl_arg_size, callback_func, callback_arg, epilogue_callback_func, epilogue_callback_arg, prologue_callback_func, prologue_callback_arg, prologue_callback_pop_func, prologue_callback_pop_arg, soon_callback_func, soon_callback_arg, tag_id, cl_arg_free, callback_arg_free, epilogue_callback_arg_free, prologue_callback_arg_free, prologue_callback_pop_arg_free, soon_callback_arg_free, use_tag, sequential_consistency, synchronous, execute_on_a_specific_worker, detach, destroy, regenerate, no_submitorder, failed, mf_skip, scheduled, prefetched, workerid, workerorder, workerids, workerids_len, priority, status, magic, r#type, color, sched_ctx, hypervisor_tag, possibly_parallel, bundle, profiling_info, flops, predicted, predicted_transfer, predicted_start, prev, next, starpu_private, omp_task, nb_termination_call_required, sched_data, iterations, transaction, trs_epoch, recursive_task_func, recursive_task_func_arg, recursive_task_gen_dag_func, recursive_task_gen_dag_func_arg, recursive_task_parent },
    struct starpu_data_descr = starpu_data_descr { handle, mode },
    struct starpu_fxt_options = starpu_fxt_options { per_task_colour, no_events, no_counter, no_bus, no_flops, ninputfiles, no_smooth, no_acquire, memory_states, internal, label_deps, use_task_color, filenames, out_paje_path, distrib_time_path, activity_path, sched_tasks_path, dag_path, tasks_path, data_path, papi_path, comms_path, number_events_path, anim_path, states_path, dir, worker_names, nworkers, worker_archtypes, file_prefix, file_offset, file_rank, dumped_codelets, dumped_codelets_count },
    struct starpu_fxt_codelet_event = starpu_fxt_codelet_event { symbol, workerid, perfmodel_archname, hash, size, time },
    struct starpu_perfmodel_arch = starpu_perfmodel_arch { ndevices, devices },
    struct starpu_perfmodel = starpu_perfmodel { r#type, cost_function, arch_cost_function, worker_cost_function, size_base, footprint, symbol, path, is_loaded, benchmarking, is_init, parameters, parameters_names, nparameters, combinations, ncombinations, state, footprint_per_level, recursive_graphs, is_recorded_recursive },
    struct starpu_data_filter = starpu_data_filter { filter_func, nchildren, get_nchildren, get_child_ops, filter_arg, filter_arg_ptr },
    struct starpu_data_copy_methods = starpu_data_copy_methods { can_copy, ram_to_ram, ram_to_cuda, ram_to_hip, ram_to_opencl, ram_to_max_fpga, cuda_to_ram, cuda_to_cuda, hip_to_ram, hip_to_hip, opencl_to_ram, opencl_to_opencl, max_fpga_to_ram, ram_to_cuda_async, cuda_to_ram_async, cuda_to_cuda_async, ram_to_hip_async, hip_to_ram_async, hip_to_hip_async, ram_to_opencl_async, opencl_to_ram_async, opencl_to_opencl_async, ram_to_max_fpga_async, max_fpga_to_ram_async, any_to_any },
    struct starpu_data_interface_ops = starpu_data_interface_ops { register_data_handle, unregister_data_handle, allocate_data_on_node, free_data_on_node, cache_data_on_node, reuse_data_on_node, map_data, unmap_data, update_map, init, copy_methods, handle_to_pointer, to_pointer, pointer_is_inside, get_size, get_alloc_size, get_max_size, footprint, alloc_footprint, compare, alloc_compare, display, describe, interfaceid, interface_size, is_multiformat, dontcache, get_mf_ops, pack_data, peek_data, unpack_data, pack_meta, unpack_meta, free_meta, name },
    struct starpu_profiling_task_info = starpu_profiling_task_info { submit_time, push_start_time, push_end_time, pop_start_time, pop_end_time, acquire_data_start_time, acquire_data_end_time, start_time, end_time, release_data_start_time, release_data_end_time, callback_start_time, callback_end_time, workerid, used_cycles, stall_cycles, energy_consumed },
    struct starpu_task_list = starpu_task_list { head, tail },
    struct starpu_codelet_pack_arg_data = starpu_codelet_pack_arg_data { arg_buffer, arg_buffer_size, current_offset, nargs },
    union starpu_driver_id = starpu_driver_id { cpu_id, cuda_id, opencl_id },
    struct starpu_driver = starpu_driver { r#type, id },
    struct starpu_sched_policy = starpu_sched_policy { init_sched, deinit_sched, push_task, simulate_push_task, push_task_notify, pop_task, submit_hook, pre_exec_hook, post_exec_hook, do_schedule, add_workers, remove_workers, prefetches, policy_name, policy_description, worker_type },
    struct starpu_conf = starpu_conf { magic, will_use_mpi, sched_policy_name, sched_policy, sched_policy_callback, sched_policy_init, precedence_over_environment_variables, ncpus, reserve_ncpus, ncuda, nopencl, nmax_fpga, nmpi_sc, ntcpip_sc, nhip, nsycl, use_explicit_workers_bindid, workers_bindid, use_explicit_workers_cuda_gpuid, workers_cuda_gpuid, use_explicit_workers_opencl_gpuid, workers_opencl_gpuid, use_explicit_workers_hip_gpuid, workers_hip_gpuid, use_explicit_workers_sycl_gpuid, workers_sycl_gpuid, use_explicit_workers_max_fpga_deviceid, workers_max_fpga_deviceid, use_explicit_workers_mpi_sc_deviceid, workers_mpi_sc_deviceid, bus_calibrate, calibrate, single_combined_worker, disable_asynchronous_copy, disable_asynchronous_cuda_copy, disable_asynchronous_opencl_copy, disable_asynchronous_hip_copy, disable_asynchronous_sycl_copy, disable_asynchronous_max_fpga_copy, disable_asynchronous_mpi_sc_copy, disable_asynchronous_tcpip_sc_copy, enable_map, cuda_opengl_interoperability, n_cuda_opengl_interoperability, not_launched_drivers, n_not_launched_drivers, trace_buffer_size, global_sched_ctx_min_priority, global_sched_ctx_max_priority, catch_signals, callback_worker_going_to_sleep, callback_worker_waking_up, start_perf_counter_collection, cuda_only_fast_alloc_other_memnodes, data_locality_enforce, max_fpga_load, driver_spinning_backoff_min, driver_spinning_backoff_max },
    struct starpu_block_interface = BlockInterface { id, ptr, dev_handle, offset, nx, ny, nz, ldy, ldz, elemsize },
    struct starpu_variable_interface = VariableInterface { id, ptr, dev_handle, offset, elemsize },
    struct starpu_bcsr_interface = BcsrInterface { id, nnz, nrow, nzval, colind, rowptr, firstentry, r, c, elemsize },
    struct starpu_vector_interface = VectorInterface { id, ptr, dev_handle, offset, nx, elemsize, slice_base, allocsize },
    struct starpu_multiformat_interface = MultiformatInterface { id, cpu_ptr, cuda_ptr, opencl_ptr, nx, ops },
    struct starpu_multiformat_data_interface_ops = MultiformatOps { cpu_elemsize, opencl_elemsize, cpu_to_opencl_cl, opencl_to_cpu_cl, cuda_elemsize, cpu_to_cuda_cl, cuda_to_cpu_cl },
    struct starpu_matrix_interface = MatrixInterface { id, ptr, dev_handle, offset, nx, ny, ld, elemsize, allocsize },
    struct starpu_csr_interface = CsrInterface { id, nnz, nrow, nzval, colind, rowptr, firstentry, elemsize },
    struct starpu_tensor_interface = TensorInterface { id, ptr, dev_handle, offset, nx, ny, nz, nt, ldy, ldz, ldt, elemsize },
    struct starpu_ndim_interface = NdimInterface { id, ptr, dev_handle, offset, allocsize, nn, ldn, ndim, elemsize },
    struct starpu_coo_interface = CooInterface { id, columns, rows, values, nx, ny, n_values, elemsize },
    struct starpu_void_interface = VoidInterface { id },
    union _starpu_insert_value = _starpu_insert_value { p, i, u, d },
    struct _starpu_insert_arg = _starpu_insert_arg { key, a, b },
}

fn include_dir() -> String {
    concat!(env!("OUT_DIR"), "/include").to_string()
}

/// Compiles `src` with `compiler` against the generated header, runs it, returns stdout.
fn compile_and_run(compiler: &str, ext: &str, src: &str) -> String {
    // One folder per call: tests run in parallel, and running a program another test is
    // writing fails (ETXTBSY).
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let dir =
        std::env::temp_dir().join(format!("starpu-layout-{}-{call}-{ext}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("layout.{ext}"));
    let exe = dir.join(format!("layout-{ext}"));
    std::fs::write(&file, src).unwrap();
    let out = Command::new(compiler)
        .args(["-Wall", "-Werror", "-I", &include_dir()])
        // CUDA's include directory, where the library was built with it (STARPU_USE_CUDA).
        .args(env!("STARPU_CUDA_CFLAGS").split_whitespace())
        .arg("-o")
        .arg(&exe)
        .arg(&file)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {compiler}: {e}"));
    assert!(
        out.status.success(),
        "{compiler} failed on the generated header:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(&exe).output().unwrap();
    assert!(run.status.success());
    let _ = std::fs::remove_dir_all(&dir);
    String::from_utf8(run.stdout).unwrap()
}

fn check_against(compiler: &str, ext: &str) {
    let printed = compile_and_run(compiler, ext, &c_program());
    let c: Vec<(String, usize)> = printed
        .lines()
        .map(|l| {
            let (k, v) = l.rsplit_once(' ').unwrap();
            (k.to_string(), v.parse().unwrap())
        })
        .collect();
    let rust = rust_layout();
    assert_eq!(c.len(), rust.len());
    let mismatches: Vec<String> = rust
        .iter()
        .zip(&c)
        .filter(|(r, c)| r != c)
        .map(|(r, c)| format!("{}: Rust {} vs {compiler} {}", r.0, r.1, c.1))
        .collect();
    assert!(
        mismatches.is_empty(),
        "layout mismatches:\n{}",
        mismatches.join("\n")
    );
}

#[test]
fn c_compiler_sees_the_rust_layout() {
    check_against("cc", "c");
}

#[test]
fn cpp_compiler_sees_the_rust_layout() {
    check_against("c++", "cpp");
}

#[test]
fn header_constants_match_the_core() {
    use starpu_core::data::interfaces::id;
    use starpu_core::AccessMode;
    let src = "#include <starpu.h>\n#include <stdio.h>\nint main(void)\n{\n\
        printf(\"%d %d %d %d %d %d\\n\", STARPU_R, STARPU_W, STARPU_RW, STARPU_SCRATCH, STARPU_REDUX, STARPU_COMMUTE);\n\
        printf(\"%d %d %d %d %d\\n\", STARPU_VECTOR_INTERFACE_ID, STARPU_MATRIX_INTERFACE_ID, \
        STARPU_VARIABLE_INTERFACE_ID, STARPU_NDIM_INTERFACE_ID, STARPU_VOID_INTERFACE_ID);\n\
        printf(\"%llu %llu %d %d\\n\", (unsigned long long)STARPU_CPU, (unsigned long long)STARPU_NOWHERE, \
        STARPU_NMAXBUFS, STARPU_MAXIMPLEMENTATIONS);\n\
        return 0;\n}\n";
    let out = compile_and_run("cc", "c", src);
    let lines: Vec<&str> = out.lines().collect();
    let modes = [
        AccessMode::R,
        AccessMode::W,
        AccessMode::RW,
        AccessMode::SCRATCH,
        AccessMode::REDUX,
        AccessMode::COMMUTE,
    ];
    assert_eq!(lines[0], modes.map(|m| m.bits().to_string()).join(" "));
    let ids = [id::VECTOR, id::MATRIX, id::VARIABLE, id::NDIM, id::VOID];
    assert_eq!(lines[1], ids.map(|i| i.to_string()).join(" "));
    let w = starpu_core::task::where_mask::CPU;
    assert_eq!(
        lines[2],
        format!("{w} 1 {STARPU_NMAXBUFS} {STARPU_MAXIMPLEMENTATIONS}")
    );
}
