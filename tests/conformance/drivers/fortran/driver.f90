! Fortran driver of the shared conformance suite.
!
!     driver PLAN             executes a plan written by the harness
!     driver --capabilities   prints what this driver can express
!
! The harness (tests/conformance/test_conformance.py) turns a scenario into a plan: one
! operation per line, `repeat` expanded, observations replaced by `clock`. This driver
! executes each operation through StarPU's native Fortran module, fstarpu_mod, with the
! kernels written in Fortran, and prints on stdout the operations' canonical output
! lines, the events of kernels and callbacks (`@ev TICK start|end|cb|report TASK ...`)
! and the clock (`@clock TICK`). Protocol: tests/conformance/README.md.
!
! StarPU's Fortran module cannot set a task's fields, nor return the error codes of
! fstarpu_task_insert, fstarpu_data_acquire and fstarpu_task_wait_for_all: the driver
! uses our module's extensions for those (fstarpu_task_build, fstarpu_task_set_detach,
! fstarpu_task_insert_ret, fstarpu_data_acquire_ret, fstarpu_task_wait_for_all_ret), so it
! builds against our library only.
!
! Kernels and callbacks run on worker threads: every stdout line is written whole under
! one lock (POSIX threads, through their C interface; Fortran has no mutex), which also
! guards the event clock, the tasks' started/called flags and the gates.
!
! Exit status: 0 when the plan ran to its end (StarPU errors are output, not failures),
! 2 for a malformed plan line ("PLAN:LINE: scenario error: ..." on stderr).
!
! Layout: output and events (driver_output), tables (driver_state), kernels
! (driver_kernels), operations and the plan reader (the program).

! ------------------------------------------------------------------------------------
! Output, events, plan errors
module driver_output
        use iso_c_binding
        use iso_fortran_env, only: output_unit, error_unit
        implicit none

        ! POSIX mutex and condition variable, as opaque storage (pthread_mutex_t is 40
        ! bytes, pthread_cond_t 48, on Linux).
        integer(c_int64_t), target, save :: lock_store(8), cond_store(8)
        integer(c_int64_t), save :: ev_clock = 0
        integer, parameter :: max_gates = 16
        logical, save :: gate_open(0:max_gates - 1) = .false.

        character(len=:), allocatable, save :: plan_path
        integer, save :: lineno = 0

        interface
                function pthread_mutex_init(m, attr) bind(C, name="pthread_mutex_init")
                        import :: c_ptr, c_int
                        integer(c_int) :: pthread_mutex_init
                        type(c_ptr), value :: m, attr
                end function pthread_mutex_init
                function pthread_mutex_lock(m) bind(C, name="pthread_mutex_lock")
                        import :: c_ptr, c_int
                        integer(c_int) :: pthread_mutex_lock
                        type(c_ptr), value :: m
                end function pthread_mutex_lock
                function pthread_mutex_unlock(m) bind(C, name="pthread_mutex_unlock")
                        import :: c_ptr, c_int
                        integer(c_int) :: pthread_mutex_unlock
                        type(c_ptr), value :: m
                end function pthread_mutex_unlock
                function pthread_cond_init(c, attr) bind(C, name="pthread_cond_init")
                        import :: c_ptr, c_int
                        integer(c_int) :: pthread_cond_init
                        type(c_ptr), value :: c, attr
                end function pthread_cond_init
                function pthread_cond_wait(c, m) bind(C, name="pthread_cond_wait")
                        import :: c_ptr, c_int
                        integer(c_int) :: pthread_cond_wait
                        type(c_ptr), value :: c, m
                end function pthread_cond_wait
                function pthread_cond_broadcast(c) bind(C, name="pthread_cond_broadcast")
                        import :: c_ptr, c_int
                        integer(c_int) :: pthread_cond_broadcast
                        type(c_ptr), value :: c
                end function pthread_cond_broadcast
        end interface

