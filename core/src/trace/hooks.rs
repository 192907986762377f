//! What the runtime tells the recorder, one call per point of a task's life. Each is
//! inline and returns at once when tracing is off.

use super::event::{WaitKind, What};
use super::recorder::Recorder;
use crate::task::observer::Dependency;
use crate::task::Task;

impl Recorder {
    /// `task` was submitted (its description installed): its name, colour, priority and
    /// tag, and each of its buffers.
    #[inline]
    pub(crate) fn submitted(&self, task: &Task) {
        if self.is_on() {
            self.record_submission(task);
        }
    }

    #[inline(never)]
    fn record_submission(&self, task: &Task) {
        let Some(spec) = task.spec() else {
            return;
        };
        let now = self.stamp();
        let (mut name, mut color) = (0, 0);
        let mut label = |n: Option<&str>, c: u32| {
            name = n.map_or(0, |n| self.intern(n));
            color = c;
        };
        match (&spec.name, &spec.hooks) {
            (Some(n), _) => label(Some(n), 0),
            (None, Some(h)) => h.with_trace_label(task, &mut label),
            (None, None) => label(None, 0),
        }
        if let Some(cl) = &spec.codelet {
            if name == 0 {
                name = cl.name.as_deref().map_or(0, |n| self.intern(n));
            }
            if color == 0 {
                color = cl.color;
            }
        }
        let id = task.id();
        self.record_at(
            now,
            What::Submit {
                task: id,
                name,
                color,
                priority: spec.priority,
                tag: spec.tag,
            },
        );
        for (i, a) in spec.accesses.iter().enumerate() {
            self.record_at(
                now,
                What::Access {
                    task: id,
                    handle: std::sync::Arc::as_ptr(&a.handle.0) as u64,
                    size: a.handle.size() as u64,
                    mode: a.mode,
                    interface: a.handle.interface_id() as u32,
                    index: i as u16,
                    sequential: a.sequential,
                },
            );
        }
    }

    /// `task`'s dependencies are met: it goes to its worker or the scheduler. Stamped
    /// with the calling thread's previous event: the submission or the end that made it
    /// ready (a clock reading less per task).
    #[inline]
    pub(crate) fn pushed(&self, task: &Task) {
        self.record_after_last(What::Push { task: task.id() });
    }

    /// The calling worker took `task` and starts it (data, then kernel).
    #[inline]
    pub(crate) fn started(&self, task: &Task) {
        self.record(What::Start { task: task.id() });
    }

    /// The calling worker ran `task`: the implementation and, for a task with a
    /// performance model, the footprint and size the model knows it by (computed only
    /// then: they cost more than the rest of the event).
    #[inline]
    pub(crate) fn ended(&self, task: &Task) {
        if self.is_on() {
            self.record_end(task);
        }
    }

    #[inline(never)]
    fn record_end(&self, task: &Task) {
        let now = self.stamp();
        let Some(spec) = task.spec() else {
            return;
        };
        let nimpl = task.implementation();
        let model = spec.codelet.as_ref().and_then(|c| c.model.as_ref());
        let (footprint, size, symbol) = match model {
            Some(m) => (
                crate::perfmodel::footprint(model, spec, nimpl),
                crate::perfmodel::data_size(model, spec, nimpl) as u64,
                m.symbol.as_deref().map(|s| self.intern(s)),
            ),
            None => (0, 0, None),
        };
        self.record_at(
            now,
            What::End {
                task: task.id(),
                nimpl: nimpl as u32,
                footprint,
                size,
                model: symbol,
            },
        );
    }

    /// The task's callbacks (run right after its end) are over. Tasks with none (no face
    /// hooks, no callback closure) record nothing.
    #[inline]
    pub(crate) fn callbacks_done(&self, task: &Task) {
        if self.is_on() && (task.has_callback() || task.spec().is_some_and(|s| s.hooks.is_some())) {
            self.record(What::CallbackEnd { task: task.id() });
        }
    }

    /// The calling worker parks (`asleep`) or wakes up.
    #[inline]
    pub(crate) fn sleeping(&self, asleep: bool) {
        self.record(if asleep { What::Sleep } else { What::Wake });
    }

    /// The calling thread starts waiting (for `task`, if it waits for one).
    #[inline]
    pub(crate) fn wait_begin(&self, kind: WaitKind, task: Option<&Task>) {
        if self.is_on() {
            let task = task.map_or(0, |t| t.id());
            self.record(What::WaitBegin { kind, task });
        }
    }

    #[inline]
    pub(crate) fn wait_end(&self) {
        self.record(What::WaitEnd);
    }

    /// `starpu_fxt_trace_user_event(code)`.
    pub fn user_event(&self, code: u64) {
        self.record(What::User { code });
    }

    /// `starpu_fxt_trace_user_event_string` (`meta`: `starpu_fxt_trace_user_meta_string`,
    /// which StarPU records even before tracing starts).
    pub fn user_string(&self, text: &str, meta: bool) {
        if self.is_on() || meta {
            let text = self.intern(text);
            self.record_at(self.stamp(), What::UserString { text, meta });
        }
    }

    /// `starpu_iteration_push(iteration)`: the tasks this thread submits next belong to
    /// `iteration` (until the matching pop).
    pub fn iteration_push(&self, iteration: u64) {
        self.record(What::IterationPush { iteration });
    }

    /// `starpu_iteration_pop`.
    pub fn iteration_pop(&self) {
        self.record(What::IterationPop);
    }

    /// A transfer of `bytes` of `handle` (its address, 0 if none) from memory node `src`
    /// to `dst`, from `start_ns` to `end_ns` (the runtime's clock,
    /// [`crate::clock::now_ns`]). For the memory-node drivers: call it once each
    /// copy is over.
    pub fn transfer(
        &self,
        src: usize,
        dst: usize,
        bytes: u64,
        handle: u64,
        start_ns: u64,
        end_ns: u64,
    ) {
        if self.is_on() {
            self.record_at_ns(
                start_ns,
                What::Transfer {
                    src: src as u32,
                    dst: dst as u32,
                    bytes,
                    handle,
                    end: end_ns,
                },
            );
        }
    }
}

/// A dependency declared between tasks or tags (`task::observer`), recorded by the
/// recorder in use.
pub(crate) fn dependency(d: Dependency) {
    super::recorder::ambient(match d {
        Dependency::Task { pred, succ } => What::Dep { pred, succ },
        Dependency::End { pred, succ } => What::EndDep { pred, succ },
        Dependency::Tag { tag, dep } => What::TagDep { tag, dep },
    });
}
