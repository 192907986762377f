! sparse_filters: the module's two preset sparse filters. A BCSR matrix of 2 x 2 blocks is
! cut by fstarpu_df_alloc_bcsr_filter_canonical_block into one dense matrix per stored
! block (the filter knows the count and the children's interface: no nchildren is set),
! each block scaled by its own task, then gathered back; a CSR matrix is cut by
! fstarpu_df_alloc_csr_filter_vertical_block into two bands of rows. StarPU's module has
! no sparse registration nor handle queries, so the program declares the few C calls it
! needs itself, as any Fortran program may. Every result is checked (error stop).
module sparse_filters_c
        use iso_c_binding
        implicit none
        interface
                subroutine starpu_bcsr_data_register(dh, home, nnz, nrow, nzval, colind, rowptr, &
                                firstentry, r, c, elemsize) bind(C)
                        import :: c_ptr, c_int, c_int32_t, c_size_t
                        type(c_ptr), intent(out) :: dh
                        integer(c_int), value, intent(in) :: home
                        integer(c_int32_t), value, intent(in) :: nnz, nrow
                        type(c_ptr), value, intent(in) :: nzval
                        integer(c_int32_t), intent(in) :: colind(*), rowptr(*)
                        integer(c_int32_t), value, intent(in) :: firstentry, r, c
                        integer(c_size_t), value, intent(in) :: elemsize
                end subroutine starpu_bcsr_data_register

                subroutine starpu_csr_data_register(dh, home, nnz, nrow, nzval, colind, rowptr, &
                                firstentry, elemsize) bind(C)
                        import :: c_ptr, c_int, c_int32_t, c_size_t
                        type(c_ptr), intent(out) :: dh
                        integer(c_int), value, intent(in) :: home
                        integer(c_int32_t), value, intent(in) :: nnz, nrow
                        type(c_ptr), value, intent(in) :: nzval
                        integer(c_int32_t), intent(in) :: colind(*), rowptr(*)
                        integer(c_int32_t), value, intent(in) :: firstentry
                        integer(c_size_t), value, intent(in) :: elemsize
                end subroutine starpu_csr_data_register

                function starpu_csr_get_nrow(dh) bind(C)
                        import :: c_ptr, c_int32_t
                        integer(c_int32_t) :: starpu_csr_get_nrow
                        type(c_ptr), value, intent(in) :: dh
                end function starpu_csr_get_nrow

                function starpu_csr_get_nnz(dh) bind(C)
                        import :: c_ptr, c_int32_t
                        integer(c_int32_t) :: starpu_csr_get_nnz
                        type(c_ptr), value, intent(in) :: dh
                end function starpu_csr_get_nnz

                function starpu_matrix_get_nx(dh) bind(C)
                        import :: c_ptr, c_int32_t
                        integer(c_int32_t) :: starpu_matrix_get_nx
                        type(c_ptr), value, intent(in) :: dh
                end function starpu_matrix_get_nx

                function starpu_matrix_get_ny(dh) bind(C)
                        import :: c_ptr, c_int32_t
                        integer(c_int32_t) :: starpu_matrix_get_ny
                        type(c_ptr), value, intent(in) :: dh
                end function starpu_matrix_get_ny
        end interface
end module sparse_filters_c

module sparse_filters_kernels
        use iso_c_binding
        use fstarpu_mod
        implicit none
contains
        ! Every element of the (dense) block times k: element (x, y) at y * ld + x.
        recursive subroutine scale_cpu(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                integer(c_int), dimension(:), pointer :: p
                integer(c_int), target :: k
                integer :: x, y, ld

                call fstarpu_unpack_arg(cl_args, (/ c_loc(k) /))
                ld = fstarpu_matrix_get_ld(buffers, 0)
                call c_f_pointer(fstarpu_matrix_get_ptr(buffers, 0), p, [ld * fstarpu_matrix_get_ny(buffers, 0)])
                do y = 0, fstarpu_matrix_get_ny(buffers, 0) - 1
                        do x = 1, fstarpu_matrix_get_nx(buffers, 0)
                                p(y * ld + x) = p(y * ld + x) * k
                        end do
                end do
        end subroutine scale_cpu
end module sparse_filters_kernels

program sparse_filters
        use iso_c_binding
        use fstarpu_mod
        use sparse_filters_c
        use sparse_filters_kernels
        implicit none

        ! BCSR: 2 block rows of 2 x 2 blocks, blocks (0,0), (0,1) and (1,1) stored.
        integer(c_int), target :: bvals(12)
        integer(c_int32_t) :: bcol(3) = (/ 0, 1, 1 /), brow(3) = (/ 0, 2, 3 /)
        ! CSR: 4 rows holding 1, 1, 3 and 1 entries.
        integer(c_int), target :: cvals(6)
        integer(c_int32_t) :: ccol(6) = (/ 0, 2, 0, 1, 3, 3 /), crow(5) = (/ 0, 1, 2, 5, 6 /)
        integer(c_int), target :: factors(3)
        type(c_ptr) :: cl, db, dc, filter, child
        integer(c_int) :: i, ret

        ret = fstarpu_init(c_null_ptr)
        if (ret == -19) stop 77
        if (ret /= 0) error stop "sparse_filters: fstarpu_init failed"
        cl = fstarpu_codelet_allocate()
        call fstarpu_codelet_add_cpu_func(cl, c_funloc(scale_cpu))
        call fstarpu_codelet_add_buffer(cl, FSTARPU_RW)

        bvals = (/ (i, i = 1, 12) /)
        call starpu_bcsr_data_register(db, 0, 3, 2, c_loc(bvals), bcol, brow, 0, 2, 2, c_sizeof(bvals(1)))
        filter = fstarpu_df_alloc_bcsr_filter_canonical_block()
        call fstarpu_data_partition(db, filter)
        call fstarpu_data_filter_free(filter)
        if (fstarpu_data_get_nb_children(db) /= 3) error stop "sparse_filters: one child per stored block expected"
        do i = 0, 2
                child = fstarpu_data_get_child(db, i)
                if (starpu_matrix_get_nx(child) /= 2 .or. starpu_matrix_get_ny(child) /= 2) &
                        error stop "sparse_filters: a child that is not a 2 x 2 matrix"
                factors(i + 1) = 10 * (i + 1)
                call fstarpu_task_insert((/ cl, FSTARPU_RW, child, &
                        FSTARPU_VALUE, c_loc(factors(i + 1)), FSTARPU_SZ_C_INT, c_null_ptr /))
        end do
        call fstarpu_task_wait_for_all()
        call fstarpu_data_unpartition(db, 0)
        call fstarpu_data_unregister(db)
        do i = 1, 12
                ! Block b (from 1) holds elements 4 b - 3 .. 4 b, scaled by 10 b.
                if (bvals(i) /= i * 10 * ((i - 1) / 4 + 1)) error stop "sparse_filters: a BCSR block badly scaled"
        end do

        cvals = (/ (i, i = 1, 6) /)
        call starpu_csr_data_register(dc, 0, 6, 4, c_loc(cvals), ccol, crow, 0, c_sizeof(cvals(1)))
        filter = fstarpu_df_alloc_csr_filter_vertical_block()
        call fstarpu_data_filter_set_nchildren(filter, 2)
        call fstarpu_data_partition(dc, filter)
        call fstarpu_data_filter_free(filter)
        if (fstarpu_data_get_nb_children(dc) /= 2) error stop "sparse_filters: two bands of rows expected"
        child = fstarpu_data_get_child(dc, 0)
        if (starpu_csr_get_nrow(child) /= 2 .or. starpu_csr_get_nnz(child) /= 2) &
                error stop "sparse_filters: rows 0-1 should hold 2 entries"
        child = fstarpu_data_get_child(dc, 1)
        if (starpu_csr_get_nrow(child) /= 2 .or. starpu_csr_get_nnz(child) /= 4) &
                error stop "sparse_filters: rows 2-3 should hold 4 entries"
        call fstarpu_data_unpartition(dc, 0)
        call fstarpu_data_unregister(dc)

        call fstarpu_codelet_free(cl)
        call fstarpu_shutdown()
end program sparse_filters