contains
        subroutine output_init()
                if (pthread_mutex_init(c_loc(lock_store), c_null_ptr) /= 0) error stop "pthread_mutex_init"
                if (pthread_cond_init(c_loc(cond_store), c_null_ptr) /= 0) error stop "pthread_cond_init"
        end subroutine output_init

        recursive subroutine lock()
                if (pthread_mutex_lock(c_loc(lock_store)) /= 0) error stop "pthread_mutex_lock"
        end subroutine lock

        recursive subroutine unlock()
                if (pthread_mutex_unlock(c_loc(lock_store)) /= 0) error stop "pthread_mutex_unlock"
        end subroutine unlock

        ! Waits for a broadcast; the caller holds the lock.
        recursive subroutine wait_locked()
                if (pthread_cond_wait(c_loc(cond_store), c_loc(lock_store)) /= 0) error stop "pthread_cond_wait"
        end subroutine wait_locked

        recursive subroutine broadcast_locked()
                if (pthread_cond_broadcast(c_loc(cond_store)) /= 0) error stop "pthread_cond_broadcast"
        end subroutine broadcast_locked

        ! Writes one whole line while the caller holds the lock, and flushes it (if the
        ! runtime crashes, the harness still sees every line written before).
        recursive subroutine put_line_locked(text)
                character(len=*), intent(in) :: text
                write(output_unit, '(a)') text
                flush(output_unit)
        end subroutine put_line_locked

        ! One whole output line, under the lock.
        recursive subroutine out(text)
                character(len=*), intent(in) :: text
                call lock()
                call put_line_locked(text)
                call unlock()
        end subroutine out

        recursive function itoa(i) result(s)
                integer(c_int64_t), intent(in) :: i
                character(len=:), allocatable :: s
                character(len=24) :: buf
                write(buf, '(i0)') i
                s = trim(buf)
        end function itoa

        ! A malformed plan line: say where (the harness maps PLAN:LINE to the scenario's
        ! line), exit 2.
        subroutine die(message)
                character(len=*), intent(in) :: message
                write(error_unit, '(a)') plan_path // ":" // itoa(int(lineno, c_int64_t)) // &
                        ": scenario error: " // message
                flush(error_unit)
                stop 2
        end subroutine die

        ! A StarPU return code as the driver prints it: the number itself (the harness
        ! names it).
        recursive function code_name(ret) result(s)
                integer(c_int), intent(in) :: ret
                character(len=:), allocatable :: s
                s = itoa(int(ret, c_int64_t))
        end function code_name

        ! The one error line every operation prints when StarPU returned non-zero.
        subroutine report_ret(verb, subject, ret)
                character(len=*), intent(in) :: verb, subject
                integer(c_int), intent(in) :: ret
                if (ret == 0) return
                if (len(subject) > 0) then
                        call out("error " // verb // " " // subject // " " // code_name(ret))
                else
                        call out("error " // verb // " " // code_name(ret))
                end if
        end subroutine report_ret
end module driver_output

! ------------------------------------------------------------------------------------
! Tables: codelets, data handles, task records
module driver_state
        use iso_c_binding
        use driver_output
        implicit none

        integer, parameter :: name_len = 64, max_data = 1024, max_codelets = 64, max_tasks = 8192
        integer, parameter :: max_bufs = 64
        integer, parameter :: kind_variable = 1, kind_vector = 2, kind_matrix = 3
        ! The argument of the reduction methods: the data's kind.
        integer, target :: redux_kinds(3) = [kind_variable, kind_vector, kind_matrix]
        character(len=8), parameter :: kind_names(3) = [character(len=8) :: "variable", "vector", "matrix"]

        type data_rec
                character(len=name_len) :: name = ""
                type(c_ptr) :: handle = c_null_ptr
                integer :: kind = 0
                integer :: nx = 0, ny = 0
                ! The application's buffer; not allocated for home=none and children.
                integer(c_int64_t), allocatable :: buffer(:)
                logical :: registered = .false.
                integer :: parent = 0
                integer :: nchildren = 0
        end type data_rec

        type codelet_rec
                character(len=name_len) :: name = ""
                type(c_ptr) :: cl = c_null_ptr
                integer :: kernel = 0
                logical :: variable = .false.
        end type codelet_rec

        type task_rec
                character(len=name_len) :: name = ""
                ! The name as a C string: the task keeps a pointer to it.
                character(kind=c_char, len=name_len + 1) :: cname = ""
                integer(c_int) :: id = 0
                type(c_ptr) :: task = c_null_ptr
                integer :: nbuffers = 0
                integer :: kinds(max_bufs) = 0
                integer(c_int) :: delay_ms = 0
                ! What the task's argument array points to (read when the task is made).
                integer(c_int64_t) :: values(2) = 0, tag = 0
                integer(c_int) :: prio = 0, one = 1
                ! ctx=X: the context's id (FSTARPU_SCHED_CTX reads it through c_loc).
                integer(c_int) :: ctx = 0
                ! trs=X: the transaction (FSTARPU_TRANSACTION takes the pointer itself).
                type(c_ptr) :: trs = c_null_ptr
                logical :: nodetach = .false.
                ! Under the lock: the kernel has started, the callback has run.
                logical :: started = .false., called = .false.
        end type task_rec

        ! Never reallocated: tasks and kernels hold pointers into these tables.
        ! Partition plans (asynchronous partitioning): plan P of H has children P.0 ...
        integer, parameter :: max_plans = 64, max_plan_children = 64
        type plan_rec
                character(len=name_len) :: name = ""
                integer :: n = 0
                integer :: first_child = 0
                type(c_ptr) :: children(max_plan_children) = c_null_ptr
        end type plan_rec

        ! Scheduling contexts by name; `global` is context 0. A deleted context keeps its
        ! name and id (a later ctx=X names a deleted context, which is bad input).
        ! STARPU_NMAX_SCHED_CTXS (starpu_config.h): fstarpu_sched_ctx_create's answer
        ! when no context is made; fstarpu_mod has no constant for it.
        integer, parameter :: max_ctxs = 16, nmax_sched_ctxs = 10
        character(len=name_len), save :: ctx_names(max_ctxs) = ""
        integer(c_int), save :: ctx_ids(max_ctxs) = 0
        integer, save :: nctxs = 0

        ! Transactions by name (fstarpu_transaction_*, this project's extension of the module).
        integer, parameter :: max_trss = 16
        character(len=name_len), save :: trs_names(max_trss) = ""
        type(c_ptr), save :: trs_ptrs(max_trss) = c_null_ptr
        integer, save :: ntrss = 0

        type(data_rec), target, save :: datas(max_data)
        type(plan_rec), target, save :: plans(max_plans)
        integer, save :: nplans = 0
        type(codelet_rec), target, save :: codelets(max_codelets)
        type(task_rec), target, save :: tasks(0:max_tasks - 1)
        integer, save :: ndatas = 0, ncodelets = 0, ntasks = 0
        logical, save :: initialized = .false.
        type(c_ptr), save :: conf = c_null_ptr
end module driver_state

! ------------------------------------------------------------------------------------
! Kernels: each reads its record id, delay and values (FSTARPU_VALUE, read back with
! fstarpu_unpack_arg), prints its start and end events, works on int64 elements.
module driver_kernels
        use iso_c_binding
        use fstarpu_mod
        use driver_output
        use driver_state
        implicit none

        integer, parameter :: nkernels = 14, k_spmd_index = 13
        ! clfail: nothing on the CPU; its OpenCL implementation fails (driver_opencl).
        character(len=16), parameter :: kernel_names(nkernels) = [character(len=16) :: &
                "noop", "set", "add", "scale", "affine", "axpy", "copy", "sum", &
                "try_acquire", "try_wait_all", "gate", "worker", "spmd", "clfail"]
        integer, parameter :: kernel_nvalues(nkernels) = [0, 1, 1, 1, 2, 1, 0, 0, 1, 0, 1, 0, 0, 0]

        ! A buffer's elements: element i (from 0) is p((i / nx) * ld + mod(i, nx) + 1).
        type view
                integer(c_int64_t), pointer :: p(:) => null()
                integer :: nx = 0, ny = 0, ld = 0
        end type view

contains
        ! One event of task id: takes the next tick and prints its line, both under the
        ! lock, and wakes `await`.
        recursive subroutine event(id, what, text)
                integer(c_int), intent(in) :: id
                character(len=*), intent(in) :: what, text
                character(len=:), allocatable :: line
                call lock()
                ev_clock = ev_clock + 1
                if (what == "start") tasks(id)%started = .true.
                if (what == "cb") tasks(id)%called = .true.
                line = "@ev " // itoa(ev_clock) // " " // what // " " // trim(tasks(id)%name)
                if (len(text) > 0) line = line // " " // text
                call put_line_locked(line)
                call broadcast_locked()
                call unlock()
        end subroutine event

        ! The record id, after the start event and the delay; -1 when the task carries no
        ! arguments (a task that should have been refused: the missing error line already
        ! fails the scenario).
        recursive function kernel_begin(cl_args, nvalues, values) result(id)
                type(c_ptr), value, intent(in) :: cl_args
                integer, intent(in) :: nvalues
                integer(c_int64_t), target, intent(out) :: values(2)
                integer(c_int) :: id
                integer(c_int), target :: rid, delay

                values = 0
                id = -1
                if (.not. c_associated(cl_args)) return
                rid = -1
                delay = 0
                select case (nvalues)
                case (0)
                        call fstarpu_unpack_arg(cl_args, [c_loc(rid), c_loc(delay)])
                case (1)
                        call fstarpu_unpack_arg(cl_args, [c_loc(rid), c_loc(delay), c_loc(values(1))])
                case default
                        call fstarpu_unpack_arg(cl_args, [c_loc(rid), c_loc(delay), c_loc(values(1)), c_loc(values(2))])
                end select
                if (rid < 0 .or. rid >= max_tasks) return
                id = rid
                call event(id, "start", "")
                if (delay > 0) call fstarpu_usleep(real(delay, c_float) * 1000.0_c_float)
        end function kernel_begin

        recursive subroutine kernel_end(id)
                integer(c_int), intent(in) :: id
                call event(id, "end", "")
        end subroutine kernel_end

        ! Buffer b (from 0) of the task, as its kind says.
        recursive function buffer_view(buffers, id, b) result(v)
                type(c_ptr), value, intent(in) :: buffers
                integer(c_int), intent(in) :: id
                integer, intent(in) :: b
                type(view) :: v
                v = view_of_kind(buffers, b, tasks(id)%kinds(b + 1))
        end function buffer_view

        ! Buffer b (from 0) as a data of that kind.
        recursive function view_of_kind(buffers, b, kind) result(v)
                type(c_ptr), value, intent(in) :: buffers
                integer, intent(in) :: b, kind
                type(view) :: v
                type(c_ptr) :: p
                integer(c_int) :: i

                i = int(b, c_int)
                select case (kind)
                case (kind_vector)
                        p = fstarpu_vector_get_ptr(buffers, i)
                        v%nx = fstarpu_vector_get_nx(buffers, i)
                        v%ny = 1
                        v%ld = v%nx
                case (kind_matrix)
                        p = fstarpu_matrix_get_ptr(buffers, i)
                        v%nx = fstarpu_matrix_get_nx(buffers, i)
                        v%ny = fstarpu_matrix_get_ny(buffers, i)
                        v%ld = fstarpu_matrix_get_ld(buffers, i)
                case default
                        p = fstarpu_variable_get_ptr(buffers, i)
                        v%nx = 1
                        v%ny = 1
                        v%ld = 1
                end select
                call c_f_pointer(p, v%p, [max(1, (v%ny - 1) * v%ld + v%nx)])
        end function view_of_kind

        recursive function count_of(v) result(n)
                type(view), intent(in) :: v
                integer :: n
                n = v%nx * v%ny
        end function count_of

        recursive function at(v, i) result(k)
                type(view), intent(in) :: v
                integer, intent(in) :: i
                integer :: k
                k = (i / v%nx) * v%ld + mod(i, v%nx) + 1
        end function at

        recursive subroutine k_noop(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                integer(c_int64_t) :: v(2)
                integer(c_int) :: id
                id = kernel_begin(cl_args, 0, v)
                if (id >= 0) call kernel_end(id)
        end subroutine k_noop

        ! b0 = f(b0) element-wise: set, add, scale, affine.
        recursive subroutine unary(buffers, cl_args, op, nvalues)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                character(len=*), intent(in) :: op
                integer, intent(in) :: nvalues
                integer(c_int64_t) :: v(2)
                integer(c_int) :: id
                type(view) :: b0
                integer :: i, k

                id = kernel_begin(cl_args, nvalues, v)
                if (id < 0) return
                b0 = buffer_view(buffers, id, 0)
                do i = 0, count_of(b0) - 1
                        k = at(b0, i)
                        select case (op)
                        case ("set")
                                b0%p(k) = v(1)
                        case ("add")
                                b0%p(k) = b0%p(k) + v(1)
                        case ("scale")
                                b0%p(k) = b0%p(k) * v(1)
                        case ("affine")
                                b0%p(k) = b0%p(k) * v(1) + v(2)
                        end select
                end do
                call kernel_end(id)
        end subroutine unary

        recursive subroutine k_set(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                call unary(buffers, cl_args, "set", 1)
        end subroutine k_set

        recursive subroutine k_add(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                call unary(buffers, cl_args, "add", 1)
        end subroutine k_add

        ! The reduction methods of `redux_methods` (a sum), outside any scenario task: no
        ! event. Their argument is the data's kind (an element of redux_kinds).
        recursive subroutine r_zero(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                integer, pointer :: kind
                type(view) :: b0
                integer :: i
                call c_f_pointer(cl_args, kind)
                b0 = view_of_kind(buffers, 0, kind)
                do i = 0, count_of(b0) - 1
                        b0%p(at(b0, i)) = 0
                end do
        end subroutine r_zero

        recursive subroutine r_sum(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                integer, pointer :: kind
                type(view) :: b0, b1
                integer :: i
                call c_f_pointer(cl_args, kind)
                b0 = view_of_kind(buffers, 0, kind)
                b1 = view_of_kind(buffers, 1, kind)
                do i = 0, count_of(b0) - 1
                        b0%p(at(b0, i)) = b0%p(at(b0, i)) + b1%p(at(b1, i))
                end do
        end subroutine r_sum

        recursive subroutine k_scale(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                call unary(buffers, cl_args, "scale", 1)
        end subroutine k_scale

        recursive subroutine k_affine(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                call unary(buffers, cl_args, "affine", 2)
        end subroutine k_affine

        ! b0[i] = K * b1[i] + (axpy ? b0[i] : 0)
        recursive subroutine binary(buffers, cl_args, axpy)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                logical, intent(in) :: axpy
                integer(c_int64_t) :: v(2)
                integer(c_int) :: id
                type(view) :: b0, b1
                integer :: i

                id = kernel_begin(cl_args, merge(1, 0, axpy), v)
                if (id < 0) return
                b0 = buffer_view(buffers, id, 0)
                b1 = buffer_view(buffers, id, 1)
                if (count_of(b0) /= count_of(b1)) then
                        call event(id, "report", "shape " // code_name(-22_c_int))
                else
                        do i = 0, count_of(b0) - 1
                                if (axpy) then
                                        b0%p(at(b0, i)) = b0%p(at(b0, i)) + v(1) * b1%p(at(b1, i))
                                else
                                        b0%p(at(b0, i)) = b1%p(at(b1, i))
                                end if
                        end do
                end if
                call kernel_end(id)
        end subroutine binary

        recursive subroutine k_axpy(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                call binary(buffers, cl_args, .true.)
        end subroutine k_axpy

        recursive subroutine k_copy(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                call binary(buffers, cl_args, .false.)
        end subroutine k_copy

        ! Every element of b0 = the sum of every element of b1..bn-1 (n from the record, so
        ! this works for codelets with a variable number of buffers).
        recursive subroutine k_sum(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                integer(c_int64_t) :: v(2), total
                integer(c_int) :: id
                type(view) :: b
                integer :: i, j

                id = kernel_begin(cl_args, 0, v)
                if (id < 0) return
                total = 0
                do j = 1, tasks(id)%nbuffers - 1
                        b = buffer_view(buffers, id, j)
                        do i = 0, count_of(b) - 1
                                total = total + b%p(at(b, i))
                        end do
                end do
                b = buffer_view(buffers, id, 0)
                do i = 0, count_of(b) - 1
                        b%p(at(b, i)) = total
                end do
                call kernel_end(id)
        end subroutine k_sum

        ! A blocking call from inside a task must be refused (StarPU: -EDEADLK), not hang.
        recursive subroutine k_try_acquire(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                integer(c_int64_t) :: v(2)
                integer(c_int) :: id, ret
                type(c_ptr) :: h

                id = kernel_begin(cl_args, 1, v)
                if (id < 0) return
                if (v(1) >= 1 .and. v(1) <= max_data) then
                        h = datas(v(1))%handle
                        ret = fstarpu_data_acquire_ret(h, FSTARPU_R)
                        if (ret == 0) call fstarpu_data_release(h)
                        call event(id, "report", "acquire " // code_name(ret))
                end if
                call kernel_end(id)
        end subroutine k_try_acquire

        recursive subroutine k_try_wait_all(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                call reporting_kernel(cl_args, "wait_all")
        end subroutine k_try_wait_all

        ! Records the worker it runs on ("worker N"): where a context placed the task.
        recursive subroutine k_worker(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                call reporting_kernel(cl_args, "worker")
        end subroutine k_worker

        ! A kernel without values whose work is its report: "wait_all CODE" (what
        ! fstarpu_task_wait_for_all_ret answers inside a task) or "worker ID".
        recursive subroutine reporting_kernel(cl_args, what)
                type(c_ptr), value, intent(in) :: cl_args
                character(len=*), intent(in) :: what
                character(len=:), allocatable :: text
                integer(c_int64_t) :: v(2)
                integer(c_int) :: id

                id = kernel_begin(cl_args, 0, v)
                if (id < 0) return
                if (what == "worker") then
                        text = "worker " // itoa(int(fstarpu_worker_get_id(), c_int64_t))
                else
                        text = "wait_all " // code_name(fstarpu_task_wait_for_all_ret())
                end if
                call event(id, "report", text)
                call kernel_end(id)
        end subroutine reporting_kernel

        ! Holds its worker until the scenario opens the gate: a busy worker without timing.
        recursive subroutine k_gate(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                integer(c_int64_t) :: v(2)
                integer(c_int) :: id
                integer :: g

                id = kernel_begin(cl_args, 1, v)
                if (id < 0) return
                g = int(v(1))
                call lock()
                do while (g >= 0 .and. g < max_gates)
                        if (gate_open(g)) exit
                        call wait_locked()
                end do
                call unlock()
                call kernel_end(id)
        end subroutine k_gate

        ! An SPMD codelet: rank r of a team of s sets every element of its block of vector
        ! b0 to 10 s + r (b0 cut in s contiguous blocks, the first n mod s ones one
        ! longer). Only rank 0 prints the task's events: they are the task's, not each
        ! rank's.
        recursive subroutine k_spmd(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                integer(c_int64_t) :: v(2)
                integer(c_int64_t), pointer :: p(:)
                integer(c_int) :: id, size, rank, n, first, len
                integer :: i

                size = fstarpu_combined_worker_get_size()
                rank = fstarpu_combined_worker_get_rank()
                id = -1
                if (rank == 0) then
                        id = kernel_begin(cl_args, 0, v)
                        if (id < 0) return
                end if
                n = fstarpu_vector_get_nx(buffers, 0)
                call c_f_pointer(fstarpu_vector_get_ptr(buffers, 0), p, [n])
                first = rank * (n / size) + min(rank, mod(n, size))
                len = n / size
                if (rank < mod(n, size)) len = len + 1
                do i = first + 1, first + len
                        p(i) = 10 * size + rank
                end do
                if (id >= 0) call kernel_end(id)
        end subroutine k_spmd

        recursive subroutine record_callback(arg) bind(C)
                type(c_ptr), value, intent(in) :: arg
                call event(int(transfer(arg, 0_c_intptr_t), c_int), "cb", "")
        end subroutine record_callback

        ! The kernel table's functions, by index.
        function kernel_func(k) result(f)
                integer, intent(in) :: k
                type(c_funptr) :: f
                select case (k)
                case (1)
                        f = c_funloc(k_noop)
                case (2)
                        f = c_funloc(k_set)
                case (3)
                        f = c_funloc(k_add)
                case (4)
                        f = c_funloc(k_scale)
                case (5)
                        f = c_funloc(k_affine)
                case (6)
                        f = c_funloc(k_axpy)
                case (7)
                        f = c_funloc(k_copy)
                case (8)
                        f = c_funloc(k_sum)
                case (9)
                        f = c_funloc(k_try_acquire)
                case (10)
                        f = c_funloc(k_try_wait_all)
                case (11)
                        f = c_funloc(k_gate)
                case (12)
                        f = c_funloc(k_worker)
                case (14)
                        f = c_funloc(k_noop)
                case default
                        f = c_funloc(k_spmd)
                end select
        end function kernel_func
        ! A transaction's start function: the epoch's argument says whether it runs
        ! (yes: 1, no: 0).
        recursive function trs_start(buffer, arg) result(run) bind(C)
                type(c_ptr), value, intent(in) :: buffer, arg
                integer(c_int) :: run
                run = int(transfer(arg, 0_c_intptr_t), c_int)
                if (c_associated(buffer)) run = run
        end function trs_start
end module driver_kernels

! ------------------------------------------------------------------------------------
! OpenCL implementations of the kernels (codelet ... impl=opencl), added to the codelet
! with fstarpu_codelet_add_opencl_func: one OpenCL kernel applies the operation to the
! device copies of the buffers (read through fstarpu_*_get_dev_handle / _get_offset),
! walking a matrix by its ld; the events are printed around it on the worker's thread.
! clfail builds a program that does not compile and reports it as STARPU_OPENCL_REPORT_ERROR
! does in C (the task fails). StarPU's OpenCL C calls and the three OpenCL calls a kernel
! makes are declared here: no Fortran module has them.
module driver_opencl
        use iso_c_binding
        use fstarpu_mod
        use driver_output
        use driver_state
        use driver_kernels
        implicit none
        private
        public :: cl_load, cl_unload, opencl_func, set_env

        interface
                function load_from_string(src, programs, options) &
                                bind(C, name="starpu_opencl_load_opencl_from_string")
                        import :: c_ptr, c_char, c_int
                        character(kind=c_char), intent(in) :: src(*)
                        type(c_ptr), value, intent(in) :: programs, options
                        integer(c_int) :: load_from_string
                end function load_from_string

                function unload(programs) bind(C, name="starpu_opencl_unload_opencl")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: programs
                        integer(c_int) :: unload
                end function unload

                function load_kernel(kernel, queue, programs, kname, devid) &
                                bind(C, name="starpu_opencl_load_kernel")
                        import :: c_ptr, c_char, c_int
                        type(c_ptr), value, intent(in) :: kernel, queue, programs
                        character(kind=c_char), intent(in) :: kname(*)
                        integer(c_int), value, intent(in) :: devid
                        integer(c_int) :: load_kernel
                end function load_kernel

                function release_kernel(kernel) bind(C, name="starpu_opencl_release_kernel")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: kernel
                        integer(c_int) :: release_kernel
                end function release_kernel

                subroutine display_error(func, file, line, msg, status) &
                                bind(C, name="starpu_opencl_display_error")
                        import :: c_char, c_int, c_ptr
                        character(kind=c_char), intent(in) :: func(*), file(*)
                        integer(c_int), value, intent(in) :: line, status
                        type(c_ptr), value, intent(in) :: msg
                end subroutine display_error

                ! What C's STARPU_OPENCL_REPORT_ERROR calls after the message.
                function kernel_failed(status) bind(C, name="_starpu_opencl_kernel_failed")
                        import :: c_int
                        integer(c_int), value, intent(in) :: status
                        integer(c_int) :: kernel_failed
                end function kernel_failed

                function cl_set_kernel_arg(kernel, idx, size, value) bind(C, name="clSetKernelArg")
                        import :: c_ptr, c_int, c_size_t
                        type(c_ptr), value, intent(in) :: kernel, value
                        integer(c_int), value, intent(in) :: idx
                        integer(c_size_t), value, intent(in) :: size
                        integer(c_int) :: cl_set_kernel_arg
                end function cl_set_kernel_arg

                function cl_enqueue_nd_range_kernel(queue, kernel, dims, offset, global, local, &
                                nwait, wait, event) bind(C, name="clEnqueueNDRangeKernel")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: queue, kernel, offset, global, local, wait, event
                        integer(c_int), value, intent(in) :: dims, nwait
                        integer(c_int) :: cl_enqueue_nd_range_kernel
                end function cl_enqueue_nd_range_kernel

                function cl_finish(queue) bind(C, name="clFinish")
                        import :: c_ptr, c_int
                        type(c_ptr), value, intent(in) :: queue
                        integer(c_int) :: cl_finish
                end function cl_finish

                function c_setenv(name, value, overwrite) bind(C, name="setenv")
                        import :: c_char, c_int
                        character(kind=c_char), intent(in) :: name(*), value(*)
                        integer(c_int), value, intent(in) :: overwrite
                        integer(c_int) :: c_setenv
                end function c_setenv
        end interface

        character(len=*), parameter :: source = &
                "enum { SET, ADD, SCALE, AFFINE, AXPY, COPY }; " // &
                "__kernel void apply(int op, __global long *b0, unsigned off0, unsigned nx0, " // &
                "unsigned ld0, __global const long *b1, unsigned off1, unsigned nx1, unsigned ld1, " // &
                "long k0, long k1, unsigned n) { " // &
                "const size_t i = get_global_id(0); if (i >= n) return; " // &
                "__global long *x = b0 + off0 + (i / nx0) * ld0 + i % nx0; " // &
                "const long y = b1[off1 + (i / nx1) * ld1 + i % nx1]; " // &
                "switch (op) { case SET: *x = k0; break; case ADD: *x += k0; break; " // &
                "case SCALE: *x *= k0; break; case AFFINE: *x = *x * k0 + k1; break; " // &
                "case AXPY: *x += k0 * y; break; case COPY: *x = y; break; } }"

        ! struct starpu_opencl_program: one cl_program per device (STARPU_MAXOPENCLDEVS).
        type(c_ptr), target :: programs(8) = c_null_ptr
        logical :: loaded = .false.
        integer(c_int), parameter :: cl_build_program_failure = -11

contains
        ! Builds the kernels once OpenCL workers exist (after init).
        subroutine cl_load()
                if (loaded .or. fstarpu_opencl_worker_get_count() == 0) return
                loaded = load_from_string(source // c_null_char, c_loc(programs), c_null_ptr) == 0
        end subroutine cl_load

        ! setenv(3): a StarPU variable the plan sets before init.
        subroutine set_env(name, value)
                character(len=*), intent(in) :: name, value
                integer(c_int) :: ret
                ret = c_setenv(name // c_null_char, value // c_null_char, 1_c_int)
        end subroutine set_env

        subroutine cl_unload()
                integer(c_int) :: ret
                if (loaded) ret = unload(c_loc(programs))
                loaded = .false.
        end subroutine cl_unload

        ! Buffer b (from 0) on the device: cl_mem, offset, row length, ld, count (elements).
        recursive subroutine device_view(buffers, b, kind, mem, off, nx, ld, n)
                type(c_ptr), value, intent(in) :: buffers
                integer, intent(in) :: b, kind
                type(c_ptr), intent(out) :: mem
                integer(c_int), intent(out) :: off, nx, ld, n
                integer(c_int) :: i
                i = int(b, c_int)
                select case (kind)
                case (kind_vector)
                        mem = fstarpu_vector_get_dev_handle(buffers, i)
                        off = int(fstarpu_vector_get_offset(buffers, i) / 8, c_int)
                        nx = fstarpu_vector_get_nx(buffers, i)
                        ld = nx
                        n = nx
                case (kind_matrix)
                        mem = fstarpu_matrix_get_dev_handle(buffers, i)
                        off = int(fstarpu_matrix_get_offset(buffers, i) / 8, c_int)
                        nx = fstarpu_matrix_get_nx(buffers, i)
                        ld = fstarpu_matrix_get_ld(buffers, i)
                        n = nx * fstarpu_matrix_get_ny(buffers, i)
                case default
                        mem = fstarpu_variable_get_dev_handle(buffers, i)
                        off = int(fstarpu_variable_get_offset(buffers, i) / 8, c_int)
                        nx = 1
                        ld = 1
                        n = 1
                end select
        end subroutine device_view

        ! Sets kernel argument idx to the `size` bytes at `value`; the status or'ed in err.
        recursive subroutine arg(kernel, idx, size, value, err)
                type(c_ptr), value, intent(in) :: kernel, value
                integer(c_int), intent(inout) :: idx, err
                integer, intent(in) :: size
                err = ior(err, cl_set_kernel_arg(kernel, idx, int(size, c_size_t), value))
                idx = idx + 1
        end subroutine arg

        ! C's STARPU_OPENCL_REPORT_ERROR: the message, then the task fails.
        recursive subroutine report_error(status)
                integer(c_int), intent(in) :: status
                call display_error("driver_opencl" // c_null_char, "driver.f90" // c_null_char, &
                        0_c_int, c_null_ptr, status)
                if (kernel_failed(status) == 0) error stop "an OpenCL error outside a kernel"
        end subroutine report_error

        ! Runs `apply` with op on buffer 0 (and 1 for axpy and copy) on the device.
        recursive subroutine run_on_device(buffers, cl_args, op, nvalues, binary)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                integer(c_int), intent(in) :: op
                integer, intent(in) :: nvalues
                logical, intent(in) :: binary
                integer(c_int64_t), target :: v(2)
                integer(c_int), target :: iop, off0, nx0, ld0, n0, off1, nx1, ld1, n1
                type(c_ptr), target :: mem0, mem1, kernel, queue
                integer(c_size_t), target :: global
                integer(c_int) :: id, err, idx, devid

                id = kernel_begin(cl_args, nvalues, v)
                if (id < 0) return
                call device_view(buffers, 0, tasks(id)%kinds(1), mem0, off0, nx0, ld0, n0)
                if (binary) then
                        call device_view(buffers, 1, tasks(id)%kinds(2), mem1, off1, nx1, ld1, n1)
                else
                        mem1 = mem0
                        off1 = off0
                        nx1 = nx0
                        ld1 = ld0
                        n1 = n0
                end if
                devid = fstarpu_worker_get_devid(fstarpu_worker_get_id())
                err = load_kernel(c_loc(kernel), c_loc(queue), c_loc(programs), "apply" // c_null_char, devid)
                if (err /= 0) then
                        call kernel_end(id)
                        call report_error(err)
                        return
                end if
                iop = op
                idx = 0
                call arg(kernel, idx, 4, c_loc(iop), err)
                call arg(kernel, idx, 8, c_loc(mem0), err)
                call arg(kernel, idx, 4, c_loc(off0), err)
                call arg(kernel, idx, 4, c_loc(nx0), err)
                call arg(kernel, idx, 4, c_loc(ld0), err)
                call arg(kernel, idx, 8, c_loc(mem1), err)
                call arg(kernel, idx, 4, c_loc(off1), err)
                call arg(kernel, idx, 4, c_loc(nx1), err)
                call arg(kernel, idx, 4, c_loc(ld1), err)
                call arg(kernel, idx, 8, c_loc(v(1)), err)
                call arg(kernel, idx, 8, c_loc(v(2)), err)
                call arg(kernel, idx, 4, c_loc(n0), err)
                global = int(n0, c_size_t)
                if (err == 0) err = cl_enqueue_nd_range_kernel(queue, kernel, 1_c_int, c_null_ptr, &
                        c_loc(global), c_null_ptr, 0_c_int, c_null_ptr, c_null_ptr)
                if (err == 0) err = cl_finish(queue)
                idx = release_kernel(kernel)
                call kernel_end(id)
                if (err /= 0) call report_error(err)
        end subroutine run_on_device

        recursive subroutine kcl_noop(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                integer(c_int64_t) :: v(2)
                integer(c_int) :: id
                id = kernel_begin(cl_args, 0, v)
                if (id >= 0) call kernel_end(id)
        end subroutine kcl_noop

        recursive subroutine kcl_set(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                call run_on_device(buffers, cl_args, 0_c_int, 1, .false.)
        end subroutine kcl_set

        recursive subroutine kcl_add(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                call run_on_device(buffers, cl_args, 1_c_int, 1, .false.)
        end subroutine kcl_add

        recursive subroutine kcl_scale(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                call run_on_device(buffers, cl_args, 2_c_int, 1, .false.)
        end subroutine kcl_scale

        recursive subroutine kcl_affine(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                call run_on_device(buffers, cl_args, 3_c_int, 2, .false.)
        end subroutine kcl_affine

        recursive subroutine kcl_axpy(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                call run_on_device(buffers, cl_args, 4_c_int, 1, .true.)
        end subroutine kcl_axpy

        recursive subroutine kcl_copy(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                call run_on_device(buffers, cl_args, 5_c_int, 0, .true.)
        end subroutine kcl_copy

        ! A program that does not build: the kernel reports it and its task fails.
        recursive subroutine kcl_fail(buffers, cl_args) bind(C)
                type(c_ptr), value, intent(in) :: buffers, cl_args
                type(c_ptr), target :: broken(8)
                integer(c_int64_t) :: v(2)
                integer(c_int) :: id, ret
                id = kernel_begin(cl_args, 0, v)
                if (id < 0) return
                ret = load_from_string("__kernel void f( {" // c_null_char, c_loc(broken), c_null_ptr)
                call kernel_end(id)
                if (ret /= 0) call report_error(cl_build_program_failure)
        end subroutine kcl_fail

        ! The OpenCL implementation of kernel `name`; c_null_funptr if it has none.
        function opencl_func(name) result(f)
                character(len=*), intent(in) :: name
                type(c_funptr) :: f
                select case (trim(name))
                case ("noop")
                        f = c_funloc(kcl_noop)
                case ("set")
                        f = c_funloc(kcl_set)
                case ("add")
                        f = c_funloc(kcl_add)
                case ("scale")
                        f = c_funloc(kcl_scale)
                case ("affine")
                        f = c_funloc(kcl_affine)
                case ("axpy")
                        f = c_funloc(kcl_axpy)
                case ("copy")
                        f = c_funloc(kcl_copy)
                case ("clfail")
                        f = c_funloc(kcl_fail)
                case default
                        f = c_null_funptr
                end select
        end function opencl_func
end module driver_opencl

! ------------------------------------------------------------------------------------
! Operations and the plan reader
program driver
        use iso_c_binding
        use iso_fortran_env, only: error_unit
        use fstarpu_mod
        use driver_output
        use driver_state
        use driver_kernels
        use driver_opencl
        implicit none

        integer, parameter :: max_tokens = 256, max_line = 8192
        character(len=40), parameter :: verbs(*) = [character(len=40) :: &
                "init", "shutdown", "data", "read", "acquire", "show", "store", "release", "buffer", &
                "partition", "unpartition", "unregister", "unregister_no_coherency", "invalidate", &
                "seqcons", "redux_methods", "codelet", "insert", "task", "deps", "submit", "wait", "wait_all", &
                "tag_deps", "tag_notify", "tag_wait", "clock", "open", "await", &
                "partition_plan", "partition_submit", "partition_readonly_submit", &
                "partition_readwrite_upgrade_submit", "partition_readonly_downgrade_submit", &
                "unpartition_submit", "unpartition_readonly_submit", "partition_clean", "nplans", &
                "ctx", "ctx_remove", "ctx_inheritor", "ctx_delete", "trs_open", "trs_next", "trs_close"]
        ! Transactions through fstarpu_transaction_* (StarPU's module has none: our extension).
        character(len=8), parameter :: task_options(*) = [character(len=8) :: &
                "value", "ref", "delay", "prio", "callback", "sync", "tag", "nodetach", "badkey", "ctx", &
                "trs"]
        character(len=24), parameter :: filter_names(*) = [character(len=24) :: &
                "vector_block", "matrix_block", "matrix_vertical_block"]
        character(len=12), parameter :: mode_names(*) = [character(len=12) :: "R", "W", "RW", "RW|COMMUTE", &
                "SCRATCH", "REDUX"]

        character(len=max_line) :: line
        character(len=256) :: tokens(max_tokens)
        character(len=4096) :: arg
        integer :: ntok, unit, ios

        if (command_argument_count() /= 1) then
                write(error_unit, '(a)') "usage: driver PLAN | --capabilities"
                stop 2
        end if
        call get_command_argument(1, arg)
        if (trim(arg) == "--capabilities") then
                call print_capabilities()
                stop
        end if
        plan_path = trim(arg)
        open(newunit=unit, file=plan_path, status="old", action="read", iostat=ios)
        if (ios /= 0) then
                write(error_unit, '(a)') plan_path // ": cannot open"
                stop 2
        end if
        call output_init()

        ! One operation per line; the harness writes nothing else into a plan.
        do
                read(unit, '(a)', iostat=ios) line
                if (ios /= 0) exit
                lineno = lineno + 1
                call split(line, tokens, ntok)
                if (ntok > 0) call run_operation(tokens(1:ntok))
        end do
        close(unit)
        if (initialized) then
                call cl_unload()
                call fstarpu_shutdown()
        end if

contains
        subroutine split(text, toks, n)
                character(len=*), intent(in) :: text
                character(len=*), intent(out) :: toks(:)
                integer, intent(out) :: n
                integer :: i, start
                n = 0
                i = 1
                do while (i <= len_trim(text))
                        if (text(i:i) == " " .or. text(i:i) == achar(9) .or. text(i:i) == achar(13)) then
                                i = i + 1
                                cycle
                        end if
                        start = i
                        do while (i <= len_trim(text))
                                if (text(i:i) == " " .or. text(i:i) == achar(9) .or. text(i:i) == achar(13)) exit
                                i = i + 1
                        end do
                        if (n == size(toks)) call die("too many tokens")
                        if (i - start > len(toks(1))) call die("token too long")
                        n = n + 1
                        toks(n) = text(start:i - 1)
                end do
        end subroutine split

        subroutine print_capabilities()
                integer :: i
                do i = 1, size(verbs)
                        write(*, '(a)') "op " // trim(verbs(i))
                end do
                do i = 1, nkernels
                        write(*, '(a)') "kernel " // trim(kernel_names(i))
                end do
                do i = 1, size(task_options)
                        write(*, '(a)') "option " // trim(task_options(i))
                end do
                do i = 1, size(filter_names)
                        write(*, '(a)') "filter " // trim(filter_names(i))
                end do
                do i = 1, size(kind_names)
                        write(*, '(a)') "kind " // trim(kind_names(i))
                end do
                do i = 1, size(mode_names)
                        write(*, '(a)') "mode " // trim(mode_names(i))
                end do
                write(*, '(a)') "home none"         ! data ... home=none: home node -1
                write(*, '(a)') "nbuffers variable" ! codelet C K *: fstarpu_codelet_set_variable_nbuffers
                write(*, '(a)') "handle null"       ! MODE:null: C_NULL_PTR as the handle
                write(*, '(a)') "device opencl"     ! init opencl=K: fstarpu_conf_set_nopencl
                write(*, '(a)') "impl opencl"       ! codelet ... impl=opencl: fstarpu_codelet_add_opencl_func
        end subroutine print_capabilities

        subroutine run_operation(t)
                character(len=*), intent(in) :: t(:)
                if (.not. any(verbs == t(1))) call die("unknown operation '" // trim(t(1)) // "'")
                select case (trim(t(1)))
                case ("init")
                        call op_init(t)
                case ("shutdown")
                        call cl_unload()
                        call fstarpu_shutdown()
                        initialized = .false.
                        if (c_associated(conf)) call fstarpu_conf_free(conf)
                        conf = c_null_ptr
                case ("data")
                        call op_data(t)
                case ("read")
                        call op_read(t)
                case ("acquire")
                        call expect(t, 3, "a handle and a mode")
                        call report_ret("acquire", trim(t(2)), &
                                fstarpu_data_acquire_ret(handle_of(t(2)), parse_mode(t(3))))
                case ("show")
                        call expect(t, 2, "one handle")
                        call print_handle("show", registered_data(t(2)))
                case ("store")
                        call op_store(t)
                case ("release")
                        call expect(t, 2, "one handle")
                        call fstarpu_data_release(handle_of(t(2)))
                case ("buffer")
                        call op_buffer(t)
                case ("partition")
                        call op_partition(t)
                case ("unpartition")
                        call op_unpartition(t)
                case ("partition_plan")
                        call op_partition_plan(t)
                case ("partition_submit", "partition_readonly_submit", "partition_readwrite_upgrade_submit", &
                      "partition_readonly_downgrade_submit", "unpartition_submit", "unpartition_readonly_submit", &
                      "partition_clean")
                        call op_plan_switch(t)
                case ("nplans")
                        call expect(t, 2, "one handle")
                        call out("nplans " // trim(t(2)) // " = " // &
                                itoa(int(fstarpu_data_partition_get_nplans(handle_of(t(2))), c_int64_t)))
                case ("ctx")
                        call op_ctx(t)
                case ("ctx_remove")
                        call op_ctx_remove(t)
                case ("ctx_inheritor")
                        call expect(t, 3, "a context and its heir")
                        call fstarpu_sched_ctx_set_inheritor(find_ctx(t(2)), find_ctx(t(3)))
                case ("ctx_delete")
                        call expect(t, 2, "one context")
                        call fstarpu_sched_ctx_delete(find_ctx(t(2)))
                case ("trs_open")
                        call op_trs_open(t)
                case ("trs_next")
                        call expect(t, 3, "a transaction and yes|no")
                        call fstarpu_transaction_next_epoch(find_trs(t(2)), yes_no(t(1), t(3)))
                case ("trs_close")
                        call op_trs_close(t)
                case ("unregister", "unregister_no_coherency")
                        call op_unregister(t)
                case ("invalidate")
                        call expect(t, 2, "one handle")
                        call fstarpu_data_invalidate(handle_of(t(2)))
                case ("seqcons")
                        call expect(t, 3, "a handle and 0 or 1")
                        call fstarpu_data_set_sequential_consistency_flag(handle_of(t(2)), &
                                int(parse_long(t(3)), c_int))
                case ("redux_methods")
                        call expect(t, 2, "one handle")
                        call op_redux_methods(t(2))
                case ("codelet")
                        call op_codelet(t)
                case ("insert")
                        call op_insert(t)
                case ("task")
                        call op_task(t)
                case ("deps")
                        call op_deps(t)
                case ("submit")
                        call expect(t, 2, "one task")
                        call report_ret("submit", trim(t(2)), fstarpu_task_submit(task_of(t(2))))
                case ("wait")
                        call op_wait(t)
                case ("wait_all")
                        call report_ret("wait_all", "", fstarpu_task_wait_for_all_ret())
                case ("tag_deps")
                        call op_tag_deps(t)
                case ("tag_notify")
                        call expect(t, 2, "one tag")
                        call fstarpu_tag_notify_from_apps(parse_long(t(2)))
                case ("tag_wait")
                        call op_tag_wait(t)
                case ("clock")
                        call expect(t, 1, "no argument")
                        call lock()
                        call put_line_locked("@clock " // itoa(ev_clock))
                        call unlock()
                case ("open")
                        call op_open(t)
                case ("await")
                        call op_await(t)
                case default
                        call die("operation '" // trim(t(1)) // "' has no handler")
                end select
        end subroutine run_operation

        subroutine expect(t, n, what)
                character(len=*), intent(in) :: t(:), what
                integer, intent(in) :: n
                if (size(t) /= n) call die(trim(t(1)) // ": expected " // what)
        end subroutine expect

        function parse_long(s) result(v)
                character(len=*), intent(in) :: s
                integer(c_int64_t) :: v
                integer :: ios, i, first
                first = 1
                if (len_trim(s) > 1 .and. s(1:1) == "-") first = 2
                if (len_trim(s) < first) call die("'" // trim(s) // "' is not an integer")
                do i = first, len_trim(s)
                        if (s(i:i) < "0" .or. s(i:i) > "9") call die("'" // trim(s) // "' is not an integer")
                end do
                read(s, *, iostat=ios) v
                if (ios /= 0) call die("'" // trim(s) // "' is not an integer")
        end function parse_long

        ! "key=value" -> value when the token has that key.
        logical function has_option(tok, key, value)
                character(len=*), intent(in) :: tok, key
                character(len=:), allocatable, intent(out) :: value
                integer :: n
                n = len(key)
                has_option = len_trim(tok) > n .and. tok(1:n) == key .and. tok(n + 1:n + 1) == "="
                value = ""
                if (has_option) value = trim(tok(n + 2:))
        end function has_option

        subroutine check_name(name)
                character(len=*), intent(in) :: name
                if (len_trim(name) > name_len) call die("name '" // trim(name) // "' too long")
        end subroutine check_name

        ! The access mode constant a scenario's mode names.
        function parse_mode(s) result(m)
                character(len=*), intent(in) :: s
                type(c_ptr) :: m
                select case (trim(s))
                case ("R")
                        m = FSTARPU_R
                case ("W")
                        m = FSTARPU_W
                case ("RW")
                        m = FSTARPU_RW
                case ("RW|COMMUTE")
                        m = FSTARPU_RW .ior. FSTARPU_COMMUTE
                case ("SCRATCH")
                        m = FSTARPU_SCRATCH
                case ("REDUX")
                        m = FSTARPU_REDUX
                case default
                        call die("unknown access mode '" // trim(s) // "'")
                end select
        end function parse_mode

        ! Latest first: a name may be registered again after `unregister`.
        function find_data_index(name) result(i)
                character(len=*), intent(in) :: name
                integer :: i
                do i = ndatas, 1, -1
                        if (datas(i)%name == name) return
                end do
                call die("unknown handle '" // trim(name) // "'")
        end function find_data_index

        function registered_data(name) result(d)
                character(len=*), intent(in) :: name
                type(data_rec), pointer :: d
                d => datas(find_data_index(name))
                if (.not. d%registered) call die("handle '" // trim(name) // "' is not registered")
        end function registered_data

        function handle_of(name) result(h)
                character(len=*), intent(in) :: name
                type(c_ptr) :: h
                type(data_rec), pointer :: d
                d => registered_data(name)
                h = d%handle
        end function handle_of

        function find_codelet(name) result(c)
                character(len=*), intent(in) :: name
                type(codelet_rec), pointer :: c
                integer :: i
                do i = 1, ncodelets
                        if (codelets(i)%name == name) then
                                c => codelets(i)
                                return
                        end if
                end do
                call die("unknown codelet '" // trim(name) // "'")
        end function find_codelet

        function find_task(name) result(r)
                character(len=*), intent(in) :: name
                type(task_rec), pointer :: r
                integer :: i
                do i = 0, ntasks - 1
                        if (tasks(i)%name == name) then
                                r => tasks(i)
                                return
                        end if
                end do
                call die("unknown task '" // trim(name) // "'")
        end function find_task

        function task_of(name) result(p)
                character(len=*), intent(in) :: name
                type(c_ptr) :: p
                type(task_rec), pointer :: r
                r => find_task(name)
                if (.not. c_associated(r%task)) &
                        call die("task '" // trim(name) // "' was not built with `task`, or is already freed")
                p = r%task
        end function task_of

        function new_task_rec(name) result(r)
                character(len=*), intent(in) :: name
                type(task_rec), pointer :: r
                integer :: i
                call check_name(name)
                do i = 0, ntasks - 1
                        if (tasks(i)%name == name) call die("task name '" // trim(name) // "' used twice")
                end do
                if (ntasks == max_tasks) call die("too many tasks")
                r => tasks(ntasks)
                r%name = name
                r%cname = trim(name) // c_null_char
                r%id = int(ntasks, c_int)
                ntasks = ntasks + 1
        end function new_task_rec

        ! ---- runtime

        subroutine op_init(t)
                character(len=*), intent(in) :: t(:)
                character(len=:), allocatable :: v
                integer(c_int) :: ret, nopencl
                integer :: i
                if (c_associated(conf)) call fstarpu_conf_free(conf)
                conf = fstarpu_conf_allocate()
                ! Accelerators would change where tasks run; the suite is about semantics.
                call fstarpu_conf_set_ncuda(conf, 0)
                call fstarpu_conf_set_nopencl(conf, 0)
                nopencl = 0
                do i = 2, size(t)
                        if (has_option(t(i), "ncpus", v)) then
                                call fstarpu_conf_set_ncpu(conf, int(parse_long(v), c_int))
                        else if (has_option(t(i), "opencl", v)) then
                                ! PoCL also needs STARPU_OPENCL_ON_CPUS=1
                                nopencl = int(parse_long(v), c_int)
                                call fstarpu_conf_set_nopencl(conf, nopencl)
                        else if (has_option(t(i), "limit_opencl_mem", v)) then
                                ! MiB, read by starpu_init
                                call set_env("STARPU_LIMIT_OPENCL_MEM", v)
                        else if (has_option(t(i), "sched", v)) then
                                call check_name(v)
                                call fstarpu_conf_set_sched_policy_name(conf, v // c_null_char)
                        else
                                call die("init: unknown argument '" // trim(t(i)) // "'")
                        end if
                end do
                ret = fstarpu_init(conf)
                call report_ret("init", "", ret)
                if (ret == 0) initialized = .true.
                if (ret == 0 .and. fstarpu_opencl_worker_get_count() < nopencl) then
                        write(error_unit, '(a)') itoa(int(nopencl, c_int64_t)) // &
                                " OpenCL worker(s) asked for: no OpenCL device " // &
                                "(PoCL needs STARPU_OPENCL_ON_CPUS=1)"
                        call fstarpu_shutdown()
                        stop 77
                end if
                if (ret == 0) call cl_load()
        end subroutine op_init

        ! ---- data

        ! data H variable [V] | data H vector N [V...] | data H matrix NX NY [V...] [home=none]
        subroutine op_data(t)
                character(len=*), intent(in) :: t(:)
                type(data_rec), pointer :: d
                integer :: first, last, nvalues, n, i
                integer(c_int) :: home
                type(c_ptr) :: ptr
                logical :: home_none

                if (size(t) < 3) call die("data: expected a name and a kind")
                call check_name(t(2))
                do i = 1, ndatas
                        if (datas(i)%registered .and. datas(i)%name == t(2)) &
                                call die("handle '" // trim(t(2)) // "' registered twice")
                end do
                if (ndatas == max_data) call die("too many handles")
                ndatas = ndatas + 1
                d => datas(ndatas)
                d%name = t(2)
                d%parent = 0
                d%nchildren = 0
                if (allocated(d%buffer)) deallocate(d%buffer)
                select case (trim(t(3)))
                case ("variable")
                        d%kind = kind_variable
                        d%nx = 1
                        d%ny = 1
                        first = 4
                case ("vector")
                        if (size(t) < 4) call die("data: bad kind or missing sizes")
                        d%kind = kind_vector
                        d%nx = int(parse_long(t(4)))
                        d%ny = 1
                        first = 5
                case ("matrix")
                        if (size(t) < 5) call die("data: bad kind or missing sizes")
                        d%kind = kind_matrix
                        d%nx = int(parse_long(t(4)))
                        d%ny = int(parse_long(t(5)))
                        first = 6
                case default
                        call die("data: bad kind or missing sizes")
                end select
                last = size(t)
                home_none = last >= first .and. t(last) == "home=none"
                if (home_none) last = last - 1
                n = d%nx * d%ny
                nvalues = last - first + 1
                if (nvalues /= 0 .and. nvalues /= n) call die("data " // trim(d%name) // ": " // &
                        itoa(int(nvalues, c_int64_t)) // " values for " // itoa(int(n, c_int64_t)) // " elements")
                if (home_none .and. nvalues > 0) call die("data " // trim(d%name) // ": home=none takes no values")

                home = 0
                ptr = c_null_ptr
                if (home_none) then
                        home = -1
                else
                        allocate(d%buffer(n))
                        d%buffer = 0
                        do i = 1, nvalues
                                d%buffer(i) = parse_long(t(first + i - 1))
                        end do
                        ptr = c_loc(d%buffer)
                end if
                select case (d%kind)
                case (kind_variable)
                        call fstarpu_variable_data_register(d%handle, home, ptr, 8_c_size_t)
                case (kind_vector)
                        call fstarpu_vector_data_register(d%handle, home, ptr, int(d%nx, c_int), 8_c_size_t)
                case (kind_matrix)
                        call fstarpu_matrix_data_register(d%handle, home, ptr, int(d%nx, c_int), int(d%nx, c_int), &
                                int(d%ny, c_int), 8_c_size_t)
                end select
                d%registered = .true.
        end subroutine op_data

        ! "PREFIX NAME = 1 2 3", the rows of a matrix separated by " |".
        subroutine print_values(prefix, d, p, nx, ny, ld)
                character(len=*), intent(in) :: prefix
                type(data_rec), intent(in) :: d
                integer(c_int64_t), intent(in) :: p(:)
                integer, intent(in) :: nx, ny, ld
                character(len=:), allocatable :: text
                integer :: i
                text = prefix // " " // trim(d%name) // " ="
                do i = 0, nx * ny - 1
                        if (d%kind == kind_matrix .and. i > 0 .and. mod(i, nx) == 0) text = text // " |"
                        text = text // " " // itoa(p((i / nx) * ld + mod(i, nx) + 1))
                end do
                call out(text)
        end subroutine print_values

        ! The main-memory replica of a handle the application holds (acquired).
        subroutine print_handle(prefix, d)
                character(len=*), intent(in) :: prefix
                type(data_rec), intent(in) :: d
                integer(c_int64_t), pointer :: p(:)
                integer :: nx, ny, ld
                call handle_shape(d, nx, ny, ld)
                call c_f_pointer(fstarpu_data_get_local_ptr(d%handle), p, [(ny - 1) * ld + nx])
                call print_values(prefix, d, p, nx, ny, ld)
        end subroutine print_handle

        subroutine handle_shape(d, nx, ny, ld)
                type(data_rec), intent(in) :: d
                integer, intent(out) :: nx, ny, ld
                select case (d%kind)
                case (kind_vector)
                        nx = fstarpu_vector_handle_get_nx(d%handle)
                        ny = 1
                        ld = nx
                case (kind_matrix)
                        nx = fstarpu_matrix_handle_get_nx(d%handle)
                        ny = fstarpu_matrix_handle_get_ny(d%handle)
                        ld = fstarpu_matrix_handle_get_ld(d%handle)
                case default
                        nx = 1
                        ny = 1
                        ld = 1
                end select
        end subroutine handle_shape

        subroutine op_read(t)
                character(len=*), intent(in) :: t(:)
                type(data_rec), pointer :: d
                integer(c_int) :: ret
                call expect(t, 2, "one handle")
                d => registered_data(t(2))
                ret = fstarpu_data_acquire_ret(d%handle, FSTARPU_R)
                call report_ret("read", trim(d%name), ret)
                if (ret /= 0) return
                call print_handle("read", d)
                call fstarpu_data_release(d%handle)
        end subroutine op_read

        subroutine op_store(t)
                character(len=*), intent(in) :: t(:)
                type(data_rec), pointer :: d
                integer(c_int64_t), pointer :: p(:)
                integer :: nx, ny, ld, i
                if (size(t) < 2) call die("store: expected a handle and values")
                d => registered_data(t(2))
                call handle_shape(d, nx, ny, ld)
                if (size(t) - 2 /= nx * ny) call die("store " // trim(d%name) // ": wrong number of values")
                call c_f_pointer(fstarpu_data_get_local_ptr(d%handle), p, [(ny - 1) * ld + nx])
                do i = 0, nx * ny - 1
                        p((i / nx) * ld + mod(i, nx) + 1) = parse_long(t(3 + i))
                end do
        end subroutine op_store

        subroutine op_buffer(t)
                character(len=*), intent(in) :: t(:)
                type(data_rec), pointer :: d
                call expect(t, 2, "one handle")
                d => datas(find_data_index(t(2)))
                if (.not. allocated(d%buffer)) call die("handle '" // trim(d%name) // "' has no application buffer")
                call print_values("buffer", d, d%buffer, d%nx, d%ny, d%nx)
        end subroutine op_buffer

        ! A child has the kind of its parent.
        subroutine op_partition(t)
                character(len=*), intent(in) :: t(:)
                integer :: parent, i, n
                type(c_ptr) :: filter
                type(data_rec), pointer :: d, c
                call expect(t, 4, "a handle, a filter and a count")
                parent = find_data_index(t(2))
                d => datas(parent)
                if (.not. d%registered) call die("handle '" // trim(d%name) // "' is not registered")
                n = int(parse_long(t(4)))
                filter = make_filter(d, t(3), n)
                call fstarpu_data_partition(d%handle, filter)
                call fstarpu_data_filter_free(filter)
                d%nchildren = n
                do i = 0, n - 1
                        ndatas = ndatas + 1
                        c => datas(ndatas)
                        c%name = trim(d%name) // "." // itoa(int(i, c_int64_t))
                        if (allocated(c%buffer)) deallocate(c%buffer)
                        c%handle = fstarpu_data_get_sub_data(d%handle, 1, [int(i, c_int)])
                        c%kind = d%kind
                        c%registered = .true.
                        c%parent = parent
                        c%nchildren = 0
                end do
        end subroutine op_partition

        ! The filter called NAME cutting D in N children (freed by the caller).
        function make_filter(d, name, n) result(filter)
                type(data_rec), intent(in) :: d
                character(len=*), intent(in) :: name
                integer, intent(in) :: n
                type(c_ptr) :: filter
                filter = c_null_ptr
                if (trim(name) == "vector_block" .and. d%kind == kind_vector) then
                        filter = fstarpu_df_alloc_vector_filter_block()
                else if (trim(name) == "matrix_block" .and. d%kind == kind_matrix) then
                        filter = fstarpu_df_alloc_matrix_filter_block()
                else if (trim(name) == "matrix_vertical_block" .and. d%kind == kind_matrix) then
                        filter = fstarpu_df_alloc_matrix_filter_vertical_block()
                else
                        call die("filter '" // trim(name) // "' does not apply to '" // trim(d%name) // "'")
                end if
                if (ndatas + n > max_data) call die("too many handles")
                call fstarpu_data_filter_set_nchildren(filter, int(n, c_int))
        end function make_filter

        ! partition_plan H FILTER N P: plan P of H, its children named P.0 ... P.N-1.
        subroutine op_partition_plan(t)
                character(len=*), intent(in) :: t(:)
                integer :: i, n
                type(c_ptr) :: filter
                type(data_rec), pointer :: d, c
                type(plan_rec), pointer :: p
                call expect(t, 5, "a handle, a filter, a count and a plan name")
                d => registered_data(t(2))
                n = int(parse_long(t(4)))
                if (nplans == max_plans .or. n > max_plan_children) call die("too many plans or children")
                filter = make_filter(d, t(3), n)
                nplans = nplans + 1
                p => plans(nplans)
                p%name = t(5)
                p%n = n
                p%first_child = ndatas + 1
                call fstarpu_data_partition_plan(d%handle, filter, p%children)
                call fstarpu_data_filter_free(filter)
                do i = 1, n
                        ndatas = ndatas + 1
                        c => datas(ndatas)
                        c%name = trim(p%name) // "." // itoa(int(i - 1, c_int64_t))
                        if (allocated(c%buffer)) deallocate(c%buffer)
                        c%handle = p%children(i)
                        c%kind = d%kind
                        c%registered = .true.
                        c%parent = 0 ! not a child of a synchronous partitioning
                        c%nchildren = 0
                end do
        end subroutine op_partition_plan

        ! VERB H P: the switches return nothing (a refused one is said on stderr).
        subroutine op_plan_switch(t)
                character(len=*), intent(in) :: t(:)
                type(c_ptr) :: h
                type(plan_rec), pointer :: p
                integer :: i
                integer(c_int) :: n
                call expect(t, 3, "a handle and a plan")
                h = handle_of(t(2))
                p => null()
                do i = nplans, 1, -1
                        if (plans(i)%name == t(3)) then
                                p => plans(i)
                                exit
                        end if
                end do
                if (.not. associated(p)) call die("unknown plan '" // trim(t(3)) // "'")
                n = int(p%n, c_int)
                select case (trim(t(1)))
                case ("partition_submit")
                        call fstarpu_data_partition_submit(h, n, p%children)
                case ("partition_readonly_submit")
                        call fstarpu_data_partition_readonly_submit(h, n, p%children)
                case ("partition_readwrite_upgrade_submit")
                        call fstarpu_data_partition_readwrite_upgrade_submit(h, n, p%children)
                case ("partition_readonly_downgrade_submit")
                        call fstarpu_data_partition_readonly_downgrade_submit(h, n, p%children)
                case ("unpartition_submit")
                        call fstarpu_data_unpartition_submit(h, n, p%children, 0_c_int)
                case ("unpartition_readonly_submit")
                        call fstarpu_data_unpartition_readonly_submit(h, n, p%children, 0_c_int)
                case ("partition_clean")
                        call fstarpu_data_partition_clean(h, n, p%children)
                        ! The children go with the plan: forget their names.
                        do i = 0, p%n - 1
                                datas(p%first_child + i)%registered = .false.
                                datas(p%first_child + i)%name = ""
                        end do
                        p%name = ""
                end select
        end subroutine op_plan_switch

        ! ---- scheduling contexts

        function find_ctx(name) result(id)
                character(len=*), intent(in) :: name
                integer(c_int) :: id
                integer :: i
                id = 0
                if (trim(name) == "global") return
                do i = 1, nctxs
                        if (ctx_names(i) == name) then
                                id = ctx_ids(i)
                                return
                        end if
                end do
                call die("unknown context '" // trim(name) // "'")
        end function find_ctx

        ! The worker ids among t(from:) (the tokens without `=`).
        subroutine parse_workers(t, from, ids, n)
                character(len=*), intent(in) :: t(:)
                integer, intent(in) :: from
                integer(c_int), intent(out) :: ids(:)
                integer(c_int), intent(out) :: n
                integer :: i
                n = 0
                do i = from, size(t)
                        if (index(t(i), "=") > 0) cycle
                        if (n == size(ids)) call die("too many workers")
                        n = n + 1
                        ids(n) = int(parse_long(t(i)), c_int)
                end do
        end subroutine parse_workers

        ! ctx X W... [policy=P]: fstarpu_sched_ctx_create over workers W... (P: eager).
        subroutine op_ctx(t)
                character(len=*), intent(in) :: t(:)
                character(kind=c_char, len=name_len + 1), target :: policy
                character(len=:), allocatable :: v
                integer(c_int) :: ids(max_tokens), n, id
                integer :: i
                if (size(t) < 2) call die("ctx: expected a name")
                call check_name(t(2))
                if (nctxs == max_ctxs) call die("too many contexts")
                policy = "eager" // c_null_char
                do i = 3, size(t)
                        if (has_option(t(i), "policy", v)) then
                                call check_name(v)
                                policy = v // c_null_char
                        else if (index(t(i), "=") > 0) then
                                call die("ctx: unknown option '" // trim(t(i)) // "'")
                        end if
                end do
                call parse_workers(t, 3, ids, n)
                id = fstarpu_sched_ctx_create(ids, n, trim(t(2)) // c_null_char, &
                        [FSTARPU_SCHED_CTX_POLICY_NAME, c_loc(policy), c_null_ptr])
                if (id < 0 .or. id >= nmax_sched_ctxs) then
                        call report_ret("ctx", trim(t(2)), -22_c_int)
                        return
                end if
                nctxs = nctxs + 1
                ctx_names(nctxs) = t(2)
                ctx_ids(nctxs) = id
        end subroutine op_ctx

        ! ---- transactions

        function find_trs(name) result(p)
                character(len=*), intent(in) :: name
                type(c_ptr) :: p
                integer :: i
                do i = 1, ntrss
                        if (trs_names(i) == name) then
                                p = trs_ptrs(i)
                                return
                        end if
                end do
                p = c_null_ptr
                call die("unknown transaction '" // trim(name) // "'")
        end function find_trs

        ! The epoch argument of yes|no: whether the start function confirms the epoch.
        function yes_no(verb, tok) result(p)
                character(len=*), intent(in) :: verb, tok
                type(c_ptr) :: p
                select case (trim(tok))
                case ("yes")
                        p = fstarpu_int_to_cptr(1_c_int)
                case ("no")
                        p = fstarpu_int_to_cptr(0_c_int)
                case default
                        p = c_null_ptr
                        call die(trim(verb) // ": expected yes or no, got '" // trim(tok) // "'")
                end select
        end function yes_no

        ! trs_open X yes|no: fstarpu_transaction_open; the first epoch runs or not.
        subroutine op_trs_open(t)
                character(len=*), intent(in) :: t(:)
                type(c_ptr) :: p
                call expect(t, 3, "a name and yes|no")
                call check_name(t(2))
                if (ntrss == max_trss) call die("too many transactions")
                p = fstarpu_transaction_open(c_funloc(trs_start), yes_no(t(1), t(3)))
                if (.not. c_associated(p)) then
                        call report_ret("trs_open", trim(t(2)), -19_c_int)
                        return
                end if
                ntrss = ntrss + 1
                trs_names(ntrss) = t(2)
                trs_ptrs(ntrss) = p
        end subroutine op_trs_open

        ! trs_close X: fstarpu_transaction_close; the name is gone.
        subroutine op_trs_close(t)
                character(len=*), intent(in) :: t(:)
                integer :: i
                call expect(t, 2, "one transaction")
                call fstarpu_transaction_close(find_trs(t(2)))
                do i = 1, ntrss
                        if (trs_names(i) == t(2)) then
                                trs_names(i) = trs_names(ntrss)
                                trs_ptrs(i) = trs_ptrs(ntrss)
                                ntrss = ntrss - 1
                                exit
                        end if
                end do
        end subroutine op_trs_close

        ! ctx_remove X W...: fstarpu_sched_ctx_remove_workers.
        subroutine op_ctx_remove(t)
                character(len=*), intent(in) :: t(:)
                integer(c_int) :: ids(max_tokens), n
                if (size(t) < 3) call die("ctx_remove: expected a context and workers")
                call parse_workers(t, 3, ids, n)
                call fstarpu_sched_ctx_remove_workers(ids, n, find_ctx(t(2)))
        end subroutine op_ctx_remove

        subroutine op_unpartition(t)
                character(len=*), intent(in) :: t(:)
                integer :: parent, i
                call expect(t, 2, "one handle")
                parent = find_data_index(t(2))
                if (datas(parent)%nchildren == 0) call die("handle '" // trim(t(2)) // "' is not partitioned")
                call fstarpu_data_unpartition(datas(parent)%handle, 0)
                ! The children are gone with the partition: forget their names.
                do i = 1, ndatas
                        if (datas(i)%parent == parent) then
                                datas(i)%registered = .false.
                                datas(i)%name = ""
                        end if
                end do
                datas(parent)%nchildren = 0
        end subroutine op_unpartition

        subroutine op_unregister(t)
                character(len=*), intent(in) :: t(:)
                type(data_rec), pointer :: d
                call expect(t, 2, "one handle")
                d => registered_data(t(2))
                if (trim(t(1)) == "unregister") then
                        call fstarpu_data_unregister(d%handle)
                else
                        call fstarpu_data_unregister_no_coherency(d%handle)
                end if
                d%registered = .false.
        end subroutine op_unregister

        ! ---- codelets and tasks

        subroutine op_codelet(t)
                character(len=*), intent(in) :: t(:)
                type(codelet_rec), pointer :: c
                character(len=:), allocatable :: v, impl
                integer :: k, i, last
                if (size(t) < 3) call die("codelet: expected a name and a kernel")
                call check_name(t(2))
                if (ncodelets == max_codelets) call die("too many codelets")
                k = findloc(kernel_names, t(3), dim=1)
                if (k == 0) call die("unknown kernel '" // trim(t(3)) // "'")
                ncodelets = ncodelets + 1
                c => codelets(ncodelets)
                c%name = t(2)
                c%kernel = k
                c%cl = fstarpu_codelet_allocate()
                ! impl=cpu (the default), impl=opencl, impl=cpu+opencl: the implementations.
                impl = "cpu"
                last = size(t)
                if (last > 3 .and. has_option(t(last), "impl", v)) then
                        impl = v
                        last = last - 1
                end if
                if (index(impl, "cpu") > 0) call fstarpu_codelet_add_cpu_func(c%cl, kernel_func(k))
                if (index(impl, "opencl") > 0) then
                        if (.not. c_associated(opencl_func(kernel_names(k)))) call die("kernel '" // &
                                trim(kernel_names(k)) // "' has no OpenCL implementation")
                        call fstarpu_codelet_add_opencl_func(c%cl, opencl_func(kernel_names(k)))
                end if
                call fstarpu_codelet_set_name(c%cl, trim(c%name) // c_null_char)
                if (k == k_spmd_index) then
                        call fstarpu_codelet_set_type(c%cl, FSTARPU_SPMD)
                        call fstarpu_codelet_set_max_parallelism(c%cl, huge(0_c_int))
                end if
                if (last == 4 .and. t(last) == "*") then
                        c%variable = .true.
                        call fstarpu_codelet_set_variable_nbuffers(c%cl)
                else
                        if (last - 3 > max_bufs) call die("codelet: too many buffers")
                        do i = 4, last
                                call fstarpu_codelet_add_buffer(c%cl, parse_mode(t(i)))
                        end do
                end if
        end subroutine op_codelet

        ! redux_methods H: a sum (init 0, b0 += b1), with the data's kind as argument.
        subroutine op_redux_methods(name)
                character(len=*), intent(in) :: name
                type(data_rec), pointer :: d
                type(c_ptr), save :: zero_cl = c_null_ptr, sum_cl = c_null_ptr
                if (.not. c_associated(zero_cl)) then
                        zero_cl = fstarpu_codelet_allocate()
                        call fstarpu_codelet_add_cpu_func(zero_cl, c_funloc(r_zero))
                        call fstarpu_codelet_add_buffer(zero_cl, FSTARPU_W)
                        call fstarpu_codelet_set_name(zero_cl, "redux_zero" // c_null_char)
                        sum_cl = fstarpu_codelet_allocate()
                        call fstarpu_codelet_add_cpu_func(sum_cl, c_funloc(r_sum))
                        call fstarpu_codelet_add_buffer(sum_cl, FSTARPU_RW)
                        call fstarpu_codelet_add_buffer(sum_cl, FSTARPU_R)
                        call fstarpu_codelet_set_name(sum_cl, "redux_sum" // c_null_char)
                end if
                d => registered_data(name)
                call fstarpu_data_set_reduction_methods_with_args(d%handle, sum_cl, &
                        c_loc(redux_kinds(d%kind)), zero_cl, c_loc(redux_kinds(d%kind)))
        end subroutine op_redux_methods

        ! insert|task T C BUF... OPTS...: the fstarpu_task_insert argument array. Values
        ! the array points to (c_loc) must live until the call reads them: they are the
        ! arguments of this routine's caller, or the task record's own.
        subroutine build_args(t, is_insert, r, c, args, nargs)
                character(len=*), intent(in) :: t(:)
                logical, intent(in) :: is_insert
                type(task_rec), pointer, intent(in) :: r
                type(codelet_rec), pointer, intent(in) :: c
                type(c_ptr), intent(out) :: args(:)
                integer, intent(out) :: nargs
                character(len=:), allocatable :: v
                integer :: i, colon, nvalues, nbufs
                logical :: callback, sync, badkey, use_tag, use_ctx
                type(c_ptr) :: vptr(2)
                type(data_rec), pointer :: d

                nargs = 0
                call push(args, nargs, c%cl)
                nvalues = 0
                nbufs = 0
                r%prio = 0
                r%one = 1
                callback = .false.
                sync = .false.
                badkey = .false.
                use_tag = .false.
                use_ctx = .false.
                r%nodetach = .false.
                do i = 4, size(t)
                        colon = index(t(i), ":")
                        if (colon > 0 .and. index(t(i), "=") == 0) then
                                if (nbufs == max_bufs) call die("too many buffers")
                                nbufs = nbufs + 1
                                call push(args, nargs, parse_mode(t(i)(1:colon - 1)))
                                if (trim(t(i)(colon + 1:)) == "null") then
                                        call push(args, nargs, c_null_ptr)
                                        r%kinds(nbufs) = kind_variable
                                else
                                        d => registered_data(t(i)(colon + 1:))
                                        call push(args, nargs, d%handle)
                                        r%kinds(nbufs) = d%kind
                                end if
                        else if (has_option(t(i), "value", v)) then
                                nvalues = nvalues + 1
                                if (nvalues > 2) call die("at most 2 values")
                                r%values(nvalues) = parse_long(v)
                        else if (has_option(t(i), "ref", v)) then
                                nvalues = nvalues + 1
                                if (nvalues > 2) call die("at most 2 values")
                                r%values(nvalues) = find_data_index(v)
                        else if (has_option(t(i), "delay", v)) then
                                r%delay_ms = int(parse_long(v), c_int)
                        else if (has_option(t(i), "prio", v)) then
                                r%prio = int(parse_long(v), c_int)
                        else if (trim(t(i)) == "callback") then
                                callback = .true.
                        else if (trim(t(i)) == "sync") then
                                sync = .true.
                        else if (has_option(t(i), "tag", v) .and. .not. is_insert) then
                                use_tag = .true.
                                r%tag = parse_long(v)
                        else if (trim(t(i)) == "nodetach" .and. .not. is_insert) then
                                r%nodetach = .true.
                        else if (trim(t(i)) == "badkey" .and. is_insert) then
                                badkey = .true.
                        else if (has_option(t(i), "ctx", v)) then
                                use_ctx = .true.
                                r%ctx = find_ctx(v)
                        else if (has_option(t(i), "trs", v)) then
                                r%trs = find_trs(v)
                        else
                                call die(trim(t(1)) // ": unknown option '" // trim(t(i)) // "'")
                        end if
                end do
                if (nvalues /= kernel_nvalues(c%kernel)) call die("kernel " // trim(kernel_names(c%kernel)) // &
                        " takes " // itoa(int(kernel_nvalues(c%kernel), c_int64_t)) // " values, " // &
                        itoa(int(nvalues, c_int64_t)) // " given")
                if (badkey .and. (nbufs > 1 .or. nvalues > 0)) call die("badkey: at most one buffer and no values")
                r%nbuffers = nbufs
                call push(args, nargs, FSTARPU_NAME)
                call push(args, nargs, c_loc(r%cname))
                if (badkey) then
                        ! Bad input: a key fstarpu_task_insert does not know.
                        call push(args, nargs, fstarpu_int_to_cptr(ishft(1000_c_int, 17)))
                        call push(args, nargs, c_null_ptr)
                        return
                end if
                ! The kernel's record id and delay come first, then the scenario's values.
                call push(args, nargs, FSTARPU_VALUE)
                call push(args, nargs, c_loc(r%id))
                call push(args, nargs, FSTARPU_SZ_C_INT)
                call push(args, nargs, FSTARPU_VALUE)
                call push(args, nargs, c_loc(r%delay_ms))
                call push(args, nargs, FSTARPU_SZ_C_INT)
                vptr = [c_loc(r%values(1)), c_loc(r%values(2))]
                do i = 1, nvalues
                        call push(args, nargs, FSTARPU_VALUE)
                        call push(args, nargs, vptr(i))
                        call push(args, nargs, FSTARPU_SZ_INT8)
                end do
                call push(args, nargs, FSTARPU_PRIORITY)
                call push(args, nargs, c_loc(r%prio))
                if (callback) then
                        ! The record id is the callback's argument (NFREE: nothing to free).
                        call push(args, nargs, FSTARPU_CALLBACK_WITH_ARG_NFREE)
                        call push(args, nargs, fstarpu_funptr_to_cptr(c_funloc(record_callback)))
                        call push(args, nargs, fstarpu_int_to_cptr(r%id))
                end if
                if (sync) then
                        call push(args, nargs, FSTARPU_TASK_SYNCHRONOUS)
                        call push(args, nargs, c_loc(r%one))
                end if
                if (use_tag) then
                        call push(args, nargs, FSTARPU_TAG)
                        call push(args, nargs, c_loc(r%tag))
                end if
                if (use_ctx) then
                        call push(args, nargs, FSTARPU_SCHED_CTX)
                        call push(args, nargs, c_loc(r%ctx))
                end if
                if (c_associated(r%trs)) then
                        call push(args, nargs, FSTARPU_TRANSACTION)
                        call push(args, nargs, r%trs)
                end if
                call push(args, nargs, c_null_ptr)
        end subroutine build_args

        subroutine push(args, nargs, p)
                type(c_ptr), intent(inout) :: args(:)
                integer, intent(inout) :: nargs
                type(c_ptr), intent(in) :: p
                if (nargs == size(args)) call die("too many task arguments")
                nargs = nargs + 1
                args(nargs) = p
        end subroutine push

        ! insert|task T C ...: a new task record and the argument array its line makes.
        function prepare_task(t, is_insert, args, nargs) result(r)
                character(len=*), intent(in) :: t(:)
                logical, intent(in) :: is_insert
                type(c_ptr), intent(out) :: args(:)
                integer, intent(out) :: nargs
                type(task_rec), pointer :: r
                if (size(t) < 3) call die(trim(t(1)) // ": expected a task name and a codelet")
                r => new_task_rec(t(2))
                call build_args(t, is_insert, r, find_codelet(t(3)), args, nargs)
        end function prepare_task

        subroutine op_insert(t)
                character(len=*), intent(in) :: t(:)
                type(task_rec), pointer :: r
                type(c_ptr) :: args(2 * max_tokens + 32)
                integer :: nargs
                r => prepare_task(t, .true., args, nargs)
                call report_ret("insert", trim(r%name), fstarpu_task_insert_ret(args(1:nargs)))
        end subroutine op_insert

        ! task T C BUF... OPTS: the task built (fstarpu_task_build: Fortran cannot set a
        ! task's fields), not submitted; `submit T` submits it.
        subroutine op_task(t)
                character(len=*), intent(in) :: t(:)
                type(task_rec), pointer :: r
                type(c_ptr) :: args(2 * max_tokens + 32)
                integer :: nargs
                r => prepare_task(t, .false., args, nargs)
                r%task = fstarpu_task_build(args(1:nargs))
                if (.not. c_associated(r%task)) call die("task " // trim(r%name) // ": fstarpu_task_build refused it")
                if (r%nodetach) call fstarpu_task_set_detach(r%task, 0)
        end subroutine op_task

        subroutine op_deps(t)
                character(len=*), intent(in) :: t(:)
                type(c_ptr) :: deps(max_tokens)
                integer :: i
                if (size(t) < 3) call die("deps: expected a task and its dependencies")
                do i = 3, size(t)
                        deps(i - 2) = task_of(t(i))
                end do
                call fstarpu_task_declare_deps_array(task_of(t(2)), int(size(t) - 2, c_int), deps)
        end subroutine op_deps

        subroutine op_wait(t)
                character(len=*), intent(in) :: t(:)
                type(task_rec), pointer :: r
                integer(c_int) :: ret
                call expect(t, 2, "one task")
                r => find_task(t(2))
                ret = fstarpu_task_wait(task_of(t(2)))
                call report_ret("wait", trim(r%name), ret)
                ! A waited-for task is destroyed by fstarpu_task_wait (destroy is set).
                if (ret == 0) r%task = c_null_ptr
        end subroutine op_wait

        subroutine op_tag_deps(t)
                character(len=*), intent(in) :: t(:)
                integer(c_int64_t) :: deps(max_tokens)
                integer :: i
                if (size(t) < 3) call die("tag_deps: expected a tag and its dependencies")
                do i = 3, size(t)
                        deps(i - 2) = parse_long(t(i))
                end do
                call fstarpu_tag_declare_deps_array(parse_long(t(2)), int(size(t) - 2, c_int), deps)
        end subroutine op_tag_deps

        subroutine op_tag_wait(t)
                character(len=*), intent(in) :: t(:)
                integer(c_int64_t) :: tags_(max_tokens)
                integer(c_int) :: ret
                integer :: i
                if (size(t) < 2) call die("tag_wait: expected tags")
                do i = 2, size(t)
                        tags_(i - 1) = parse_long(t(i))
                end do
                if (size(t) == 2) then
                        ret = fstarpu_tag_wait(tags_(1))
                else
                        ret = fstarpu_tag_wait_array(int(size(t) - 1, c_int), tags_)
                end if
                call report_ret("tag_wait", trim(t(2)), ret)
        end subroutine op_tag_wait

        ! ---- helpers: gates and awaiting events

        subroutine op_open(t)
                character(len=*), intent(in) :: t(:)
                integer(c_int64_t) :: g
                call expect(t, 2, "one gate")
                g = parse_long(t(2))
                if (g < 0 .or. g >= max_gates) call die("gates are 0.." // itoa(int(max_gates - 1, c_int64_t)))
                call lock()
                gate_open(g) = .true.
                call broadcast_locked()
                call unlock()
        end subroutine op_open

        subroutine op_await(t)
                character(len=*), intent(in) :: t(:)
                type(task_rec), pointer :: r
                logical :: callback
                call expect(t, 2, "one event")
                callback = len_trim(t(2)) > 3 .and. t(2)(1:3) == "cb:"
                if (callback) then
                        r => find_task(t(2)(4:))
                else
                        r => find_task(t(2))
                end if
                call lock()
                do
                        if (callback .and. r%called) exit
                        if (.not. callback .and. r%started) exit
                        call wait_locked()
                end do
                call unlock()
        end subroutine op_await
end program driver
