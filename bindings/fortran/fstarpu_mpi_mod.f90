! starpu-rs: StarPU-MPI's native Fortran module, with the routine names and arguments of
! StarPU 1.4's fstarpu_mpi_mod. Communicators are Fortran integers (MPI_COMM_WORLD is
! fstarpu_mpi_world_comm()); the routines taking one are bind(C) interfaces to helpers
! (bindings/fortran/src/mpi.rs) that convert it and call the C API in libstarpu, the
! others bind straight to the C API. Use it with fstarpu_mod:
!
!   gfortran fstarpu_mod.f90 fstarpu_mpi_mod.f90 app.f90 $(pkg-config --cflags --libs starpumpi-1.4)
!
! fstarpu_mpi_task_insert((/ c_loc(comm), cl, KEY, value..., C_NULL_PTR /)) takes the same
! keys as fstarpu_task_insert, plus FSTARPU_EXECUTE_ON_NODE, c_loc(rank),
! FSTARPU_EXECUTE_ON_DATA, handle and FSTARPU_NODE_SELECTION_POLICY, c_loc(policy).
!
! Beyond StarPU's module (extensions): fstarpu_mpi_task_insert_ret (returns the error code
! instead of stopping), fstarpu_mpi_irecv_detached (StarPU's module names it
! fstarpu_mpi_recv_detached, kept too), fstarpu_mpi_get_data_on_all_nodes_detached,
! fstarpu_mpi_node_selection_get/set_current_policy (StarPU's module binds names its
! library lacks), fstarpu_mpi_cached_receive / fstarpu_mpi_cached_send.
module fstarpu_mpi_mod
        use iso_c_binding
        use fstarpu_mod
        implicit none

        interface
                ! ---- point to point (communicator given as a Fortran integer) ----
                function fstarpu_mpi_isend(dh, mpi_req, dst, data_tag, mpi_comm) bind(C)
                        import :: c_ptr, c_int, c_int64_t
                        integer(c_int) :: fstarpu_mpi_isend
                        type(c_ptr), value, intent(in) :: dh, mpi_req
                        integer(c_int), value, intent(in) :: dst, mpi_comm
                        integer(c_int64_t), value, intent(in) :: data_tag
                end function fstarpu_mpi_isend

                function fstarpu_mpi_isend_prio(dh, mpi_req, dst, data_tag, prio, mpi_comm) bind(C)
                        import :: c_ptr, c_int, c_int64_t
                        integer(c_int) :: fstarpu_mpi_isend_prio
                        type(c_ptr), value, intent(in) :: dh, mpi_req
                        integer(c_int), value, intent(in) :: dst, prio, mpi_comm
                        integer(c_int64_t), value, intent(in) :: data_tag
                end function fstarpu_mpi_isend_prio

                function fstarpu_mpi_irecv(dh, mpi_req, src, data_tag, mpi_comm) bind(C)
                        import :: c_ptr, c_int, c_int64_t
                        integer(c_int) :: fstarpu_mpi_irecv
                        type(c_ptr), value, intent(in) :: dh, mpi_req
                        integer(c_int), value, intent(in) :: src, mpi_comm
                        integer(c_int64_t), value, intent(in) :: data_tag
                end function fstarpu_mpi_irecv

                function fstarpu_mpi_send(dh, dst, data_tag, mpi_comm) bind(C)
                        import :: c_ptr, c_int, c_int64_t
                        integer(c_int) :: fstarpu_mpi_send
                        type(c_ptr), value, intent(in) :: dh
                        integer(c_int), value, intent(in) :: dst, mpi_comm
                        integer(c_int64_t), value, intent(in) :: data_tag
                end function fstarpu_mpi_send

                function fstarpu_mpi_send_prio(dh, dst, data_tag, prio, mpi_comm) bind(C)
                        import :: c_ptr, c_int, c_int64_t
                        integer(c_int) :: fstarpu_mpi_send_prio
                        type(c_ptr), value, intent(in) :: dh
                        integer(c_int), value, intent(in) :: dst, prio, mpi_comm
                        integer(c_int64_t), value, intent(in) :: data_tag
                end function fstarpu_mpi_send_prio

                ! mpi_status: C_NULL_PTR (MPI_STATUS_IGNORE) or fstarpu_mpi_status_alloc().
                function fstarpu_mpi_recv(dh, src, data_tag, mpi_comm, mpi_status) bind(C)
                        import :: c_ptr, c_int, c_int64_t
                        integer(c_int) :: fstarpu_mpi_recv
                        type(c_ptr), value, intent(in) :: dh, mpi_status
                        integer(c_int), value, intent(in) :: src, mpi_comm
                        integer(c_int64_t), value, intent(in) :: data_tag
                end function fstarpu_mpi_recv

                function fstarpu_mpi_isend_detached(dh, dst, data_tag, mpi_comm, callback, arg) bind(C)
                        import :: c_ptr, c_funptr, c_int, c_int64_t
                        integer(c_int) :: fstarpu_mpi_isend_detached
                        type(c_ptr), value, intent(in) :: dh, arg
                        integer(c_int), value, intent(in) :: dst, mpi_comm
                        integer(c_int64_t), value, intent(in) :: data_tag
                        type(c_funptr), value, intent(in) :: callback
                end function fstarpu_mpi_isend_detached

                function fstarpu_mpi_isend_detached_prio(dh, dst, data_tag, prio, mpi_comm, callback, arg) bind(C)
                        import :: c_ptr, c_funptr, c_int, c_int64_t
                        integer(c_int) :: fstarpu_mpi_isend_detached_prio
                        type(c_ptr), value, intent(in) :: dh, arg
                        integer(c_int), value, intent(in) :: dst, prio, mpi_comm
                        integer(c_int64_t), value, intent(in) :: data_tag
                        type(c_funptr), value, intent(in) :: callback
                end function fstarpu_mpi_isend_detached_prio

                function fstarpu_mpi_irecv_detached(dh, src, data_tag, mpi_comm, callback, arg) bind(C)
                        import :: c_ptr, c_funptr, c_int, c_int64_t
                        integer(c_int) :: fstarpu_mpi_irecv_detached
                        type(c_ptr), value, intent(in) :: dh, arg
                        integer(c_int), value, intent(in) :: src, mpi_comm
                        integer(c_int64_t), value, intent(in) :: data_tag
                        type(c_funptr), value, intent(in) :: callback
                end function fstarpu_mpi_irecv_detached

                function fstarpu_mpi_recv_detached(dh, src, data_tag, mpi_comm, callback, arg) bind(C)
                        import :: c_ptr, c_funptr, c_int, c_int64_t
                        integer(c_int) :: fstarpu_mpi_recv_detached
                        type(c_ptr), value, intent(in) :: dh, arg
                        integer(c_int), value, intent(in) :: src, mpi_comm
                        integer(c_int64_t), value, intent(in) :: data_tag
                        type(c_funptr), value, intent(in) :: callback
                end function fstarpu_mpi_recv_detached

                function fstarpu_mpi_irecv_detached_sequential_consistency(dh, src, data_tag, mpi_comm, callback, arg, &
                                seq_const) bind(C)
                        import :: c_ptr, c_funptr, c_int, c_int64_t
                        integer(c_int) :: fstarpu_mpi_irecv_detached_sequential_consistency
                        type(c_ptr), value, intent(in) :: dh, arg
                        integer(c_int), value, intent(in) :: src, mpi_comm, seq_const
                        integer(c_int64_t), value, intent(in) :: data_tag
                        type(c_funptr), value, intent(in) :: callback
                end function fstarpu_mpi_irecv_detached_sequential_consistency

                function fstarpu_mpi_issend(dh, mpi_req, dst, data_tag, mpi_comm) bind(C)
                        import :: c_ptr, c_int, c_int64_t
                        integer(c_int) :: fstarpu_mpi_issend
                        type(c_ptr), value, intent(in) :: dh, mpi_req
                        integer(c_int), value, intent(in) :: dst, mpi_comm
                        integer(c_int64_t), value, intent(in) :: data_tag
                end function fstarpu_mpi_issend

                function fstarpu_mpi_issend_prio(dh, mpi_req, dst, data_tag, prio, mpi_comm) bind(C)
                        import :: c_ptr, c_int, c_int64_t
                        integer(c_int) :: fstarpu_mpi_issend_prio
                        type(c_ptr), value, intent(in) :: dh, mpi_req
                        integer(c_int), value, intent(in) :: dst, prio, mpi_comm
                        integer(c_int64_t), value, intent(in) :: data_tag
                end function fstarpu_mpi_issend_prio

                function fstarpu_mpi_issend_detached(dh, dst, data_tag, mpi_comm, callback, arg) bind(C)
                        import :: c_ptr, c_funptr, c_int, c_int64_t
                        integer(c_int) :: fstarpu_mpi_issend_detached
                        type(c_ptr), value, intent(in) :: dh, arg
                        integer(c_int), value, intent(in) :: dst, mpi_comm
                        integer(c_int64_t), value, intent(in) :: data_tag
                        type(c_funptr), value, intent(in) :: callback
                end function fstarpu_mpi_issend_detached

                function fstarpu_mpi_issend_detached_prio(dh, dst, data_tag, prio, mpi_comm, callback, arg) bind(C)
                        import :: c_ptr, c_funptr, c_int, c_int64_t
                        integer(c_int) :: fstarpu_mpi_issend_detached_prio
                        type(c_ptr), value, intent(in) :: dh, arg
                        integer(c_int), value, intent(in) :: dst, prio, mpi_comm
                        integer(c_int64_t), value, intent(in) :: data_tag
                        type(c_funptr), value, intent(in) :: callback
                end function fstarpu_mpi_issend_detached_prio

                ! req: from fstarpu_mpi_req_alloc(); st: C_NULL_PTR or fstarpu_mpi_status_alloc().
                function fstarpu_mpi_wait(req, st) bind(C, name="starpu_mpi_wait")
                        import :: c_ptr, c_int
                        integer(c_int) :: fstarpu_mpi_wait
                        type(c_ptr), value, intent(in) :: req, st
                end function fstarpu_mpi_wait

                function fstarpu_mpi_test(req, flag, st) bind(C, name="starpu_mpi_test")
                        import :: c_ptr, c_int
                        integer(c_int) :: fstarpu_mpi_test
                        type(c_ptr), value, intent(in) :: req, st
                        integer(c_int), intent(out) :: flag
                end function fstarpu_mpi_test

                function fstarpu_mpi_barrier(mpi_comm) bind(C)
                        import :: c_int
                        integer(c_int) :: fstarpu_mpi_barrier
                        integer(c_int), value, intent(in) :: mpi_comm
                end function fstarpu_mpi_barrier

                function fstarpu_mpi_wait_for_all(mpi_comm) bind(C)
                        import :: c_int
                        integer(c_int) :: fstarpu_mpi_wait_for_all
                        integer(c_int), value, intent(in) :: mpi_comm
                end function fstarpu_mpi_wait_for_all

                ! starpu_tag: the StarPU tag, by reference.
                function fstarpu_mpi_isend_detached_unlock_tag(dh, dst, data_tag, mpi_comm, starpu_tag) bind(C)
                        import :: c_ptr, c_int, c_int64_t
                        integer(c_int) :: fstarpu_mpi_isend_detached_unlock_tag
                        type(c_ptr), value, intent(in) :: dh
                        integer(c_int), value, intent(in) :: dst, mpi_comm
                        integer(c_int64_t), value, intent(in) :: data_tag
                        integer(c_int64_t), intent(in) :: starpu_tag
                end function fstarpu_mpi_isend_detached_unlock_tag

                function fstarpu_mpi_isend_detached_unlock_tag_prio(dh, dst, data_tag, prio, mpi_comm, starpu_tag) bind(C)
                        import :: c_ptr, c_int, c_int64_t
                        integer(c_int) :: fstarpu_mpi_isend_detached_unlock_tag_prio
                        type(c_ptr), value, intent(in) :: dh
                        integer(c_int), value, intent(in) :: dst, prio, mpi_comm
                        integer(c_int64_t), value, intent(in) :: data_tag
                        integer(c_int64_t), intent(in) :: starpu_tag
                end function fstarpu_mpi_isend_detached_unlock_tag_prio

                function fstarpu_mpi_recv_detached_unlock_tag(dh, src, data_tag, mpi_comm, starpu_tag) bind(C)
                        import :: c_ptr, c_int, c_int64_t
                        integer(c_int) :: fstarpu_mpi_recv_detached_unlock_tag
                        type(c_ptr), value, intent(in) :: dh
                        integer(c_int), value, intent(in) :: src, mpi_comm
                        integer(c_int64_t), value, intent(in) :: data_tag
                        integer(c_int64_t), intent(in) :: starpu_tag
                end function fstarpu_mpi_recv_detached_unlock_tag

                function fstarpu_mpi_isend_array_detached_unlock_tag(array_size, dhs, dsts, data_tags, mpi_comms, &
                                starpu_tag) bind(C)
                        import :: c_ptr, c_int, c_int64_t
                        integer(c_int) :: fstarpu_mpi_isend_array_detached_unlock_tag
                        integer(c_int), value, intent(in) :: array_size
                        type(c_ptr), intent(in) :: dhs(*)
                        integer(c_int), intent(in) :: dsts(*), mpi_comms(*)
                        integer(c_int64_t), intent(in) :: data_tags(*)
                        integer(c_int64_t), intent(in) :: starpu_tag
                end function fstarpu_mpi_isend_array_detached_unlock_tag

                function fstarpu_mpi_isend_array_detached_unlock_tag_prio(array_size, dhs, dsts, data_tags, prio, &
                                mpi_comms, starpu_tag) bind(C)
                        import :: c_ptr, c_int, c_int64_t
                        integer(c_int) :: fstarpu_mpi_isend_array_detached_unlock_tag_prio
                        integer(c_int), value, intent(in) :: array_size
                        type(c_ptr), intent(in) :: dhs(*)
                        integer(c_int), intent(in) :: dsts(*), prio(*), mpi_comms(*)
                        integer(c_int64_t), intent(in) :: data_tags(*)
                        integer(c_int64_t), intent(in) :: starpu_tag
                end function fstarpu_mpi_isend_array_detached_unlock_tag_prio

                function fstarpu_mpi_recv_array_detached_unlock_tag(array_size, dhs, srcs, data_tags, mpi_comms, &
                                starpu_tag) bind(C, name="fstarpu_mpi_irecv_array_detached_unlock_tag")
                        import :: c_ptr, c_int, c_int64_t
                        integer(c_int) :: fstarpu_mpi_recv_array_detached_unlock_tag
                        integer(c_int), value, intent(in) :: array_size
                        type(c_ptr), intent(in) :: dhs(*)
                        integer(c_int), intent(in) :: srcs(*), mpi_comms(*)
                        integer(c_int64_t), intent(in) :: data_tags(*)
                        integer(c_int64_t), intent(in) :: starpu_tag
                end function fstarpu_mpi_recv_array_detached_unlock_tag

                ! ---- data movements, reductions ----
                function fstarpu_mpi_get_data_on_node(mpi_comm, dh, node) bind(C)
                        import :: c_ptr, c_int
                        integer(c_int) :: fstarpu_mpi_get_data_on_node
                        integer(c_int), value, intent(in) :: mpi_comm, node
                        type(c_ptr), value, intent(in) :: dh
                end function fstarpu_mpi_get_data_on_node

                function fstarpu_mpi_get_data_on_node_detached(mpi_comm, dh, node, callback, arg) bind(C)
                        import :: c_ptr, c_funptr, c_int
                        integer(c_int) :: fstarpu_mpi_get_data_on_node_detached
                        integer(c_int), value, intent(in) :: mpi_comm, node
                        type(c_ptr), value, intent(in) :: dh, arg
                        type(c_funptr), value, intent(in) :: callback
                end function fstarpu_mpi_get_data_on_node_detached

                subroutine fstarpu_mpi_get_data_on_all_nodes_detached(mpi_comm, dh) bind(C)
                        import :: c_ptr, c_int
                        integer(c_int), value, intent(in) :: mpi_comm
                        type(c_ptr), value, intent(in) :: dh
                end subroutine fstarpu_mpi_get_data_on_all_nodes_detached

                subroutine fstarpu_mpi_redux_data(mpi_comm, dh) bind(C)
                        import :: c_ptr, c_int
                        integer(c_int), value, intent(in) :: mpi_comm
                        type(c_ptr), value, intent(in) :: dh
                end subroutine fstarpu_mpi_redux_data

                subroutine fstarpu_mpi_redux_data_prio(mpi_comm, dh, prio) bind(C)
                        import :: c_ptr, c_int
                        integer(c_int), value, intent(in) :: mpi_comm, prio
                        type(c_ptr), value, intent(in) :: dh
                end subroutine fstarpu_mpi_redux_data_prio

                subroutine fstarpu_mpi_redux_data_tree(mpi_comm, dh, arity) bind(C)
                        import :: c_ptr, c_int
                        integer(c_int), value, intent(in) :: mpi_comm, arity
                        type(c_ptr), value, intent(in) :: dh
                end subroutine fstarpu_mpi_redux_data_tree

                subroutine fstarpu_mpi_redux_data_prio_tree(mpi_comm, dh, prio, arity) bind(C)
                        import :: c_ptr, c_int
                        integer(c_int), value, intent(in) :: mpi_comm, prio, arity
                        type(c_ptr), value, intent(in) :: dh
                end subroutine fstarpu_mpi_redux_data_prio_tree

                function fstarpu_mpi_scatter_detached(dhs, cnt, root, mpi_comm, scallback, sarg, rcallback, rarg) bind(C)
                        import :: c_ptr, c_funptr, c_int
                        integer(c_int) :: fstarpu_mpi_scatter_detached
                        type(c_ptr), intent(in) :: dhs(*)
                        integer(c_int), value, intent(in) :: cnt, root, mpi_comm
                        type(c_funptr), value, intent(in) :: scallback, rcallback
                        type(c_ptr), value, intent(in) :: sarg, rarg
                end function fstarpu_mpi_scatter_detached

                function fstarpu_mpi_gather_detached(dhs, cnt, root, mpi_comm, scallback, sarg, rcallback, rarg) bind(C)
                        import :: c_ptr, c_funptr, c_int
                        integer(c_int) :: fstarpu_mpi_gather_detached
                        type(c_ptr), intent(in) :: dhs(*)
                        integer(c_int), value, intent(in) :: cnt, root, mpi_comm
                        type(c_funptr), value, intent(in) :: scallback, rcallback
                        type(c_ptr), value, intent(in) :: sarg, rarg
                end function fstarpu_mpi_gather_detached

                ! ---- the communication cache ----
                subroutine fstarpu_mpi_cache_flush(mpi_comm, dh) bind(C)
                        import :: c_ptr, c_int
                        integer(c_int), value, intent(in) :: mpi_comm
                        type(c_ptr), value, intent(in) :: dh
                end subroutine fstarpu_mpi_cache_flush

                subroutine fstarpu_mpi_cache_flush_all_data(mpi_comm) bind(C)
                        import :: c_int
                        integer(c_int), value, intent(in) :: mpi_comm
                end subroutine fstarpu_mpi_cache_flush_all_data

                function fstarpu_mpi_cache_is_enabled() bind(C, name="starpu_mpi_cache_is_enabled")
                        import :: c_int
                        integer(c_int) :: fstarpu_mpi_cache_is_enabled
                end function fstarpu_mpi_cache_is_enabled

                function fstarpu_mpi_cache_set(enabled) bind(C, name="starpu_mpi_cache_set")
                        import :: c_int
                        integer(c_int) :: fstarpu_mpi_cache_set
                        integer(c_int), value, intent(in) :: enabled
                end function fstarpu_mpi_cache_set

                function fstarpu_mpi_cached_receive(dh) bind(C, name="starpu_mpi_cached_receive")
                        import :: c_ptr, c_int
                        integer(c_int) :: fstarpu_mpi_cached_receive
                        type(c_ptr), value, intent(in) :: dh
                end function fstarpu_mpi_cached_receive

                function fstarpu_mpi_cached_send(dh, dest) bind(C, name="starpu_mpi_cached_send")
                        import :: c_ptr, c_int
                        integer(c_int) :: fstarpu_mpi_cached_send
                        type(c_ptr), value, intent(in) :: dh
                        integer(c_int), value, intent(in) :: dest
                end function fstarpu_mpi_cached_send

                ! ---- processes and communicators ----
                function fstarpu_mpi_comm_size(mpi_comm, sz) bind(C)
                        import :: c_int
                        integer(c_int) :: fstarpu_mpi_comm_size
                        integer(c_int), value, intent(in) :: mpi_comm
                        integer(c_int), intent(out) :: sz
                end function fstarpu_mpi_comm_size

                function fstarpu_mpi_comm_rank(mpi_comm, rank) bind(C)
                        import :: c_int
                        integer(c_int) :: fstarpu_mpi_comm_rank
                        integer(c_int), value, intent(in) :: mpi_comm
                        integer(c_int), intent(out) :: rank
                end function fstarpu_mpi_comm_rank

                function fstarpu_mpi_world_rank() bind(C, name="starpu_mpi_world_rank")
                        import :: c_int
                        integer(c_int) :: fstarpu_mpi_world_rank
                end function fstarpu_mpi_world_rank

                function fstarpu_mpi_world_size() bind(C, name="starpu_mpi_world_size")
                        import :: c_int
                        integer(c_int) :: fstarpu_mpi_world_size
                end function fstarpu_mpi_world_size

                function fstarpu_mpi_world_comm() bind(C)
                        import :: c_int
                        integer(c_int) :: fstarpu_mpi_world_comm
                end function fstarpu_mpi_world_comm

                function fstarpu_mpi_shutdown() bind(C, name="starpu_mpi_shutdown")
                        import :: c_int
                        integer(c_int) :: fstarpu_mpi_shutdown
                end function fstarpu_mpi_shutdown

                subroutine fstarpu_mpi_comm_stats_enable() bind(C)
                end subroutine fstarpu_mpi_comm_stats_enable

                subroutine fstarpu_mpi_comm_stats_disable() bind(C)
                end subroutine fstarpu_mpi_comm_stats_disable

                subroutine fstarpu_mpi_comm_stats_retrieve(comm_stats) bind(C, name="starpu_mpi_comm_stats_retrieve")
                        import :: c_size_t
                        integer(c_size_t), intent(out) :: comm_stats(*)
                end subroutine fstarpu_mpi_comm_stats_retrieve

                function fstarpu_mpi_get_communication_tag() bind(C, name="starpu_mpi_get_communication_tag")
                        import :: c_int
                        integer(c_int) :: fstarpu_mpi_get_communication_tag
                end function fstarpu_mpi_get_communication_tag

                subroutine fstarpu_mpi_set_communication_tag(tag) bind(C, name="starpu_mpi_set_communication_tag")
                        import :: c_int
                        integer(c_int), value, intent(in) :: tag
                end subroutine fstarpu_mpi_set_communication_tag

                ! ---- data registered with StarPU-MPI ----
                subroutine fstarpu_mpi_data_register_comm(dh, tag, rank, mpi_comm) bind(C)
                        import :: c_ptr, c_int, c_int64_t
                        type(c_ptr), value, intent(in) :: dh
                        integer(c_int64_t), value, intent(in) :: tag
                        integer(c_int), value, intent(in) :: rank, mpi_comm
                end subroutine fstarpu_mpi_data_register_comm

                subroutine fstarpu_mpi_data_register(dh, tag, rank) bind(C)
                        import :: c_ptr, c_int, c_int64_t
                        type(c_ptr), value, intent(in) :: dh
                        integer(c_int64_t), value, intent(in) :: tag
                        integer(c_int), value, intent(in) :: rank
                end subroutine fstarpu_mpi_data_register

                subroutine fstarpu_mpi_data_set_rank_comm(dh, rank, mpi_comm) bind(C)
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: dh
                        integer(c_int), value, intent(in) :: rank, mpi_comm
                end subroutine fstarpu_mpi_data_set_rank_comm

                subroutine fstarpu_mpi_data_set_rank(dh, rank) bind(C)
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: dh
                        integer(c_int), value, intent(in) :: rank
                end subroutine fstarpu_mpi_data_set_rank

                subroutine fstarpu_mpi_data_set_tag(dh, tag) bind(C, name="starpu_mpi_data_set_tag")
                        import :: c_ptr, c_int64_t
                        type(c_ptr), value, intent(in) :: dh
                        integer(c_int64_t), value, intent(in) :: tag
                end subroutine fstarpu_mpi_data_set_tag

                function fstarpu_mpi_data_get_rank(dh) bind(C, name="starpu_mpi_data_get_rank")
                        import :: c_ptr, c_int
                        integer(c_int) :: fstarpu_mpi_data_get_rank
                        type(c_ptr), value, intent(in) :: dh
                end function fstarpu_mpi_data_get_rank

                function fstarpu_mpi_data_get_tag(dh) bind(C, name="starpu_mpi_data_get_tag")
                        import :: c_ptr, c_int64_t
                        integer(c_int64_t) :: fstarpu_mpi_data_get_tag
                        type(c_ptr), value, intent(in) :: dh
                end function fstarpu_mpi_data_get_tag

                subroutine fstarpu_mpi_data_migrate(mpi_comm, dh, rank) bind(C)
                        import :: c_ptr, c_int
                        integer(c_int), value, intent(in) :: mpi_comm, rank
                        type(c_ptr), value, intent(in) :: dh
                end subroutine fstarpu_mpi_data_migrate

                function fstarpu_mpi_datatype_register(dh, alloc_func, free_func) bind(C, name="starpu_mpi_datatype_register")
                        import :: c_ptr, c_funptr, c_int
                        integer(c_int) :: fstarpu_mpi_datatype_register
                        type(c_ptr), value, intent(in) :: dh
                        type(c_funptr), value, intent(in) :: alloc_func, free_func
                end function fstarpu_mpi_datatype_register

                function fstarpu_mpi_datatype_unregister(dh) bind(C, name="starpu_mpi_datatype_unregister")
                        import :: c_ptr, c_int
                        integer(c_int) :: fstarpu_mpi_datatype_unregister
                        type(c_ptr), value, intent(in) :: dh
                end function fstarpu_mpi_datatype_unregister

                ! ---- node selection policies ----
                function fstarpu_mpi_node_selection_register_policy(policy_func) &
                                bind(C, name="starpu_mpi_node_selection_register_policy")
                        import :: c_funptr, c_int
                        integer(c_int) :: fstarpu_mpi_node_selection_register_policy
                        type(c_funptr), value, intent(in) :: policy_func
                end function fstarpu_mpi_node_selection_register_policy

                function fstarpu_mpi_node_selection_unregister_policy(policy) &
                                bind(C, name="starpu_mpi_node_selection_unregister_policy")
                        import :: c_int
                        integer(c_int) :: fstarpu_mpi_node_selection_unregister_policy
                        integer(c_int), value, intent(in) :: policy
                end function fstarpu_mpi_node_selection_unregister_policy

                function fstarpu_mpi_node_selection_get_current_policy() &
                                bind(C, name="starpu_mpi_node_selection_get_current_policy")
                        import :: c_int
                        integer(c_int) :: fstarpu_mpi_node_selection_get_current_policy
                end function fstarpu_mpi_node_selection_get_current_policy

                function fstarpu_mpi_node_selection_set_current_policy(policy) &
                                bind(C, name="starpu_mpi_node_selection_set_current_policy")
                        import :: c_int
                        integer(c_int) :: fstarpu_mpi_node_selection_set_current_policy
                        integer(c_int), value, intent(in) :: policy
                end function fstarpu_mpi_node_selection_set_current_policy

                ! ---- requests and statuses for the routines above ----
                function fstarpu_mpi_req_alloc() bind(C)
                        import :: c_ptr
                        type(c_ptr) :: fstarpu_mpi_req_alloc
                end function fstarpu_mpi_req_alloc

                subroutine fstarpu_mpi_req_free(req) bind(C)
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: req
                end subroutine fstarpu_mpi_req_free

                function fstarpu_mpi_status_alloc() bind(C)
                        import :: c_ptr
                        type(c_ptr) :: fstarpu_mpi_status_alloc
                end function fstarpu_mpi_status_alloc

                subroutine fstarpu_mpi_status_free(st) bind(C)
                        import :: c_ptr
                        type(c_ptr), value, intent(in) :: st
                end subroutine fstarpu_mpi_status_free
        end interface

        interface
                function c_mpi_task_insert_array(arglist, n) bind(C, name="fstarpu_mpi_task_insert_array")
                        import :: c_ptr, c_int
                        integer(c_int) :: c_mpi_task_insert_array
                        type(c_ptr), intent(in) :: arglist(*)
                        integer(c_int), value, intent(in) :: n
                end function c_mpi_task_insert_array

                function c_mpi_task_build_array(arglist, n) bind(C, name="fstarpu_mpi_task_build_array")
                        import :: c_ptr, c_int
                        type(c_ptr) :: c_mpi_task_build_array
                        type(c_ptr), intent(in) :: arglist(*)
                        integer(c_int), value, intent(in) :: n
                end function c_mpi_task_build_array

                function c_mpi_task_post_build_array(arglist, n) bind(C, name="fstarpu_mpi_task_post_build_array")
                        import :: c_ptr, c_int
                        integer(c_int) :: c_mpi_task_post_build_array
                        type(c_ptr), intent(in) :: arglist(*)
                        integer(c_int), value, intent(in) :: n
                end function c_mpi_task_post_build_array

                function c_mpi_init(initialize_mpi, comm_present, comm) bind(C, name="fstarpu_mpi_init_fcomm")
                        import :: c_int
                        integer(c_int) :: c_mpi_init
                        integer(c_int), value, intent(in) :: initialize_mpi, comm_present, comm
                end function c_mpi_init
        end interface

        private :: c_mpi_task_insert_array, c_mpi_task_build_array, c_mpi_task_post_build_array, c_mpi_init

