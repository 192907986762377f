//! Data: registration, acquisition (a task without a kernel in the data's dependency
//! graph), placement hints, unregistration, partitioning.

mod acquire;
mod acquisition;
mod lifecycle;
mod partition;
mod prefetch;
mod redux;
mod register;
mod view;

pub use acquisition::Acquisition;
pub use view::Acquired;
