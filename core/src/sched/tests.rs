//! Policies driven alone, through a test view: no runtime, no worker thread. The view
//! answers what the runtime would (who may run a task, how long it should take where, how
//! long its data would take to get there), so a test sets up a machine's answers and
//! checks where a policy puts tasks and in what order workers get them.

use super::central::Central;
use super::dm::{Dm, Variant};
use super::queue::FifoQueue;
use super::{Expected, Policy, SchedView};
use crate::memory::{NodeId, MAIN_RAM};
use crate::perfmodel::PerfArch;
use crate::task::{Task, TaskRef};
use crate::worker::Worker;

/// A machine of CPU workers on main memory, with a length and a transfer time per worker.
struct View {
    length_us: Vec<f64>,
    transfer_us: Vec<f64>,
}

impl SchedView for View {
    fn nworkers(&self) -> usize {
        self.length_us.len()
    }
    fn worker_arch(&self, _w: usize) -> PerfArch {
        PerfArch::cpu()
    }
    fn worker_node(&self, _w: usize) -> NodeId {
        MAIN_RAM
    }
    fn can_run(&self, _task: &Task, _w: usize) -> bool {
        true
    }
    fn nimpls(&self, _task: &Task, _w: usize) -> usize {
        1
    }
    fn can_run_impl(&self, _task: &Task, _w: usize, nimpl: usize) -> bool {
        nimpl == 0
    }
    fn expected_length(&self, _task: &Task, w: usize, _nimpl: usize) -> Expected {
        Expected::Length(self.length_us[w])
    }
    fn expected_transfer(&self, _task: &Task, w: usize) -> f64 {
        self.transfer_us[w]
    }
}

fn workers(n: usize) -> Vec<Worker> {
    (0..n).map(|id| Worker::new(id, None)).collect()
}

fn ids(tasks: &[TaskRef]) -> Vec<u64> {
    tasks.iter().map(|t| t.id()).collect()
}

fn pop_all(p: &dyn Policy, w: usize) -> Vec<u64> {
    std::iter::from_fn(|| p.pop(w, &|_| true))
        .map(|t| t.id())
        .collect()
}

#[test]
fn dm_places_tasks_where_they_end_first() {
    // Worker 1 is ten times faster: three tasks end there (at 10, 20, 30 µs) before one
    // would end on worker 0 (100 µs).
    let view = View {
        length_us: vec![100.0, 10.0],
        transfer_us: vec![0.0, 0.0],
    };
    let dm = Dm::new(Variant::Dm, &workers(2));
    let tasks: Vec<TaskRef> = (0..3).map(|_| Task::new()).collect();
    for t in &tasks {
        assert_eq!(dm.push(t.clone(), None, &view), Some(1));
    }
    assert_eq!(dm.ntasks(), 3);
    assert_eq!(pop_all(&dm, 0), Vec::<u64>::new());
    assert_eq!(pop_all(&dm, 1), ids(&tasks));
}

#[test]
fn dmda_counts_the_data_transfer_and_dm_does_not() {
    // Worker 1 computes faster but its data would take 1 ms to arrive.
    let view = View {
        length_us: vec![100.0, 10.0],
        transfer_us: vec![0.0, 1000.0],
    };
    let dmda = Dm::new(Variant::Dmda, &workers(2));
    assert_eq!(dmda.push(Task::new(), None, &view), Some(0));
    let dm = Dm::new(Variant::Dm, &workers(2));
    assert_eq!(dm.push(Task::new(), None, &view), Some(1));
}

#[test]
fn a_central_fifo_serves_any_worker_in_submission_order() {
    let view = View {
        length_us: vec![1.0; 2],
        transfer_us: vec![0.0; 2],
    };
    let eager = Central::<FifoQueue>::new("eager", (0, 0));
    let tasks: Vec<TaskRef> = (0..4).map(|_| Task::new()).collect();
    assert_eq!(eager.push_all(tasks.clone(), None, &view), vec![None; 4]);
    assert!(eager.has_work(1));
    assert_eq!(eager.pop(1, &|_| true).map(|t| t.id()), Some(tasks[0].id()));
    // A task the worker may not run goes to the back of the queue, for another worker.
    let not_second = |t: &Task| t.id() != tasks[1].id();
    assert!(eager.pop(0, &not_second).is_none());
    assert_eq!(
        pop_all(&eager, 0),
        ids(&[&tasks[2..], &tasks[1..2]].concat())
    );
    assert!(!eager.has_work(0));
}
