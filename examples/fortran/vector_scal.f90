! vector_scal: scales a vector by a factor, the factor passed by value (FSTARPU_VALUE)
! and read back in the kernel with fstarpu_unpack_arg; checks every element.
module vector_scal_kernels
        use iso_c_binding
        use fstarpu_mod
        implicit none
contains
        recursive subroutine scal_cpu(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                real(c_double), dimension(:), pointer :: v
                real(c_double), target :: factor
                integer :: n

                call fstarpu_unpack_arg(cl_args, (/ c_loc(factor) /))
                n = fstarpu_vector_get_nx(buffers, 0)
                call c_f_pointer(fstarpu_vector_get_ptr(buffers, 0), v, shape=[n])
                v = v * factor
        end subroutine scal_cpu
end module vector_scal_kernels

program vector_scal
        use iso_c_binding
        use fstarpu_mod
        use vector_scal_kernels
        implicit none

        integer, parameter :: n = 2048
        real(c_double), dimension(:), allocatable, target :: v
        real(c_double), target :: factor
        type(c_ptr) :: cl, dh, model
        integer :: i, ret

        allocate(v(n))
        v = (/ (real(i, c_double), i = 1, n) /)

        ret = fstarpu_init(c_null_ptr)
        if (ret == -19) stop 77
        if (ret /= 0) error stop "fstarpu_init failed"

        model = fstarpu_perfmodel_allocate()
        call fstarpu_perfmodel_set_symbol(model, c_char_"fortran_vector_scal"//c_null_char)
        call fstarpu_perfmodel_set_type(model, FSTARPU_HISTORY_BASED)

        cl = fstarpu_codelet_allocate()
        call fstarpu_codelet_set_name(cl, c_char_"vector_scal"//c_null_char)
        call fstarpu_codelet_add_cpu_func(cl, c_funloc(scal_cpu))
        call fstarpu_codelet_set_where(cl, FSTARPU_CPU)
        call fstarpu_codelet_add_buffer(cl, FSTARPU_RW)
        call fstarpu_codelet_set_model(cl, model)

        call fstarpu_vector_data_register(dh, 0, c_loc(v), n, c_sizeof(v(1)))

        ! Three scalings in a row: the runtime orders them (RW after RW).
        factor = 2.0_c_double
        call fstarpu_task_insert((/ cl, FSTARPU_RW, dh, FSTARPU_VALUE, c_loc(factor), FSTARPU_SZ_C_DOUBLE, c_null_ptr /))
        factor = 3.0_c_double
        call fstarpu_task_insert((/ cl, FSTARPU_RW, dh, FSTARPU_VALUE, c_loc(factor), FSTARPU_SZ_C_DOUBLE, c_null_ptr /))
        factor = 0.5_c_double
        call fstarpu_task_insert((/ cl, FSTARPU_VALUE, c_loc(factor), FSTARPU_SZ_C_DOUBLE, FSTARPU_RW, dh, c_null_ptr /))
        call fstarpu_task_wait_for_all()
        call fstarpu_data_unregister(dh)

        call fstarpu_codelet_free(cl)
        call fstarpu_shutdown()
        call fstarpu_perfmodel_free(model)

        do i = 1, n
                if (v(i) /= 3.0_c_double * i) then
                        write(*, *) "vector_scal: v(", i, ") =", v(i), ", expected", 3.0_c_double * i
                        error stop 1
                end if
        end do
        write(*, '(a,i0,a)') "vector_scal: ", n, " elements scaled by 2, 3 and 0.5: ok"
end program vector_scal
