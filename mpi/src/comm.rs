//! Communicators: the application names one by its `MPI_Comm`; StarPU-MPI keeps, for
//! each communicator it was given (`starpu_mpi_init_comm`, `starpu_mpi_comm_register`),
//! a private duplicate that carries all of its own traffic, so that the application's
//! messages on the same communicator can never match StarPU-MPI's.

use mpi::ffi;
use starpu_core::{Error, Result};

/// An MPI communicator as the application names it (`MPI_Comm`; a pointer in Open MPI,
/// kept as an address so that it can travel between threads).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Comm(usize);

impl Comm {
    /// `MPI_COMM_WORLD`.
    pub fn world() -> Comm {
        // SAFETY: reads an immutable handle exported by the MPI library.
        Comm::from_raw(unsafe { ffi::RSMPI_COMM_WORLD })
    }

    pub fn from_raw(c: ffi::MPI_Comm) -> Comm {
        Comm(c.0 as usize)
    }

    pub fn raw(self) -> ffi::MPI_Comm {
        ffi::MPI_Comm(self.0 as *mut _)
    }
}

/// A communicator StarPU-MPI works on.
#[derive(Clone, Copy, Debug)]
pub struct CommInfo {
    /// The application's communicator.
    pub user: Comm,
    /// Our duplicate of it: every envelope and data message goes there.
    pub private: Comm,
    /// This process's rank in it.
    pub rank: i32,
    pub size: i32,
    /// Position in the registry (names the communicator inside the progression engine).
    pub index: usize,
}

impl CommInfo {
    /// Checks that `rank` names a process of this communicator (`what`: "destination"...).
    pub fn check_rank(&self, rank: i32, what: &str) -> Result<()> {
        if rank < 0 || rank >= self.size {
            return Err(Error::invalid(format!(
                "{what} rank {rank} does not exist: the communicator has {} processes (ranks 0 to {})",
                self.size,
                self.size - 1
            )));
        }
        Ok(())
    }
}

/// `MPI_ANY_SOURCE`, for receives from whichever process sends first.
pub fn any_source() -> i32 {
    // SAFETY: reads a constant exported by the MPI library.
    unsafe { ffi::RSMPI_ANY_SOURCE }
}

/// Turns an MPI return code into an error naming the call.
pub(crate) fn check(call: &str, code: i32) -> Result<()> {
    if code == 0 {
        return Ok(());
    }
    let mut buf = vec![0u8; 512];
    let mut len = 0;
    // SAFETY: the buffer holds MPI_MAX_ERROR_STRING (256 in Open MPI) bytes and more.
    unsafe { ffi::MPI_Error_string(code, buf.as_mut_ptr() as *mut _, &mut len) };
    buf.truncate(len.max(0) as usize);
    Err(Error::invalid(format!(
        "{call} failed: {}",
        String::from_utf8_lossy(&buf)
    )))
}
