//! Submission: checking a task, wiring its dependencies, and handing ready tasks to the
//! scheduling policy.

use super::Runtime;
use crate::data::AccessMode;
use crate::error::{Error, Result};
use crate::task::{self, state, TaskKind, TaskRef, TaskSpec};
use crate::worker;
use std::sync::atomic::Ordering;

pub use crate::task::ReadyList;

impl Runtime {
    /// Submits `task` with its description. On error nothing changed: the task stays
    /// unsubmitted and every handle and earlier task is untouched. Either way the face
    /// hears `TaskHooks::dropped` once for this description: when the task holding it
    /// goes, or now if it is refused.
    pub fn submit(&self, task: &TaskRef, mut spec: TaskSpec) -> Result<()> {
        let admitted = self.resolve_context(spec.sched_ctx).and_then(|ctx| {
            spec.sched_ctx = ctx;
            self.admit(task, &mut spec)
        });
        if let Err(e) = admitted {
            if let Some(h) = &spec.hooks {
                task::guarded(self, task, "the drop hook", || h.dropped(task));
            }
            return Err(e);
        }
        if worker::may_block() {
            self.throttle();
        }
        // The priority caps (`starpu.task.s_{max,min}_priority_cap_knob`).
        spec.priority = self.knobs.cap_priority(spec.priority);
        let synchronous = spec.synchronous;
        // Partition plans: the views of this task's data are switched first, and the plan
        // lock is held until its accesses are ordered (data/partition/implicit.rs).
        let plans = crate::task::partition::before_submit(self, &spec);
        // `admit` made this thread the one that submits `task`: the cell is empty.
        let (ctx, acquisition) = (spec.sched_ctx, matches!(spec.kind, TaskKind::Acquire(_)));
        task.install_spec(spec);
        self.count.submitted(ctx, !acquisition);
        self.watch_submitted(task);
        self.note_submitted(task);
        let spec = task.spec().expect("installed above");
        self.register_accesses(task, spec);
        drop(plans);
        if let Some(tag) = spec.tag {
            self.tags.attach(tag, task);
        }
        if task.drop_pending() {
            self.schedule_one(task.clone());
        }
        if synchronous {
            self.wait_task(task)?;
        }
        Ok(())
    }

    /// Submits a task the runtime makes for its own bookkeeping (partition switches): no
    /// throttling, no partition-plan look-up, and when it is ready at once it joins
    /// `ready`, for the caller to schedule once it released its locks.
    pub(crate) fn submit_internal(
        &self,
        task: &TaskRef,
        mut spec: TaskSpec,
        ready: &mut ReadyList,
    ) -> Result<()> {
        self.admit(task, &mut spec)?;
        self.count.submitted(spec.sched_ctx, true);
        task.install_spec(spec);
        self.watch_submitted(task);
        self.trace.submitted(task);
        self.register_accesses(task, task.spec().expect("installed above"));
        if task.drop_pending() {
            ready.push(task.clone());
        }
        Ok(())
    }

    /// Checks a submission and marks the task submitted; nothing else changes on error.
    fn admit(&self, task: &TaskRef, spec: &mut TaskSpec) -> Result<()> {
        self.check_accepting()?;
        self.check_spec(spec)?;
        if spec.synchronous && !worker::may_block() {
            return Err(Error::deadlock(
                "task submission: a synchronous task cannot be submitted from a task or a \
                 callback (it would wait for itself)",
            ));
        }
        if task.reaches(task) {
            return Err(Error::deadlock(format!(
                "task submission: task {} waits, through its explicit dependencies, for a \
                 task that waits for it (a cycle would wait forever)",
                task.label()
            )));
        }
        if !task.mark_submitted() {
            return Err(Error::invalid(
                "task submission: the task was submitted already (wait for it to end before \
                 submitting it again)",
            ));
        }
        task.clear_sched_impl();
        Ok(())
    }

    /// One submitted task (or acquisition) is over for `wait_for_all`.
    pub(crate) fn task_left(&self) {
        self.count.ended();
        // The count is summed over the workers only when someone waits for it.
        if self.all_bell.has_waiters() && self.count.pending() <= self.watermark.get() {
            self.all_bell.ring();
        }
    }

