//! Partition switching as tasks: moving data between a parent and the children of its
//! partition plans (gathering, cutting) with tasks ordered in the data's dependencies,
//! asked for explicitly or by the runtime itself before a task uses the other view.
//! The plans themselves are data (`data/partition/plan.rs`).

mod implicit;
mod request;
mod switch;

pub(crate) use implicit::{before_submit, before_unregister};
pub(crate) use request::Request;
pub(crate) use switch::Switcher;
