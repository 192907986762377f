! matrix: a task reads a sub-matrix of A (registered with a leading dimension larger than
! its rows) and writes B = A + 10 * B through the matrix getters (ld, nx, ny); checks B.
module matrix_kernels
        use iso_c_binding
        use fstarpu_mod
        implicit none
contains
        recursive subroutine axpy_cpu(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                real(c_double), dimension(:,:), pointer :: a, b
                integer :: lda, ldb, nx, ny, i, j

                nx = fstarpu_matrix_get_nx(buffers, 0)
                ny = fstarpu_matrix_get_ny(buffers, 0)
                lda = fstarpu_matrix_get_ld(buffers, 0)
                ldb = fstarpu_matrix_get_ld(buffers, 1)
                if (fstarpu_matrix_get_nx(buffers, 1) /= nx .or. fstarpu_matrix_get_ny(buffers, 1) /= ny) then
                        error stop "matrix: A and B differ in shape"
                end if
                ! Fortran is column-major: StarPU's nx is the contiguous (first) dimension.
                call c_f_pointer(fstarpu_matrix_get_ptr(buffers, 0), a, shape=[lda, ny])
                call c_f_pointer(fstarpu_matrix_get_ptr(buffers, 1), b, shape=[ldb, ny])
                do j = 1, ny
                        do i = 1, nx
                                b(i, j) = a(i, j) + 10.0_c_double * b(i, j)
                        end do
                end do
        end subroutine axpy_cpu
end module matrix_kernels

program matrix
        use iso_c_binding
        use fstarpu_mod
        use matrix_kernels
        implicit none

        integer, parameter :: ld = 7, nx = 5, ny = 4
        real(c_double), dimension(ld, ny), target :: a
        real(c_double), dimension(nx, ny), target :: b
        type(c_ptr) :: cl, dha, dhb
        integer :: i, j, ret

        do j = 1, ny
                do i = 1, ld
                        a(i, j) = 100 * i + j
                end do
                do i = 1, nx
                        b(i, j) = i * j
                end do
        end do

        ret = fstarpu_init(c_null_ptr)
        if (ret == -19) stop 77
        if (ret /= 0) error stop "fstarpu_init failed"

        cl = fstarpu_codelet_allocate()
        call fstarpu_codelet_set_name(cl, c_char_"matrix_axpy"//c_null_char)
        call fstarpu_codelet_add_cpu_func(cl, c_funloc(axpy_cpu))
        call fstarpu_codelet_add_buffer(cl, FSTARPU_R)
        call fstarpu_codelet_add_buffer(cl, FSTARPU_RW)

        ! A: nx x ny elements of a ld x ny array (the rows beyond nx are not A's).
        call fstarpu_matrix_data_register(dha, 0, c_loc(a), ld, nx, ny, c_sizeof(a(1, 1)))
        call fstarpu_matrix_data_register(dhb, 0, c_loc(b), nx, nx, ny, c_sizeof(b(1, 1)))
        call fstarpu_insert_task((/ cl, FSTARPU_R, dha, FSTARPU_RW, dhb, c_null_ptr /))
        call fstarpu_task_wait_for_all()
        call fstarpu_data_unregister(dha)
        call fstarpu_data_unregister(dhb)
        call fstarpu_codelet_free(cl)
        call fstarpu_shutdown()

        do j = 1, ny
                do i = 1, nx
                        if (b(i, j) /= 100 * i + j + 10 * i * j) then
                                write(*, *) "matrix: b(", i, ",", j, ") =", b(i, j)
                                error stop 1
                        end if
                end do
        end do
        write(*, '(a,i0,a,i0,a,i0,a)') "matrix: ", nx, "x", ny, " (ld ", ld, ") updated: ok"
end program matrix