    /// Checks a task's description against the codelet and its data; a buffer given
    /// without a mode takes the one the codelet declares.
    fn check_spec(&self, spec: &mut TaskSpec) -> Result<()> {
        let in_submission = |e: Error| Error::new(e.kind, format!("task submission: {e}"));
        if let Some(cl) = &spec.codelet {
            cl.check_count(spec.accesses.len()).map_err(in_submission)?;
            for (i, a) in spec.accesses.iter_mut().enumerate() {
                a.mode = cl.check_buffer(i, a.mode).map_err(in_submission)?;
            }
        }
        let acquisition = matches!(spec.kind, TaskKind::Acquire(_));
        for (i, a) in spec.accesses.iter().enumerate() {
            a.handle
                .check_usable()
                .and_then(|()| a.handle.check_mode(a.mode, a.sequential, acquisition))
                .and_then(|()| crate::data::redux::check_alone(&spec.accesses, i))
                .map_err(|e| Error::invalid(format!("task submission: buffer {i}: {e}")))?;
        }
        if let Some(w) = spec.worker {
            if w >= self.workers.len() {
                return Err(Error::invalid(format!(
                    "task submission: worker {w} does not exist (there are {} workers)",
                    self.workers.len()
                )));
            }
        }
        let Some(cl) = &spec.codelet else {
            return Ok(());
        };
        let mask = spec.where_mask.unwrap_or_else(|| cl.effective_where());
        if mask == 0 && spec.kind == TaskKind::Normal {
            // No implementation at all, and not STARPU_NOWHERE: StarPU answers -ENODEV (a
            // codelet with only CUDA or OpenCL kernels on a machine without them).
            return Err(Error::no_device(format!(
                "task submission: codelet {} has no implementation this build can run (no CPU \
                 function; set where = STARPU_NOWHERE for a task that runs nowhere)",
                cl.display_name()
            )));
        }
        let runs = mask & !task::where_mask::NOWHERE != 0;
        if runs && spec.kind == TaskKind::Normal {
            let cpu_ok =
                mask & self.worker_kinds & task::where_mask::CPU != 0 && !cl.cpu_funcs.is_empty();
            let kind_ok = cpu_ok || self.device_can_run(cl, mask, spec);
            // can_execute is asked again when a worker picks the task; asking now turns a
            // task no worker accepts into an error instead of a task that never runs.
            // (A task for one worker needs that worker to have an implementation.)
            let accepted = kind_ok
                && ((cl.can_execute.is_none() && spec.worker.is_none())
                    || self.someone_accepts(spec));
            if !accepted {
                let on_devices = !cl.opencl_funcs.is_empty() || !cl.cuda_funcs.is_empty();
                let multiformat = on_devices
                    && spec.accesses.iter().any(|a| {
                        a.handle.interface_id() == crate::data::interfaces::id::MULTIFORMAT
                    });
                let why = if multiformat {
                    task::multiformat::WHY_REFUSED
                } else {
                    ""
                };
                return Err(Error::no_device(format!(
                    "task submission: no worker can run codelet {} (where={mask:#x}, {} CPU, \
                     {} CUDA and {} OpenCL implementation(s), {} CUDA and {} OpenCL \
                     device(s){why})",
                    cl.display_name(),
                    cl.cpu_funcs.len(),
                    cl.cuda_funcs.len(),
                    cl.opencl_funcs.len(),
                    self.devices.ncuda(),
                    self.devices.nopencl()
                )));
            }
        }
        Ok(())
    }

    /// Whether a worker of a device kind of this runtime has an implementation `mask`
    /// allows, and may take the task's data.
    fn device_can_run(&self, cl: &task::Codelet, mask: u32, spec: &TaskSpec) -> bool {
        use crate::worker::WorkerKind;
        [WorkerKind::OpenCl, WorkerKind::Cuda].into_iter().any(|k| {
            self.worker_kinds & k.where_bit() != 0
                && mask & k.where_bit() != 0
                && !cl.funcs(k).is_empty()
                && super::device_can_take(spec, k)
        })
    }

    fn someone_accepts(&self, spec: &TaskSpec) -> bool {
        let probe = task::Task::probe();
        let _ = probe.install_spec(TaskSpec {
            codelet: spec.codelet.clone(),
            where_mask: spec.where_mask,
            worker: spec.worker,
            hooks: spec.hooks.clone(),
            payload: spec.payload.clone(),
            ..Default::default()
        });
        self.runnable_somewhere(&probe)
    }

    /// Blocks the submitter while too many tasks are pending
    /// (`STARPU_LIMIT_MAX_SUBMITTED_TASKS` / `STARPU_LIMIT_MIN_SUBMITTED_TASKS`).
    fn throttle(&self) {
        let Some(max) = self.config.limit_max_submitted else {
            return;
        };
        if self.count.submitted_ever() < max || self.count.pending() < max {
            return;
        }
        let min = self
            .config
            .limit_min_submitted
            .unwrap_or(max.saturating_sub(1))
            .min(max);
        // As StarPU does before it blocks here: a policy that holds tasks back until told
        // (graph_test) must release them, or the tasks this wait needs never run.
        self.do_schedule();
        self.wait_for_n_submitted(min);
    }

