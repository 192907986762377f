! fstarpu_mod: StarPU's native Fortran module, for starpu-rs.
!
! Programs written for StarPU's module (`use fstarpu_mod`) compile against this one
! unchanged and run on starpu-rs's libstarpu. Build it with the program:
!
!   gfortran -c $(pkg-config --variable=starpu_includedir starpu-1.4)/fstarpu_mod.f90
!   gfortran -c prog.f90
!   gfortran -o prog fstarpu_mod.o prog.o $(pkg-config --libs starpu-1.4)
!
! Routines are `bind(C)` interfaces to StarPU's C API in libstarpu, or to the `fstarpu_*`
! helpers compiled into the same library (bindings/fortran/src) for what Fortran cannot
! do itself: build C structs, read a kernel's buffers, pack and unpack task arguments,
! read `fstarpu_task_insert`'s argument array. The few written here in Fortran pass an
! array's length down (so a missing C_NULL_PTR terminator is caught) or give a routine
! both StarPU's form and one that returns the error code.
!
! Constants are `type(c_ptr)` variables, so that they fit in `c_ptr` argument arrays;
! `fstarpu_init` gives every one of them its value, before anything else may use them.
!
! Beyond StarPU's module (each marked "extension" below): fstarpu_task_insert_ret,
! fstarpu_task_build, fstarpu_task_set_detach, fstarpu_data_acquire_ret,
! fstarpu_task_wait_for_all_ret, fstarpu_codelet_pack_args, fstarpu_funptr_to_cptr,
! fstarpu_data_set_sequential_consistency_flag, fstarpu_data_partition_readonly_downgrade_submit,
! fstarpu_data_partition_get_nplans, the handle queries
! fstarpu_vector_handle_get_nx, fstarpu_matrix_handle_get_nx/ny/ld, the ndim interface,
! fstarpu_conf_set_calibrate/bus_calibrate, fstarpu_data_descr_free, and the task_insert
! keys StarPU's decoder accepts but its module did not name.
module fstarpu_mod
        use iso_c_binding
        implicit none

        ! Access modes.
        type(c_ptr), bind(C) :: FSTARPU_R
        type(c_ptr), bind(C) :: FSTARPU_W
        type(c_ptr), bind(C) :: FSTARPU_RW
        type(c_ptr), bind(C) :: FSTARPU_NONE
        type(c_ptr), bind(C) :: FSTARPU_SCRATCH
        type(c_ptr), bind(C) :: FSTARPU_REDUX
        type(c_ptr), bind(C) :: FSTARPU_MPI_REDUX
        type(c_ptr), bind(C) :: FSTARPU_COMMUTE
        type(c_ptr), bind(C) :: FSTARPU_SSEND
        type(c_ptr), bind(C) :: FSTARPU_LOCALITY
        type(c_ptr), bind(C) :: FSTARPU_MPI_SAME

        ! fstarpu_task_insert keys.
        type(c_ptr), bind(C) :: FSTARPU_DATA_ARRAY
        type(c_ptr), bind(C) :: FSTARPU_DATA_MODE_ARRAY
        type(c_ptr), bind(C) :: FSTARPU_CL_ARGS
        type(c_ptr), bind(C) :: FSTARPU_CL_ARGS_NFREE
        type(c_ptr), bind(C) :: FSTARPU_TASK_DEPS_ARRAY
        type(c_ptr), bind(C) :: FSTARPU_CALLBACK
        type(c_ptr), bind(C) :: FSTARPU_CALLBACK_WITH_ARG
        type(c_ptr), bind(C) :: FSTARPU_CALLBACK_WITH_ARG_NFREE
        type(c_ptr), bind(C) :: FSTARPU_CALLBACK_ARG
        type(c_ptr), bind(C) :: FSTARPU_CALLBACK_ARG_NFREE
        type(c_ptr), bind(C) :: FSTARPU_SOON_CALLBACK
        type(c_ptr), bind(C) :: FSTARPU_SOON_CALLBACK_ARG
        type(c_ptr), bind(C) :: FSTARPU_SOON_CALLBACK_ARG_NFREE
        type(c_ptr), bind(C) :: FSTARPU_PROLOGUE_CALLBACK
        type(c_ptr), bind(C) :: FSTARPU_PROLOGUE_CALLBACK_ARG
        type(c_ptr), bind(C) :: FSTARPU_PROLOGUE_CALLBACK_ARG_NFREE
        type(c_ptr), bind(C) :: FSTARPU_PROLOGUE_CALLBACK_POP
        type(c_ptr), bind(C) :: FSTARPU_PROLOGUE_CALLBACK_POP_ARG
        type(c_ptr), bind(C) :: FSTARPU_PROLOGUE_CALLBACK_POP_ARG_NFREE
        type(c_ptr), bind(C) :: FSTARPU_PRIORITY
        type(c_ptr), bind(C) :: FSTARPU_EXECUTE_ON_NODE
        type(c_ptr), bind(C) :: FSTARPU_EXECUTE_ON_DATA
        type(c_ptr), bind(C) :: FSTARPU_EXECUTE_ON_WORKER
        type(c_ptr), bind(C) :: FSTARPU_WORKER_ORDER
        type(c_ptr), bind(C) :: FSTARPU_EXECUTE_WHERE
        type(c_ptr), bind(C) :: FSTARPU_HYPERVISOR_TAG
        type(c_ptr), bind(C) :: FSTARPU_POSSIBLY_PARALLEL
        type(c_ptr), bind(C) :: FSTARPU_FLOPS
        type(c_ptr), bind(C) :: FSTARPU_TAG
        type(c_ptr), bind(C) :: FSTARPU_TAG_ONLY
        type(c_ptr), bind(C) :: FSTARPU_NAME
        type(c_ptr), bind(C) :: FSTARPU_TASK_COLOR
        type(c_ptr), bind(C) :: FSTARPU_TASK_SYNCHRONOUS
        type(c_ptr), bind(C) :: FSTARPU_HANDLES_SEQUENTIAL_CONSISTENCY
        type(c_ptr), bind(C) :: FSTARPU_TASK_END_DEP
        type(c_ptr), bind(C) :: FSTARPU_NODE_SELECTION_POLICY
        type(c_ptr), bind(C) :: FSTARPU_TASK_SCHED_DATA
        type(c_ptr), bind(C) :: FSTARPU_VALUE
        type(c_ptr), bind(C) :: FSTARPU_SCHED_CTX
        ! Keys StarPU's decoder accepts that its module does not name (extension).
        type(c_ptr), bind(C) :: FSTARPU_TASK_END_DEPS_ARRAY
        type(c_ptr), bind(C) :: FSTARPU_TASK_WORKERIDS
        type(c_ptr), bind(C) :: FSTARPU_SEQUENTIAL_CONSISTENCY
        type(c_ptr), bind(C) :: FSTARPU_TASK_PROFILING_INFO
        type(c_ptr), bind(C) :: FSTARPU_TASK_NO_SUBMITORDER
        type(c_ptr), bind(C) :: FSTARPU_EPILOGUE_CALLBACK
        type(c_ptr), bind(C) :: FSTARPU_EPILOGUE_CALLBACK_ARG
        type(c_ptr), bind(C) :: FSTARPU_TASK_FILE
        type(c_ptr), bind(C) :: FSTARPU_TASK_LINE
        type(c_ptr), bind(C) :: FSTARPU_TRANSACTION

        ! Worker types.
        type(c_ptr), bind(C) :: FSTARPU_CPU_WORKER
        type(c_ptr), bind(C) :: FSTARPU_CUDA_WORKER
        type(c_ptr), bind(C) :: FSTARPU_OPENCL_WORKER
        type(c_ptr), bind(C) :: FSTARPU_ANY_WORKER
        type(c_ptr), bind(C) :: FSTARPU_NARCH

        integer(c_int), bind(C) :: FSTARPU_NMAXBUFS

        ! fstarpu_sched_ctx_create keys.
        type(c_ptr), bind(C) :: FSTARPU_SCHED_CTX_POLICY_NAME
        type(c_ptr), bind(C) :: FSTARPU_SCHED_CTX_POLICY_STRUCT
        type(c_ptr), bind(C) :: FSTARPU_SCHED_CTX_POLICY_MIN_PRIO
        type(c_ptr), bind(C) :: FSTARPU_SCHED_CTX_POLICY_MAX_PRIO
        type(c_ptr), bind(C) :: FSTARPU_SCHED_CTX_HIERARCHY_LEVEL
        type(c_ptr), bind(C) :: FSTARPU_SCHED_CTX_NESTED
        type(c_ptr), bind(C) :: FSTARPU_SCHED_CTX_AWAKE_WORKERS
        type(c_ptr), bind(C) :: FSTARPU_SCHED_CTX_POLICY_INIT
        type(c_ptr), bind(C) :: FSTARPU_SCHED_CTX_USER_DATA

        ! Where a codelet or task runs, codelet flags.
        type(c_ptr), bind(C) :: FSTARPU_NOWHERE
        type(c_ptr), bind(C) :: FSTARPU_CPU
        type(c_ptr), bind(C) :: FSTARPU_CUDA
        type(c_ptr), bind(C) :: FSTARPU_OPENCL
        type(c_ptr), bind(C) :: FSTARPU_CODELET_SIMGRID_EXECUTE
        type(c_ptr), bind(C) :: FSTARPU_CODELET_SIMGRID_EXECUTE_AND_INJECT
        type(c_ptr), bind(C) :: FSTARPU_CUDA_ASYNC
        type(c_ptr), bind(C) :: FSTARPU_OPENCL_ASYNC

        ! Performance model types.
        type(c_ptr), bind(C) :: FSTARPU_PER_WORKER
        type(c_ptr), bind(C) :: FSTARPU_PER_ARCH
        type(c_ptr), bind(C) :: FSTARPU_COMMON
        type(c_ptr), bind(C) :: FSTARPU_HISTORY_BASED
        type(c_ptr), bind(C) :: FSTARPU_REGRESSION_BASED
        type(c_ptr), bind(C) :: FSTARPU_NL_REGRESSION_BASED
        type(c_ptr), bind(C) :: FSTARPU_MULTIPLE_REGRESSION_BASED

        ! Codelet types.
        type(c_ptr), bind(C) :: FSTARPU_SEQ
        type(c_ptr), bind(C) :: FSTARPU_SPMD
        type(c_ptr), bind(C) :: FSTARPU_FORKJOIN

        ! Sizes of types, for FSTARPU_VALUE (a size carried by a c_ptr).
        type(c_ptr), bind(C) :: FSTARPU_SZ_C_DOUBLE
        type(c_ptr), bind(C) :: FSTARPU_SZ_C_FLOAT
        type(c_ptr), bind(C) :: FSTARPU_SZ_C_CHAR
        type(c_ptr), bind(C) :: FSTARPU_SZ_C_INT
        type(c_ptr), bind(C) :: FSTARPU_SZ_C_INTPTR_T
        type(c_ptr), bind(C) :: FSTARPU_SZ_C_PTR
        type(c_ptr), bind(C) :: FSTARPU_SZ_C_SIZE_T
        type(c_ptr), bind(C) :: FSTARPU_SZ_CHARACTER
        type(c_ptr), bind(C) :: FSTARPU_SZ_INTEGER
        type(c_ptr), bind(C) :: FSTARPU_SZ_INT4
        type(c_ptr), bind(C) :: FSTARPU_SZ_INT8
        type(c_ptr), bind(C) :: FSTARPU_SZ_REAL
        type(c_ptr), bind(C) :: FSTARPU_SZ_REAL4
        type(c_ptr), bind(C) :: FSTARPU_SZ_REAL8
        type(c_ptr), bind(C) :: FSTARPU_SZ_DOUBLE_PRECISION
        type(c_ptr), bind(C) :: FSTARPU_SZ_COMPLEX
        type(c_ptr), bind(C) :: FSTARPU_SZ_COMPLEX4
        type(c_ptr), bind(C) :: FSTARPU_SZ_COMPLEX8

        integer(c_int), bind(C), target :: FSTARPU_DEFAULT_PRIO

        ! FSTARPU_RW .ior. FSTARPU_COMMUTE: OR of flags carried by c_ptr constants.
        interface operator (.ior.)
                module procedure or_cptrs
        end interface operator (.ior.)

        ! Tags are 64-bit; StarPU's module takes this one as a default integer: both work.
        interface fstarpu_tag_declare_deps_array
                module procedure tag_declare_deps_array_int, tag_declare_deps_array_long
        end interface fstarpu_tag_declare_deps_array

        ! The same for the sync task's tag.
        interface fstarpu_create_sync_task
                module procedure create_sync_task_int, create_sync_task_long
        end interface fstarpu_create_sync_task

        private :: or_cptrs, constant
        private :: tag_declare_deps_array_int, tag_declare_deps_array_long
        private :: create_sync_task_int, create_sync_task_long

        interface
                ! ==== starpu.h ====

                subroutine fstarpu_conf_init(conf) bind(C, name="starpu_conf_init")
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: conf
                end subroutine fstarpu_conf_init

                function fstarpu_conf_allocate() bind(C)
                        import :: c_ptr
                        type(c_ptr) :: fstarpu_conf_allocate
                end function fstarpu_conf_allocate

                subroutine fstarpu_conf_free(conf) bind(C)
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: conf
                end subroutine fstarpu_conf_free

                subroutine fstarpu_conf_set_sched_policy_name(conf, policy_name) bind(C)
                        import :: c_ptr, c_char
                        type(c_ptr), value, intent(in) :: conf
                        character(c_char), intent(in) :: policy_name
                end subroutine fstarpu_conf_set_sched_policy_name

                subroutine fstarpu_conf_set_min_prio(conf, min_prio) bind(C)
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: conf
                        integer(c_int), value, intent(in) :: min_prio
                end subroutine fstarpu_conf_set_min_prio

                subroutine fstarpu_conf_set_max_prio(conf, max_prio) bind(C)
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: conf
                        integer(c_int), value, intent(in) :: max_prio
                end subroutine fstarpu_conf_set_max_prio

                subroutine fstarpu_conf_set_ncpu(conf, ncpu) bind(C)
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: conf
                        integer(c_int), value, intent(in) :: ncpu
                end subroutine fstarpu_conf_set_ncpu

                subroutine fstarpu_conf_set_ncuda(conf, ncuda) bind(C)
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: conf
                        integer(c_int), value, intent(in) :: ncuda
                end subroutine fstarpu_conf_set_ncuda

                subroutine fstarpu_conf_set_nopencl(conf, nopencl) bind(C)
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: conf
                        integer(c_int), value, intent(in) :: nopencl
                end subroutine fstarpu_conf_set_nopencl

                ! extension
                subroutine fstarpu_conf_set_calibrate(conf, calibrate) bind(C)
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: conf
                        integer(c_int), value, intent(in) :: calibrate
                end subroutine fstarpu_conf_set_calibrate

                ! extension
                subroutine fstarpu_conf_set_bus_calibrate(conf, calibrate) bind(C)
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: conf
                        integer(c_int), value, intent(in) :: calibrate
                end subroutine fstarpu_conf_set_bus_calibrate

                subroutine fstarpu_pause() bind(C, name="starpu_pause")
                end subroutine fstarpu_pause

                subroutine fstarpu_resume() bind(C, name="starpu_resume")
                end subroutine fstarpu_resume

                subroutine fstarpu_shutdown() bind(C, name="starpu_shutdown")
                end subroutine fstarpu_shutdown

                subroutine fstarpu_topology_print() bind(C)
                end subroutine fstarpu_topology_print

                subroutine fstarpu_get_version(major, minor, release) bind(C, name="starpu_get_version")
                        import :: c_int
                        integer(c_int), intent(out) :: major, minor, release
                end subroutine fstarpu_get_version

                function fstarpu_asynchronous_copy_disabled() bind(C, name="starpu_asynchronous_copy_disabled")
                        import :: c_int
                        integer(c_int) :: fstarpu_asynchronous_copy_disabled
                end function fstarpu_asynchronous_copy_disabled

                function fstarpu_asynchronous_cuda_copy_disabled() bind(C, name="starpu_asynchronous_cuda_copy_disabled")
                        import :: c_int
                        integer(c_int) :: fstarpu_asynchronous_cuda_copy_disabled
                end function fstarpu_asynchronous_cuda_copy_disabled

                function fstarpu_asynchronous_opencl_copy_disabled() &
                                bind(C, name="starpu_asynchronous_opencl_copy_disabled")
                        import :: c_int
                        integer(c_int) :: fstarpu_asynchronous_opencl_copy_disabled
                end function fstarpu_asynchronous_opencl_copy_disabled

                function fstarpu_is_paused() bind(C, name="starpu_is_paused")
                        import :: c_int
                        integer(c_int) :: fstarpu_is_paused
                end function fstarpu_is_paused

                subroutine fstarpu_display_stats() bind(C, name="starpu_display_stats")
                end subroutine fstarpu_display_stats

                function fstarpu_getenv_number(name) bind(C)
                        import :: c_int, c_char
                        integer(c_int) :: fstarpu_getenv_number
                        character(c_char), intent(in) :: name
                end function fstarpu_getenv_number

                ! ==== starpu_worker.h ====

                function fstarpu_worker_get_count() bind(C, name="starpu_worker_get_count")
                        import :: c_int
                        integer(c_int) :: fstarpu_worker_get_count
                end function fstarpu_worker_get_count

                function fstarpu_combined_worker_get_count() bind(C, name="starpu_combined_worker_get_count")
                        import :: c_int
                        integer(c_int) :: fstarpu_combined_worker_get_count
                end function fstarpu_combined_worker_get_count

                function fstarpu_worker_is_combined_worker(id) bind(C, name="starpu_worker_is_combined_worker")
                        import :: c_int
                        integer(c_int) :: fstarpu_worker_is_combined_worker
                        integer(c_int), value, intent(in) :: id
                end function fstarpu_worker_is_combined_worker

                function fstarpu_cpu_worker_get_count() bind(C, name="starpu_cpu_worker_get_count")
                        import :: c_int
                        integer(c_int) :: fstarpu_cpu_worker_get_count
                end function fstarpu_cpu_worker_get_count

                function fstarpu_cuda_worker_get_count() bind(C, name="starpu_cuda_worker_get_count")
                        import :: c_int
                        integer(c_int) :: fstarpu_cuda_worker_get_count
                end function fstarpu_cuda_worker_get_count

                function fstarpu_opencl_worker_get_count() bind(C, name="starpu_opencl_worker_get_count")
                        import :: c_int
                        integer(c_int) :: fstarpu_opencl_worker_get_count
                end function fstarpu_opencl_worker_get_count

                function fstarpu_worker_get_id() bind(C, name="starpu_worker_get_id")
                        import :: c_int
                        integer(c_int) :: fstarpu_worker_get_id
                end function fstarpu_worker_get_id

                function fstarpu_worker_get_bindid(id) bind(C, name="starpu_worker_get_bindid")
                        import :: c_int
                        integer(c_int) :: fstarpu_worker_get_bindid
                        integer(c_int), value, intent(in) :: id
                end function fstarpu_worker_get_bindid

                ! StarPU's module binds this to starpu_worker_is_blocked, a name its C library
                ! does not define; the C function is starpu_worker_is_blocked_in_parallel.
                function fstarpu_worker_is_blocked(id) bind(C, name="starpu_worker_is_blocked_in_parallel")
                        import :: c_int
                        integer(c_int) :: fstarpu_worker_is_blocked
                        integer(c_int), value, intent(in) :: id
                end function fstarpu_worker_is_blocked

                ! StarPU 1.4 calls it fstarpu_worker_is_slave_somewhere; both names are here.
                function fstarpu_worker_is_sub_worker_somewhere(id) bind(C, name="starpu_worker_is_slave_somewhere")
                        import :: c_int
                        integer(c_int) :: fstarpu_worker_is_sub_worker_somewhere
                        integer(c_int), value, intent(in) :: id
                end function fstarpu_worker_is_sub_worker_somewhere

                function fstarpu_worker_is_slave_somewhere(id) bind(C, name="starpu_worker_is_slave_somewhere")
                        import :: c_int
                        integer(c_int) :: fstarpu_worker_is_slave_somewhere
                        integer(c_int), value, intent(in) :: id
                end function fstarpu_worker_is_slave_somewhere

                function fstarpu_combined_worker_get_size() bind(C, name="starpu_combined_worker_get_size")
                        import :: c_int
                        integer(c_int) :: fstarpu_combined_worker_get_size
                end function fstarpu_combined_worker_get_size

                function fstarpu_combined_worker_get_rank() bind(C, name="starpu_combined_worker_get_rank")
                        import :: c_int
                        integer(c_int) :: fstarpu_combined_worker_get_rank
                end function fstarpu_combined_worker_get_rank

                function fstarpu_combined_worker_get_id() bind(C, name="starpu_combined_worker_get_id")
                        import :: c_int
                        integer(c_int) :: fstarpu_combined_worker_get_id
                end function fstarpu_combined_worker_get_id

                ! The type as a c_ptr, to compare with FSTARPU_CPU_WORKER etc.
                function fstarpu_worker_get_type(id) bind(C)
                        import :: c_int, c_ptr
                        type(c_ptr) :: fstarpu_worker_get_type
                        integer(c_int), value, intent(in) :: id
                end function fstarpu_worker_get_type

                function fstarpu_worker_get_count_by_type(typeid) bind(C)
                        import :: c_int, c_ptr
                        integer(c_int) :: fstarpu_worker_get_count_by_type
                        type(c_ptr), value, intent(in) :: typeid
                end function fstarpu_worker_get_count_by_type

                function fstarpu_worker_get_ids_by_type(typeid, workerids, maxsize) bind(C)
                        import :: c_int, c_ptr
                        integer(c_int) :: fstarpu_worker_get_ids_by_type
                        type(c_ptr), value, intent(in) :: typeid
                        integer(c_int), intent(out) :: workerids(*)
                        integer(c_int), value, intent(in) :: maxsize
                end function fstarpu_worker_get_ids_by_type

                function fstarpu_worker_get_by_type(typeid, num) bind(C)
                        import :: c_int, c_ptr
                        integer(c_int) :: fstarpu_worker_get_by_type
                        type(c_ptr), value, intent(in) :: typeid
                        integer(c_int), value, intent(in) :: num
                end function fstarpu_worker_get_by_type

                function fstarpu_worker_get_by_devid(typeid, devid) bind(C)
                        import :: c_int, c_ptr
                        integer(c_int) :: fstarpu_worker_get_by_devid
                        type(c_ptr), value, intent(in) :: typeid
                        integer(c_int), value, intent(in) :: devid
                end function fstarpu_worker_get_by_devid

                subroutine fstarpu_worker_get_name(id, dst, maxlen) bind(C, name="starpu_worker_get_name")
                        import :: c_int, c_char, c_size_t
                        integer(c_int), value, intent(in) :: id
                        character(c_char), intent(out) :: dst(*)
                        integer(c_size_t), value, intent(in) :: maxlen
                end subroutine fstarpu_worker_get_name

                function fstarpu_worker_get_devid(id) bind(C, name="starpu_worker_get_devid")
                        import :: c_int
                        integer(c_int) :: fstarpu_worker_get_devid
                        integer(c_int), value, intent(in) :: id
                end function fstarpu_worker_get_devid

                subroutine fstarpu_worker_get_type_as_string(typeid, dst, maxlen) bind(C)
                        import :: c_ptr, c_char, c_size_t
                        type(c_ptr), value, intent(in) :: typeid
                        character(c_char), intent(out) :: dst(*)
                        integer(c_size_t), value, intent(in) :: maxlen
                end subroutine fstarpu_worker_get_type_as_string

                ! ==== starpu_task.h ====

                subroutine fstarpu_task_declare_deps(task, ndeps, root_task) bind(C)
                        import :: c_int, c_ptr
                        type(c_ptr), value, intent(in) :: task
                        integer(c_int), value, intent(in) :: ndeps
                        type(c_ptr), value, intent(in) :: root_task
                end subroutine fstarpu_task_declare_deps

                subroutine fstarpu_task_declare_deps_array(task, ndeps, task_array) &
                                bind(C, name="starpu_task_declare_deps_array")
                        import :: c_int, c_ptr
                        type(c_ptr), value, intent(in) :: task
                        integer(c_int), value, intent(in) :: ndeps
                        type(c_ptr), intent(in) :: task_array(*)
                end subroutine fstarpu_task_declare_deps_array

                subroutine fstarpu_task_end_dep_add(task, nb_deps) bind(C, name="starpu_task_end_dep_add")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: task
                        integer(c_int), value, intent(in) :: nb_deps
                end subroutine fstarpu_task_end_dep_add

                subroutine fstarpu_task_end_dep_release(task) bind(C, name="starpu_task_end_dep_release")
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: task
                end subroutine fstarpu_task_end_dep_release

                function fstarpu_tag_wait(id) bind(C, name="starpu_tag_wait")
                        import :: c_int, c_long_long
                        integer(c_int) :: fstarpu_tag_wait
                        integer(c_long_long), value, intent(in) :: id
                end function fstarpu_tag_wait

                function fstarpu_tag_wait_array(ntags, tag_array) bind(C, name="starpu_tag_wait_array")
                        import :: c_int, c_long_long
                        integer(c_int) :: fstarpu_tag_wait_array
                        integer(c_int), value, intent(in) :: ntags
                        integer(c_long_long), intent(in) :: tag_array(*)
                end function fstarpu_tag_wait_array

                subroutine fstarpu_tag_notify_from_apps(id) bind(C, name="starpu_tag_notify_from_apps")
                        import :: c_long_long
                        integer(c_long_long), value, intent(in) :: id
                end subroutine fstarpu_tag_notify_from_apps

                subroutine fstarpu_tag_restart(id) bind(C, name="starpu_tag_restart")
                        import :: c_long_long
                        integer(c_long_long), value, intent(in) :: id
                end subroutine fstarpu_tag_restart

                subroutine fstarpu_tag_remove(id) bind(C, name="starpu_tag_remove")
                        import :: c_long_long
                        integer(c_long_long), value, intent(in) :: id
                end subroutine fstarpu_tag_remove

                function fstarpu_tag_get_task(id) bind(C, name="starpu_tag_get_task")
                        import :: c_ptr, c_int64_t
                        type(c_ptr) :: fstarpu_tag_get_task
                        integer(c_int64_t), value, intent(in) :: id
                end function fstarpu_tag_get_task

                subroutine fstarpu_task_init(task) bind(C, name="starpu_task_init")
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: task
                end subroutine fstarpu_task_init

                subroutine fstarpu_task_clean(task) bind(C, name="starpu_task_clean")
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: task
                end subroutine fstarpu_task_clean

                function fstarpu_task_create() bind(C, name="starpu_task_create")
                        import :: c_ptr
                        type(c_ptr) :: fstarpu_task_create
                end function fstarpu_task_create

                subroutine fstarpu_task_destroy(task) bind(C, name="starpu_task_destroy")
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: task
                end subroutine fstarpu_task_destroy

                ! extension: Fortran cannot set a task's fields itself.
                subroutine fstarpu_task_set_detach(task, detach) bind(C)
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: task
                        integer(c_int), value, intent(in) :: detach
                end subroutine fstarpu_task_set_detach

                function fstarpu_task_submit(task) bind(C, name="starpu_task_submit")
                        import :: c_int, c_ptr
                        integer(c_int) :: fstarpu_task_submit
                        type(c_ptr), value, intent(in) :: task
                end function fstarpu_task_submit

                function fstarpu_task_submit_to_ctx(task, sched_ctx_id) bind(C, name="starpu_task_submit_to_ctx")
                        import :: c_int, c_ptr
                        integer(c_int) :: fstarpu_task_submit_to_ctx
                        type(c_ptr), value, intent(in) :: task
                        integer(c_int), value, intent(in) :: sched_ctx_id
                end function fstarpu_task_submit_to_ctx

                subroutine fstarpu_task_set_destroy(task) bind(C, name="starpu_task_set_destroy")
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: task
                end subroutine fstarpu_task_set_destroy

                ! 1 once the task has ended, 0 before.
                function fstarpu_task_finished(task) bind(C, name="starpu_task_finished")
                        import :: c_ptr, c_int
                        integer(c_int) :: fstarpu_task_finished
                        type(c_ptr), value, intent(in) :: task
                end function fstarpu_task_finished

                function fstarpu_task_dup(task) bind(C, name="starpu_task_dup")
                        import :: c_ptr
                        type(c_ptr) :: fstarpu_task_dup
                        type(c_ptr), value, intent(in) :: task
                end function fstarpu_task_dup

                subroutine fstarpu_do_schedule() bind(C, name="starpu_do_schedule")
                end subroutine fstarpu_do_schedule

                subroutine fstarpu_codelet_display_stats(codelet) bind(C, name="starpu_codelet_display_stats")
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: codelet
                end subroutine fstarpu_codelet_display_stats

                function fstarpu_task_wait(task) bind(C, name="starpu_task_wait")
                        import :: c_int, c_ptr
                        integer(c_int) :: fstarpu_task_wait
                        type(c_ptr), value, intent(in) :: task
                end function fstarpu_task_wait

                ! task_array: the first of ntasks consecutive task pointers.
                function fstarpu_task_wait_array(task_array, ntasks) bind(C, name="starpu_task_wait_array")
                        import :: c_int, c_ptr
                        integer(c_int) :: fstarpu_task_wait_array
                        type(c_ptr), intent(in) :: task_array
                        integer(c_int), value, intent(in) :: ntasks
                end function fstarpu_task_wait_array

                ! extension: 0, or StarPU's negative error code (-EDEADLK from inside a task).
                function fstarpu_task_wait_for_all_ret() bind(C, name="starpu_task_wait_for_all")
                        import :: c_int
                        integer(c_int) :: fstarpu_task_wait_for_all_ret
                end function fstarpu_task_wait_for_all_ret

                subroutine fstarpu_task_wait_for_n_submitted(n) bind(C, name="starpu_task_wait_for_n_submitted")
                        import :: c_int
                        integer(c_int), value, intent(in) :: n
                end subroutine fstarpu_task_wait_for_n_submitted

                subroutine fstarpu_task_wait_for_all_in_ctx(ctx) bind(C, name="starpu_task_wait_for_all_in_ctx")
                        import :: c_int
                        integer(c_int), value, intent(in) :: ctx
                end subroutine fstarpu_task_wait_for_all_in_ctx

                subroutine fstarpu_task_wait_for_n_submitted_in_ctx(ctx, n) &
                                bind(C, name="starpu_task_wait_for_n_submitted_in_ctx")
                        import :: c_int
                        integer(c_int), value, intent(in) :: ctx, n
                end subroutine fstarpu_task_wait_for_n_submitted_in_ctx

                function fstarpu_task_wait_for_no_ready() bind(C, name="starpu_task_wait_for_no_ready")
                        import :: c_int
                        integer(c_int) :: fstarpu_task_wait_for_no_ready
                end function fstarpu_task_wait_for_no_ready

                function fstarpu_task_nready() bind(C, name="starpu_task_nready")
                        import :: c_int
                        integer(c_int) :: fstarpu_task_nready
                end function fstarpu_task_nready

                function fstarpu_task_nsubmitted() bind(C, name="starpu_task_nsubmitted")
                        import :: c_int
                        integer(c_int) :: fstarpu_task_nsubmitted
                end function fstarpu_task_nsubmitted

                subroutine fstarpu_codelet_init(codelet) bind(C, name="starpu_codelet_init")
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: codelet
                end subroutine fstarpu_codelet_init

                function fstarpu_task_get_current() bind(C, name="starpu_task_get_current")
                        import :: c_ptr
                        type(c_ptr) :: fstarpu_task_get_current
                end function fstarpu_task_get_current

                subroutine fstarpu_task_set_implementation(task, impl) bind(C, name="starpu_task_set_implementation")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: task
                        integer(c_int), value, intent(in) :: impl
                end subroutine fstarpu_task_set_implementation

                function fstarpu_task_get_implementation(task) bind(C, name="starpu_task_get_implementation")
                        import :: c_ptr, c_int
                        integer(c_int) :: fstarpu_task_get_implementation
                        type(c_ptr), value, intent(in) :: task
                end function fstarpu_task_get_implementation

                function fstarpu_codelet_allocate() bind(C)
                        import :: c_ptr
                        type(c_ptr) :: fstarpu_codelet_allocate
                end function fstarpu_codelet_allocate

                subroutine fstarpu_codelet_free(cl) bind(C)
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: cl
                end subroutine fstarpu_codelet_free

                subroutine fstarpu_codelet_set_name(cl, cl_name) bind(C)
                        import :: c_ptr, c_char
                        type(c_ptr), value, intent(in) :: cl
                        character(c_char), intent(in) :: cl_name
                end subroutine fstarpu_codelet_set_name

                subroutine fstarpu_codelet_set_color(cl, cl_color) bind(C)
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: cl
                        integer(c_int), value, intent(in) :: cl_color
                end subroutine fstarpu_codelet_set_color

                subroutine fstarpu_codelet_set_model(cl, cl_perfmodel) bind(C)
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: cl
                        type(c_ptr), value, intent(in) :: cl_perfmodel
                end subroutine fstarpu_codelet_set_model

                subroutine fstarpu_codelet_set_energy_model(cl, cl_perfmodel) bind(C)
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: cl
                        type(c_ptr), value, intent(in) :: cl_perfmodel
                end subroutine fstarpu_codelet_set_energy_model

                subroutine fstarpu_codelet_add_cpu_func(cl, f_ptr) bind(C)
                        import :: c_ptr, c_funptr
                        type(c_ptr), value, intent(in) :: cl
                        type(c_funptr), value, intent(in) :: f_ptr
                end subroutine fstarpu_codelet_add_cpu_func

                subroutine fstarpu_codelet_add_cuda_func(cl, f_ptr) bind(C)
                        import :: c_ptr, c_funptr
                        type(c_ptr), value, intent(in) :: cl
                        type(c_funptr), value, intent(in) :: f_ptr
                end subroutine fstarpu_codelet_add_cuda_func

                subroutine fstarpu_codelet_add_cuda_flags(cl, flags) bind(C)
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: cl
                        type(c_ptr), value, intent(in) :: flags
                end subroutine fstarpu_codelet_add_cuda_flags

                subroutine fstarpu_codelet_add_opencl_func(cl, f_ptr) bind(C)
                        import :: c_ptr, c_funptr
                        type(c_ptr), value, intent(in) :: cl
                        type(c_funptr), value, intent(in) :: f_ptr
                end subroutine fstarpu_codelet_add_opencl_func

                subroutine fstarpu_codelet_add_opencl_flags(cl, flags) bind(C)
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: cl
                        type(c_ptr), value, intent(in) :: flags
                end subroutine fstarpu_codelet_add_opencl_flags

                subroutine fstarpu_codelet_add_buffer(cl, mode) bind(C)
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: cl
                        type(c_ptr), value, intent(in) :: mode
                end subroutine fstarpu_codelet_add_buffer

                subroutine fstarpu_codelet_set_variable_nbuffers(cl) bind(C)
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: cl
                end subroutine fstarpu_codelet_set_variable_nbuffers

                subroutine fstarpu_codelet_set_nbuffers(cl, nbuffers) bind(C)
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: cl
                        integer(c_int), value, intent(in) :: nbuffers
                end subroutine fstarpu_codelet_set_nbuffers

                subroutine fstarpu_codelet_set_flags(cl, flags) bind(C)
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: cl
                        type(c_ptr), value, intent(in) :: flags
                end subroutine fstarpu_codelet_set_flags

                subroutine fstarpu_codelet_set_where(cl, where) bind(C)
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: cl
                        type(c_ptr), value, intent(in) :: where
                end subroutine fstarpu_codelet_set_where

                subroutine fstarpu_codelet_set_type(cl, type_constant) bind(C)
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: cl
                        type(c_ptr), value, intent(in) :: type_constant
                end subroutine fstarpu_codelet_set_type

                subroutine fstarpu_codelet_set_max_parallelism(cl, max_parallelism) bind(C)
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: cl
                        integer(c_int), value, intent(in) :: max_parallelism
                end subroutine fstarpu_codelet_set_max_parallelism

                function fstarpu_perfmodel_allocate() bind(C)
                        import :: c_ptr
                        type(c_ptr) :: fstarpu_perfmodel_allocate
                end function fstarpu_perfmodel_allocate

                subroutine fstarpu_perfmodel_free(model) bind(C)
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: model
                end subroutine fstarpu_perfmodel_free

                subroutine fstarpu_perfmodel_set_symbol(model, model_symbol) bind(C)
                        import :: c_ptr, c_char
                        type(c_ptr), value, intent(in) :: model
                        character(c_char), intent(in) :: model_symbol
                end subroutine fstarpu_perfmodel_set_symbol

                subroutine fstarpu_perfmodel_set_type(model, type) bind(C)
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: model
                        type(c_ptr), value, intent(in) :: type
                end subroutine fstarpu_perfmodel_set_type

                ! ==== starpu_data_interface.h ====

                function fstarpu_malloc_on_node(node, sz) bind(C, name="starpu_malloc_on_node")
                        import :: c_int, c_intptr_t, c_size_t
                        integer(c_intptr_t) :: fstarpu_malloc_on_node
                        integer(c_int), value, intent(in) :: node
                        integer(c_size_t), value, intent(in) :: sz
                end function fstarpu_malloc_on_node

                subroutine fstarpu_free_on_node(node, addr, sz) bind(C, name="starpu_free_on_node")
                        import :: c_int, c_intptr_t, c_size_t
                        integer(c_int), value, intent(in) :: node
                        integer(c_intptr_t), value, intent(in) :: addr
                        integer(c_size_t), value, intent(in) :: sz
                end subroutine fstarpu_free_on_node

                subroutine fstarpu_data_register_same(dh_dst, dh_src) bind(C, name="starpu_data_register_same")
                        import :: c_ptr
                        type(c_ptr), intent(out) :: dh_dst
                        type(c_ptr), value, intent(in) :: dh_src
                end subroutine fstarpu_data_register_same

                function fstarpu_data_handle_to_pointer(dh, node) bind(C, name="starpu_data_handle_to_pointer")
                        import :: c_ptr, c_int
                        type(c_ptr) :: fstarpu_data_handle_to_pointer
                        type(c_ptr), value, intent(in) :: dh
                        integer(c_int), value, intent(in) :: node
                end function fstarpu_data_handle_to_pointer

                function fstarpu_data_get_local_ptr(dh) bind(C, name="starpu_data_get_local_ptr")
                        import :: c_ptr
                        type(c_ptr) :: fstarpu_data_get_local_ptr
                        type(c_ptr), value, intent(in) :: dh
                end function fstarpu_data_get_local_ptr

                ! -- tensor --

                subroutine fstarpu_tensor_data_register(dh, home_node, ptr, ldy, ldz, ldt, nx, ny, nz, nt, elt_size) &
                                bind(C, name="starpu_tensor_data_register")
                        import :: c_ptr, c_int, c_size_t
                        type(c_ptr), intent(out) :: dh
                        integer(c_int), value, intent(in) :: home_node
                        type(c_ptr), value, intent(in) :: ptr
                        integer(c_int), value, intent(in) :: ldy, ldz, ldt, nx, ny, nz, nt
                        integer(c_size_t), value, intent(in) :: elt_size
                end subroutine fstarpu_tensor_data_register

                subroutine fstarpu_tensor_ptr_register(dh, node, ptr, dev_handle, offset, ldy, ldz, ldt) &
                                bind(C, name="starpu_tensor_ptr_register")
                        import :: c_ptr, c_int, c_size_t
                        type(c_ptr), value, intent(in) :: dh
                        integer(c_int), value, intent(in) :: node
                        type(c_ptr), value, intent(in) :: ptr, dev_handle
                        integer(c_size_t), value, intent(in) :: offset
                        integer(c_int), value, intent(in) :: ldy, ldz, ldt
                end subroutine fstarpu_tensor_ptr_register

                function fstarpu_tensor_get_ptr(buffers, i) bind(C)
                        import :: c_ptr, c_int
                        type(c_ptr) :: fstarpu_tensor_get_ptr
                        type(c_ptr), value, intent(in) :: buffers
                        integer(c_int), value, intent(in) :: i
                end function fstarpu_tensor_get_ptr

                function fstarpu_tensor_get_ldy(buffers, i) bind(C)
                        import :: c_ptr, c_int
                        integer(c_int) :: fstarpu_tensor_get_ldy
                        type(c_ptr), value, intent(in) :: buffers
                        integer(c_int), value, intent(in) :: i
                end function fstarpu_tensor_get_ldy

                function fstarpu_tensor_get_ldz(buffers, i) bind(C)
                        import :: c_ptr, c_int
                        integer(c_int) :: fstarpu_tensor_get_ldz
                        type(c_ptr), value, intent(in) :: buffers
                        integer(c_int), value, intent(in) :: i
                end function fstarpu_tensor_get_ldz

                function fstarpu_tensor_get_ldt(buffers, i) bind(C)
                        import :: c_ptr, c_int
                        integer(c_int) :: fstarpu_tensor_get_ldt
                        type(c_ptr), value, intent(in) :: buffers
                        integer(c_int), value, intent(in) :: i
                end function fstarpu_tensor_get_ldt

                function fstarpu_tensor_get_nx(buffers, i) bind(C)
                        import :: c_ptr, c_int
                        integer(c_int) :: fstarpu_tensor_get_nx
                        type(c_ptr), value, intent(in) :: buffers
                        integer(c_int), value, intent(in) :: i
                end function fstarpu_tensor_get_nx

                function fstarpu_tensor_get_ny(buffers, i) bind(C)
                        import :: c_ptr, c_int
                        integer(c_int) :: fstarpu_tensor_get_ny
                        type(c_ptr), value, intent(in) :: buffers
                        integer(c_int), value, intent(in) :: i
                end function fstarpu_tensor_get_ny

                function fstarpu_tensor_get_nz(buffers, i) bind(C)
                        import :: c_ptr, c_int
                        integer(c_int) :: fstarpu_tensor_get_nz
                        type(c_ptr), value, intent(in) :: buffers
                        integer(c_int), value, intent(in) :: i
                end function fstarpu_tensor_get_nz

                function fstarpu_tensor_get_nt(buffers, i) bind(C)
                        import :: c_ptr, c_int
                        integer(c_int) :: fstarpu_tensor_get_nt
                        type(c_ptr), value, intent(in) :: buffers
                        integer(c_int), value, intent(in) :: i
                end function fstarpu_tensor_get_nt

                ! -- block --

                subroutine fstarpu_block_data_register(dh, home_node, ptr, ldy, ldz, nx, ny, nz, elt_size) &
                                bind(C, name="starpu_block_data_register")
                        import :: c_ptr, c_int, c_size_t
                        type(c_ptr), intent(out) :: dh
                        integer(c_int), value, intent(in) :: home_node
                        type(c_ptr), value, intent(in) :: ptr
                        integer(c_int), value, intent(in) :: ldy, ldz, nx, ny, nz
                        integer(c_size_t), value, intent(in) :: elt_size
                end subroutine fstarpu_block_data_register

                subroutine fstarpu_block_ptr_register(dh, node, ptr, dev_handle, offset, ldy, ldz) &
                                bind(C, name="starpu_block_ptr_register")
                        import :: c_ptr, c_int, c_size_t
                        type(c_ptr), value, intent(in) :: dh
                        integer(c_int), value, intent(in) :: node
                        type(c_ptr), value, intent(in) :: ptr, dev_handle
                        integer(c_size_t), value, intent(in) :: offset
                        integer(c_int), value, intent(in) :: ldy, ldz
                end subroutine fstarpu_block_ptr_register

                function fstarpu_block_get_ptr(buffers, i) bind(C)
                        import :: c_ptr, c_int
                        type(c_ptr) :: fstarpu_block_get_ptr
                        type(c_ptr), value, intent(in) :: buffers
                        integer(c_int), value, intent(in) :: i
                end function fstarpu_block_get_ptr

                function fstarpu_block_get_ldy(buffers, i) bind(C)
                        import :: c_ptr, c_int
                        integer(c_int) :: fstarpu_block_get_ldy
                        type(c_ptr), value, intent(in) :: buffers
                        integer(c_int), value, intent(in) :: i
                end function fstarpu_block_get_ldy

                function fstarpu_block_get_ldz(buffers, i) bind(C)
                        import :: c_ptr, c_int
                        integer(c_int) :: fstarpu_block_get_ldz
                        type(c_ptr), value, intent(in) :: buffers
                        integer(c_int), value, intent(in) :: i
                end function fstarpu_block_get_ldz

                function fstarpu_block_get_nx(buffers, i) bind(C)
                        import :: c_ptr, c_int
                        integer(c_int) :: fstarpu_block_get_nx
                        type(c_ptr), value, intent(in) :: buffers
                        integer(c_int), value, intent(in) :: i
                end function fstarpu_block_get_nx

                function fstarpu_block_get_ny(buffers, i) bind(C)
                        import :: c_ptr, c_int
                        integer(c_int) :: fstarpu_block_get_ny
                        type(c_ptr), value, intent(in) :: buffers
                        integer(c_int), value, intent(in) :: i
                end function fstarpu_block_get_ny

                function fstarpu_block_get_nz(buffers, i) bind(C)
                        import :: c_ptr, c_int
                        integer(c_int) :: fstarpu_block_get_nz
                        type(c_ptr), value, intent(in) :: buffers
                        integer(c_int), value, intent(in) :: i
                end function fstarpu_block_get_nz

                ! -- matrix --

                subroutine fstarpu_matrix_data_register(dh, home_node, ptr, ld, nx, ny, elt_size) &
                                bind(C, name="starpu_matrix_data_register")
                        import :: c_ptr, c_int, c_size_t
                        type(c_ptr), intent(out) :: dh
                        integer(c_int), value, intent(in) :: home_node
                        type(c_ptr), value, intent(in) :: ptr
                        integer(c_int), value, intent(in) :: ld, nx, ny
                        integer(c_size_t), value, intent(in) :: elt_size
                end subroutine fstarpu_matrix_data_register

                subroutine fstarpu_matrix_ptr_register(dh, node, ptr, dev_handle, offset, ld) &
                                bind(C, name="starpu_matrix_ptr_register")
                        import :: c_ptr, c_int, c_size_t
                        type(c_ptr), value, intent(in) :: dh
                        integer(c_int), value, intent(in) :: node
                        type(c_ptr), value, intent(in) :: ptr, dev_handle
                        integer(c_size_t), value, intent(in) :: offset
                        integer(c_int), value, intent(in) :: ld
                end subroutine fstarpu_matrix_ptr_register

                function fstarpu_matrix_get_ptr(buffers, i) bind(C)
                        import :: c_ptr, c_int
                        type(c_ptr) :: fstarpu_matrix_get_ptr
                        type(c_ptr), value, intent(in) :: buffers
                        integer(c_int), value, intent(in) :: i
                end function fstarpu_matrix_get_ptr

                function fstarpu_matrix_get_ld(buffers, i) bind(C)
                        import :: c_ptr, c_int
                        integer(c_int) :: fstarpu_matrix_get_ld
                        type(c_ptr), value, intent(in) :: buffers
                        integer(c_int), value, intent(in) :: i
                end function fstarpu_matrix_get_ld

                function fstarpu_matrix_get_nx(buffers, i) bind(C)
                        import :: c_ptr, c_int
                        integer(c_int) :: fstarpu_matrix_get_nx
                        type(c_ptr), value, intent(in) :: buffers
                        integer(c_int), value, intent(in) :: i
                end function fstarpu_matrix_get_nx

                function fstarpu_matrix_get_ny(buffers, i) bind(C)
                        import :: c_ptr, c_int
                        integer(c_int) :: fstarpu_matrix_get_ny
                        type(c_ptr), value, intent(in) :: buffers
                        integer(c_int), value, intent(in) :: i
                end function fstarpu_matrix_get_ny

                ! extension: the sizes of a registered matrix (outside kernels).
                function fstarpu_matrix_handle_get_nx(dh) bind(C, name="starpu_matrix_get_nx")
                        import :: c_ptr, c_int
                        integer(c_int) :: fstarpu_matrix_handle_get_nx
                        type(c_ptr), value, intent(in) :: dh
                end function fstarpu_matrix_handle_get_nx

                ! extension
                function fstarpu_matrix_handle_get_ny(dh) bind(C, name="starpu_matrix_get_ny")
                        import :: c_ptr, c_int
                        integer(c_int) :: fstarpu_matrix_handle_get_ny
                        type(c_ptr), value, intent(in) :: dh
                end function fstarpu_matrix_handle_get_ny

                ! extension: the leading dimension of the main-memory replica.
                function fstarpu_matrix_handle_get_ld(dh) bind(C, name="starpu_matrix_get_local_ld")
                        import :: c_ptr, c_int
                        integer(c_int) :: fstarpu_matrix_handle_get_ld
                        type(c_ptr), value, intent(in) :: dh
                end function fstarpu_matrix_handle_get_ld

                ! -- vector --

                subroutine fstarpu_vector_data_register(dh, home_node, ptr, nx, elt_size) &
                                bind(C, name="starpu_vector_data_register")
                        import :: c_ptr, c_int, c_size_t
                        type(c_ptr), intent(out) :: dh
                        integer(c_int), value, intent(in) :: home_node
                        type(c_ptr), value, intent(in) :: ptr
                        integer(c_int), value, intent(in) :: nx
                        integer(c_size_t), value, intent(in) :: elt_size
                end subroutine fstarpu_vector_data_register

                subroutine fstarpu_vector_ptr_register(dh, node, ptr, dev_handle, offset) &
                                bind(C, name="starpu_vector_ptr_register")
                        import :: c_ptr, c_int, c_size_t
                        type(c_ptr), value, intent(in) :: dh
                        integer(c_int), value, intent(in) :: node
                        type(c_ptr), value, intent(in) :: ptr, dev_handle
                        integer(c_size_t), value, intent(in) :: offset
                end subroutine fstarpu_vector_ptr_register

                function fstarpu_vector_get_ptr(buffers, i) bind(C)
                        import :: c_ptr, c_int
                        type(c_ptr) :: fstarpu_vector_get_ptr
                        type(c_ptr), value, intent(in) :: buffers
                        integer(c_int), value, intent(in) :: i
                end function fstarpu_vector_get_ptr

                function fstarpu_vector_get_nx(buffers, i) bind(C)
                        import :: c_ptr, c_int
                        integer(c_int) :: fstarpu_vector_get_nx
                        type(c_ptr), value, intent(in) :: buffers
                        integer(c_int), value, intent(in) :: i
                end function fstarpu_vector_get_nx

                ! extension, for OpenCL kernels: a buffer on an OpenCL device is its cl_mem
                ! (dev_handle) and a byte offset in it (the *_get_ptr getters give NULL
                ! there), as STARPU_*_GET_DEV_HANDLE and STARPU_*_GET_OFFSET in C.
                function fstarpu_vector_get_dev_handle(buffers, i) bind(C)
                        import :: c_ptr, c_int
                        type(c_ptr) :: fstarpu_vector_get_dev_handle
                        type(c_ptr), value, intent(in) :: buffers
                        integer(c_int), value, intent(in) :: i
                end function fstarpu_vector_get_dev_handle

                function fstarpu_vector_get_offset(buffers, i) bind(C)
                        import :: c_ptr, c_int, c_size_t
                        integer(c_size_t) :: fstarpu_vector_get_offset
                        type(c_ptr), value, intent(in) :: buffers
                        integer(c_int), value, intent(in) :: i
                end function fstarpu_vector_get_offset

                function fstarpu_matrix_get_dev_handle(buffers, i) bind(C)
                        import :: c_ptr, c_int
                        type(c_ptr) :: fstarpu_matrix_get_dev_handle
                        type(c_ptr), value, intent(in) :: buffers
                        integer(c_int), value, intent(in) :: i
                end function fstarpu_matrix_get_dev_handle

                function fstarpu_matrix_get_offset(buffers, i) bind(C)
                        import :: c_ptr, c_int, c_size_t
                        integer(c_size_t) :: fstarpu_matrix_get_offset
                        type(c_ptr), value, intent(in) :: buffers
                        integer(c_int), value, intent(in) :: i
                end function fstarpu_matrix_get_offset

                function fstarpu_variable_get_dev_handle(buffers, i) bind(C)
                        import :: c_ptr, c_int
                        type(c_ptr) :: fstarpu_variable_get_dev_handle
                        type(c_ptr), value, intent(in) :: buffers
                        integer(c_int), value, intent(in) :: i
                end function fstarpu_variable_get_dev_handle

                function fstarpu_variable_get_offset(buffers, i) bind(C)
                        import :: c_ptr, c_int, c_size_t
                        integer(c_size_t) :: fstarpu_variable_get_offset
                        type(c_ptr), value, intent(in) :: buffers
                        integer(c_int), value, intent(in) :: i
                end function fstarpu_variable_get_offset

                ! extension: the size of a registered vector (outside kernels).
                function fstarpu_vector_handle_get_nx(dh) bind(C, name="starpu_vector_get_nx")
                        import :: c_ptr, c_int
                        integer(c_int) :: fstarpu_vector_handle_get_nx
                        type(c_ptr), value, intent(in) :: dh
                end function fstarpu_vector_handle_get_nx

                ! -- variable --

                subroutine fstarpu_variable_data_register(dh, home_node, ptr, elt_size) &
                                bind(C, name="starpu_variable_data_register")
                        import :: c_ptr, c_int, c_size_t
                        type(c_ptr), intent(out) :: dh
                        integer(c_int), value, intent(in) :: home_node
                        type(c_ptr), value, intent(in) :: ptr
                        integer(c_size_t), value, intent(in) :: elt_size
                end subroutine fstarpu_variable_data_register

                subroutine fstarpu_variable_ptr_register(dh, node, ptr, dev_handle, offset) &
                                bind(C, name="starpu_variable_ptr_register")
                        import :: c_ptr, c_int, c_size_t
                        type(c_ptr), value, intent(in) :: dh
                        integer(c_int), value, intent(in) :: node
                        type(c_ptr), value, intent(in) :: ptr, dev_handle
                        integer(c_size_t), value, intent(in) :: offset
                end subroutine fstarpu_variable_ptr_register

                function fstarpu_variable_get_ptr(buffers, i) bind(C)
                        import :: c_ptr, c_int
                        type(c_ptr) :: fstarpu_variable_get_ptr
                        type(c_ptr), value, intent(in) :: buffers
                        integer(c_int), value, intent(in) :: i
                end function fstarpu_variable_get_ptr

                ! -- void --

                subroutine fstarpu_void_data_register(dh) bind(C, name="starpu_void_data_register")
                        import :: c_ptr
                        type(c_ptr), intent(out) :: dh
                end subroutine fstarpu_void_data_register

                ! -- ndim (extension) --

                ! ldn(1:ndim) and nn(1:ndim) as C's uint32_t arrays: integer(c_int32_t).
                subroutine fstarpu_ndim_data_register(dh, home_node, ptr, ldn, nn, ndim, elt_size) &
                                bind(C, name="starpu_ndim_data_register")
                        import :: c_ptr, c_int, c_int32_t, c_size_t
                        type(c_ptr), intent(out) :: dh
                        integer(c_int), value, intent(in) :: home_node
                        type(c_ptr), value, intent(in) :: ptr
                        integer(c_int32_t), intent(in) :: ldn(*), nn(*)
                        integer(c_size_t), value, intent(in) :: ndim, elt_size
                end subroutine fstarpu_ndim_data_register

                function fstarpu_ndim_get_ptr(buffers, i) bind(C)
                        import :: c_ptr, c_int
                        type(c_ptr) :: fstarpu_ndim_get_ptr
                        type(c_ptr), value, intent(in) :: buffers
                        integer(c_int), value, intent(in) :: i
                end function fstarpu_ndim_get_ptr

                function fstarpu_ndim_get_ndim(buffers, i) bind(C)
                        import :: c_ptr, c_int
                        integer(c_int) :: fstarpu_ndim_get_ndim
                        type(c_ptr), value, intent(in) :: buffers
                        integer(c_int), value, intent(in) :: i
                end function fstarpu_ndim_get_ndim

                ! Dimension d counts from 0, as buffer i does.
                function fstarpu_ndim_get_nn(buffers, i, d) bind(C)
                        import :: c_ptr, c_int
                        integer(c_int) :: fstarpu_ndim_get_nn
                        type(c_ptr), value, intent(in) :: buffers
                        integer(c_int), value, intent(in) :: i, d
                end function fstarpu_ndim_get_nn

                function fstarpu_ndim_get_ldn(buffers, i, d) bind(C)
                        import :: c_ptr, c_int
                        integer(c_int) :: fstarpu_ndim_get_ldn
                        type(c_ptr), value, intent(in) :: buffers
                        integer(c_int), value, intent(in) :: i, d
                end function fstarpu_ndim_get_ldn

                ! ==== starpu_data_filters.h ====

                function fstarpu_data_filter_allocate() bind(C)
                        import :: c_ptr
                        type(c_ptr) :: fstarpu_data_filter_allocate
                end function fstarpu_data_filter_allocate

                subroutine fstarpu_data_filter_free(filter) bind(C)
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: filter
                end subroutine fstarpu_data_filter_free

                function fstarpu_df_alloc_matrix_filter_block() bind(C)
                        import :: c_ptr
                        type(c_ptr) :: fstarpu_df_alloc_matrix_filter_block
                end function fstarpu_df_alloc_matrix_filter_block

                function fstarpu_df_alloc_matrix_filter_block_shadow() bind(C)
                        import :: c_ptr
                        type(c_ptr) :: fstarpu_df_alloc_matrix_filter_block_shadow
                end function fstarpu_df_alloc_matrix_filter_block_shadow

                function fstarpu_df_alloc_matrix_filter_vertical_block() bind(C)
                        import :: c_ptr
                        type(c_ptr) :: fstarpu_df_alloc_matrix_filter_vertical_block
                end function fstarpu_df_alloc_matrix_filter_vertical_block

                function fstarpu_df_alloc_matrix_filter_vertical_block_shadow() bind(C)
                        import :: c_ptr
                        type(c_ptr) :: fstarpu_df_alloc_matrix_filter_vertical_block_shadow
                end function fstarpu_df_alloc_matrix_filter_vertical_block_shadow

                function fstarpu_df_alloc_vector_filter_block() bind(C)
                        import :: c_ptr
                        type(c_ptr) :: fstarpu_df_alloc_vector_filter_block
                end function fstarpu_df_alloc_vector_filter_block

                function fstarpu_df_alloc_csr_filter_vertical_block() bind(C)
                        import :: c_ptr
                        type(c_ptr) :: fstarpu_df_alloc_csr_filter_vertical_block
                end function fstarpu_df_alloc_csr_filter_vertical_block

                ! The filter carries its child count and the children's interface (dense
                ! matrices): set no nchildren.
                function fstarpu_df_alloc_bcsr_filter_canonical_block() bind(C)
                        import :: c_ptr
                        type(c_ptr) :: fstarpu_df_alloc_bcsr_filter_canonical_block
                end function fstarpu_df_alloc_bcsr_filter_canonical_block

                function fstarpu_df_alloc_vector_filter_block_shadow() bind(C)
                        import :: c_ptr
                        type(c_ptr) :: fstarpu_df_alloc_vector_filter_block_shadow
                end function fstarpu_df_alloc_vector_filter_block_shadow

                function fstarpu_df_alloc_vector_filter_list() bind(C)
                        import :: c_ptr
                        type(c_ptr) :: fstarpu_df_alloc_vector_filter_list
                end function fstarpu_df_alloc_vector_filter_list

                function fstarpu_df_alloc_vector_filter_divide_in_2() bind(C)
                        import :: c_ptr
                        type(c_ptr) :: fstarpu_df_alloc_vector_filter_divide_in_2
                end function fstarpu_df_alloc_vector_filter_divide_in_2

                function fstarpu_df_alloc_block_filter_block() bind(C)
                        import :: c_ptr
                        type(c_ptr) :: fstarpu_df_alloc_block_filter_block
                end function fstarpu_df_alloc_block_filter_block

                function fstarpu_df_alloc_block_filter_block_shadow() bind(C)
                        import :: c_ptr
                        type(c_ptr) :: fstarpu_df_alloc_block_filter_block_shadow
                end function fstarpu_df_alloc_block_filter_block_shadow

                function fstarpu_df_alloc_block_filter_vertical_block() bind(C)
                        import :: c_ptr
                        type(c_ptr) :: fstarpu_df_alloc_block_filter_vertical_block
                end function fstarpu_df_alloc_block_filter_vertical_block

                function fstarpu_df_alloc_block_filter_vertical_block_shadow() bind(C)
                        import :: c_ptr
                        type(c_ptr) :: fstarpu_df_alloc_block_filter_vertical_block_shadow
                end function fstarpu_df_alloc_block_filter_vertical_block_shadow

                subroutine fstarpu_data_filter_set_filter_func(filter, f_ptr) bind(C)
                        import :: c_ptr, c_funptr
                        type(c_ptr), value, intent(in) :: filter
                        type(c_funptr), value, intent(in) :: f_ptr
                end subroutine fstarpu_data_filter_set_filter_func

                subroutine fstarpu_data_filter_set_nchildren(filter, nchildren) bind(C)
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: filter
                        integer(c_int), value, intent(in) :: nchildren
                end subroutine fstarpu_data_filter_set_nchildren

                subroutine fstarpu_data_filter_set_get_nchildren_func(filter, f_ptr) bind(C)
                        import :: c_ptr, c_funptr
                        type(c_ptr), value, intent(in) :: filter
                        type(c_funptr), value, intent(in) :: f_ptr
                end subroutine fstarpu_data_filter_set_get_nchildren_func

                subroutine fstarpu_data_filter_set_get_child_ops_func(filter, f_ptr) bind(C)
                        import :: c_ptr, c_funptr
                        type(c_ptr), value, intent(in) :: filter
                        type(c_funptr), value, intent(in) :: f_ptr
                end subroutine fstarpu_data_filter_set_get_child_ops_func

                subroutine fstarpu_data_filter_set_filter_arg(filter, filter_arg) bind(C)
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: filter
                        integer(c_int), value, intent(in) :: filter_arg
                end subroutine fstarpu_data_filter_set_filter_arg

                subroutine fstarpu_data_filter_set_filter_arg_ptr(filter, filter_arg_ptr) bind(C)
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: filter
                        type(c_ptr), value, intent(in) :: filter_arg_ptr
                end subroutine fstarpu_data_filter_set_filter_arg_ptr

                subroutine fstarpu_data_partition(dh, filter) bind(C, name="starpu_data_partition")
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: dh
                        type(c_ptr), value, intent(in) :: filter
                end subroutine fstarpu_data_partition

                subroutine fstarpu_data_unpartition(root_dh, gathering_node) bind(C, name="starpu_data_unpartition")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: root_dh
                        integer(c_int), value, intent(in) :: gathering_node
                end subroutine fstarpu_data_unpartition

                ! Asynchronous partitioning: a plan's children come back in `children`
                ! (an array of at least as many handles as the filter makes).
                subroutine fstarpu_data_partition_plan(dh, filter, children) bind(C, name="starpu_data_partition_plan")
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: dh
                        type(c_ptr), value, intent(in) :: filter
                        type(c_ptr), intent(inout) :: children(*)
                end subroutine fstarpu_data_partition_plan

                subroutine fstarpu_data_partition_submit(dh, nparts, children) &
                                bind(C, name="starpu_data_partition_submit")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: dh
                        integer(c_int), value, intent(in) :: nparts
                        type(c_ptr), intent(in) :: children(*)
                end subroutine fstarpu_data_partition_submit

                subroutine fstarpu_data_partition_readonly_submit(dh, nparts, children) &
                                bind(C, name="starpu_data_partition_readonly_submit")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: dh
                        integer(c_int), value, intent(in) :: nparts
                        type(c_ptr), intent(in) :: children(*)
                end subroutine fstarpu_data_partition_readonly_submit

                subroutine fstarpu_data_partition_readwrite_upgrade_submit(dh, nparts, children) &
                                bind(C, name="starpu_data_partition_readwrite_upgrade_submit")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: dh
                        integer(c_int), value, intent(in) :: nparts
                        type(c_ptr), intent(in) :: children(*)
                end subroutine fstarpu_data_partition_readwrite_upgrade_submit

                ! extension (C's StarPU 1.4 call of this name)
                subroutine fstarpu_data_partition_readonly_downgrade_submit(dh, nparts, children) &
                                bind(C, name="starpu_data_partition_readonly_downgrade_submit")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: dh
                        integer(c_int), value, intent(in) :: nparts
                        type(c_ptr), intent(in) :: children(*)
                end subroutine fstarpu_data_partition_readonly_downgrade_submit

                subroutine fstarpu_data_partition_clean(dh, nparts, children) &
                                bind(C, name="starpu_data_partition_clean")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: dh
                        integer(c_int), value, intent(in) :: nparts
                        type(c_ptr), intent(in) :: children(*)
                end subroutine fstarpu_data_partition_clean

                ! extension (C's starpu_data_partition_get_nplans, StarPU 1.4): how many
                ! plans of the handle exist (made by fstarpu_data_partition_plan, not yet
                ! cleaned).
                function fstarpu_data_partition_get_nplans(dh) bind(C, name="starpu_data_partition_get_nplans")
                        import :: c_ptr, c_int
                        integer(c_int) :: fstarpu_data_partition_get_nplans
                        type(c_ptr), value, intent(in) :: dh
                end function fstarpu_data_partition_get_nplans

                subroutine fstarpu_data_unpartition_submit(dh, nparts, children, gathering_node) &
                                bind(C, name="starpu_data_unpartition_submit")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: dh
                        integer(c_int), value, intent(in) :: nparts
                        type(c_ptr), intent(in) :: children(*)
                        integer(c_int), value, intent(in) :: gathering_node
                end subroutine fstarpu_data_unpartition_submit

                subroutine fstarpu_data_unpartition_readonly_submit(dh, nparts, children, gathering_node) &
                                bind(C, name="starpu_data_unpartition_readonly_submit")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: dh
                        integer(c_int), value, intent(in) :: nparts
                        type(c_ptr), intent(in) :: children(*)
                        integer(c_int), value, intent(in) :: gathering_node
                end subroutine fstarpu_data_unpartition_readonly_submit

                function fstarpu_data_get_nb_children(dh) bind(C, name="starpu_data_get_nb_children")
                        import :: c_ptr, c_int
                        integer(c_int) :: fstarpu_data_get_nb_children
                        type(c_ptr), value, intent(in) :: dh
                end function fstarpu_data_get_nb_children

                ! Child i counts from 0.
                function fstarpu_data_get_child(dh, i) bind(C, name="starpu_data_get_child")
                        import :: c_ptr, c_int
                        type(c_ptr) :: fstarpu_data_get_child
                        type(c_ptr), value, intent(in) :: dh
                        integer(c_int), value, intent(in) :: i
                end function fstarpu_data_get_child

                ! indices(1:depth): the child to take at each level, counting from 0.
                function fstarpu_data_get_sub_data(root_dh, depth, indices) bind(C)
                        import :: c_ptr, c_int
                        type(c_ptr) :: fstarpu_data_get_sub_data
                        type(c_ptr), value, intent(in) :: root_dh
                        integer(c_int), value, intent(in) :: depth
                        integer(c_int), intent(in) :: indices(*)
                end function fstarpu_data_get_sub_data

                subroutine fstarpu_data_map_filters(root_dh, nfilters, filters) bind(C)
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: root_dh
                        integer(c_int), value, intent(in) :: nfilters
                        type(c_ptr), intent(in) :: filters(*)
                end subroutine fstarpu_data_map_filters

                subroutine fstarpu_matrix_filter_block(father_interface, child_interface, filter, id, nparts) &
                                bind(C, name="starpu_matrix_filter_block")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: father_interface, child_interface, filter
                        integer(c_int), value, intent(in) :: id, nparts
                end subroutine fstarpu_matrix_filter_block

                subroutine fstarpu_matrix_filter_block_shadow(father_interface, child_interface, filter, id, nparts) &
                                bind(C, name="starpu_matrix_filter_block_shadow")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: father_interface, child_interface, filter
                        integer(c_int), value, intent(in) :: id, nparts
                end subroutine fstarpu_matrix_filter_block_shadow

                subroutine fstarpu_matrix_filter_vertical_block(father_interface, child_interface, filter, id, nparts) &
                                bind(C, name="starpu_matrix_filter_vertical_block")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: father_interface, child_interface, filter
                        integer(c_int), value, intent(in) :: id, nparts
                end subroutine fstarpu_matrix_filter_vertical_block

                subroutine fstarpu_matrix_filter_vertical_block_shadow(father_interface, child_interface, filter, &
                                id, nparts) bind(C, name="starpu_matrix_filter_vertical_block_shadow")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: father_interface, child_interface, filter
                        integer(c_int), value, intent(in) :: id, nparts
                end subroutine fstarpu_matrix_filter_vertical_block_shadow

                subroutine fstarpu_vector_filter_block(father_interface, child_interface, filter, id, nparts) &
                                bind(C, name="starpu_vector_filter_block")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: father_interface, child_interface, filter
                        integer(c_int), value, intent(in) :: id, nparts
                end subroutine fstarpu_vector_filter_block

                subroutine fstarpu_vector_filter_block_shadow(father_interface, child_interface, filter, id, nparts) &
                                bind(C, name="starpu_vector_filter_block_shadow")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: father_interface, child_interface, filter
                        integer(c_int), value, intent(in) :: id, nparts
                end subroutine fstarpu_vector_filter_block_shadow

                subroutine fstarpu_vector_filter_list_long(father_interface, child_interface, filter, id, nparts) &
                                bind(C, name="starpu_vector_filter_list_long")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: father_interface, child_interface, filter
                        integer(c_int), value, intent(in) :: id, nparts
                end subroutine fstarpu_vector_filter_list_long

                subroutine fstarpu_vector_filter_list(father_interface, child_interface, filter, id, nparts) &
                                bind(C, name="starpu_vector_filter_list")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: father_interface, child_interface, filter
                        integer(c_int), value, intent(in) :: id, nparts
                end subroutine fstarpu_vector_filter_list

                ! StarPU's module binds a C name that does not exist; this is the filter.
                subroutine fstarpu_vector_divide_in_2(father_interface, child_interface, filter, id, nparts) &
                                bind(C, name="starpu_vector_filter_divide_in_2")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: father_interface, child_interface, filter
                        integer(c_int), value, intent(in) :: id, nparts
                end subroutine fstarpu_vector_divide_in_2

                subroutine fstarpu_block_filter_block(father_interface, child_interface, filter, id, nparts) &
                                bind(C, name="starpu_block_filter_block")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: father_interface, child_interface, filter
                        integer(c_int), value, intent(in) :: id, nparts
                end subroutine fstarpu_block_filter_block

                subroutine fstarpu_block_filter_block_shadow(father_interface, child_interface, filter, id, nparts) &
                                bind(C, name="starpu_block_filter_block_shadow")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: father_interface, child_interface, filter
                        integer(c_int), value, intent(in) :: id, nparts
                end subroutine fstarpu_block_filter_block_shadow

                subroutine fstarpu_block_filter_vertical_block(father_interface, child_interface, filter, id, nparts) &
                                bind(C, name="starpu_block_filter_vertical_block")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: father_interface, child_interface, filter
                        integer(c_int), value, intent(in) :: id, nparts
                end subroutine fstarpu_block_filter_vertical_block

                subroutine fstarpu_block_filter_vertical_block_shadow(father_interface, child_interface, filter, &
                                id, nparts) bind(C, name="starpu_block_filter_vertical_block_shadow")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: father_interface, child_interface, filter
                        integer(c_int), value, intent(in) :: id, nparts
                end subroutine fstarpu_block_filter_vertical_block_shadow

                subroutine fstarpu_block_filter_depth_block(father_interface, child_interface, filter, id, nparts) &
                                bind(C, name="starpu_block_filter_depth_block")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: father_interface, child_interface, filter
                        integer(c_int), value, intent(in) :: id, nparts
                end subroutine fstarpu_block_filter_depth_block

                subroutine fstarpu_block_filter_depth_block_shadow(father_interface, child_interface, filter, &
                                id, nparts) bind(C, name="starpu_block_filter_depth_block_shadow")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: father_interface, child_interface, filter
                        integer(c_int), value, intent(in) :: id, nparts
                end subroutine fstarpu_block_filter_depth_block_shadow

                ! ==== starpu_data.h ====

                ! StarPU's module names starpu_display_memory_stats, which C does not have:
                ! this is C's starpu_data_display_memory_stats.
                subroutine fstarpu_display_memory_stats() bind(C, name="starpu_data_display_memory_stats")
                end subroutine fstarpu_display_memory_stats

                subroutine fstarpu_data_unregister(dh) bind(C, name="starpu_data_unregister")
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: dh
                end subroutine fstarpu_data_unregister

                subroutine fstarpu_data_unregister_no_coherency(dh) bind(C, name="starpu_data_unregister_no_coherency")
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: dh
                end subroutine fstarpu_data_unregister_no_coherency

                subroutine fstarpu_data_unregister_submit(dh) bind(C, name="starpu_data_unregister_submit")
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: dh
                end subroutine fstarpu_data_unregister_submit

                subroutine fstarpu_data_invalidate(dh) bind(C, name="starpu_data_invalidate")
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: dh
                end subroutine fstarpu_data_invalidate

                subroutine fstarpu_data_invalidate_submit(dh) bind(C, name="starpu_data_invalidate_submit")
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: dh
                end subroutine fstarpu_data_invalidate_submit

                ! StarPU's form: an error is reported on stderr (fstarpu_data_acquire_ret returns it).
                subroutine fstarpu_data_acquire(dh, mode) bind(C)
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: dh
                        type(c_ptr), value, intent(in) :: mode
                end subroutine fstarpu_data_acquire

                ! extension: 0 or StarPU's negative error code.
                function fstarpu_data_acquire_ret(dh, mode) bind(C)
                        import :: c_ptr, c_int
                        integer(c_int) :: fstarpu_data_acquire_ret
                        type(c_ptr), value, intent(in) :: dh
                        type(c_ptr), value, intent(in) :: mode
                end function fstarpu_data_acquire_ret

                subroutine fstarpu_data_release(dh) bind(C, name="starpu_data_release")
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: dh
                end subroutine fstarpu_data_release

                subroutine fstarpu_data_release_on_node(dh, node) bind(C, name="starpu_data_release_on_node")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: dh
                        integer(c_int), value, intent(in) :: node
                end subroutine fstarpu_data_release_on_node

                ! extension
                subroutine fstarpu_data_set_sequential_consistency_flag(dh, flag) &
                                bind(C, name="starpu_data_set_sequential_consistency_flag")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: dh
                        integer(c_int), value, intent(in) :: flag
                end subroutine fstarpu_data_set_sequential_consistency_flag

                subroutine fstarpu_data_fetch_on_node(dh, node, async) bind(C, name="starpu_data_fetch_on_node")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: dh
                        integer(c_int), value, intent(in) :: node, async
                end subroutine fstarpu_data_fetch_on_node

                subroutine fstarpu_data_prefetch_on_node(dh, node, async) bind(C, name="starpu_data_prefetch_on_node")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: dh
                        integer(c_int), value, intent(in) :: node, async
                end subroutine fstarpu_data_prefetch_on_node

                ! Main RAM is the only memory node: these requests are satisfied once the
                ! handle and the node are checked (an error goes to stderr).
                subroutine fstarpu_data_prefetch_on_node_prio(dh, node, async, prio) &
                                bind(C, name="starpu_data_prefetch_on_node_prio")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: dh
                        integer(c_int), value, intent(in) :: node, async, prio
                end subroutine fstarpu_data_prefetch_on_node_prio

                subroutine fstarpu_data_idle_prefetch_on_node(dh, node, async) &
                                bind(C, name="starpu_data_idle_prefetch_on_node")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: dh
                        integer(c_int), value, intent(in) :: node, async
                end subroutine fstarpu_data_idle_prefetch_on_node

                subroutine fstarpu_data_idle_prefetch_on_node_prio(dh, node, async, prio) &
                                bind(C, name="starpu_data_idle_prefetch_on_node_prio")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: dh
                        integer(c_int), value, intent(in) :: node, async, prio
                end subroutine fstarpu_data_idle_prefetch_on_node_prio

                subroutine fstarpu_data_request_allocation(dh, node) bind(C, name="starpu_data_request_allocation")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: dh
                        integer(c_int), value, intent(in) :: node
                end subroutine fstarpu_data_request_allocation

                function fstarpu_data_is_on_node(dh, node) bind(C, name="starpu_data_is_on_node")
                        import :: c_ptr, c_int
                        integer(c_int) :: fstarpu_data_is_on_node
                        type(c_ptr), value, intent(in) :: dh
                        integer(c_int), value, intent(in) :: node
                end function fstarpu_data_is_on_node

                subroutine fstarpu_data_advise_as_important(dh, is_important) &
                                bind(C, name="starpu_data_advise_as_important")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: dh
                        integer(c_int), value, intent(in) :: is_important
                end subroutine fstarpu_data_advise_as_important

                subroutine fstarpu_memchunk_tidy(mem_node) bind(C, name="starpu_memchunk_tidy")
                        import :: c_int
                        integer(c_int), value, intent(in) :: mem_node
                end subroutine fstarpu_memchunk_tidy

                subroutine fstarpu_data_deinitialize(dh) bind(C, name="starpu_data_deinitialize")
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: dh
                end subroutine fstarpu_data_deinitialize

                subroutine fstarpu_data_deinitialize_submit(dh) bind(C, name="starpu_data_deinitialize_submit")
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: dh
                end subroutine fstarpu_data_deinitialize_submit

                subroutine fstarpu_data_wont_use(dh) bind(C, name="starpu_data_wont_use")
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: dh
                end subroutine fstarpu_data_wont_use

                function fstarpu_worker_get_memory_node(id) bind(C, name="starpu_worker_get_memory_node")
                        import :: c_int
                        integer(c_int) :: fstarpu_worker_get_memory_node
                        integer(c_int), value, intent(in) :: id
                end function fstarpu_worker_get_memory_node

                function fstarpu_memory_nodes_get_count() bind(C, name="starpu_memory_nodes_get_count")
                        import :: c_int
                        integer(c_int) :: fstarpu_memory_nodes_get_count
                end function fstarpu_memory_nodes_get_count

                subroutine fstarpu_data_set_reduction_methods(dh, redux_cl, init_cl) &
                                bind(C, name="starpu_data_set_reduction_methods")
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: dh, redux_cl, init_cl
                end subroutine fstarpu_data_set_reduction_methods

                subroutine fstarpu_data_set_reduction_methods_with_args(dh, redux_cl, redux_cl_arg, &
                                init_cl, init_cl_arg) &
                                bind(C, name="starpu_data_set_reduction_methods_with_args")
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: dh, redux_cl, redux_cl_arg, init_cl, init_cl_arg
                end subroutine fstarpu_data_set_reduction_methods_with_args

                function fstarpu_arbiter_create() bind(C, name="starpu_arbiter_create")
                        import :: c_ptr
                        type(c_ptr) :: fstarpu_arbiter_create
                end function fstarpu_arbiter_create

                subroutine fstarpu_data_assign_arbiter(dh, arbiter) &
                                bind(C, name="starpu_data_assign_arbiter")
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: dh, arbiter
                end subroutine fstarpu_data_assign_arbiter

                subroutine fstarpu_arbiter_destroy(arbiter) bind(C, name="starpu_arbiter_destroy")
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: arbiter
                end subroutine fstarpu_arbiter_destroy

                function fstarpu_data_test_if_allocated_on_node(dh, mem_node) &
                                bind(C, name="starpu_data_test_if_allocated_on_node")
                        import :: c_ptr, c_int
                        integer(c_int) :: fstarpu_data_test_if_allocated_on_node
                        type(c_ptr), value, intent(in) :: dh
                        integer(c_int), value, intent(in) :: mem_node
                end function fstarpu_data_test_if_allocated_on_node

                ! ==== starpu_task_util.h ====

                function fstarpu_data_handle_array_alloc(nb) bind(C)
                        import :: c_ptr, c_int
                        type(c_ptr) :: fstarpu_data_handle_array_alloc
                        integer(c_int), value, intent(in) :: nb
                end function fstarpu_data_handle_array_alloc

                subroutine fstarpu_data_handle_array_free(handles) bind(C)
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: handles
                end subroutine fstarpu_data_handle_array_free

                ! Entry i counts from 0.
                subroutine fstarpu_data_handle_array_set(handles, i, handle) bind(C)
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: handles
                        integer(c_int), value, intent(in) :: i
                        type(c_ptr), value, intent(in) :: handle
                end subroutine fstarpu_data_handle_array_set

                function fstarpu_data_descr_array_alloc(nb) bind(C)
                        import :: c_ptr, c_int
                        type(c_ptr) :: fstarpu_data_descr_array_alloc
                        integer(c_int), value, intent(in) :: nb
                end function fstarpu_data_descr_array_alloc

                function fstarpu_data_descr_alloc() bind(C)
                        import :: c_ptr
                        type(c_ptr) :: fstarpu_data_descr_alloc
                end function fstarpu_data_descr_alloc

                subroutine fstarpu_data_descr_array_free(descrs) bind(C)
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: descrs
                end subroutine fstarpu_data_descr_array_free

                ! extension: StarPU's module calls it fstarpu_data_descrg_free.
                subroutine fstarpu_data_descr_free(descr) bind(C)
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: descr
                end subroutine fstarpu_data_descr_free

                ! Entry i counts from 0.
                subroutine fstarpu_data_descr_array_set(descrs, i, handle, mode) bind(C)
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: descrs
                        integer(c_int), value, intent(in) :: i
                        type(c_ptr), value, intent(in) :: handle, mode
                end subroutine fstarpu_data_descr_array_set

                subroutine fstarpu_data_descr_set(descr, handle, mode) bind(C)
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: descr, handle, mode
                end subroutine fstarpu_data_descr_set

                ! ==== starpu_sched_ctx.h ====

                function fstarpu_sched_get_min_priority() bind(C, name="starpu_sched_get_min_priority")
                        import :: c_int
                        integer(c_int) :: fstarpu_sched_get_min_priority
                end function fstarpu_sched_get_min_priority

                function fstarpu_sched_get_max_priority() bind(C, name="starpu_sched_get_max_priority")
                        import :: c_int
                        integer(c_int) :: fstarpu_sched_get_max_priority
                end function fstarpu_sched_get_max_priority

                function fstarpu_sched_ctx_get_min_priority(sched_ctx_id) bind(C, name="starpu_sched_ctx_get_min_priority")
                        import :: c_int
                        integer(c_int) :: fstarpu_sched_ctx_get_min_priority
                        integer(c_int), value, intent(in) :: sched_ctx_id
                end function fstarpu_sched_ctx_get_min_priority

                function fstarpu_sched_ctx_get_max_priority(sched_ctx_id) bind(C, name="starpu_sched_ctx_get_max_priority")
                        import :: c_int
                        integer(c_int) :: fstarpu_sched_ctx_get_max_priority
                        integer(c_int), value, intent(in) :: sched_ctx_id
                end function fstarpu_sched_ctx_get_max_priority

                ! The priority of context sched_ctx_id for worker: a worker looks for work
                ! in its contexts from the highest priority down (0 until set in C).
                function fstarpu_sched_ctx_get_priority(worker, sched_ctx_id) &
                                bind(C, name="starpu_sched_ctx_get_priority")
                        import :: c_int
                        integer(c_int) :: fstarpu_sched_ctx_get_priority
                        integer(c_int), value, intent(in) :: worker
                        integer(c_int), value, intent(in) :: sched_ctx_id
                end function fstarpu_sched_ctx_get_priority

                ! The context's id, or STARPU_NMAX_SCHED_CTXS when none is made (said on
                ! stderr). workers_array holds nworkers ids (nworkers = -1: every worker);
                ! arglist: FSTARPU_SCHED_CTX_* keys each followed by its value, then
                ! C_NULL_PTR. POLICY_NAME takes c_loc of a NUL-terminated string (or
                ! C_NULL_PTR: the default policy), POLICY_MIN_PRIO, POLICY_MAX_PRIO,
                ! HIERARCHY_LEVEL and NESTED c_loc of an integer(c_int), POLICY_STRUCT,
                ! POLICY_INIT and USER_DATA the pointer itself, AWAKE_WORKERS nothing.
                function fstarpu_sched_ctx_create(workers_array, nworkers, ctx_name, arglist) bind(C)
                        import :: c_int, c_char, c_ptr
                        integer(c_int) :: fstarpu_sched_ctx_create
                        integer(c_int), intent(in) :: workers_array(*)
                        integer(c_int), value, intent(in) :: nworkers
                        character(c_char), intent(in) :: ctx_name
                        type(c_ptr), dimension(*), intent(in) :: arglist
                end function fstarpu_sched_ctx_create

                function fstarpu_sched_ctx_create_inside_interval(policy_name, sched_ctx_name, &
                                min_ncpus, max_ncpus, min_ngpus, max_ngpus, allow_overlap) &
                                bind(C, name="starpu_sched_ctx_create_inside_interval")
                        import :: c_int, c_char
                        integer(c_int) :: fstarpu_sched_ctx_create_inside_interval
                        character(c_char), intent(in) :: policy_name, sched_ctx_name
                        integer(c_int), value, intent(in) :: min_ncpus, max_ncpus, min_ngpus, max_ngpus
                        integer(c_int), value, intent(in) :: allow_overlap
                end function fstarpu_sched_ctx_create_inside_interval

                subroutine fstarpu_sched_ctx_add_workers(workerids, nworkers, ctx) &
                                bind(C, name="starpu_sched_ctx_add_workers")
                        import :: c_int
                        integer(c_int), intent(in) :: workerids(*)
                        integer(c_int), value, intent(in) :: nworkers, ctx
                end subroutine fstarpu_sched_ctx_add_workers

                subroutine fstarpu_sched_ctx_remove_workers(workerids, nworkers, ctx) &
                                bind(C, name="starpu_sched_ctx_remove_workers")
                        import :: c_int
                        integer(c_int), intent(in) :: workerids(*)
                        integer(c_int), value, intent(in) :: nworkers, ctx
                end subroutine fstarpu_sched_ctx_remove_workers

                ! The context's workers, on stderr.
                subroutine fstarpu_sched_ctx_display_workers(ctx) bind(C)
                        import :: c_int
                        integer(c_int), value, intent(in) :: ctx
                end subroutine fstarpu_sched_ctx_display_workers

                ! Waits for the context's tasks; its workers go to its inheritor, and so do
                ! tasks that were waiting for a worker.
                subroutine fstarpu_sched_ctx_delete(ctx) bind(C, name="starpu_sched_ctx_delete")
                        import :: c_int
                        integer(c_int), value, intent(in) :: ctx
                end subroutine fstarpu_sched_ctx_delete

                subroutine fstarpu_sched_ctx_set_inheritor(ctx, inheritor) bind(C, name="starpu_sched_ctx_set_inheritor")
                        import :: c_int
                        integer(c_int), value, intent(in) :: ctx, inheritor
                end subroutine fstarpu_sched_ctx_set_inheritor

                function fstarpu_sched_ctx_get_inheritor(ctx) bind(C, name="starpu_sched_ctx_get_inheritor")
                        import :: c_int
                        integer(c_int) :: fstarpu_sched_ctx_get_inheritor
                        integer(c_int), value, intent(in) :: ctx
                end function fstarpu_sched_ctx_get_inheritor

                function fstarpu_sched_ctx_get_hierarchy_level(ctx) bind(C, name="starpu_sched_ctx_get_hierarchy_level")
                        import :: c_int
                        integer(c_int) :: fstarpu_sched_ctx_get_hierarchy_level
                        integer(c_int), value, intent(in) :: ctx
                end function fstarpu_sched_ctx_get_hierarchy_level

                ! ctx_ptr: c_loc of an integer(c_int) that lives as long as it is in use
                ! (C keeps the address), or C_NULL_PTR to go back to the global context.
                subroutine fstarpu_sched_ctx_set_context(ctx_ptr) bind(C, name="starpu_sched_ctx_set_context")
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: ctx_ptr
                end subroutine fstarpu_sched_ctx_set_context

                function fstarpu_sched_ctx_get_context() bind(C, name="starpu_sched_ctx_get_context")
                        import :: c_int
                        integer(c_int) :: fstarpu_sched_ctx_get_context
                end function fstarpu_sched_ctx_get_context

                subroutine fstarpu_sched_ctx_stop_task_submission() bind(C, name="starpu_sched_ctx_stop_task_submission")
                end subroutine fstarpu_sched_ctx_stop_task_submission

                subroutine fstarpu_sched_ctx_finished_submit(sched_ctx_id) bind(C, name="starpu_sched_ctx_finished_submit")
                        import :: c_int
                        integer(c_int), value, intent(in) :: sched_ctx_id
                end subroutine fstarpu_sched_ctx_finished_submit

                function fstarpu_sched_ctx_get_nworkers(sched_ctx_id) bind(C, name="starpu_sched_ctx_get_nworkers")
                        import :: c_int
                        integer(c_int) :: fstarpu_sched_ctx_get_nworkers
                        integer(c_int), value, intent(in) :: sched_ctx_id
                end function fstarpu_sched_ctx_get_nworkers

                function fstarpu_sched_ctx_get_nshared_workers(sched_ctx_id, sched_ctx_id2) &
                                bind(C, name="starpu_sched_ctx_get_nshared_workers")
                        import :: c_int
                        integer(c_int) :: fstarpu_sched_ctx_get_nshared_workers
                        integer(c_int), value, intent(in) :: sched_ctx_id, sched_ctx_id2
                end function fstarpu_sched_ctx_get_nshared_workers

                function fstarpu_sched_ctx_contains_worker(workerid, sched_ctx_id) &
                                bind(C, name="starpu_sched_ctx_contains_worker")
                        import :: c_int
                        integer(c_int) :: fstarpu_sched_ctx_contains_worker
                        integer(c_int), value, intent(in) :: workerid, sched_ctx_id
                end function fstarpu_sched_ctx_contains_worker

                ! arch: the worker type's value (as StarPU's module, an integer here).
                function fstarpu_sched_ctx_contains_type_of_worker(arch, sched_ctx_id) &
                                bind(C, name="starpu_sched_ctx_contains_type_of_worker")
                        import :: c_int
                        integer(c_int) :: fstarpu_sched_ctx_contains_type_of_worker
                        integer(c_int), value, intent(in) :: arch, sched_ctx_id
                end function fstarpu_sched_ctx_contains_type_of_worker

                function fstarpu_sched_ctx_worker_get_id(sched_ctx_id) bind(C, name="starpu_sched_ctx_worker_get_id")
                        import :: c_int
                        integer(c_int) :: fstarpu_sched_ctx_worker_get_id
                        integer(c_int), value, intent(in) :: sched_ctx_id
                end function fstarpu_sched_ctx_worker_get_id

                function fstarpu_sched_ctx_get_ctx_for_task(task) bind(C, name="starpu_sched_ctx_get_ctx_for_task")
                        import :: c_int, c_ptr
                        integer(c_int) :: fstarpu_sched_ctx_get_ctx_for_task
                        type(c_ptr), value, intent(in) :: task
                end function fstarpu_sched_ctx_get_ctx_for_task

                function fstarpu_sched_ctx_overlapping_ctxs_on_worker(workerid) &
                                bind(C, name="starpu_sched_ctx_overlapping_ctxs_on_worker")
                        import :: c_int
                        integer(c_int) :: fstarpu_sched_ctx_overlapping_ctxs_on_worker
                        integer(c_int), value, intent(in) :: workerid
                end function fstarpu_sched_ctx_overlapping_ctxs_on_worker

                function fstarpu_sched_set_min_priority(min_prio) bind(C, name="starpu_sched_set_min_priority")
                        import :: c_int
                        integer(c_int) :: fstarpu_sched_set_min_priority
                        integer(c_int), value, intent(in) :: min_prio
                end function fstarpu_sched_set_min_priority

                function fstarpu_sched_set_max_priority(max_prio) bind(C, name="starpu_sched_set_max_priority")
                        import :: c_int
                        integer(c_int) :: fstarpu_sched_set_max_priority
                        integer(c_int), value, intent(in) :: max_prio
                end function fstarpu_sched_set_max_priority

                function fstarpu_sched_ctx_set_min_priority(sched_ctx_id, min_prio) &
                                bind(C, name="starpu_sched_ctx_set_min_priority")
                        import :: c_int
                        integer(c_int) :: fstarpu_sched_ctx_set_min_priority
                        integer(c_int), value, intent(in) :: sched_ctx_id, min_prio
                end function fstarpu_sched_ctx_set_min_priority

                function fstarpu_sched_ctx_set_max_priority(sched_ctx_id, max_prio) &
                                bind(C, name="starpu_sched_ctx_set_max_priority")
                        import :: c_int
                        integer(c_int) :: fstarpu_sched_ctx_set_max_priority
                        integer(c_int), value, intent(in) :: sched_ctx_id, max_prio
                end function fstarpu_sched_ctx_set_max_priority

                function fstarpu_sched_ctx_min_priority_is_set(sched_ctx_id) &
                                bind(C, name="starpu_sched_ctx_min_priority_is_set")
                        import :: c_int
                        integer(c_int) :: fstarpu_sched_ctx_min_priority_is_set
                        integer(c_int), value, intent(in) :: sched_ctx_id
                end function fstarpu_sched_ctx_min_priority_is_set

                function fstarpu_sched_ctx_max_priority_is_set(sched_ctx_id) &
                                bind(C, name="starpu_sched_ctx_max_priority_is_set")
                        import :: c_int
                        integer(c_int) :: fstarpu_sched_ctx_max_priority_is_set
                        integer(c_int), value, intent(in) :: sched_ctx_id
                end function fstarpu_sched_ctx_max_priority_is_set

                function fstarpu_sched_ctx_get_user_data(sched_ctx_id) bind(C, name="starpu_sched_ctx_get_user_data")
                        import :: c_int, c_ptr
                        type(c_ptr) :: fstarpu_sched_ctx_get_user_data
                        integer(c_int), value, intent(in) :: sched_ctx_id
                end function fstarpu_sched_ctx_get_user_data

                subroutine fstarpu_sched_ctx_delete_worker_collection(sched_ctx_id) &
                                bind(C, name="starpu_sched_ctx_delete_worker_collection")
                        import :: c_int
                        integer(c_int), value, intent(in) :: sched_ctx_id
                end subroutine fstarpu_sched_ctx_delete_worker_collection

                subroutine fstarpu_sched_ctx_set_policy_data(sched_ctx_id, policy_data) &
                                bind(C, name="starpu_sched_ctx_set_policy_data")
                        import :: c_int, c_ptr
                        integer(c_int), value, intent(in) :: sched_ctx_id
                        type(c_ptr), value, intent(in) :: policy_data
                end subroutine fstarpu_sched_ctx_set_policy_data

                function fstarpu_sched_ctx_get_policy_data(sched_ctx_id) bind(C, name="starpu_sched_ctx_get_policy_data")
                        import :: c_int, c_ptr
                        type(c_ptr) :: fstarpu_sched_ctx_get_policy_data
                        integer(c_int), value, intent(in) :: sched_ctx_id
                end function fstarpu_sched_ctx_get_policy_data

                function fstarpu_sched_ctx_exec_parallel_code(func, param, sched_ctx_id) &
                                bind(C, name="starpu_sched_ctx_exec_parallel_code")
                        import :: c_int, c_funptr, c_ptr
                        type(c_ptr) :: fstarpu_sched_ctx_exec_parallel_code
                        type(c_funptr), value, intent(in) :: func
                        type(c_ptr), value, intent(in) :: param
                        integer(c_int), value, intent(in) :: sched_ctx_id
                end function fstarpu_sched_ctx_exec_parallel_code

                function fstarpu_sched_ctx_get_nready_tasks(sched_ctx_id) bind(C, name="starpu_sched_ctx_get_nready_tasks")
                        import :: c_int
                        integer(c_int) :: fstarpu_sched_ctx_get_nready_tasks
                        integer(c_int), value, intent(in) :: sched_ctx_id
                end function fstarpu_sched_ctx_get_nready_tasks

                ! StarPU 1.4 calls it fstarpu_sched_ctx_master_get_context; both names are here.
                function fstarpu_sched_ctx_primary_get_context(masterid) &
                                bind(C, name="starpu_sched_ctx_master_get_context")
                        import :: c_int
                        integer(c_int) :: fstarpu_sched_ctx_primary_get_context
                        integer(c_int), value, intent(in) :: masterid
                end function fstarpu_sched_ctx_primary_get_context

                function fstarpu_sched_ctx_master_get_context(masterid) &
                                bind(C, name="starpu_sched_ctx_master_get_context")
                        import :: c_int
                        integer(c_int) :: fstarpu_sched_ctx_master_get_context
                        integer(c_int), value, intent(in) :: masterid
                end function fstarpu_sched_ctx_master_get_context

                ! close_callback(sched_ctx_id, args), bind(C), takes its context id by value.
                subroutine fstarpu_sched_ctx_register_close_callback(sched_ctx_id, close_callback, args) &
                                bind(C, name="starpu_sched_ctx_register_close_callback")
                        import :: c_int, c_funptr, c_ptr
                        integer(c_int), value, intent(in) :: sched_ctx_id
                        type(c_funptr), value, intent(in) :: close_callback
                        type(c_ptr), value, intent(in) :: args
                end subroutine fstarpu_sched_ctx_register_close_callback

                subroutine fstarpu_sched_ctx_bind_current_thread_to_cpuid(cpuid) &
                                bind(C, name="starpu_sched_ctx_bind_current_thread_to_cpuid")
                        import :: c_int
                        integer(c_int), value, intent(in) :: cpuid
                end subroutine fstarpu_sched_ctx_bind_current_thread_to_cpuid

                ! ==== starpu_fxt.h, starpu_cuda.h, starpu_stdlib.h ====

                function fstarpu_timing_now() bind(C, name="starpu_timing_now")
                        import :: c_double
                        real(c_double) :: fstarpu_timing_now
                end function fstarpu_timing_now

                subroutine fstarpu_fxt_autostart_profiling(autostart) bind(C, name="starpu_fxt_autostart_profiling")
                        import :: c_int
                        integer(c_int), value, intent(in) :: autostart
                end subroutine fstarpu_fxt_autostart_profiling

                subroutine fstarpu_fxt_start_profiling() bind(C, name="starpu_fxt_start_profiling")
                end subroutine fstarpu_fxt_start_profiling

                subroutine fstarpu_fxt_stop_profiling() bind(C, name="starpu_fxt_stop_profiling")
                end subroutine fstarpu_fxt_stop_profiling

                ! This build has no FxT: both say so once on stderr and do nothing.
                subroutine fstarpu_fxt_options_init(fxt_options) bind(C, name="starpu_fxt_options_init")
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: fxt_options
                end subroutine fstarpu_fxt_options_init

                subroutine fstarpu_fxt_generate_trace(fxt_options) bind(C, name="starpu_fxt_generate_trace")
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: fxt_options
                end subroutine fstarpu_fxt_generate_trace

                subroutine fstarpu_fxt_write_data_trace(filename) bind(C, name="starpu_fxt_write_data_trace")
                        import :: c_char
                        character(c_char), intent(in) :: filename
                end subroutine fstarpu_fxt_write_data_trace

                subroutine fstarpu_trace_user_event(code) bind(C, name="starpu_trace_user_event")
                        import :: c_long
                        integer(c_long), value, intent(in) :: code
                end subroutine fstarpu_trace_user_event

                function fstarpu_cuda_get_local_stream() bind(C, name="starpu_cuda_get_local_stream")
                        import :: c_ptr
                        type(c_ptr) :: fstarpu_cuda_get_local_stream
                end function fstarpu_cuda_get_local_stream

                function fstarpu_malloc(ptr, len) bind(C, name="starpu_malloc")
                        import :: c_ptr, c_long, c_int
                        integer(c_int) :: fstarpu_malloc
                        type(c_ptr), intent(out) :: ptr
                        integer(c_long), value, intent(in) :: len
                end function fstarpu_malloc

                function fstarpu_free_noflag(ptr, len) bind(C, name="starpu_free_noflag")
                        import :: c_ptr, c_long, c_int
                        integer(c_int) :: fstarpu_free_noflag
                        type(c_ptr), value, intent(in) :: ptr
                        integer(c_long), value, intent(in) :: len
                end function fstarpu_free_noflag

                function fstarpu_memory_pin(ptr, len) bind(C, name="starpu_memory_pin")
                        import :: c_ptr, c_long, c_int
                        integer(c_int) :: fstarpu_memory_pin
                        type(c_ptr), value, intent(in) :: ptr
                        integer(c_long), value, intent(in) :: len
                end function fstarpu_memory_pin

                function fstarpu_memory_unpin(ptr, len) bind(C, name="starpu_memory_unpin")
                        import :: c_ptr, c_long, c_int
                        integer(c_int) :: fstarpu_memory_unpin
                        type(c_ptr), value, intent(in) :: ptr
                        integer(c_long), value, intent(in) :: len
                end function fstarpu_memory_unpin

                subroutine fstarpu_sleep(nb_sec) bind(C, name="starpu_sleep")
                        import :: c_float
                        real(c_float), value, intent(in) :: nb_sec
                end subroutine fstarpu_sleep

                subroutine fstarpu_usleep(nb_micro_sec) bind(C, name="starpu_usleep")
                        import :: c_float
                        real(c_float), value, intent(in) :: nb_micro_sec
                end subroutine fstarpu_usleep

                subroutine fstarpu_cublas_init() bind(C, name="starpu_cublas_init")
                end subroutine fstarpu_cublas_init

                subroutine fstarpu_cublas_shutdown() bind(C, name="starpu_cublas_shutdown")
                end subroutine fstarpu_cublas_shutdown

                ! StarPU 1.4's transactions (starpu_transaction_open / _next_epoch / _close),
                ! which StarPU's module does not bind: this project's extension. The start
                ! function is `integer(c_int) function f(buffer, arg) bind(C)` with
                ! `type(c_ptr), value :: buffer, arg`; nonzero runs the epoch. A task joins the
                ! current epoch with `FSTARPU_TRANSACTION, trs` in fstarpu_task_insert.
                function fstarpu_transaction_open(do_start_func, do_start_arg) &
                                bind(C, name="starpu_transaction_open")
                        import :: c_ptr, c_funptr
                        type(c_ptr) :: fstarpu_transaction_open
                        type(c_funptr), value, intent(in) :: do_start_func
                        type(c_ptr), value, intent(in) :: do_start_arg
                end function fstarpu_transaction_open

                subroutine fstarpu_transaction_next_epoch(trs, do_start_arg) &
                                bind(C, name="starpu_transaction_next_epoch")
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: trs, do_start_arg
                end subroutine fstarpu_transaction_next_epoch

                subroutine fstarpu_transaction_close(trs) bind(C, name="starpu_transaction_close")
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: trs
                end subroutine fstarpu_transaction_close

                ! This project's extension (not in StarPU's module): the code of the last
                ! error of the calling thread (0, or a negative errno), and forgetting it.
                ! fstarpu_rs_last_error / _kind below give its text and its kind's name.
                function fstarpu_rs_last_error_code() bind(C, name="starpu_rs_last_error_code")
                        import :: c_int
                        integer(c_int) :: fstarpu_rs_last_error_code
                end function fstarpu_rs_last_error_code

                subroutine fstarpu_rs_clear_last_error() bind(C, name="starpu_rs_clear_last_error")
                end subroutine fstarpu_rs_clear_last_error
        end interface

