//! The runtime's API methods, grouped by the subsystem they start from. The runtime is
//! the one module that knows every subsystem, so an operation that crosses them (an
//! acquisition is a task on data; unregistering waits for tasks) is composed here.

mod contexts;
mod counters;
mod data;
mod heteroprio;
mod knobs;
mod parallel;
mod profiling;
mod stats;
mod task;
mod trace;

pub use data::{Acquired, Acquisition};