    /// Orders the task after earlier accesses to the same data.
    fn register_accesses(&self, task: &TaskRef, spec: &TaskSpec) {
        let acc = &spec.accesses;
        // Reduction tasks a non-REDUX access makes (`data/redux.rs`) that are ready at once.
        let mut reductions = ReadyList::new();
        for (i, a) in acc.iter().enumerate() {
            a.handle.0.in_flight.fetch_add(1, Ordering::SeqCst);
            if !a.sequential || a.mode.is_scratch() {
                continue;
            }
            // A handle given twice is one access whose mode is the union of both.
            if acc[..i]
                .iter()
                .any(|b| b.sequential && b.handle.ptr_eq(&a.handle))
            {
                continue;
            }
            let mode = acc[i..]
                .iter()
                .filter(|b| b.sequential && b.handle.ptr_eq(&a.handle))
                .fold(AccessMode::NONE, |m, b| m | b.mode);
            let mut deps = a.handle.0.deps.lock().unwrap_or_else(|e| e.into_inner());
            deps.register(task, mode, &mut |members| {
                crate::task::reduction::reduce(self, &a.handle, members, &mut reductions)
            });
            let plain_writer = mode.writes() && !mode.is_commute() && !mode.is_redux();
            let hint = if plain_writer { task.id() } else { 0 };
            // Written only when it changes: a run of readers would otherwise write the
            // handle's cache line once per task while the workers read it.
            if a.handle.0.last_writer_hint.load(Ordering::Relaxed) != hint {
                a.handle.0.last_writer_hint.store(hint, Ordering::Relaxed);
            }
            let pruned = deps.take_pruned();
            drop(deps);
            if !pruned.is_empty() {
                self.graveyard.bury(pruned);
            }
        }
        if !reductions.is_empty() {
            self.schedule(reductions);
        }
    }

    /// Moves ready tasks on: to the scheduling policy, to a pinned worker, straight to
    /// their end when they have nothing to run, or to the waiting acquirer. Tasks that
    /// became ready together are queued together, in the order they were released.
    pub(crate) fn schedule(&self, mut ready: ReadyList) {
        while !ready.is_empty() {
            // Tasks that ending a task with nothing to run releases: the next round.
            let mut next = ReadyList::new();
            if ready.len() == 1 {
                let t = ready.pop().expect("one task");
                if let Some(t) = self.take_ready(t, &mut next) {
                    self.push_to_policy_one(t);
                }
            } else {
                let mut queued = ReadyList::new();
                for t in ready.drain(..) {
                    if let Some(t) = self.take_ready(t, &mut next) {
                        queued.push(t);
                    }
                }
                self.push_to_policy(queued);
            }
            ready = next;
        }
    }

    /// Schedules one ready task: the common case (a task ready at submission, or released
    /// by its predecessor) goes to the policy without gathering a batch.
    pub(crate) fn schedule_one(&self, t: TaskRef) {
        let mut next = ReadyList::new();
        if let Some(t) = self.take_ready(t, &mut next) {
            self.push_to_policy_one(t);
        }
        if !next.is_empty() {
            self.schedule(next);
        }
    }

    /// One ready task: runs its prologue and hands it on; returns it when it is for the
    /// scheduling policy.
    fn take_ready(&self, t: TaskRef, next: &mut ReadyList) -> Option<TaskRef> {
        let spec = t.spec().expect("ready tasks were submitted");
        // A task commuting on data held by another waits; the holder's end hands it back
        // here (`data/commute.rs`).
        if !crate::data::commute::admit(&t) {
            return None;
        }
        t.set_state(state::READY);
        self.trace.pushed(&t);
        if let TaskKind::Acquire(node) = spec.kind {
            self.grant(&t, node);
            return None;
        }
        let runs = spec.codelet.as_ref().is_some_and(|cl| {
            spec.where_mask.unwrap_or_else(|| cl.effective_where()) & !task::where_mask::NOWHERE
                != 0
        });
        // As in StarPU, the prologue runs for every task whose dependencies are met, with a
        // kernel to run or not, as the current task.
        if let Some(h) = &spec.hooks {
            task::guarded_current(self, &t, "the prologue callback", || h.ready(&t));
        }
        if let Some(f) = t.take_prologue() {
            task::guarded_current(self, &t, "the prologue callback", f);
        }
        if !runs {
            // Its end may release more tasks: they join the next round.
            task::finish_without_running(self, &t, next);
            return None;
        }
        match spec.worker {
            Some(w) => {
                self.pinned[w].push(t);
                self.wake(Some(w));
                None
            }
            None => Some(t),
        }
    }

    fn push_to_policy_one(&self, t: TaskRef) {
        if self.contexts.is_active() {
            self.push_to_context(vec![t]);
            return;
        }
        let target = self.policy.push(t, worker::current_worker_id(), self);
        self.wake(target);
    }

    fn push_to_policy(&self, mut tasks: ReadyList) {
        if self.contexts.is_active() {
            self.push_to_context(tasks.into_vec());
            return;
        }
        match tasks.len() {
            0 => {}
            1 => self.push_to_policy_one(tasks.pop().expect("one task")),
            _ => {
                let from = worker::current_worker_id();
                for target in self.policy.push_all(tasks.into_vec(), from, self) {
                    self.wake(target);
                }
            }
        }
    }
}
