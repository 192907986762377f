! cuda_codelet: codelets with CUDA implementations from Fortran
! (fstarpu_codelet_add_cuda_func, fstarpu_codelet_add_cuda_flags). Without a CUDA device
! (CI) a task only CUDA can run is refused with -ENODEV (-19) and nothing else changes;
! a codelet with a CPU and a CUDA implementation runs on a CPU. With one (not run where
! this was written), the CUDA-only task runs: its implementation only counts the calls
! (a Fortran routine cannot touch device memory).
module cuda_codelet_kernels
        use iso_c_binding
        use fstarpu_mod
        implicit none
        integer(c_int), save :: cuda_calls = 0
contains
        recursive subroutine add_one_cpu(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                real(c_double), dimension(:), pointer :: v
                integer :: n

                n = fstarpu_vector_get_nx(buffers, 0)
                call c_f_pointer(fstarpu_vector_get_ptr(buffers, 0), v, shape=[n])
                v = v + 1.0_c_double
        end subroutine add_one_cpu

        recursive subroutine count_cuda(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                cuda_calls = cuda_calls + 1
        end subroutine count_cuda
end module cuda_codelet_kernels

program cuda_codelet
        use iso_c_binding
        use fstarpu_mod
        use cuda_codelet_kernels
        implicit none

        integer, parameter :: n = 100
        real(c_double), dimension(:), allocatable, target :: v
        type(c_ptr) :: cuda_only, both, dh
        integer :: i, ret, ncuda

        allocate(v(n))
        v = (/ (real(i, c_double), i = 1, n) /)

        ret = fstarpu_init(c_null_ptr)
        if (ret == -19) stop 77
        if (ret /= 0) error stop "fstarpu_init failed"
        ncuda = fstarpu_cuda_worker_get_count()

        cuda_only = fstarpu_codelet_allocate()
        call fstarpu_codelet_set_name(cuda_only, c_char_"cuda_only"//c_null_char)
        call fstarpu_codelet_add_cuda_func(cuda_only, c_funloc(count_cuda))
        call fstarpu_codelet_add_cuda_flags(cuda_only, FSTARPU_CUDA_ASYNC)
        call fstarpu_codelet_add_buffer(cuda_only, FSTARPU_RW)

        both = fstarpu_codelet_allocate()
        call fstarpu_codelet_set_name(both, c_char_"cpu_and_cuda"//c_null_char)
        call fstarpu_codelet_add_cpu_func(both, c_funloc(add_one_cpu))
        call fstarpu_codelet_add_cuda_func(both, c_funloc(count_cuda))
        call fstarpu_codelet_add_buffer(both, FSTARPU_RW)
        ! With a CUDA device the CUDA implementation would not add: keep this one on CPUs there.
        if (ncuda > 0) call fstarpu_codelet_set_where(both, FSTARPU_CPU)

        call fstarpu_vector_data_register(dh, 0, c_loc(v), n, c_sizeof(v(1)))
        ret = fstarpu_task_insert_ret((/ cuda_only, FSTARPU_RW, dh, c_null_ptr /))
        if (ncuda == 0 .and. ret /= -19) then
                write(*, *) "cuda_codelet: a CUDA-only task without a CUDA worker returned", ret, &
                        ", expected -19 (-ENODEV)"
                error stop 1
        end if
        if (ncuda > 0 .and. ret /= 0) error stop "cuda_codelet: the CUDA-only task was refused"
        call fstarpu_task_insert((/ both, FSTARPU_RW, dh, c_null_ptr /))
        call fstarpu_task_wait_for_all()
        call fstarpu_data_unregister(dh)
        call fstarpu_codelet_free(cuda_only)
        call fstarpu_codelet_free(both)
        call fstarpu_shutdown()

        if (cuda_calls /= min(ncuda, 1)) then
                write(*, *) "cuda_codelet: the CUDA implementation ran", cuda_calls, "times"
                error stop 1
        end if
        do i = 1, n
                if (v(i) /= i + 1.0_c_double) then
                        write(*, *) "cuda_codelet: v(", i, ") =", v(i), ", expected", i + 1.0_c_double
                        error stop 1
                end if
        end do
        write(*, '(a,i0,a)') "cuda_codelet: ", ncuda, " CUDA worker(s); CUDA-only task refused or run, CPU one ran: ok"
end program cuda_codelet
