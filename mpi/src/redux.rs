//! Reductions across processes (`starpu_mpi_redux_data`): tasks inserted with
//! `STARPU_REDUX` on several processes each accumulate into their process's copy of the
//! data; the reduction then combines the copies into the owner's, along an n-ary tree
//! (StarPU's algorithm: contributors in rank order, groups of `arity`, the owner's group
//! reduces at the owner, each other group at one of its members, level after level).
//!
//! A process other than the owner starts its copy at the neutral element (the data's
//! `init` codelet) before its first contribution, so its copy holds exactly what its tasks
//! added; the owner's copy keeps its value, which the reduction adds to.

use crate::comm::Comm;
use crate::context::Mpi;
use crate::p2p::Transfer;
use starpu_core::data::ReductionMethods;
use starpu_core::{AccessMode, DataHandle, Error, Result};

impl Mpi {
    fn methods(&self, h: &DataHandle) -> Result<ReductionMethods> {
        h.reduction_methods().ok_or_else(|| {
            Error::invalid(format!(
                "data {} is reduced across processes but has no reduction methods \
                 (starpu_data_set_reduction_methods)",
                h.label()
            ))
        })
    }

    /// Before this process (`me`) runs a REDUX task on `h`: a copy not owned here starts
    /// at the neutral element.
    pub(crate) fn start_contribution(&self, h: &DataHandle, me: i32) -> Result<()> {
        let start = self
            .data
            .with(h, |e| {
                let fresh = e.rank != me && e.rank != crate::data::PER_NODE && !e.redux_started;
                e.redux_started |= fresh;
                fresh
            })
            .unwrap_or(false);
        if start {
            let m = self.methods(h)?;
            self.rt.task(&m.init).buffer(h, AccessMode::W).submit()?;
        }
        Ok(())
    }

    /// After a REDUX task placed on `xrank`: both it and the owner take part in the next
    /// reduction of `h`.
    pub(crate) fn note_contribution(&self, h: &DataHandle, xrank: i32) {
        self.data.with(h, |e| {
            if xrank >= 0 {
                e.redux.insert(xrank);
            }
            if e.rank >= 0 {
                e.redux.insert(e.rank);
            }
        });
    }

    /// The owner of `h` (`data_rank`), and whether processes other than the owner
    /// contributed to `h` since its last reduction, with one look-up (task insertion asks
    /// both for each datum).
    pub(crate) fn owner_and_pending_reduction(&self, h: &DataHandle) -> (Option<i32>, bool) {
        self.data
            .with(h, |e| {
                let owner = (e.rank != -1).then_some(e.rank);
                (owner, e.redux.iter().any(|&r| r != e.rank))
            })
            .unwrap_or((None, false))
    }

    /// Reduces `h` at its owner, all contributors at once (`starpu_mpi_redux_data_prio`).
    pub fn redux_data(&self, comm: Comm, h: &DataHandle, prio: i32) -> Result<()> {
        self.redux_data_tree(comm, h, prio, 0)
    }

    /// Reduces `h` at its owner along an `arity`-ary tree (`starpu_mpi_redux_data_prio_tree`;
    /// an arity below 2 means one level). Every process calls it at the same point.
    pub fn redux_data_tree(
        &self,
        comm: Comm,
        h: &DataHandle,
        prio: i32,
        arity: usize,
    ) -> Result<()> {
        let (owner, tag) = self.owner_and_tag(h, "reduction")?;
        let me = self.comm_rank(comm)?;
        let mut contributors: Vec<i32> = self
            .data
            .with(h, |e| std::mem::take(&mut e.redux).into_iter().collect())
            .unwrap_or_default();
        let n = contributors.len();
        if n < 2 {
            return Ok(());
        }
        let arity = if arity < 2 { n } else { arity.min(n) };
        let t = Transfer::with_prio(comm, prio);
        let mut n = n;
        while n > 1 {
            let groups = n.div_ceil(arity);
            for g in 0..groups {
                let members = &contributors[g * arity..n.min((g + 1) * arity)];
                let reducer = if members.contains(&owner) {
                    owner
                } else {
                    members[(tag.rem_euclid(arity as i64) as usize).min(members.len() - 1)]
                };
                if me == reducer {
                    for &c in members.iter().filter(|&&c| c != me) {
                        self.reduce_from(h, c, tag, &t)?;
                    }
                } else if members.contains(&me) {
                    self.isend_detached(h, reducer, tag, &t, None)?;
                    self.data.with(h, |e| e.redux_started = false);
                    self.rt.invalidate_submit(h)?;
                }
                contributors[g] = reducer;
            }
            n = groups;
        }
        Ok(())
    }

    /// Receives process `from`'s copy of `h` and folds it into ours.
    fn reduce_from(&self, h: &DataHandle, from: i32, tag: i64, t: &Transfer) -> Result<()> {
        let m = self.methods(h)?;
        let incoming = self.rt.register_like(h)?;
        self.irecv_detached(&incoming, from, tag, t, None)?;
        let mode = |i: usize, default| m.redux.modes.get(i).copied().unwrap_or(default);
        self.rt
            .task(&m.redux)
            .buffer(h, mode(0, AccessMode::RW | AccessMode::COMMUTE))
            .buffer(&incoming, mode(1, AccessMode::R))
            .submit()?;
        // Goes once the receive and the fold are over.
        self.rt.unregister_submit(&incoming)
    }

    /// Makes every reduction still pending (before `wait_for_all`, as StarPU does).
    pub(crate) fn wrap_up_reductions(&self) -> Result<()> {
        for h in self.data.handles(|e| e.redux.iter().any(|&r| r != e.rank)) {
            let comm = self.data_comm(&h).unwrap_or_else(|| self.world());
            self.redux_data(comm, &h, 0)?;
        }
        Ok(())
    }
}
