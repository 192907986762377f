! StarPU-MPI from Fortran (fstarpu_mpi_mod), on every process of mpirun -np N:
!  1. a token ring with blocking sends and receives (64-bit tags, a status), then one lap
!     with requests waited for, passing rank 0's value along;
!  2. owner computes with fstarpu_mpi_task_insert: x(r) owned by rank r, x(r) += x(r-1)
!     in rank order (a prefix sum), then a task run on rank 0 (FSTARPU_EXECUTE_ON_NODE)
!     doubling the last x, which goes back to its owner;
!  3. a reduction across processes: each rank adds rank+1 to a variable owned by rank 0.
! Stops with 1 on any wrong value.
module nf_mpi_kernels
        use iso_c_binding
        use fstarpu_mod
        implicit none
contains
        recursive subroutine add_cpu(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                integer(c_int64_t), pointer :: a, b
                call c_f_pointer(fstarpu_variable_get_ptr(buffers, 0), a)
                call c_f_pointer(fstarpu_variable_get_ptr(buffers, 1), b)
                a = a + b
        end subroutine add_cpu

        recursive subroutine twice_cpu(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                integer(c_int64_t), pointer :: a
                call c_f_pointer(fstarpu_variable_get_ptr(buffers, 0), a)
                a = 2 * a
        end subroutine twice_cpu

        recursive subroutine zero_cpu(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                integer(c_int64_t), pointer :: a
                call c_f_pointer(fstarpu_variable_get_ptr(buffers, 0), a)
                a = 0
        end subroutine zero_cpu

        recursive subroutine contribute_cpu(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                integer(c_int64_t), pointer :: a
                integer(c_int64_t), target :: k
                call fstarpu_unpack_arg(cl_args, (/ c_loc(k) /))
                call c_f_pointer(fstarpu_variable_get_ptr(buffers, 0), a)
                a = a + k
        end subroutine contribute_cpu
end module nf_mpi_kernels

program nf_mpi
        use iso_c_binding
        use fstarpu_mod
        use fstarpu_mpi_mod
        use nf_mpi_kernels
        implicit none

        type(c_ptr) :: conf, token_dh, st, req, add_cl, twice_cl, zero_cl, contribute_cl, sum_dh
        type(c_ptr), allocatable :: x_dh(:)
        integer(c_int64_t), allocatable, target :: x(:)
        integer(c_int64_t), target :: token, total, k
        integer(c_int), target :: world, zero
        integer(c_int) :: ret, rank, sz, lap, src, dst
        integer(c_int), target :: r
        integer(c_int64_t) :: tag, want
        integer :: failures = 0

        conf = fstarpu_conf_allocate()
        call fstarpu_conf_set_ncpu(conf, 1)
        ret = fstarpu_init(conf)
        if (ret /= 0) error stop "fstarpu_init failed"
        ret = fstarpu_mpi_init(1)
        if (ret /= 0) error stop "fstarpu_mpi_init failed"
        world = fstarpu_mpi_world_comm()
        ret = fstarpu_mpi_comm_rank(world, rank)
        ret = fstarpu_mpi_comm_size(world, sz)
        if (rank /= fstarpu_mpi_world_rank() .or. sz /= fstarpu_mpi_world_size()) error stop "rank or size"

        ! 1. the ring
        token = 0
        call fstarpu_variable_data_register(token_dh, 0, c_loc(token), c_sizeof(token))
        st = fstarpu_mpi_status_alloc()
        src = modulo(rank + sz - 1, sz)
        dst = modulo(rank + 1, sz)
        do lap = 1, 3
                ! The token's n-th hop travels under tag n * 2**32 (StarPU-MPI's tags are 64-bit).
                tag = ishft(int((lap - 1) * sz + rank, c_int64_t), 32)
                if (lap > 1 .or. rank > 0) then
                        ret = fstarpu_mpi_recv(token_dh, src, tag, world, st)
                        if (ret /= 0) error stop "fstarpu_mpi_recv failed"
                end if
                call fstarpu_data_acquire(token_dh, FSTARPU_RW)
                token = token + 1
                call fstarpu_data_release(token_dh)
                if (lap < 3 .or. rank < sz - 1) then
                        ret = fstarpu_mpi_send(token_dh, dst, tag + ishft(1_c_int64_t, 32), world)
                        if (ret /= 0) error stop "fstarpu_mpi_send failed"
                end if
        end do
        call fstarpu_mpi_status_free(st)
        ! One lap with requests.
        req = fstarpu_mpi_req_alloc()
        if (rank > 0) then
                ret = fstarpu_mpi_irecv(token_dh, req, src, 77_c_int64_t, world)
                ret = fstarpu_mpi_wait(req, C_NULL_PTR)
                if (ret /= 0) error stop "fstarpu_mpi_irecv / wait failed"
        end if
        if (rank < sz - 1) then
                ret = fstarpu_mpi_isend(token_dh, req, dst, 77_c_int64_t, world)
                ret = fstarpu_mpi_wait(req, C_NULL_PTR)
                if (ret /= 0) error stop "fstarpu_mpi_isend / wait failed"
        end if
        call fstarpu_mpi_req_free(req)
        call fstarpu_data_unregister(token_dh)
        ! The last lap carries rank 0's value (it received the token 2 * sz - 1 hops in).
        if (rank == sz - 1 .and. token /= 2 * sz + 1) then
                print *, "rank", rank, ": token", token, "expected", 2 * sz + 1
                failures = failures + 1
        end if

        ! 2. owner computes
        add_cl = fstarpu_codelet_allocate()
        call fstarpu_codelet_add_cpu_func(add_cl, c_funloc(add_cpu))
        call fstarpu_codelet_add_buffer(add_cl, FSTARPU_RW)
        call fstarpu_codelet_add_buffer(add_cl, FSTARPU_R)
        twice_cl = fstarpu_codelet_allocate()
        call fstarpu_codelet_add_cpu_func(twice_cl, c_funloc(twice_cpu))
        call fstarpu_codelet_add_buffer(twice_cl, FSTARPU_RW)
        allocate(x(0:sz-1), x_dh(0:sz-1))
        do r = 0, sz - 1
                x(r) = merge(int(r, c_int64_t), -1_c_int64_t, r == rank)
                if (r == rank) then
                        call fstarpu_variable_data_register(x_dh(r), 0, c_loc(x(r)), c_sizeof(x(r)))
                else
                        call fstarpu_variable_data_register(x_dh(r), -1, C_NULL_PTR, c_sizeof(x(r)))
                end if
                call fstarpu_mpi_data_register(x_dh(r), int(100 + r, c_int64_t), r)
                if (fstarpu_mpi_data_get_rank(x_dh(r)) /= r) error stop "fstarpu_mpi_data_get_rank"
        end do
        do r = 1, sz - 1
                call fstarpu_mpi_task_insert((/ c_loc(world), add_cl, FSTARPU_RW, x_dh(r), FSTARPU_R, x_dh(r - 1), &
                        C_NULL_PTR /))
        end do
        zero = 0
        call fstarpu_mpi_task_insert((/ c_loc(world), twice_cl, FSTARPU_RW, x_dh(sz - 1), &
                FSTARPU_EXECUTE_ON_NODE, c_loc(zero), C_NULL_PTR /))

        ! 3. the reduction
        zero_cl = fstarpu_codelet_allocate()
        call fstarpu_codelet_add_cpu_func(zero_cl, c_funloc(zero_cpu))
        call fstarpu_codelet_add_buffer(zero_cl, FSTARPU_W)
        contribute_cl = fstarpu_codelet_allocate()
        call fstarpu_codelet_add_cpu_func(contribute_cl, c_funloc(contribute_cpu))
        call fstarpu_codelet_add_buffer(contribute_cl, FSTARPU_REDUX)
        total = 1000
        if (rank == 0) then
                call fstarpu_variable_data_register(sum_dh, 0, c_loc(total), c_sizeof(total))
        else
                call fstarpu_variable_data_register(sum_dh, -1, C_NULL_PTR, c_sizeof(total))
        end if
        call fstarpu_mpi_data_register(sum_dh, 999_c_int64_t, 0)
        call fstarpu_data_set_reduction_methods(sum_dh, add_cl, zero_cl)
        do r = 0, sz - 1
                k = r + 1
                call fstarpu_mpi_task_insert((/ c_loc(world), contribute_cl, FSTARPU_REDUX, sum_dh, &
                        FSTARPU_VALUE, c_loc(k), FSTARPU_SZ_INT8, FSTARPU_EXECUTE_ON_NODE, c_loc(r), C_NULL_PTR /))
        end do
        call fstarpu_mpi_redux_data(world, sum_dh)
        ret = fstarpu_mpi_wait_for_all(world)

        call fstarpu_data_unregister(sum_dh)
        do r = 0, sz - 1
                call fstarpu_data_unregister(x_dh(r))
        end do
        want = int(rank, c_int64_t) * (rank + 1) / 2
        if (rank == sz - 1) want = 2 * want
        if (x(rank) /= want) then
                print *, "rank", rank, ": x", x(rank), "expected", want
                failures = failures + 1
        end if
        if (rank == 0 .and. total /= 1000 + int(sz, c_int64_t) * (sz + 1) / 2) then
                print *, "rank 0: reduced", total
                failures = failures + 1
        end if

        ret = fstarpu_mpi_shutdown()
        call fstarpu_codelet_free(add_cl)
        call fstarpu_codelet_free(twice_cl)
        call fstarpu_codelet_free(zero_cl)
        call fstarpu_codelet_free(contribute_cl)
        call fstarpu_conf_free(conf)
        call fstarpu_shutdown()
        if (failures > 0) stop 1
end program nf_mpi
