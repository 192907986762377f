//! What the recorder stores: one fixed-size record per event ([`RawEvent`]), and its
//! meaning ([`What`]).
//!
//! The task path writes raw records (five numbers, no allocation); everything that reads
//! a trace decodes them once, here, so the layout has one definition. The raw file
//! (`file.rs`) stores the same five numbers, so decoding a file and decoding memory are
//! the same code.

use crate::data::AccessMode;

/// One event as recorded: its time, the task it is about (0: none) and three numbers
/// whose meaning depends on `code` (see [`What::decode`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RawEvent {
    /// Nanoseconds on the runtime's clock (`clock::now_ns`).
    pub time: u64,
    pub task: u64,
    pub a: u64,
    pub b: u64,
    pub c: u32,
    pub code: u16,
    pub x: u16,
}

/// Set in a buffered event's code when its time is already in nanoseconds rather than a
/// clock stamp (`clock.rs`); never in a [`crate::trace::Trace`].
pub(crate) const NS_TIME: u16 = 0x8000;

/// Event codes. Stable: they are what the raw file stores.
pub(crate) mod code {
    pub const SUBMIT: u16 = 1;
    pub const ACCESS: u16 = 2;
    pub const DEP: u16 = 3;
    pub const END_DEP: u16 = 4;
    pub const TAG_DEP: u16 = 5;
    pub const PUSH: u16 = 6;
    // 7 was a separate pop event: a start now says the worker took the task.
    pub const START: u16 = 8;
    pub const END: u16 = 9;
    // 10 was a callback start: callbacks start when the task ends.
    pub const CALLBACK_END: u16 = 11;
    pub const SLEEP: u16 = 12;
    pub const WAKE: u16 = 13;
    pub const WAIT_BEGIN: u16 = 14;
    pub const WAIT_END: u16 = 15;
    pub const USER: u16 = 16;
    pub const USER_STRING: u16 = 17;
    pub const ITERATION_PUSH: u16 = 18;
    pub const ITERATION_POP: u16 = 19;
    pub const TRANSFER: u16 = 20;
}

/// What a thread waits for (a Paje "Waiting" state on an application thread).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaitKind {
    /// `starpu_task_wait_for_all` and its variants.
    All,
    /// One task (`starpu_task_wait`, a synchronous submission).
    Task,
    /// Tags (`starpu_tag_wait`).
    Tag,
}

impl WaitKind {
    fn from_code(v: u64) -> WaitKind {
        match v {
            1 => WaitKind::Task,
            2 => WaitKind::Tag,
            _ => WaitKind::All,
        }
    }

    pub(crate) fn code(self) -> u64 {
        match self {
            WaitKind::All => 0,
            WaitKind::Task => 1,
            WaitKind::Tag => 2,
        }
    }
}

/// The meaning of one event. Names and strings are ids into the trace's string table
/// ([`crate::trace::Trace::string`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum What {
    /// A task was submitted by this thread.
    Submit {
        task: u64,
        name: u32,
        /// `0xRRGGBB`, 0 for none (the task's colour, else its codelet's).
        color: u32,
        priority: i32,
        tag: Option<u64>,
    },
    /// One of the task's buffers, recorded at submission.
    Access {
        task: u64,
        /// The handle's address (as StarPU's traces name handles).
        handle: u64,
        size: u64,
        mode: AccessMode,
        /// The data interface's id (`STARPU_VECTOR_INTERFACE_ID`...).
        interface: u32,
        index: u16,
        /// Whether the access takes part in implicit dependencies.
        sequential: bool,
    },
    /// `succ` waits for the end of `pred` (declared dependency).
    Dep {
        pred: u64,
        succ: u64,
    },
    /// `succ`'s end waits for `pred`'s end (`starpu_task_declare_end_deps`).
    EndDep {
        pred: u64,
        succ: u64,
    },
    /// Tag `tag` waits for tag `dep` (`starpu_tag_declare_deps`).
    TagDep {
        tag: u64,
        dep: u64,
    },
    /// The task's dependencies are met: it goes to the scheduler.
    Push {
        task: u64,
    },
    /// A worker took the task and starts it (data fetch, then the kernel).
    Start {
        task: u64,
    },
    /// The task's kernel is over: the implementation that ran, its footprint and data
    /// size (as performance models key them), and its model's symbol, if any.
    End {
        task: u64,
        nimpl: u32,
        footprint: u32,
        size: u64,
        model: Option<u32>,
    },
    /// The task's callbacks, which start at its end, are over.
    CallbackEnd {
        task: u64,
    },
    /// A worker found nothing to do and parks.
    Sleep,
    Wake,
    WaitBegin {
        kind: WaitKind,
        task: u64,
    },
    WaitEnd,
    /// `starpu_fxt_trace_user_event(code)`.
    User {
        code: u64,
    },
    /// `starpu_fxt_trace_user_event_string` (`meta`: `_user_meta_string`).
    UserString {
        text: u32,
        meta: bool,
    },
    /// `starpu_iteration_push(iteration)`.
    IterationPush {
        iteration: u64,
    },
    IterationPop,
    /// A data transfer between memory nodes, from the event's time to `end`.
    Transfer {
        src: u32,
        dst: u32,
        bytes: u64,
        handle: u64,
        end: u64,
    },
    /// An event this version does not know (a newer writer): kept, not interpreted.
    Unknown {
        code: u16,
    },
}

