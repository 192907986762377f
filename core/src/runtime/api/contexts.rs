//! Scheduling contexts (`starpu_sched_ctx_*`), answered by `sched::contexts`.

use crate::error::Result;
use crate::runtime::Runtime;
use crate::sched::contexts::ContextOptions;
use crate::sched::Policy;
use crate::task::{Task, TaskRef};

impl Runtime {
    /// `starpu_do_schedule`: tells every context's policy that the tasks submitted so far
    /// are all there is for now ([`Policy::do_schedule`]), and wakes the workers if one let
    /// tasks go. Waiting for tasks does it first.
    #[inline]
    pub fn do_schedule(&self) {
        crate::sched::contexts::do_schedule(self)
    }

    /// Creates a scheduling context over `workers` (`starpu_sched_ctx_create`) and returns
    /// its id. Its policy is `options.custom_policy`, else the policy named
    /// `options.policy`, else the default one.
    #[inline]
    pub fn create_context(&self, workers: &[usize], options: ContextOptions) -> Result<u32> {
        crate::sched::contexts::create_context(self, workers, options)
    }

    /// Deletes context `id` (`starpu_sched_ctx_delete`): its workers join its inheritor
    /// (when it has one), and the tasks it still holds, or that become ready later, go
    /// to the inheritor, else to the global context. The global context is not deleted.
    #[inline]
    pub fn delete_context(&self, id: u32) -> Result<()> {
        crate::sched::contexts::delete_context(self, id)
    }

    /// Adds `workers` to context `id` (`starpu_sched_ctx_add_workers`).
    #[inline]
    pub fn add_context_workers(&self, id: u32, workers: &[usize]) -> Result<()> {
        crate::sched::contexts::add_context_workers(self, id, workers)
    }

    /// Removes `workers` from context `id` (`starpu_sched_ctx_remove_workers`). Tasks
    /// queued for them are given to the context's other workers.
    #[inline]
    pub fn remove_context_workers(&self, id: u32, workers: &[usize]) -> Result<()> {
        crate::sched::contexts::remove_context_workers(self, id, workers)
    }

    /// Sets the context that inherits `id`'s workers and tasks when `id` is deleted
    /// (`starpu_sched_ctx_set_inheritor`).
    #[inline]
    pub fn set_context_inheritor(&self, id: u32, inheritor: u32) -> Result<()> {
        crate::sched::contexts::set_context_inheritor(self, id, inheritor)
    }

    /// The context that inherits `id`, if one was set.
    #[inline]
    pub fn context_inheritor(&self, id: u32) -> Result<Option<u32>> {
        crate::sched::contexts::context_inheritor(self, id)
    }

    /// Wakes worker `w` if it sleeps (`starpu_wake_worker_*`); true if it did.
    #[inline]
    pub fn wake_worker(&self, w: usize) -> bool {
        crate::sched::contexts::wake_worker(self, w)
    }

    /// Whether context `id` exists.
    #[inline]
    pub fn context_exists(&self, id: u32) -> bool {
        crate::sched::contexts::context_exists(self, id)
    }

    /// The workers of context `id`, in increasing order.
    #[inline]
    pub fn context_workers(&self, id: u32) -> Result<Vec<usize>> {
        crate::sched::contexts::context_workers(self, id)
    }

    /// The contexts worker `w` belongs to, in increasing order.
    #[inline]
    pub fn worker_contexts(&self, w: usize) -> Vec<u32> {
        crate::sched::contexts::worker_contexts(self, w)
    }

    /// The name of context `id`.
    #[inline]
    pub fn context_name(&self, id: u32) -> Result<String> {
        crate::sched::contexts::context_name(self, id)
    }

