! data_requests: StarPU 1.4's requests about where data should be, and the per-context
! waits, from Fortran. A vector is prefetched (at a priority, when idle), its allocation
! requested, advised as important and checked on main RAM (the only memory node here,
! so every request is satisfied at once); deinitialized, it is on no node until a task
! writes it again. Tasks sent to a context over worker 1 are waited for with
! fstarpu_task_wait_for_all_in_ctx and fstarpu_task_wait_for_n_submitted_in_ctx, and the
! context's close callback runs after its last task once submissions are finished. Every
! result is checked; a wrong one stops the program with an error.
module data_requests_state
        use iso_c_binding
        use fstarpu_mod
        implicit none
        ! How many tasks ran, and the implementation each one said it was.
        integer :: nran = 0
        integer(c_int) :: said_impl = -1
        ! The context the close callback was called for (-1: not called).
        integer(c_int) :: closed = -1
contains
        recursive subroutine on_close(ctx, args) bind(C)
                integer(c_int), value, intent(in) :: ctx
                type(c_ptr), value, intent(in) :: args
                closed = ctx
        end subroutine on_close

        recursive subroutine fill_cpu(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                integer(c_int), pointer :: x(:)
                integer :: n

                n = fstarpu_vector_get_nx(buffers, 0)
                call c_f_pointer(fstarpu_vector_get_ptr(buffers, 0), x, shape=[n])
                x = 42
                nran = nran + 1
                said_impl = fstarpu_task_get_implementation(fstarpu_task_get_current())
        end subroutine fill_cpu

        subroutine check(ok, what)
                logical, intent(in) :: ok
                character(len=*), intent(in) :: what
                if (.not. ok) then
                        write(*, '(a)') "data_requests: " // what
                        error stop 1
                end if
        end subroutine check
end module data_requests_state

program data_requests
        use iso_c_binding
        use fstarpu_mod
        use data_requests_state
        implicit none

        type(c_ptr) :: conf, cl, dh
        integer(c_int), target :: v(8) = 0
        integer(c_int), target :: ctx
        integer(c_int) :: ret, k

        conf = fstarpu_conf_allocate()
        call fstarpu_conf_set_ncpu(conf, 2)
        ret = fstarpu_init(conf)
        if (ret == -19) stop 77
        call check(ret == 0, "fstarpu_init failed")
        call check(fstarpu_asynchronous_cuda_copy_disabled() == 0 .or. &
                fstarpu_asynchronous_cuda_copy_disabled() == 1, "fstarpu_asynchronous_cuda_copy_disabled")

        cl = fstarpu_codelet_allocate()
        call fstarpu_codelet_add_cpu_func(cl, c_funloc(fill_cpu))
        call fstarpu_codelet_add_buffer(cl, FSTARPU_W)
        call fstarpu_vector_data_register(dh, 0, c_loc(v), 8, c_sizeof(v(1)))

        ! Main RAM (node 0) holds the vector: each request is satisfied as it is made.
        call fstarpu_data_prefetch_on_node_prio(dh, 0, 1, 3)
        call fstarpu_data_idle_prefetch_on_node(dh, 0, 1)
        call fstarpu_data_idle_prefetch_on_node_prio(dh, 0, 0, -1)
        call fstarpu_data_request_allocation(dh, 0)
        call fstarpu_data_advise_as_important(dh, 1)
        call fstarpu_memchunk_tidy(0)
        call check(fstarpu_data_is_on_node(dh, 0) == 1, "the vector should be on main RAM")

        ! Deinitialized, no node holds a value; a task writing it brings one back.
        call fstarpu_data_deinitialize(dh)
        call check(fstarpu_data_is_on_node(dh, 0) == 0, "no value after fstarpu_data_deinitialize")
        call fstarpu_task_insert((/ cl, FSTARPU_W, dh, c_null_ptr /))
        call fstarpu_task_wait_for_all()
        call check(fstarpu_data_is_on_node(dh, 0) == 1, "a written vector should be on main RAM")
        call check(said_impl == 0, "the codelet has one implementation, 0")

        ! Tasks sent to a context over worker 1, waited for there.
        ctx = fstarpu_sched_ctx_create((/ 1_c_int /), 1, c_char_"requests" // c_null_char, (/ c_null_ptr /))
        call check(ctx > 0 .and. ctx < 10, "fstarpu_sched_ctx_create made no context")
        do k = 1, 6
                call fstarpu_task_insert((/ cl, FSTARPU_W, dh, FSTARPU_SCHED_CTX, c_loc(ctx), c_null_ptr /))
        end do
        call fstarpu_task_wait_for_n_submitted_in_ctx(ctx, 0)
        call check(nran == 7, "the context's tasks should all have run")
        call fstarpu_task_insert((/ cl, FSTARPU_W, dh, FSTARPU_SCHED_CTX, c_loc(ctx), c_null_ptr /))
        call fstarpu_task_wait_for_all_in_ctx(ctx)
        call check(nran == 8, "fstarpu_task_wait_for_all_in_ctx returned early")

        ! Closed when its last task ends after submissions are finished: the callback
        ! runs. The vector is held (acquired) so that the task cannot end before.
        call fstarpu_sched_ctx_set_inheritor(ctx, 0)
        call fstarpu_sched_ctx_register_close_callback(ctx, c_funloc(on_close), c_null_ptr)
        call fstarpu_data_acquire(dh, FSTARPU_R)
        call fstarpu_task_insert((/ cl, FSTARPU_W, dh, FSTARPU_SCHED_CTX, c_loc(ctx), c_null_ptr /))
        call fstarpu_sched_ctx_finished_submit(ctx)
        call check(closed == -1, "the context was closed before its task ended")
        call fstarpu_data_release(dh)
        call fstarpu_task_wait_for_all()
        call check(closed == ctx, "the close callback did not run for the context")
        call fstarpu_sched_ctx_delete(ctx)

        call fstarpu_data_deinitialize_submit(dh)
        call fstarpu_task_wait_for_all()
        call check(fstarpu_data_is_on_node(dh, 0) == 0, "no value after fstarpu_data_deinitialize_submit")
        call fstarpu_data_unregister(dh)
        call fstarpu_codelet_free(cl)
        call fstarpu_conf_free(conf)
        call fstarpu_shutdown()
end program data_requests