const NO_TAG: u64 = u64::MAX;

impl What {
    /// The raw fields for this event (time aside).
    pub(crate) fn encode(&self) -> RawEvent {
        let r = |code, task, a, b, c, x| RawEvent {
            time: 0,
            task,
            a,
            b,
            c,
            code,
            x,
        };
        match *self {
            What::Submit {
                task,
                name,
                color,
                priority,
                tag,
            } => r(
                code::SUBMIT,
                task,
                u64::from(name) | u64::from(color) << 32,
                tag.unwrap_or(NO_TAG),
                priority as u32,
                0,
            ),
            What::Access {
                task,
                handle,
                size,
                mode,
                interface,
                index,
                sequential,
            } => r(
                code::ACCESS,
                task,
                handle,
                size,
                mode.bits() | interface << 16,
                index | u16::from(sequential) << 15,
            ),
            What::Dep { pred, succ } => r(code::DEP, succ, pred, 0, 0, 0),
            What::EndDep { pred, succ } => r(code::END_DEP, succ, pred, 0, 0, 0),
            What::TagDep { tag, dep } => r(code::TAG_DEP, 0, tag, dep, 0, 0),
            What::Push { task } => r(code::PUSH, task, 0, 0, 0, 0),
            What::Start { task } => r(code::START, task, 0, 0, 0, 0),
            What::End {
                task,
                nimpl,
                footprint,
                size,
                model,
            } => r(
                code::END,
                task,
                u64::from(footprint) | u64::from(nimpl) << 32,
                size,
                model.map_or(0, |m| m + 1),
                0,
            ),
            What::CallbackEnd { task } => r(code::CALLBACK_END, task, 0, 0, 0, 0),
            What::Sleep => r(code::SLEEP, 0, 0, 0, 0, 0),
            What::Wake => r(code::WAKE, 0, 0, 0, 0, 0),
            What::WaitBegin { kind, task } => r(code::WAIT_BEGIN, task, kind.code(), 0, 0, 0),
            What::WaitEnd => r(code::WAIT_END, 0, 0, 0, 0, 0),
            What::User { code } => r(code::USER, 0, code, 0, 0, 0),
            What::UserString { text, meta } => {
                r(code::USER_STRING, 0, u64::from(text), 0, 0, u16::from(meta))
            }
            What::IterationPush { iteration } => r(code::ITERATION_PUSH, 0, iteration, 0, 0, 0),
            What::IterationPop => r(code::ITERATION_POP, 0, 0, 0, 0, 0),
            What::Transfer {
                src,
                dst,
                bytes,
                handle,
                end,
            } => r(
                code::TRANSFER,
                end,
                bytes,
                handle,
                src,
                u16::try_from(dst).unwrap_or(u16::MAX),
            ),
            What::Unknown { code } => r(code, 0, 0, 0, 0, 0),
        }
    }

