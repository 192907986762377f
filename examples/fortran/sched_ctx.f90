! sched_ctx: scheduling contexts from Fortran. A context over worker 2 alone, with its own
! policy and priority range (fstarpu_sched_ctx_create and its keys), is queried, receives
! tasks through FSTARPU_SCHED_CTX and through the thread's current context
! (fstarpu_sched_ctx_set_context), and gives its worker back to its inheritor when it is
! deleted. Then a few other routines of the module: fstarpu_is_paused,
! fstarpu_combined_worker_get_id, fstarpu_create_sync_task and
! fstarpu_data_partition_get_nplans. Every result is checked; a wrong one stops the
! program with an error.
module sched_ctx_state
        use iso_c_binding
        use fstarpu_mod
        implicit none
        ! ran_on(i): the worker task i ran on (each task writes its own element).
        integer(c_int) :: ran_on(8) = -1
        ! How many times the sync task's callback ran.
        integer :: nsync = 0
contains
        recursive subroutine where_cpu(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                integer(c_int), target :: id

                call fstarpu_unpack_arg(cl_args, (/ c_loc(id) /))
                ran_on(id) = fstarpu_worker_get_id()
        end subroutine where_cpu

        recursive subroutine sync_callback(arg) bind(C)
                type(c_ptr), value, intent(in) :: arg
                nsync = nsync + 1
        end subroutine sync_callback

        subroutine check(ok, what)
                logical, intent(in) :: ok
                character(len=*), intent(in) :: what
                if (.not. ok) then
                        write(*, '(a)') "sched_ctx: " // what
                        error stop 1
                end if
        end subroutine check
end module sched_ctx_state

program sched_ctx
        use iso_c_binding
        use fstarpu_mod
        use sched_ctx_state
        implicit none

        type(c_ptr) :: conf, cl, dh, filter
        type(c_ptr) :: halves(2), quarters(4)
        character(kind=c_char, len=6), target :: eager = c_char_"eager" // c_null_char
        integer(c_int), target :: ids(8), ctx, current, minp, maxp
        integer(c_int64_t), target :: v(4) = 0, tag
        integer(c_int) :: ret, k

        ! Three workers, lws for the global context.
        conf = fstarpu_conf_allocate()
        call fstarpu_conf_set_ncpu(conf, 3)
        call fstarpu_conf_set_sched_policy_name(conf, c_char_"lws" // c_null_char)
        ret = fstarpu_init(conf)
        if (ret == -19) stop 77
        call check(ret == 0, "fstarpu_init failed")
        call check(fstarpu_cpu_worker_get_count() == 3, "three CPU workers expected")

        cl = fstarpu_codelet_allocate()
        call fstarpu_codelet_set_name(cl, c_char_"where" // c_null_char)
        call fstarpu_codelet_add_cpu_func(cl, c_funloc(where_cpu))
        ids = (/ (k, k = 1, 8) /)

        ! A context over worker 2, eager, priorities -4..4; worker 2 leaves the global one.
        minp = -4
        maxp = 4
        ctx = fstarpu_sched_ctx_create((/ 2_c_int /), 1, c_char_"solo" // c_null_char, &
                (/ FSTARPU_SCHED_CTX_POLICY_NAME, c_loc(eager), &
                   FSTARPU_SCHED_CTX_POLICY_MIN_PRIO, c_loc(minp), &
                   FSTARPU_SCHED_CTX_POLICY_MAX_PRIO, c_loc(maxp), c_null_ptr /))
        call check(ctx > 0 .and. ctx < 10, "fstarpu_sched_ctx_create made no context")
        call check(fstarpu_sched_ctx_get_nworkers(ctx) == 1, "the context should hold one worker")
        call check(fstarpu_sched_ctx_contains_worker(2, ctx) == 1, "worker 2 should be in the context")
        call check(fstarpu_sched_ctx_contains_worker(0, ctx) == 0, "worker 0 should not be in the context")
        call check(fstarpu_sched_ctx_get_min_priority(ctx) == -4, "min priority")
        call check(fstarpu_sched_ctx_get_max_priority(ctx) == 4, "max priority")
        call check(fstarpu_sched_ctx_min_priority_is_set(ctx) == 1, "min priority should be set")
        call check(fstarpu_sched_ctx_get_nshared_workers(ctx, 0) == 1, "worker 2 is shared with global")
        call fstarpu_sched_ctx_remove_workers((/ 2_c_int /), 1, 0)
        call check(fstarpu_sched_ctx_contains_worker(2, 0) == 0, "worker 2 should have left global")
        call check(fstarpu_sched_ctx_get_nshared_workers(ctx, 0) == 0, "nothing shared any more")

        ! Tasks 1..4 go to the context, so to worker 2.
        do k = 1, 4
                call fstarpu_task_insert((/ cl, FSTARPU_VALUE, c_loc(ids(k)), FSTARPU_SZ_C_INT, &
                        FSTARPU_SCHED_CTX, c_loc(ctx), c_null_ptr /))
        end do
        call fstarpu_task_wait_for_all()
        call check(all(ran_on(1:4) == 2), "FSTARPU_SCHED_CTX tasks ran outside the context")

        ! The thread's current context takes task 5; without it, task 6 goes to global.
        current = ctx
        call fstarpu_sched_ctx_set_context(c_loc(current))
        call check(fstarpu_sched_ctx_get_context() == ctx, "fstarpu_sched_ctx_get_context")
        call fstarpu_task_insert((/ cl, FSTARPU_VALUE, c_loc(ids(5)), FSTARPU_SZ_C_INT, c_null_ptr /))
        call fstarpu_sched_ctx_set_context(c_null_ptr)
        call check(fstarpu_sched_ctx_get_context() /= ctx, "the current context should be unset")
        call fstarpu_task_insert((/ cl, FSTARPU_VALUE, c_loc(ids(6)), FSTARPU_SZ_C_INT, c_null_ptr /))
        call fstarpu_task_wait_for_all()
        call check(ran_on(5) == 2, "the current context's task ran outside it")
        call check(ran_on(6) == 0 .or. ran_on(6) == 1, "a global task ran on worker 2")

        ! Deleted, the context gives worker 2 to its inheritor, the global context.
        call fstarpu_sched_ctx_set_inheritor(ctx, 0)
        call check(fstarpu_sched_ctx_get_inheritor(ctx) == 0, "fstarpu_sched_ctx_get_inheritor")
        call fstarpu_sched_ctx_finished_submit(ctx)
        call fstarpu_sched_ctx_display_workers(ctx)
        call fstarpu_sched_ctx_delete(ctx)
        call check(fstarpu_sched_ctx_contains_worker(2, 0) == 1, "worker 2 should be back in global")

        ! Paused or not.
        call fstarpu_pause()
        call check(fstarpu_is_paused() == 1, "fstarpu_is_paused after fstarpu_pause")
        call fstarpu_resume()
        call check(fstarpu_is_paused() == 0, "fstarpu_is_paused after fstarpu_resume")

        ! Outside a parallel task, the thread is no combined worker.
        call check(fstarpu_combined_worker_get_id() == -1, "fstarpu_combined_worker_get_id outside a task")

        ! A sync task (tag 100) waits for the task tagged 7, then calls its callback.
        call fstarpu_create_sync_task(100_c_int64_t, 1, (/ 7_c_int64_t /), c_funloc(sync_callback), c_null_ptr)
        tag = 7
        call fstarpu_task_insert((/ cl, FSTARPU_VALUE, c_loc(ids(7)), FSTARPU_SZ_C_INT, &
                FSTARPU_TAG, c_loc(tag), c_null_ptr /))
        call check(fstarpu_tag_wait(100_c_int64_t) == 0, "fstarpu_tag_wait on the sync task's tag")
        call fstarpu_task_wait_for_all()
        call check(ran_on(7) >= 0, "the tagged task did not run")
        call check(nsync == 1, "the sync task's callback should have run once")

        ! Asynchronous partition plans, counted until they are cleaned.
        call fstarpu_vector_data_register(dh, 0, c_loc(v), 4, c_sizeof(v(1)))
        call check(fstarpu_data_partition_get_nplans(dh) == 0, "no plan yet")
        filter = fstarpu_df_alloc_vector_filter_block()
        call fstarpu_data_filter_set_nchildren(filter, 2)
        call fstarpu_data_partition_plan(dh, filter, halves)
        call fstarpu_data_filter_set_nchildren(filter, 4)
        call fstarpu_data_partition_plan(dh, filter, quarters)
        call fstarpu_data_filter_free(filter)
        call check(fstarpu_data_partition_get_nplans(dh) == 2, "two plans")
        call fstarpu_data_partition_clean(dh, 2, halves)
        call check(fstarpu_data_partition_get_nplans(dh) == 1, "one plan left")
        call fstarpu_data_partition_clean(dh, 4, quarters)
        call check(fstarpu_data_partition_get_nplans(dh) == 0, "every plan cleaned")
        call fstarpu_data_unregister(dh)

        call fstarpu_codelet_free(cl)
        call fstarpu_shutdown()
        call fstarpu_conf_free(conf)
end program sched_ctx
