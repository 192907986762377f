//! Node selection policies: which process runs a task when the data it writes belong to
//! several processes, or when it writes none (`starpu_mpi_node_selection_*`).

use crate::context::Mpi;
use crate::data::PER_NODE;
use starpu_core::{AccessMode, DataHandle, Error, Result};
use std::sync::{Arc, Mutex, MutexGuard};

/// One piece of data of a task inserted through StarPU-MPI, and how the task uses it.
/// The handle may be absent (StarPU accepts NULL for data a process does not have).
#[derive(Clone)]
pub struct DataAccess {
    pub handle: Option<DataHandle>,
    pub mode: AccessMode,
}

impl DataAccess {
    pub fn new(h: &DataHandle, mode: AccessMode) -> DataAccess {
        DataAccess {
            handle: Some(h.clone()),
            mode,
        }
    }
}

/// The policy in force (`STARPU_MPI_NODE_SELECTION_CURRENT_POLICY`).
pub const CURRENT_POLICY: i32 = -1;
/// The process owning the most data the task reads, or writes (it would get it back):
/// the least data to move (`STARPU_MPI_NODE_SELECTION_MOST_R_DATA`, the default).
pub const MOST_R_DATA: i32 = 0;
/// How many policies may exist at once, built-in ones included (StarPU's limit).
pub const MAX_POLICIES: usize = 24;

/// A policy: this process's rank, the number of processes, the task's data; returns the
/// rank that runs the task.
pub type Policy = Arc<dyn Fn(&Mpi, i32, i32, &[DataAccess]) -> i32 + Send + Sync>;

pub(crate) struct Policies {
    inner: Mutex<(i32, Vec<Option<Policy>>)>,
}

impl Default for Policies {
    fn default() -> Self {
        let mut table: Vec<Option<Policy>> = vec![None; MAX_POLICIES];
        table[MOST_R_DATA as usize] = Some(Arc::new(most_r_data));
        Policies {
            inner: Mutex::new((MOST_R_DATA, table)),
        }
    }
}

impl Policies {
    fn lock(&self) -> MutexGuard<'_, (i32, Vec<Option<Policy>>)> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn most_r_data(mpi: &Mpi, _me: i32, nb_nodes: i32, data: &[DataAccess]) -> i32 {
    let mut bytes = vec![0usize; nb_nodes.max(0) as usize];
    for a in data {
        let Some(h) = &a.handle else { continue };
        let Some(rank) = mpi.data_rank(h) else {
            continue;
        };
        if rank == PER_NODE || rank < 0 || rank >= nb_nodes {
            continue;
        }
        let size = h.size();
        if a.mode.reads() {
            bytes[rank as usize] += size;
        }
        if a.mode.contains(AccessMode::W) {
            bytes[rank as usize] += size;
        }
    }
    // The first of the largest, and rank 0 when nothing is read or written.
    let mut best = 0;
    for (r, &b) in bytes.iter().enumerate() {
        if b > bytes[best] {
            best = r;
        }
    }
    best as i32
}

impl Mpi {
    /// Adds a policy; returns its number (`starpu_mpi_node_selection_register_policy`).
    pub fn node_selection_register_policy(&self, p: Policy) -> Result<i32> {
        let mut g = self.policies.lock();
        let free = (MOST_R_DATA as usize + 1..MAX_POLICIES)
            .find(|&i| g.1[i].is_none())
            .ok_or_else(|| {
                Error::invalid(format!(
                    "no room for another node selection policy ({MAX_POLICIES} at most): \
                     unregister one first"
                ))
            })?;
        g.1[free] = Some(p);
        Ok(free as i32)
    }

    /// Removes a policy the application added (`starpu_mpi_node_selection_unregister_policy`).
    pub fn node_selection_unregister_policy(&self, policy: i32) -> Result<()> {
        let mut g = self.policies.lock();
        if policy <= MOST_R_DATA
            || policy as usize >= MAX_POLICIES
            || g.1[policy as usize].is_none()
        {
            return Err(Error::invalid(format!(
                "node selection policy {policy} is not one the application registered"
            )));
        }
        g.1[policy as usize] = None;
        if g.0 == policy {
            g.0 = MOST_R_DATA;
        }
        Ok(())
    }

    pub fn node_selection_current_policy(&self) -> i32 {
        self.policies.lock().0
    }

    pub fn node_selection_set_current_policy(&self, policy: i32) -> Result<()> {
        let mut g = self.policies.lock();
        if policy < 0 || policy as usize >= MAX_POLICIES || g.1[policy as usize].is_none() {
            return Err(Error::invalid(format!(
                "node selection policy {policy} does not exist"
            )));
        }
        g.0 = policy;
        Ok(())
    }

    /// The rank policy `policy` (or the current one) chooses for a task over `data`.
    pub(crate) fn select_node(
        &self,
        me: i32,
        nb_nodes: i32,
        data: &[DataAccess],
        policy: i32,
    ) -> Result<i32> {
        let f = {
            let g = self.policies.lock();
            let p = if policy == CURRENT_POLICY {
                g.0
            } else {
                policy
            };
            (p >= 0 && (p as usize) < MAX_POLICIES)
                .then(|| g.1[p as usize].clone())
                .flatten()
                .ok_or_else(|| {
                    Error::invalid(format!("node selection policy {p} does not exist"))
                })?
        };
        let rank = f(self, me, nb_nodes, data);
        if rank != PER_NODE && (rank < 0 || rank >= nb_nodes) {
            return Err(Error::invalid(format!(
                "the node selection policy chose rank {rank}, which does not exist ({nb_nodes} processes)"
            )));
        }
        Ok(rank)
    }
}
