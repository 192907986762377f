//! Communication statistics (`starpu_mpi_comm_stats_*`, `STARPU_MPI_STATS`): the bytes of
//! data this process sent to each rank while they were on (envelopes not counted).

use crate::context::Mpi;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

#[derive(Default)]
pub(crate) struct Stats {
    on: AtomicBool,
    /// Bytes sent, by destination rank.
    bytes: Mutex<Vec<usize>>,
}

impl Stats {
    /// Counts `len` bytes sent to `dest` (when statistics are on).
    pub(crate) fn sent(&self, dest: i32, len: usize) {
        if !self.on.load(Ordering::Relaxed) || dest < 0 {
            return;
        }
        let mut b = self.bytes.lock().unwrap_or_else(|e| e.into_inner());
        let d = dest as usize;
        if b.len() <= d {
            b.resize(d + 1, 0);
        }
        b[d] += len;
    }
}

impl Mpi {
    /// Starts counting the bytes sent (`starpu_mpi_comm_stats_enable`).
    pub fn comm_stats_enable(&self) {
        self.shared.stats.on.store(true, Ordering::Relaxed);
    }

    /// Stops counting (`starpu_mpi_comm_stats_disable`); what was counted stays.
    pub fn comm_stats_disable(&self) {
        self.shared.stats.on.store(false, Ordering::Relaxed);
    }

    /// The bytes sent to each rank of the world so far (`starpu_mpi_comm_stats_retrieve`).
    pub fn comm_stats(&self) -> Vec<usize> {
        let mut b = self
            .shared
            .stats
            .bytes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        b.resize(b.len().max(self.world_size() as usize), 0);
        b
    }
}