contains
        ! StarPU-MPI over the running runtime (fstarpu_init first); MPI started too when
        ! initialize_mpi is 1; on mpi_comm, or MPI_COMM_WORLD when it is absent.
        function fstarpu_mpi_init(initialize_mpi, mpi_comm)
                integer(c_int) :: fstarpu_mpi_init
                integer(c_int), intent(in) :: initialize_mpi
                integer(c_int), optional, intent(in) :: mpi_comm
                if (present(mpi_comm)) then
                        fstarpu_mpi_init = c_mpi_init(initialize_mpi, 1_c_int, mpi_comm)
                else
                        fstarpu_mpi_init = c_mpi_init(initialize_mpi, 0_c_int, 0_c_int)
                end if
        end function fstarpu_mpi_init

        ! fstarpu_mpi_task_insert((/ c_loc(comm), cl, KEY, value..., C_NULL_PTR /)): inserts the
        ! task on every process; on an error (explained on stderr) stops the program, as
        ! StarPU's does. fstarpu_mpi_task_insert_ret returns the error code instead.
        subroutine fstarpu_mpi_task_insert(arglist)
                type(c_ptr), dimension(:), intent(in) :: arglist
                if (fstarpu_mpi_task_insert_ret(arglist) /= 0) then
                        error stop "fstarpu_mpi_task_insert: the task was not inserted (see the message above)"
                end if
        end subroutine fstarpu_mpi_task_insert

        subroutine fstarpu_mpi_insert_task(arglist)
                type(c_ptr), dimension(:), intent(in) :: arglist
                call fstarpu_mpi_task_insert(arglist)
        end subroutine fstarpu_mpi_insert_task

        function fstarpu_mpi_task_insert_ret(arglist)
                integer(c_int) :: fstarpu_mpi_task_insert_ret
                type(c_ptr), dimension(:), intent(in) :: arglist
                fstarpu_mpi_task_insert_ret = c_mpi_task_insert_array(arglist, int(size(arglist), c_int))
        end function fstarpu_mpi_task_insert_ret

        ! The task on the process that runs it (to submit), C_NULL_PTR on the others; then
        ! fstarpu_mpi_task_post_build with the same array, everywhere.
        function fstarpu_mpi_task_build(arglist)
                type(c_ptr) :: fstarpu_mpi_task_build
                type(c_ptr), dimension(:), intent(in) :: arglist
                fstarpu_mpi_task_build = c_mpi_task_build_array(arglist, int(size(arglist), c_int))
        end function fstarpu_mpi_task_build

        subroutine fstarpu_mpi_task_post_build(arglist)
                type(c_ptr), dimension(:), intent(in) :: arglist
                if (c_mpi_task_post_build_array(arglist, int(size(arglist), c_int)) /= 0) then
                        error stop "fstarpu_mpi_task_post_build failed (see the message above)"
                end if
        end subroutine fstarpu_mpi_task_post_build
end module fstarpu_mpi_mod
