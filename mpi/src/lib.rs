//! starpu-mpi: StarPU-MPI over a real MPI (Open MPI through the `mpi` crate).
//!
//! Processes started by `mpirun` each run their own runtime; StarPU-MPI moves data
//! handles between them and lets every process insert the same task graph, each running
//! the tasks whose data it owns:
//!
//! - point to point on data handles: `isend` / `irecv` (waited for or detached, with a
//!   callback), synchronous sends, StarPU's 64-bit tags, data arriving before or after
//!   its receive is posted, every built-in interface and application codecs
//!   (pack/unpack functions, MPI datatypes);
//! - owner-computes task insertion (`Mpi::task`, `Mpi::task_insert`) with node selection
//!   policies and the communication cache;
//! - reductions across processes, migration, scatter / gather.
//!
//! One progression thread per process makes every MPI call (`engine.rs`); the transfers
//! hold their data through the core's acquisitions, so they take their place in the task
//! graph like tasks do. The C face (`starpu_mpi_*` in libstarpu) and the Fortran module
//! are thin layers over this crate.
//!
//! ```no_run
//! use starpu_mpi::{Mpi, StartOptions, Transfer};
//! # fn demo() -> starpu_core::Result<()> {
//! let rt = starpu_core::init(starpu_core::Config::default())?;
//! let mpi = starpu_mpi::init(rt.clone(), StartOptions::default())?;
//! let token = rt.register_variable(0i64)?;
//! let (me, n) = (mpi.world_rank(), mpi.world_size());
//! if me != 0 {
//!     mpi.recv(&token, me - 1, 0, &Transfer::default())?;
//! }
//! if me != n - 1 {
//!     mpi.send(&token, me + 1, 0, &Transfer::default())?;
//! }
//! starpu_mpi::shutdown()?;
//! # Ok(()) }
//! ```

mod cache;
mod collective;
pub mod comm;
mod context;
mod data;
mod engine;
mod envelope;
mod insert;
mod matching;
mod p2p;
mod redux;
mod request;
mod select;
mod stats;
mod tags;
mod task;
pub mod wire;

pub use comm::{any_source, Comm};
pub use context::{global, init, is_initialized, shutdown, Mpi};
pub use data::PER_NODE;
pub use engine::StartOptions;
pub use insert::{ExecuteOn, Placement};
pub use p2p::Transfer;
pub use request::{Request, Status, Then};
pub use select::{DataAccess, Policy, CURRENT_POLICY, MAX_POLICIES, MOST_R_DATA};
pub use tags::TAGS_UB;
pub use task::MpiTask;

/// The raw MPI bindings (`MPI_Comm`, `MPI_Datatype`...), for faces that take them from
/// applications.
pub use mpi::ffi;
