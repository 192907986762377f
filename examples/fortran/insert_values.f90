! insert_values: fstarpu_task_insert with values of several types, priorities, a
! callback, a tag, packed arguments (fstarpu_codelet_pack_args + FSTARPU_CL_ARGS), a task
! built then submitted and waited for (fstarpu_task_build), and malformed argument arrays
! refused by fstarpu_task_insert_ret without submitting anything, their cause read back
! with fstarpu_rs_last_error / _code / _kind (this project's extension).
module insert_values_state
        use iso_c_binding
        use fstarpu_mod
        implicit none
        ! Written by kernels and callbacks, read by the program after waiting.
        integer(c_int) :: got_i = 0
        real(c_double) :: got_d = 0
        integer(c_int64_t) :: got_l = 0
        character(len=8) :: got_s = ""
        integer :: nruns = 0
        integer :: order(8) = 0
        integer, target :: ncallbacks = 0
contains
        recursive subroutine values_cpu(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                integer(c_int), target :: i
                real(c_double), target :: d
                integer(c_int64_t), target :: l
                character(len=8), target :: s

                call fstarpu_unpack_arg(cl_args, (/ c_loc(i), c_loc(d), c_loc(l), c_loc(s) /))
                got_i = i
                got_d = d
                got_l = l
                got_s = s
        end subroutine values_cpu

        ! Records the order tasks run in (one worker: no two run at once).
        recursive subroutine record_cpu(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                integer(c_int), target :: id

                call fstarpu_unpack_arg(cl_args, (/ c_loc(id) /))
                nruns = nruns + 1
                order(nruns) = id
        end subroutine record_cpu

        recursive subroutine count_callback(arg) bind(C)
                type(c_ptr), value, intent(in) :: arg
                integer, pointer :: counter

                call c_f_pointer(arg, counter)
                counter = counter + 1
        end subroutine count_callback
end module insert_values_state

program insert_values
        use iso_c_binding
        use fstarpu_mod
        use insert_values_state
        implicit none

        type(c_ptr) :: conf, values_cl, record_cl, task, packed, dh, bogus, callback
        integer(c_size_t) :: packed_size
        integer(c_int), target :: i, ids(5), prios(5), one
        real(c_double), target :: d
        integer(c_int64_t), target :: l, tag
        character(len=8), target :: s
        integer(c_int64_t), target :: x
        integer :: k, ret, minp, maxp

        ! One worker and the priority-ordered scheduler.
        conf = fstarpu_conf_allocate()
        call fstarpu_conf_set_ncpu(conf, 1)
        call fstarpu_conf_set_sched_policy_name(conf, c_char_"prio"//c_null_char)
        ret = fstarpu_init(conf)
        if (ret == -19) stop 77
        if (ret /= 0) error stop "fstarpu_init failed"

        values_cl = fstarpu_codelet_allocate()
        call fstarpu_codelet_add_cpu_func(values_cl, c_funloc(values_cpu))
        record_cl = fstarpu_codelet_allocate()
        call fstarpu_codelet_add_cpu_func(record_cl, c_funloc(record_cpu))

        ! Values of four types, a callback, a tag and a name.
        i = -7
        d = 2.5_c_double
        l = 123456789012_c_int64_t
        s = "fortran!"
        tag = 42
        callback = fstarpu_funptr_to_cptr(c_funloc(count_callback))
        call fstarpu_task_insert((/ values_cl, &
                FSTARPU_VALUE, c_loc(i), FSTARPU_SZ_C_INT, &
                FSTARPU_VALUE, c_loc(d), FSTARPU_SZ_C_DOUBLE, &
                FSTARPU_VALUE, c_loc(l), FSTARPU_SZ_INT8, &
                FSTARPU_VALUE, c_loc(s), fstarpu_csizet_to_cptr(len(s, c_size_t)), &
                FSTARPU_CALLBACK_WITH_ARG_NFREE, callback, c_loc(ncallbacks), &
                FSTARPU_TAG, c_loc(tag), &
                FSTARPU_NAME, c_loc(s), &
                c_null_ptr /))
        if (fstarpu_tag_wait(tag) /= 0) error stop "insert_values: fstarpu_tag_wait failed"
        call fstarpu_task_wait_for_all()
        if (got_i /= -7 .or. got_d /= 2.5_c_double .or. got_l /= 123456789012_c_int64_t .or. got_s /= "fortran!") then
                write(*, *) "insert_values: the kernel read", got_i, got_d, got_l, got_s
                error stop 1
        end if
        if (ncallbacks /= 1) error stop "insert_values: the callback did not run once"

        ! Priorities: with the worker paused, five tasks queue up; resumed, the prio
        ! scheduler runs the highest first.
        minp = fstarpu_sched_get_min_priority()
        maxp = fstarpu_sched_get_max_priority()
        prios = (/ 0, maxp, minp, 1, -1 /)
        call fstarpu_pause()
        do k = 1, 5
                ids(k) = k
                call fstarpu_task_insert((/ record_cl, FSTARPU_PRIORITY, c_loc(prios(k)), &
                        FSTARPU_VALUE, c_loc(ids(k)), FSTARPU_SZ_C_INT, c_null_ptr /))
        end do
        call fstarpu_resume()
        call fstarpu_task_wait_for_all()
        if (any(order(1:5) /= (/ 2, 4, 1, 5, 3 /))) then
                write(*, *) "insert_values: priorities", prios, "ran in the order", order(1:5)
                error stop 1
        end if

        ! Packed arguments handed over with FSTARPU_CL_ARGS (the task frees them).
        i = 99
        call fstarpu_codelet_pack_args(packed, packed_size, (/ FSTARPU_VALUE, c_loc(i), FSTARPU_SZ_C_INT, c_null_ptr /))
        if (.not. c_associated(packed)) error stop "insert_values: fstarpu_codelet_pack_args failed"
        call fstarpu_task_insert((/ record_cl, FSTARPU_CL_ARGS, packed, fstarpu_csizet_to_cptr(packed_size), c_null_ptr /))
        call fstarpu_task_wait_for_all()
        if (nruns /= 6 .or. order(6) /= 99) error stop "insert_values: FSTARPU_CL_ARGS not received"

        ! A task built, kept (not detached), submitted, waited for.
        i = 7
        task = fstarpu_task_build((/ record_cl, FSTARPU_VALUE, c_loc(i), FSTARPU_SZ_C_INT, c_null_ptr /))
        if (.not. c_associated(task)) error stop "insert_values: fstarpu_task_build failed"
        call fstarpu_task_set_detach(task, 0)
        if (fstarpu_task_submit(task) /= 0) error stop "insert_values: submit failed"
        if (fstarpu_task_wait(task) /= 0) error stop "insert_values: wait failed"
        if (nruns /= 7 .or. order(7) /= 7) error stop "insert_values: the built task did not run"

        ! Malformed arrays: refused with -EINVAL, nothing submitted.
        x = 0
        call fstarpu_variable_data_register(dh, 0, c_loc(x), c_sizeof(x))
        one = 1
        bogus = fstarpu_int_to_cptr(one)
        ret = fstarpu_task_insert_ret((/ record_cl, FSTARPU_VALUE, c_loc(i), FSTARPU_SZ_C_INT, &
                fstarpu_int_to_cptr(ishft(1000, 17)), c_null_ptr /))
        if (ret /= -22) error stop "insert_values: an unknown key was accepted"
        ret = fstarpu_task_insert_ret((/ record_cl, FSTARPU_VALUE, c_loc(i), FSTARPU_SZ_C_INT /))
        if (ret /= -22) error stop "insert_values: a missing terminator was accepted"
        call fstarpu_rs_clear_last_error()
        ret = fstarpu_task_insert_ret((/ record_cl, FSTARPU_PRIORITY /))
        if (ret /= -22) error stop "insert_values: a missing value was accepted"
        ! The cause is readable (this project's extension): the routine, the element, the kind.
        if (fstarpu_rs_last_error_code() /= -22) error stop "insert_values: last error code"
        if (index(fstarpu_rs_last_error(), "fstarpu_task_insert") /= 1) then
                write(*, '(a)') "last error: " // fstarpu_rs_last_error()
                error stop "insert_values: the last error does not name the routine"
        end if
        if (fstarpu_rs_last_error_kind() /= "InvalidArgument") error stop "insert_values: last error kind"
        call fstarpu_rs_clear_last_error()
        if (len(fstarpu_rs_last_error()) /= 0) error stop "insert_values: cleared last error"
        ret = fstarpu_task_insert_ret((/ values_cl, FSTARPU_R, bogus, c_null_ptr /))
        if (ret /= -22) error stop "insert_values: an unregistered handle was accepted"
        call fstarpu_task_wait_for_all()
        if (nruns /= 7) error stop "insert_values: a refused task ran"
        call fstarpu_data_unregister(dh)

        call fstarpu_codelet_free(values_cl)
        call fstarpu_codelet_free(record_cl)
        call fstarpu_shutdown()
        call fstarpu_conf_free(conf)
        write(*, '(a)') "insert_values: values, callback, tag, priorities, packed arguments, built task, refusals: ok"
end program insert_values
