! dynbuf: tasks with as many buffers as they like. A codelet with a variable number of
! buffers (fstarpu_codelet_set_variable_nbuffers) sums buffers 1.. into buffer 0, given
! as mode/handle pairs, then as a descriptor array (FSTARPU_DATA_MODE_ARRAY) of more
! buffers than STARPU_NMAXBUFS; a codelet declaring 12 buffers with
! fstarpu_codelet_add_buffer gets them as a handle array (FSTARPU_DATA_ARRAY).
module dynbuf_kernels
        use iso_c_binding
        use fstarpu_mod
        implicit none
contains
        ! Buffer 0 = the sum of buffers 1..nbuf-1 (variables); nbuf comes as a value.
        recursive subroutine sum_cpu(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                integer(c_int), target :: nbuf
                integer(c_int64_t), pointer :: x
                integer(c_int64_t) :: total
                integer :: b

                call fstarpu_unpack_arg(cl_args, (/ c_loc(nbuf) /))
                total = 0
                do b = 1, nbuf - 1
                        call c_f_pointer(fstarpu_variable_get_ptr(buffers, b), x)
                        total = total + x
                end do
                call c_f_pointer(fstarpu_variable_get_ptr(buffers, 0), x)
                x = total
        end subroutine sum_cpu
end module dynbuf_kernels

program dynbuf
        use iso_c_binding
        use fstarpu_mod
        use dynbuf_kernels
        implicit none

        integer, parameter :: nin = 11
        integer(c_int64_t), dimension(nin), target :: inputs
        integer(c_int64_t), dimension(3), target :: outputs
        type(c_ptr), dimension(nin) :: din
        type(c_ptr), dimension(3) :: dout
        type(c_ptr) :: var_cl, fixed_cl, descrs, handles
        integer(c_int), target :: nbuf, ndescr
        integer :: i, ret

        inputs = (/ (int(i, c_int64_t), i = 1, nin) /)
        outputs = 0

        ret = fstarpu_init(c_null_ptr)
        if (ret == -19) stop 77
        if (ret /= 0) error stop "fstarpu_init failed"

        var_cl = fstarpu_codelet_allocate()
        call fstarpu_codelet_add_cpu_func(var_cl, c_funloc(sum_cpu))
        call fstarpu_codelet_set_variable_nbuffers(var_cl)
        fixed_cl = fstarpu_codelet_allocate()
        call fstarpu_codelet_add_cpu_func(fixed_cl, c_funloc(sum_cpu))
        call fstarpu_codelet_add_buffer(fixed_cl, FSTARPU_W)
        do i = 1, nin
                call fstarpu_codelet_add_buffer(fixed_cl, FSTARPU_R)
        end do

        do i = 1, nin
                call fstarpu_variable_data_register(din(i), 0, c_loc(inputs(i)), c_sizeof(inputs(i)))
        end do
        do i = 1, 3
                call fstarpu_variable_data_register(dout(i), 0, c_loc(outputs(i)), c_sizeof(outputs(i)))
        end do

        ! 3 buffers, as pairs: 1 + 2.
        nbuf = 3
        call fstarpu_task_insert((/ var_cl, FSTARPU_W, dout(1), FSTARPU_R, din(1), FSTARPU_R, din(2), &
                FSTARPU_VALUE, c_loc(nbuf), FSTARPU_SZ_C_INT, c_null_ptr /))

        ! 1 + nin buffers as descriptors: 1 + ... + 11 = 66.
        ndescr = 1 + nin
        descrs = fstarpu_data_descr_array_alloc(ndescr)
        call fstarpu_data_descr_array_set(descrs, 0, dout(2), FSTARPU_W)
        do i = 1, nin
                call fstarpu_data_descr_array_set(descrs, i, din(i), FSTARPU_R)
        end do
        call fstarpu_task_insert((/ var_cl, FSTARPU_DATA_MODE_ARRAY, descrs, c_loc(ndescr), &
                FSTARPU_VALUE, c_loc(ndescr), FSTARPU_SZ_C_INT, c_null_ptr /))

        ! The codelet's own 12 modes, the handles in an array.
        handles = fstarpu_data_handle_array_alloc(ndescr)
        call fstarpu_data_handle_array_set(handles, 0, dout(3))
        do i = 1, nin
                call fstarpu_data_handle_array_set(handles, i, din(i))
        end do
        call fstarpu_task_insert((/ fixed_cl, FSTARPU_DATA_ARRAY, handles, c_loc(ndescr), &
                FSTARPU_VALUE, c_loc(ndescr), FSTARPU_SZ_C_INT, c_null_ptr /))

        call fstarpu_task_wait_for_all()
        call fstarpu_data_descr_array_free(descrs)
        call fstarpu_data_handle_array_free(handles)
        do i = 1, nin
                call fstarpu_data_unregister(din(i))
        end do
        do i = 1, 3
                call fstarpu_data_unregister(dout(i))
        end do
        call fstarpu_codelet_free(var_cl)
        call fstarpu_codelet_free(fixed_cl)
        call fstarpu_shutdown()

        if (any(outputs /= (/ 3_c_int64_t, 66_c_int64_t, 66_c_int64_t /))) then
                write(*, *) "dynbuf: sums", outputs, ", expected 3 66 66"
                error stop 1
        end if
        write(*, '(a)') "dynbuf: 3 buffers, 12 as descriptors, 12 as a handle array: ok"
end program dynbuf
