//! The library's memory allocator.
//!
//! Tasks are allocated by the submitting thread and freed by workers; mimalloc handles
//! those cross-thread frees without the arena lock contention glibc's malloc shows here.
//! It keeps freed memory for reuse, though: after a burst of tasks it is asked to give
//! it back (`give_back_free_memory`).
//!
//! Without the `mimalloc` feature (`--no-default-features`) the system allocator is used,
//! whose heap valgrind's memcheck can see (scripts/valgrind.sh).

#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Returns the memory freed on this thread's heap (where the tasks it submitted lived) to
/// the system.
pub(crate) fn give_back_free_memory() {
    // SAFETY: a plain call into the allocator, from any thread.
    #[cfg(feature = "mimalloc")]
    unsafe {
        libmimalloc_sys::mi_collect(true)
    };
    // SAFETY: glibc's malloc_trim may be called from any thread.
    #[cfg(all(not(feature = "mimalloc"), target_env = "gnu"))]
    unsafe {
        libc::malloc_trim(0)
    };
}