    /// The meaning of a raw record.
    pub fn decode(e: &RawEvent) -> What {
        match e.code {
            code::SUBMIT => What::Submit {
                task: e.task,
                name: e.a as u32,
                color: (e.a >> 32) as u32,
                priority: e.c as i32,
                tag: (e.b != NO_TAG).then_some(e.b),
            },
            code::ACCESS => What::Access {
                task: e.task,
                handle: e.a,
                size: e.b,
                mode: AccessMode::from_bits_retain(e.c & 0xffff),
                interface: e.c >> 16,
                index: e.x & 0x7fff,
                sequential: e.x & 0x8000 != 0,
            },
            code::DEP => What::Dep {
                pred: e.a,
                succ: e.task,
            },
            code::END_DEP => What::EndDep {
                pred: e.a,
                succ: e.task,
            },
            code::TAG_DEP => What::TagDep { tag: e.a, dep: e.b },
            code::PUSH => What::Push { task: e.task },
            code::START => What::Start { task: e.task },
            code::END => What::End {
                task: e.task,
                nimpl: (e.a >> 32) as u32,
                footprint: e.a as u32,
                size: e.b,
                model: e.c.checked_sub(1),
            },
            code::CALLBACK_END => What::CallbackEnd { task: e.task },
            code::SLEEP => What::Sleep,
            code::WAKE => What::Wake,
            code::WAIT_BEGIN => What::WaitBegin {
                kind: WaitKind::from_code(e.a),
                task: e.task,
            },
            code::WAIT_END => What::WaitEnd,
            code::USER => What::User { code: e.a },
            code::USER_STRING => What::UserString {
                text: e.a as u32,
                meta: e.x != 0,
            },
            code::ITERATION_PUSH => What::IterationPush { iteration: e.a },
            code::ITERATION_POP => What::IterationPop,
            code::TRANSFER => What::Transfer {
                src: e.c,
                dst: u32::from(e.x),
                bytes: e.a,
                handle: e.b,
                end: e.task,
            },
            code => What::Unknown { code },
        }
    }

    /// The task the event is about, if any.
    pub fn task(&self) -> Option<u64> {
        match *self {
            What::Submit { task, .. }
            | What::Access { task, .. }
            | What::Push { task }
            | What::Start { task }
            | What::End { task, .. }
            | What::CallbackEnd { task } => Some(task),
            What::Dep { succ, .. } | What::EndDep { succ, .. } => Some(succ),
            What::WaitBegin { task, .. } if task != 0 => Some(task),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_event_survives_encoding() {
        let all = [
            What::Submit {
                task: 7,
                name: 3,
                color: 0xff8800,
                priority: -2,
                tag: Some(5),
            },
            What::Submit {
                task: 7,
                name: 0,
                color: 0,
                priority: 0,
                tag: None,
            },
            What::Access {
                task: 7,
                handle: 0xdead_beef,
                size: 800,
                mode: AccessMode::RW | AccessMode::COMMUTE,
                interface: 2,
                index: 3,
                sequential: true,
            },
            What::Dep { pred: 1, succ: 2 },
            What::EndDep { pred: 1, succ: 2 },
            What::TagDep { tag: 4, dep: 9 },
            What::Push { task: 1 },
            What::Start { task: 1 },
            What::End {
                task: 1,
                nimpl: 1,
                footprint: 0xabcdef01,
                size: 64,
                model: Some(0),
            },
            What::End {
                task: 1,
                nimpl: 0,
                footprint: 0,
                size: 0,
                model: None,
            },
            What::CallbackEnd { task: 1 },
            What::Sleep,
            What::Wake,
            What::WaitBegin {
                kind: WaitKind::Tag,
                task: 0,
            },
            What::WaitEnd,
            What::User { code: 42 },
            What::UserString {
                text: 2,
                meta: true,
            },
            What::IterationPush { iteration: 3 },
            What::IterationPop,
            What::Transfer {
                src: 0,
                dst: 1,
                bytes: 4096,
                handle: 0x10,
                end: 99,
            },
        ];
        for w in all {
            assert_eq!(What::decode(&w.encode()), w);
        }
    }
}