contains

        function or_cptrs(op1, op2)
                type(c_ptr) :: or_cptrs
                type(c_ptr), intent(in) :: op1, op2
                or_cptrs = transfer(ior(transfer(op1, 0_c_intptr_t), transfer(op2, 0_c_intptr_t)), c_null_ptr)
        end function or_cptrs

        ! The value of the constant `name`, from the library.
        function constant(name)
                type(c_ptr) :: constant
                character(len=*), intent(in) :: name
                interface
                        function c_get_constant(name) bind(C, name="fstarpu_get_constant")
                                import :: c_ptr, c_char
                                type(c_ptr) :: c_get_constant
                                character(c_char), intent(in) :: name(*)
                        end function c_get_constant
                end interface
                constant = c_get_constant(name // c_null_char)
        end function constant

        ! A Fortran copy of the NUL-terminated C string at p ("" for C_NULL_PTR). The
        ! characters are read up to the NUL only (the pointer's bound is just a limit).
        function c_string(p) result(s)
                type(c_ptr), intent(in) :: p
                character(len=:), allocatable :: s
                character(kind=c_char), pointer :: chars(:)
                integer :: n, i
                if (.not. c_associated(p)) then
                        s = ""
                        return
                end if
                call c_f_pointer(p, chars, [65536])
                n = 0
                do while (n < size(chars))
                        if (chars(n + 1) == c_null_char) exit
                        n = n + 1
                end do
                allocate(character(len=n) :: s)
                do i = 1, n
                        s(i:i) = chars(i)
                end do
        end function c_string

        ! This project's extension: the last error of the calling thread, "call: cause" as
        ! the C face reports it (a failing routine also prints it on stderr), or "" if none.
        function fstarpu_rs_last_error() result(msg)
                character(len=:), allocatable :: msg
                interface
                        function c_last_error() bind(C, name="starpu_rs_last_error")
                                import :: c_ptr
                                type(c_ptr) :: c_last_error
                        end function c_last_error
                end interface
                msg = c_string(c_last_error())
        end function fstarpu_rs_last_error

        ! This project's extension: the stable name of the last error's kind
        ! ("InvalidArgument", "Deadlock", ..., the names every face uses), or "" if none.
        function fstarpu_rs_last_error_kind() result(kind)
                character(len=:), allocatable :: kind
                interface
                        function c_last_error_kind() bind(C, name="starpu_rs_last_error_kind")
                                import :: c_ptr
                                type(c_ptr) :: c_last_error_kind
                        end function c_last_error_kind
                end interface
                kind = c_string(c_last_error_kind())
        end function fstarpu_rs_last_error_kind

        ! Initializes every FSTARPU_* constant, then StarPU (conf: C_NULL_PTR for the
        ! defaults, or from fstarpu_conf_allocate). 0, or StarPU's negative error code
        ! (-EINVAL when a constant has no value in the library: a module and library that
        ! do not match).
        function fstarpu_init(conf)
                integer(c_int) :: fstarpu_init
                type(c_ptr), value, intent(in) :: conf

                real(c_double) :: sz_c_double
                real(c_float) :: sz_c_float
                character(c_char) :: sz_c_char
                integer(c_int) :: sz_c_int
                integer(c_intptr_t) :: sz_c_intptr_t
                type(c_ptr) :: sz_c_ptr
                integer(c_size_t) :: sz_c_size_t
                character :: sz_character
                integer :: sz_integer
                integer(4) :: sz_int4
                integer(8) :: sz_int8
                real :: sz_real
                real(4) :: sz_real4
                real(8) :: sz_real8
                double precision :: sz_double_precision
                complex :: sz_complex
                complex(4) :: sz_complex4
                complex(8) :: sz_complex8
                interface
                        function c_starpu_init(conf) bind(C, name="starpu_init")
                                import :: c_ptr, c_int
                                integer(c_int) :: c_starpu_init
                                type(c_ptr), value, intent(in) :: conf
                        end function c_starpu_init
                end interface

                FSTARPU_R = constant("FSTARPU_R")
                FSTARPU_W = constant("FSTARPU_W")
                FSTARPU_RW = constant("FSTARPU_RW")
                FSTARPU_NONE = constant("FSTARPU_NONE")
                FSTARPU_SCRATCH = constant("FSTARPU_SCRATCH")
                FSTARPU_REDUX = constant("FSTARPU_REDUX")
                FSTARPU_MPI_REDUX = constant("FSTARPU_MPI_REDUX")
                FSTARPU_COMMUTE = constant("FSTARPU_COMMUTE")
                FSTARPU_SSEND = constant("FSTARPU_SSEND")
                FSTARPU_LOCALITY = constant("FSTARPU_LOCALITY")
                FSTARPU_MPI_SAME = constant("FSTARPU_MPI_SAME")

                FSTARPU_DATA_ARRAY = constant("FSTARPU_DATA_ARRAY")
                FSTARPU_DATA_MODE_ARRAY = constant("FSTARPU_DATA_MODE_ARRAY")
                FSTARPU_CL_ARGS = constant("FSTARPU_CL_ARGS")
                FSTARPU_CL_ARGS_NFREE = constant("FSTARPU_CL_ARGS_NFREE")
                FSTARPU_TASK_DEPS_ARRAY = constant("FSTARPU_TASK_DEPS_ARRAY")
                FSTARPU_CALLBACK = constant("FSTARPU_CALLBACK")
                FSTARPU_CALLBACK_WITH_ARG = constant("FSTARPU_CALLBACK_WITH_ARG")
                FSTARPU_CALLBACK_WITH_ARG_NFREE = constant("FSTARPU_CALLBACK_WITH_ARG_NFREE")
                FSTARPU_CALLBACK_ARG = constant("FSTARPU_CALLBACK_ARG")
                FSTARPU_CALLBACK_ARG_NFREE = constant("FSTARPU_CALLBACK_ARG_NFREE")
                FSTARPU_SOON_CALLBACK = constant("FSTARPU_SOON_CALLBACK")
                FSTARPU_SOON_CALLBACK_ARG = constant("FSTARPU_SOON_CALLBACK_ARG")
                FSTARPU_SOON_CALLBACK_ARG_NFREE = constant("FSTARPU_SOON_CALLBACK_ARG_NFREE")
                FSTARPU_PROLOGUE_CALLBACK = constant("FSTARPU_PROLOGUE_CALLBACK")
                FSTARPU_PROLOGUE_CALLBACK_ARG = constant("FSTARPU_PROLOGUE_CALLBACK_ARG")
                FSTARPU_PROLOGUE_CALLBACK_ARG_NFREE = constant("FSTARPU_PROLOGUE_CALLBACK_ARG_NFREE")
                FSTARPU_PROLOGUE_CALLBACK_POP = constant("FSTARPU_PROLOGUE_CALLBACK_POP")
                FSTARPU_PROLOGUE_CALLBACK_POP_ARG = constant("FSTARPU_PROLOGUE_CALLBACK_POP_ARG")
                FSTARPU_PROLOGUE_CALLBACK_POP_ARG_NFREE = constant("FSTARPU_PROLOGUE_CALLBACK_POP_ARG_NFREE")
                FSTARPU_PRIORITY = constant("FSTARPU_PRIORITY")
                FSTARPU_EXECUTE_ON_NODE = constant("FSTARPU_EXECUTE_ON_NODE")
                FSTARPU_EXECUTE_ON_DATA = constant("FSTARPU_EXECUTE_ON_DATA")
                FSTARPU_EXECUTE_ON_WORKER = constant("FSTARPU_EXECUTE_ON_WORKER")
                FSTARPU_WORKER_ORDER = constant("FSTARPU_WORKER_ORDER")
                FSTARPU_EXECUTE_WHERE = constant("FSTARPU_EXECUTE_WHERE")
                FSTARPU_HYPERVISOR_TAG = constant("FSTARPU_HYPERVISOR_TAG")
                FSTARPU_POSSIBLY_PARALLEL = constant("FSTARPU_POSSIBLY_PARALLEL")
                FSTARPU_FLOPS = constant("FSTARPU_FLOPS")
                FSTARPU_TAG = constant("FSTARPU_TAG")
                FSTARPU_TAG_ONLY = constant("FSTARPU_TAG_ONLY")
                FSTARPU_NAME = constant("FSTARPU_NAME")
                FSTARPU_TASK_COLOR = constant("FSTARPU_TASK_COLOR")
                FSTARPU_TASK_SYNCHRONOUS = constant("FSTARPU_TASK_SYNCHRONOUS")
                FSTARPU_HANDLES_SEQUENTIAL_CONSISTENCY = constant("FSTARPU_HANDLES_SEQUENTIAL_CONSISTENCY")
                FSTARPU_TASK_END_DEP = constant("FSTARPU_TASK_END_DEP")
                FSTARPU_NODE_SELECTION_POLICY = constant("FSTARPU_NODE_SELECTION_POLICY")
                FSTARPU_TASK_SCHED_DATA = constant("FSTARPU_TASK_SCHED_DATA")
                FSTARPU_VALUE = constant("FSTARPU_VALUE")
                FSTARPU_SCHED_CTX = constant("FSTARPU_SCHED_CTX")
                FSTARPU_TASK_END_DEPS_ARRAY = constant("FSTARPU_TASK_END_DEPS_ARRAY")
                FSTARPU_TASK_WORKERIDS = constant("FSTARPU_TASK_WORKERIDS")
                FSTARPU_SEQUENTIAL_CONSISTENCY = constant("FSTARPU_SEQUENTIAL_CONSISTENCY")
                FSTARPU_TASK_PROFILING_INFO = constant("FSTARPU_TASK_PROFILING_INFO")
                FSTARPU_TASK_NO_SUBMITORDER = constant("FSTARPU_TASK_NO_SUBMITORDER")
                FSTARPU_EPILOGUE_CALLBACK = constant("FSTARPU_EPILOGUE_CALLBACK")
                FSTARPU_EPILOGUE_CALLBACK_ARG = constant("FSTARPU_EPILOGUE_CALLBACK_ARG")
                FSTARPU_TASK_FILE = constant("FSTARPU_TASK_FILE")
                FSTARPU_TASK_LINE = constant("FSTARPU_TASK_LINE")
                FSTARPU_TRANSACTION = constant("FSTARPU_TRANSACTION")

                FSTARPU_CPU_WORKER = constant("FSTARPU_CPU_WORKER")
                FSTARPU_CUDA_WORKER = constant("FSTARPU_CUDA_WORKER")
                FSTARPU_OPENCL_WORKER = constant("FSTARPU_OPENCL_WORKER")
                FSTARPU_ANY_WORKER = constant("FSTARPU_ANY_WORKER")
                FSTARPU_NARCH = constant("FSTARPU_NARCH")

                FSTARPU_NMAXBUFS = int(transfer(constant("FSTARPU_NMAXBUFS"), 0_c_intptr_t), c_int)

                FSTARPU_SCHED_CTX_POLICY_NAME = constant("FSTARPU_SCHED_CTX_POLICY_NAME")
                FSTARPU_SCHED_CTX_POLICY_STRUCT = constant("FSTARPU_SCHED_CTX_POLICY_STRUCT")
                FSTARPU_SCHED_CTX_POLICY_MIN_PRIO = constant("FSTARPU_SCHED_CTX_POLICY_MIN_PRIO")
                FSTARPU_SCHED_CTX_POLICY_MAX_PRIO = constant("FSTARPU_SCHED_CTX_POLICY_MAX_PRIO")
                FSTARPU_SCHED_CTX_HIERARCHY_LEVEL = constant("FSTARPU_SCHED_CTX_HIERARCHY_LEVEL")
                FSTARPU_SCHED_CTX_NESTED = constant("FSTARPU_SCHED_CTX_NESTED")
                FSTARPU_SCHED_CTX_AWAKE_WORKERS = constant("FSTARPU_SCHED_CTX_AWAKE_WORKERS")
                FSTARPU_SCHED_CTX_POLICY_INIT = constant("FSTARPU_SCHED_CTX_POLICY_INIT")
                FSTARPU_SCHED_CTX_USER_DATA = constant("FSTARPU_SCHED_CTX_USER_DATA")

                FSTARPU_NOWHERE = constant("FSTARPU_NOWHERE")
                FSTARPU_CPU = constant("FSTARPU_CPU")
                FSTARPU_CUDA = constant("FSTARPU_CUDA")
                FSTARPU_OPENCL = constant("FSTARPU_OPENCL")
                FSTARPU_CODELET_SIMGRID_EXECUTE = constant("FSTARPU_CODELET_SIMGRID_EXECUTE")
                FSTARPU_CODELET_SIMGRID_EXECUTE_AND_INJECT = constant("FSTARPU_CODELET_SIMGRID_EXECUTE_AND_INJECT")
                FSTARPU_CUDA_ASYNC = constant("FSTARPU_CUDA_ASYNC")
                FSTARPU_OPENCL_ASYNC = constant("FSTARPU_OPENCL_ASYNC")

                FSTARPU_PER_WORKER = constant("FSTARPU_PER_WORKER")
                FSTARPU_PER_ARCH = constant("FSTARPU_PER_ARCH")
                FSTARPU_COMMON = constant("FSTARPU_COMMON")
                FSTARPU_HISTORY_BASED = constant("FSTARPU_HISTORY_BASED")
                FSTARPU_REGRESSION_BASED = constant("FSTARPU_REGRESSION_BASED")
                FSTARPU_NL_REGRESSION_BASED = constant("FSTARPU_NL_REGRESSION_BASED")
                FSTARPU_MULTIPLE_REGRESSION_BASED = constant("FSTARPU_MULTIPLE_REGRESSION_BASED")

                FSTARPU_SEQ = constant("FSTARPU_SEQ")
                FSTARPU_SPMD = constant("FSTARPU_SPMD")
                FSTARPU_FORKJOIN = constant("FSTARPU_FORKJOIN")

                FSTARPU_DEFAULT_PRIO = int(transfer(constant("FSTARPU_DEFAULT_PRIO"), 0_c_intptr_t), c_int)

                ! Sizes as this compiler lays the types out (-fdefault-real-8 included).
                FSTARPU_SZ_C_DOUBLE = fstarpu_csizet_to_cptr(c_sizeof(sz_c_double))
                FSTARPU_SZ_C_FLOAT = fstarpu_csizet_to_cptr(c_sizeof(sz_c_float))
                FSTARPU_SZ_C_CHAR = fstarpu_csizet_to_cptr(c_sizeof(sz_c_char))
                FSTARPU_SZ_C_INT = fstarpu_csizet_to_cptr(c_sizeof(sz_c_int))
                FSTARPU_SZ_C_INTPTR_T = fstarpu_csizet_to_cptr(c_sizeof(sz_c_intptr_t))
                FSTARPU_SZ_C_PTR = fstarpu_csizet_to_cptr(c_sizeof(sz_c_ptr))
                FSTARPU_SZ_C_SIZE_T = fstarpu_csizet_to_cptr(c_sizeof(sz_c_size_t))
                FSTARPU_SZ_CHARACTER = fstarpu_csizet_to_cptr(c_sizeof(sz_character))
                FSTARPU_SZ_INTEGER = fstarpu_csizet_to_cptr(c_sizeof(sz_integer))
                FSTARPU_SZ_INT4 = fstarpu_csizet_to_cptr(c_sizeof(sz_int4))
                FSTARPU_SZ_INT8 = fstarpu_csizet_to_cptr(c_sizeof(sz_int8))
                FSTARPU_SZ_REAL = fstarpu_csizet_to_cptr(c_sizeof(sz_real))
                FSTARPU_SZ_REAL4 = fstarpu_csizet_to_cptr(c_sizeof(sz_real4))
                FSTARPU_SZ_REAL8 = fstarpu_csizet_to_cptr(c_sizeof(sz_real8))
                FSTARPU_SZ_DOUBLE_PRECISION = fstarpu_csizet_to_cptr(c_sizeof(sz_double_precision))
                FSTARPU_SZ_COMPLEX = fstarpu_csizet_to_cptr(c_sizeof(sz_complex))
                FSTARPU_SZ_COMPLEX4 = fstarpu_csizet_to_cptr(c_sizeof(sz_complex4))
                FSTARPU_SZ_COMPLEX8 = fstarpu_csizet_to_cptr(c_sizeof(sz_complex8))

                ! fstarpu_get_constant answers -1 for a name it does not know.
                if (transfer(FSTARPU_R, 0_c_intptr_t) == -1 .or. transfer(FSTARPU_VALUE, 0_c_intptr_t) == -1 &
                    .or. transfer(FSTARPU_FORKJOIN, 0_c_intptr_t) == -1) then
                        fstarpu_init = -22
                        return
                end if
                fstarpu_init = c_starpu_init(conf)
        end function fstarpu_init

        function fstarpu_csizet_to_cptr(i)
                type(c_ptr) :: fstarpu_csizet_to_cptr
                integer(c_size_t), intent(in) :: i
                fstarpu_csizet_to_cptr = transfer(int(i, kind=c_intptr_t), c_null_ptr)
        end function fstarpu_csizet_to_cptr

        function fstarpu_int_to_cptr(i)
                type(c_ptr) :: fstarpu_int_to_cptr
                integer(c_int), intent(in) :: i
                fstarpu_int_to_cptr = transfer(int(i, kind=c_intptr_t), c_null_ptr)
        end function fstarpu_int_to_cptr

        ! extension: a procedure pointer in a c_ptr, for the callback keys of
        ! fstarpu_task_insert: FSTARPU_CALLBACK, fstarpu_funptr_to_cptr(c_funloc(f)).
        function fstarpu_funptr_to_cptr(f)
                type(c_ptr) :: fstarpu_funptr_to_cptr
                type(c_funptr), value, intent(in) :: f
                fstarpu_funptr_to_cptr = transfer(f, c_null_ptr)
        end function fstarpu_funptr_to_cptr

        function fstarpu_long_to_cptr(i)
                type(c_ptr) :: fstarpu_long_to_cptr
                integer(c_long), intent(in) :: i
                fstarpu_long_to_cptr = transfer(int(i, kind=c_intptr_t), c_null_ptr)
        end function fstarpu_long_to_cptr

        ! fstarpu_task_insert((/ cl, KEY, value..., ..., C_NULL_PTR /)): submits the task;
        ! on an error (explained on stderr, naming the array element) stops the program,
        ! as StarPU's does. fstarpu_task_insert_ret returns the error code instead.
        subroutine fstarpu_task_insert(arglist)
                type(c_ptr), dimension(:), intent(in) :: arglist
                if (fstarpu_task_insert_ret(arglist) /= 0) then
                        error stop "fstarpu_task_insert: the task was not submitted (see the message above)"
                end if
        end subroutine fstarpu_task_insert

        ! StarPU's other name for fstarpu_task_insert.
        subroutine fstarpu_insert_task(arglist)
                type(c_ptr), dimension(:), intent(in) :: arglist
                call fstarpu_task_insert(arglist)
        end subroutine fstarpu_insert_task

        ! extension: 0, or StarPU's negative error code (-EINVAL for a malformed array);
        ! nothing is submitted on an error.
        function fstarpu_task_insert_ret(arglist)
                integer(c_int) :: fstarpu_task_insert_ret
                type(c_ptr), dimension(:), intent(in) :: arglist
                interface
                        function c_task_insert_array(arglist, n) bind(C, name="fstarpu_task_insert_array")
                                import :: c_ptr, c_int
                                integer(c_int) :: c_task_insert_array
                                type(c_ptr), intent(in) :: arglist(*)
                                integer(c_int), value, intent(in) :: n
                        end function c_task_insert_array
                end interface
                fstarpu_task_insert_ret = c_task_insert_array(arglist, int(size(arglist), c_int))
        end function fstarpu_task_insert_ret

        ! extension: the task fstarpu_task_insert would submit, built but not submitted
        ! (C's starpu_task_build); C_NULL_PTR on an error.
        function fstarpu_task_build(arglist)
                type(c_ptr) :: fstarpu_task_build
                type(c_ptr), dimension(:), intent(in) :: arglist
                interface
                        function c_task_build_array(arglist, n) bind(C, name="fstarpu_task_build_array")
                                import :: c_ptr, c_int
                                type(c_ptr) :: c_task_build_array
                                type(c_ptr), intent(in) :: arglist(*)
                                integer(c_int), value, intent(in) :: n
                        end function c_task_build_array
                end interface
                fstarpu_task_build = c_task_build_array(arglist, int(size(arglist), c_int))
        end function fstarpu_task_build

        ! fstarpu_unpack_arg(cl_args, (/ c_loc(a), c_loc(b) /)): the task's FSTARPU_VALUE
        ! arguments, in order, into a, b, ...; stops at a C_NULL_PTR or the array's end.
        subroutine fstarpu_unpack_arg(cl_arg, bufferlist)
                type(c_ptr), value, intent(in) :: cl_arg
                type(c_ptr), dimension(:), intent(in) :: bufferlist
                interface
                        subroutine c_unpack_arg_list(cl_arg, targets, n) bind(C, name="fstarpu_unpack_arg_list")
                                import :: c_ptr, c_int
                                type(c_ptr), value, intent(in) :: cl_arg
                                type(c_ptr), intent(in) :: targets(*)
                                integer(c_int), value, intent(in) :: n
                        end subroutine c_unpack_arg_list
                end interface
                call c_unpack_arg_list(cl_arg, bufferlist, int(size(bufferlist), c_int))
        end subroutine fstarpu_unpack_arg

        ! extension: C's starpu_codelet_pack_args. arglist holds FSTARPU_VALUE, c_loc(x),
        ! FSTARPU_SZ_... triples and C_NULL_PTR; cl_arg (malloc'ed) and cl_arg_size go to
        ! a task with FSTARPU_CL_ARGS, which frees the buffer.
        subroutine fstarpu_codelet_pack_args(cl_arg, cl_arg_size, arglist)
                type(c_ptr), intent(out) :: cl_arg
                integer(c_size_t), intent(out) :: cl_arg_size
                type(c_ptr), dimension(:), intent(in) :: arglist
                interface
                        function c_pack_args_list(cl_arg, cl_arg_size, arglist, n) bind(C, name="fstarpu_codelet_pack_args_list")
                                import :: c_ptr, c_int, c_size_t
                                integer(c_int) :: c_pack_args_list
                                type(c_ptr), intent(out) :: cl_arg
                                integer(c_size_t), intent(out) :: cl_arg_size
                                type(c_ptr), intent(in) :: arglist(*)
                                integer(c_int), value, intent(in) :: n
                        end function c_pack_args_list
                end interface
                cl_arg = c_null_ptr
                cl_arg_size = 0
                if (c_pack_args_list(cl_arg, cl_arg_size, arglist, int(size(arglist), c_int)) /= 0) then
                        cl_arg = c_null_ptr
                end if
        end subroutine fstarpu_codelet_pack_args

        ! StarPU's form has no return code; fstarpu_task_wait_for_all_ret returns it.
        subroutine fstarpu_task_wait_for_all()
                integer(c_int) :: ret
                ret = fstarpu_task_wait_for_all_ret()
        end subroutine fstarpu_task_wait_for_all

        subroutine tag_declare_deps_array_int(id, ndeps, tag_array)
                integer(c_int), value, intent(in) :: id
                integer(c_int), value, intent(in) :: ndeps
                integer(c_int64_t), intent(in) :: tag_array(*)
                call tag_declare_deps_array_long(int(id, c_int64_t), ndeps, tag_array)
        end subroutine tag_declare_deps_array_int

        subroutine tag_declare_deps_array_long(id, ndeps, tag_array)
                integer(c_int64_t), value, intent(in) :: id
                integer(c_int), value, intent(in) :: ndeps
                integer(c_int64_t), intent(in) :: tag_array(*)
                interface
                        subroutine c_tag_declare_deps_array(id, ndeps, tag_array) &
                                        bind(C, name="starpu_tag_declare_deps_array")
                                import :: c_int, c_int64_t
                                integer(c_int64_t), value, intent(in) :: id
                                integer(c_int), value, intent(in) :: ndeps
                                integer(c_int64_t), intent(in) :: tag_array(*)
                        end subroutine c_tag_declare_deps_array
                end interface
                call c_tag_declare_deps_array(id, ndeps, tag_array)
        end subroutine tag_declare_deps_array_long

        subroutine create_sync_task_int(sync_tag, ndeps, tag_array, callback, callback_arg)
                integer(c_int), value, intent(in) :: sync_tag
                integer(c_int), value, intent(in) :: ndeps
                integer(c_int64_t), intent(in) :: tag_array(*)
                type(c_funptr), value, intent(in) :: callback
                type(c_ptr), value, intent(in) :: callback_arg
                call create_sync_task_long(int(sync_tag, c_int64_t), ndeps, tag_array, callback, callback_arg)
        end subroutine create_sync_task_int

        ! A task without codelet that ends once the ndeps tags are done (it carries tag
        ! sync_tag), then calls callback(callback_arg) unless callback is C_NULL_FUNPTR.
        subroutine create_sync_task_long(sync_tag, ndeps, tag_array, callback, callback_arg)
                integer(c_int64_t), value, intent(in) :: sync_tag
                integer(c_int), value, intent(in) :: ndeps
                integer(c_int64_t), intent(in) :: tag_array(*)
                type(c_funptr), value, intent(in) :: callback
                type(c_ptr), value, intent(in) :: callback_arg
                interface
                        subroutine c_create_sync_task(sync_tag, ndeps, tag_array, callback, callback_arg) &
                                        bind(C, name="starpu_create_sync_task")
                                import :: c_int, c_int64_t, c_funptr, c_ptr
                                integer(c_int64_t), value, intent(in) :: sync_tag
                                integer(c_int), value, intent(in) :: ndeps
                                integer(c_int64_t), intent(in) :: tag_array(*)
                                type(c_funptr), value, intent(in) :: callback
                                type(c_ptr), value, intent(in) :: callback_arg
                        end subroutine c_create_sync_task
                end interface
                call c_create_sync_task(sync_tag, ndeps, tag_array, callback, callback_arg)
        end subroutine create_sync_task_long

        ! StarPU's module names fstarpu_data_descr_free this way.
        subroutine fstarpu_data_descrg_free(descr)
                type(c_ptr), value, intent(in) :: descr
                call fstarpu_data_descr_free(descr)
        end subroutine fstarpu_data_descrg_free
end module fstarpu_mod
