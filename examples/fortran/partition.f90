! partition: a vector cut in 4 blocks (fstarpu_data_partition), each block increased by
! its index in its own task; then a matrix cut in 2 x 3 tiles at once
! (fstarpu_data_map_filters: columns, then rows), each tile set to its coordinates.
! Both are gathered back (fstarpu_data_unpartition) and checked.
module partition_kernels
        use iso_c_binding
        use fstarpu_mod
        implicit none
contains
        recursive subroutine add_cpu(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                integer(c_int), dimension(:), pointer :: v
                integer(c_int), target :: k

                call fstarpu_unpack_arg(cl_args, (/ c_loc(k) /))
                call c_f_pointer(fstarpu_vector_get_ptr(buffers, 0), v, shape=[fstarpu_vector_get_nx(buffers, 0)])
                v = v + k
        end subroutine add_cpu

        recursive subroutine fill_cpu(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                integer(c_int), dimension(:,:), pointer :: m
                integer(c_int), target :: k
                integer :: nx, ny

                call fstarpu_unpack_arg(cl_args, (/ c_loc(k) /))
                nx = fstarpu_matrix_get_nx(buffers, 0)
                ny = fstarpu_matrix_get_ny(buffers, 0)
                call c_f_pointer(fstarpu_matrix_get_ptr(buffers, 0), m, shape=[fstarpu_matrix_get_ld(buffers, 0), ny])
                m(1:nx, 1:ny) = k
        end subroutine fill_cpu
end module partition_kernels

program partition
        use iso_c_binding
        use fstarpu_mod
        use partition_kernels
        implicit none

        integer, parameter :: n = 16, nparts = 4, mx = 6, my = 6
        integer(c_int), dimension(n), target :: v
        integer(c_int), dimension(mx, my), target :: m
        integer(c_int), target :: k
        type(c_ptr) :: add_cl, fill_cl, dv, dm, part, filters(2), sub
        integer :: i, j, ret

        v = (/ (i, i = 1, n) /)
        m = 0

        ret = fstarpu_init(c_null_ptr)
        if (ret == -19) stop 77
        if (ret /= 0) error stop "fstarpu_init failed"

        add_cl = fstarpu_codelet_allocate()
        call fstarpu_codelet_add_cpu_func(add_cl, c_funloc(add_cpu))
        call fstarpu_codelet_add_buffer(add_cl, FSTARPU_RW)
        fill_cl = fstarpu_codelet_allocate()
        call fstarpu_codelet_add_cpu_func(fill_cl, c_funloc(fill_cpu))
        call fstarpu_codelet_add_buffer(fill_cl, FSTARPU_W)

        ! The vector, in 4 blocks of 4.
        call fstarpu_vector_data_register(dv, 0, c_loc(v), n, c_sizeof(v(1)))
        part = fstarpu_df_alloc_vector_filter_block()
        call fstarpu_data_filter_set_nchildren(part, nparts)
        call fstarpu_data_partition(dv, part)
        if (fstarpu_data_get_nb_children(dv) /= nparts) error stop "partition: wrong number of children"
        do i = 0, nparts - 1
                k = 100 * (i + 1)
                ! Children count from 0; get_sub_data and get_child name the same one.
                sub = fstarpu_data_get_sub_data(dv, 1, (/ i /))
                if (.not. c_associated(sub, fstarpu_data_get_child(dv, i))) error stop "partition: children differ"
                call fstarpu_task_insert((/ add_cl, FSTARPU_RW, sub, FSTARPU_VALUE, c_loc(k), FSTARPU_SZ_C_INT, c_null_ptr /))
        end do
        call fstarpu_task_wait_for_all()
        call fstarpu_data_unpartition(dv, 0)
        call fstarpu_data_unregister(dv)
        call fstarpu_data_filter_free(part)

        ! The matrix: 2 blocks of 3 along x, then each in 3 blocks of 2 along y.
        call fstarpu_matrix_data_register(dm, 0, c_loc(m), mx, mx, my, c_sizeof(m(1, 1)))
        filters(1) = fstarpu_df_alloc_matrix_filter_block()
        call fstarpu_data_filter_set_nchildren(filters(1), 2)
        filters(2) = fstarpu_df_alloc_matrix_filter_vertical_block()
        call fstarpu_data_filter_set_nchildren(filters(2), 3)
        call fstarpu_data_map_filters(dm, 2, filters)
        do i = 0, 1
                do j = 0, 2
                        k = 10 * i + j
                        sub = fstarpu_data_get_sub_data(dm, 2, (/ i, j /))
                        call fstarpu_task_insert((/ fill_cl, FSTARPU_W, sub, FSTARPU_VALUE, c_loc(k), FSTARPU_SZ_C_INT, &
                                c_null_ptr /))
                end do
        end do
        call fstarpu_task_wait_for_all()
        call fstarpu_data_unpartition(dm, 0)
        call fstarpu_data_unregister(dm)
        call fstarpu_data_filter_free(filters(1))
        call fstarpu_data_filter_free(filters(2))

        call fstarpu_codelet_free(add_cl)
        call fstarpu_codelet_free(fill_cl)
        call fstarpu_shutdown()

        do i = 1, n
                if (v(i) /= i + 100 * ((i - 1) / (n / nparts) + 1)) then
                        write(*, *) "partition: v(", i, ") =", v(i)
                        error stop 1
                end if
        end do
        do j = 1, my
                do i = 1, mx
                        if (m(i, j) /= 10 * ((i - 1) / 3) + (j - 1) / 2) then
                                write(*, *) "partition: m(", i, ",", j, ") =", m(i, j)
                                error stop 1
                        end if
                end do
        end do
        write(*, '(a)') "partition: vector in 4 blocks, matrix in 2 x 3 tiles: ok"
end program partition
