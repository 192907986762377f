//! `STARPU_CUDA_PIPELINE`: a CUDA worker may have up to N tasks queued on its stream.
//!
//! A task whose CUDA implementation is asynchronous (`STARPU_CUDA_ASYNC`) returns as soon
//! as its kernels are queued: the worker records an event on its stream after them and
//! goes on to the next task while the GPU works. The task ends (its data released, its
//! successors freed) once its event is over; the worker looks between tasks, waits for the
//! oldest when N tasks are queued, and for all of them before it idles. As in StarPU, the
//! tasks of one stream end in the order they were queued.
//!
//! The bookkeeping (`Pipeline`) is separate from CUDA: it only asks each entry's
//! completion whether it is over, so that it is tested without a GPU.

use std::collections::VecDeque;

/// What a queued task waits for: the event recorded after its kernels.
pub(crate) trait Completion {
    /// Whether it is over (an error: over, and failed).
    fn is_over(&self) -> bool;
    /// Waits until it is over; its kernels' error, if any.
    fn wait(&self) -> crate::error::Result<()>;
}

/// The tasks queued on one worker's stream, oldest first.
pub(crate) struct Pipeline<T, C> {
    capacity: usize,
    queued: VecDeque<(T, C)>,
}

/// How much of the pipeline the worker ends now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Drain {
    /// What is over, and the oldest tasks until there is room for one more.
    MakeRoom,
    /// Everything (the worker is about to idle, or to run a task that is not queued).
    All,
}

impl<T, C: Completion> Pipeline<T, C> {
    /// A pipeline of at most `capacity` tasks (0: none are queued).
    pub(crate) fn new(capacity: usize) -> Self {
        Pipeline {
            capacity,
            queued: VecDeque::new(),
        }
    }

    /// Whether tasks may be queued at all.
    pub(crate) fn enabled(&self) -> bool {
        self.capacity > 0
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.queued.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.queued.is_empty()
    }

    /// Queues `task`, over when `completion` is (the caller made room first).
    pub(crate) fn push(&mut self, task: T, completion: C) {
        debug_assert!(self.queued.len() < self.capacity.max(1));
        self.queued.push_back((task, completion));
    }

    /// Takes the tasks to end now, in order, each with its kernels' outcome: those over
    /// (from the oldest, stopping at the first still running), then, waiting for them,
    /// the oldest until `drain` is satisfied.
    pub(crate) fn take(&mut self, drain: Drain) -> Vec<(T, crate::error::Result<()>)> {
        let mut out = Vec::new();
        while let Some((_, c)) = self.queued.front() {
            let must = match drain {
                Drain::All => true,
                Drain::MakeRoom => self.queued.len() >= self.capacity,
            };
            if !must && !c.is_over() {
                break;
            }
            let (t, c) = self.queued.pop_front().expect("looked at above");
            out.push((t, c.wait()));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use std::cell::Cell;
    use std::rc::Rc;

    /// A completion the test ends by hand (`over`), recording when it was waited for.
    struct Flag {
        over: Rc<Cell<bool>>,
        fails: bool,
        waited: Rc<Cell<usize>>,
    }

    impl Completion for Flag {
        fn is_over(&self) -> bool {
            self.over.get()
        }
        fn wait(&self) -> crate::error::Result<()> {
            self.waited.set(self.waited.get() + 1);
            self.over.set(true);
            if self.fails {
                Err(Error::new(
                    crate::error::ErrorKind::TaskFailed,
                    "kernel failed",
                ))
            } else {
                Ok(())
            }
        }
    }

    fn flags(n: usize) -> (Vec<Rc<Cell<bool>>>, Rc<Cell<usize>>) {
        (
            (0..n).map(|_| Rc::new(Cell::new(false))).collect(),
            Rc::new(Cell::new(0)),
        )
    }

    fn flag(over: &Rc<Cell<bool>>, waited: &Rc<Cell<usize>>, fails: bool) -> Flag {
        Flag {
            over: over.clone(),
            fails,
            waited: waited.clone(),
        }
    }

    fn ids(v: Vec<(usize, crate::error::Result<()>)>) -> Vec<usize> {
        v.into_iter().map(|(t, _)| t).collect()
    }

    #[test]
    fn tasks_end_in_order_once_over_and_the_oldest_is_waited_for_when_full() {
        let (over, waited) = flags(4);
        let mut p = Pipeline::new(2);
        assert!(p.enabled());
        p.push(0, flag(&over[0], &waited, false));
        // Room for one more: nothing waits, nothing is over yet.
        assert!(p.take(Drain::MakeRoom).is_empty());
        p.push(1, flag(&over[1], &waited, false));
        // Full: the oldest is waited for, the second stays queued.
        assert_eq!(ids(p.take(Drain::MakeRoom)), [0]);
        assert_eq!((waited.get(), p.len()), (1, 1));
        p.push(2, flag(&over[2], &waited, false));
        // Task 2 is over before task 1: it still ends after it (one stream, in order).
        over[2].set(true);
        assert_eq!(ids(p.take(Drain::MakeRoom)), [1, 2]);
        assert_eq!(waited.get(), 2 + 1, "1 was waited for, 2 was over");
        assert!(p.is_empty());
    }

    #[test]
    fn tasks_over_end_without_waiting_and_draining_ends_everything() {
        let (over, waited) = flags(3);
        let mut p = Pipeline::new(3);
        for (i, o) in over.iter().enumerate() {
            if i < 2 {
                p.push(i, flag(o, &waited, false));
            }
        }
        over[0].set(true);
        assert_eq!(ids(p.take(Drain::MakeRoom)), [0]);
        p.push(2, flag(&over[2], &waited, true));
        let all = p.take(Drain::All);
        assert_eq!(all.len(), 2);
        assert!(all[0].1.is_ok());
        assert_eq!(
            all[1].1.as_ref().unwrap_err().message,
            "kernel failed",
            "a kernel's error comes back with its task"
        );
        assert!(p.is_empty() && p.take(Drain::All).is_empty());
    }

    #[test]
    fn a_pipeline_of_zero_queues_nothing() {
        let p: Pipeline<usize, Flag> = Pipeline::new(0);
        assert!(!p.enabled());
    }
}