    /// The name of the policy scheduling context `id`.
    #[inline]
    pub fn context_policy_name(&self, id: u32) -> Result<&'static str> {
        crate::sched::contexts::context_policy_name(self, id)
    }

    /// Runs `f` on the policy scheduling context `id`.
    #[inline]
    pub fn with_context_policy<R>(&self, id: u32, f: impl FnOnce(&dyn Policy) -> R) -> Result<R> {
        crate::sched::contexts::with_context_policy(self, id, f)
    }

    /// Priority bounds of context `id` (`starpu_sched_ctx_get_{min,max}_priority`).
    #[inline]
    pub fn context_priority_range(&self, id: u32) -> Result<(i32, i32)> {
        crate::sched::contexts::context_priority_range(self, id)
    }

    /// Sets the lowest priority of context `id` (`starpu_sched_ctx_set_min_priority`).
    #[inline]
    pub fn set_context_min_priority(&self, id: u32, prio: i32) -> Result<()> {
        crate::sched::contexts::set_context_min_priority(self, id, prio)
    }

    /// Sets the highest priority of context `id` (`starpu_sched_ctx_set_max_priority`).
    #[inline]
    pub fn set_context_max_priority(&self, id: u32, prio: i32) -> Result<()> {
        crate::sched::contexts::set_context_max_priority(self, id, prio)
    }

    /// Tasks queued in context `id`'s policy.
    #[inline]
    pub fn context_nready(&self, id: u32) -> Result<usize> {
        crate::sched::contexts::context_nready(self, id)
    }

    /// The context a task naming `named` (or none) is submitted to: `named`, else the
    /// submitting thread's current context, else the global one. Faces that show it to
    /// programs (C's `task->sched_ctx`, which StarPU fills in) ask before submitting.
    #[inline]
    pub fn submission_context(&self, named: Option<u32>) -> Result<u32> {
        crate::sched::contexts::submission_context(self, named)
    }

    #[inline]
    pub(crate) fn resolve_context(&self, named: Option<u32>) -> Result<Option<u32>> {
        crate::sched::contexts::resolve_context(self, named)
    }

    /// The contexts' share of `Runtime::schedule`: each task goes to its context's policy
    /// (or the heir of its deleted context), and a worker of that context is woken.
    #[inline]
    pub(crate) fn push_to_context(&self, tasks: Vec<TaskRef>) {
        crate::sched::contexts::push_to_context(self, tasks)
    }

    /// The next task for worker `w` from its contexts, global first.
    #[inline]
    pub(crate) fn pop_from_contexts(&self, w: usize) -> Option<TaskRef> {
        crate::sched::contexts::pop_from_contexts(self, w)
    }

    /// Whether worker `w` may find work in one of its contexts.
    #[inline]
    pub(crate) fn contexts_have_work(&self, w: usize) -> bool {
        crate::sched::contexts::contexts_have_work(self, w)
    }

    /// Tasks queued in contexts other than the global one.
    #[inline]
    pub(crate) fn contexts_ntasks(&self) -> usize {
        crate::sched::contexts::contexts_ntasks(self)
    }

    /// The policy of the context `task` was pushed to, for the hooks around its
    /// execution (`pre_exec_hook`, `post_exec_hook`).
    #[inline]
    pub(crate) fn with_task_policy(&self, task: &Task, f: impl FnOnce(&dyn Policy)) {
        crate::sched::contexts::with_task_policy(self, task, f)
    }

    /// Tells every context's policy that the runtime stops (after the last task).
    #[inline]
    pub(crate) fn deinit_policies(&self) {
        crate::sched::contexts::deinit_policies(self)
    }

    /// Reserves `workers` (each hold is counted: a worker is free once every holder
    /// released it).
    #[inline]
    pub(crate) fn reserve_workers(&self, workers: &[usize]) {
        crate::sched::contexts::reserve_workers(self, workers)
    }

    /// Releases one hold on each of `workers` and wakes those that became free.
    #[inline]
    pub(crate) fn release_workers(&self, workers: &[usize]) {
        crate::sched::contexts::release_workers(self, workers)
    }

    /// Whether worker `w` is reserved (by a parallel worker or parallel code).
    #[inline]
    pub fn worker_reserved(&self, w: usize) -> bool {
        crate::sched::contexts::worker_reserved(self, w)
    }

    /// The first worker of context `id`, which runs its tasks when it is master-only
    /// (StarPU's `main_master`); `None` for a context scheduled over all its workers.
    #[inline]
    pub fn context_master(&self, id: u32) -> Result<Option<usize>> {
        crate::sched::contexts::context_master(self, id)
    }

    /// The master-only context whose master is worker `w` (the parallel worker it runs
    /// tasks for), if any.
    #[inline]
    pub fn master_context_of(&self, w: usize) -> Option<u32> {
        crate::sched::contexts::master_context_of(self, w)
    }

    /// Whether worker `w` is a member, other than the master, of a master-only context
    /// (StarPU's "slave somewhere"): it runs no task of that context itself and is there
    /// for the threads the master's kernels start.
    #[inline]
    pub fn worker_is_subordinate(&self, w: usize) -> bool {
        crate::sched::contexts::worker_is_subordinate(self, w)
    }

    /// The context `id` is nested in, if any (a parallel worker's machine context).
    #[inline]
    pub fn context_nested_in(&self, id: u32) -> Result<Option<u32>> {
        crate::sched::contexts::context_nested_in(self, id)
    }

    /// Nests context `id` in `parent` (see [`ContextOptions::nested_in`]).
    #[inline]
    pub fn set_context_nesting(&self, id: u32, parent: u32) -> Result<()> {
        crate::sched::contexts::set_context_nesting(self, id, parent)
    }

    /// The logical CPU of worker `w`: the one it is bound to, else the one the binding
    /// would have given it.
    #[inline]
    pub fn worker_cpuid(&self, w: usize) -> usize {
        crate::sched::contexts::worker_cpuid(self, w)
    }

    /// The CPUs of context `id` the calling thread may use
    /// (`starpu_sched_ctx_get_available_cpuids`), as StarPU answers: every member's CPU
    /// to a thread that is not a worker and to the context's master; a worker of the
    /// context that is not its master gets its own CPU; any other worker none. A master
    /// of a parallel worker nested in `id` gets its parallel worker's CPUs (it runs the
    /// machine context's tasks on behalf of its group).
    #[inline]
    pub fn available_cpuids(&self, id: u32) -> Result<Vec<usize>> {
        crate::sched::contexts::available_cpuids(self, id)
    }

    /// Binds the calling thread to logical CPU `cpuid`
    /// (`starpu_sched_ctx_bind_current_thread_to_cpuid`).
    #[inline]
    pub fn bind_current_thread_to_cpuid(&self, cpuid: usize) -> Result<()> {
        crate::sched::contexts::bind_current_thread_to_cpuid(self, cpuid)
    }

    /// Runs `f` while context `id`'s workers are reserved
    /// (`starpu_sched_ctx_exec_parallel_code`): each finishes its current task and takes
    /// no other until `f` returns, so `f` may spread threads over their CPUs
    /// ([`Runtime::available_cpuids`]). The calling thread, when it is one of them, is
    /// not waited for.
    #[inline]
    pub fn exec_parallel_code<R>(&self, id: u32, f: impl FnOnce() -> R) -> Result<R> {
        crate::sched::contexts::exec_parallel_code(self, id, f)
    }
}

impl Runtime {
    /// Sets the priority of context `id` for each of `workers`
    /// (`starpu_sched_ctx_set_priority`): each looks for work in its contexts from the
    /// highest priority down. Ids of combined workers are passed over, as StarPU does;
    /// a worker that is not in the context is an error, and nothing changes then.
    #[inline]
    pub fn set_context_worker_priority(&self, id: u32, workers: &[usize], prio: u32) -> Result<()> {
        crate::sched::contexts::priority::set_context_worker_priority(
            &self.contexts,
            id,
            workers,
            prio,
        )
    }

    /// Worker `w`'s priority in context `id` (`starpu_sched_ctx_get_priority`).
    #[inline]
    pub fn context_worker_priority(&self, w: usize, id: u32) -> Result<u32> {
        crate::sched::contexts::priority::context_worker_priority(&self.contexts, w, id)
    }
}
