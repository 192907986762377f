//! Data movements built on point-to-point transfers: bringing a piece of data to a
//! process (`starpu_mpi_get_data_on_node`), changing its owner (`starpu_mpi_data_migrate`),
//! scattering and gathering arrays of data (`starpu_mpi_scatter_detached`,
//! `starpu_mpi_gather_detached`), and copying between data (`starpu_mpi_data_cpy`).

use crate::comm::Comm;
use crate::context::Mpi;
use crate::p2p::Transfer;
use crate::request::Then;
use starpu_core::{DataHandle, Result};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Calls `f` once after `n` calls of the returned closures (`n` may be 0: then at once).
fn after_all(n: usize, f: Option<Box<dyn FnOnce() + Send>>) -> impl Fn() -> Option<Then> {
    let left = Arc::new(AtomicUsize::new(n));
    let f = Arc::new(Mutex::new(f));
    if n == 0 {
        if let Some(f) = f.lock().unwrap_or_else(|e| e.into_inner()).take() {
            f();
        }
    }
    move || {
        let (left, f) = (left.clone(), f.clone());
        Some(Box::new(move |_| {
            if left.fetch_sub(1, Ordering::AcqRel) == 1 {
                if let Some(f) = f.lock().unwrap_or_else(|e| e.into_inner()).take() {
                    f();
                }
            }
        }) as Then)
    }
}

impl Mpi {
    /// Brings `h` to process `node` from its owner (both call it; other processes may);
    /// `wait`: block until the data arrived. `then` runs on `node` once it has.
    fn get_on_node(
        &self,
        comm: Comm,
        h: &DataHandle,
        node: i32,
        wait: bool,
        then: Option<Then>,
    ) -> Result<()> {
        let (owner, tag) = self.owner_and_tag(h, "bringing data to a process")?;
        let info = self.info(comm)?;
        info.check_rank(node, "target")?;
        if node == owner {
            return Ok(());
        }
        let t = Transfer::on(comm);
        if info.rank == node && !self.cached_receive_set(h) {
            if wait {
                self.recv(h, owner, tag, &t)?;
            } else {
                self.irecv_detached(h, owner, tag, &t, then)?;
            }
        } else if info.rank == owner && !self.cached_send_set(h, node) {
            if wait {
                self.send(h, node, tag, &t)?;
            } else {
                self.isend_detached(h, node, tag, &t, None)?;
            }
        }
        Ok(())
    }

    /// `starpu_mpi_get_data_on_node`.
    pub fn get_data_on_node(&self, comm: Comm, h: &DataHandle, node: i32) -> Result<()> {
        self.get_on_node(comm, h, node, true, None)
    }

    /// `starpu_mpi_get_data_on_node_detached`.
    pub fn get_data_on_node_detached(
        &self,
        comm: Comm,
        h: &DataHandle,
        node: i32,
        then: Option<Then>,
    ) -> Result<()> {
        self.get_on_node(comm, h, node, false, then)
    }

    /// `starpu_mpi_get_data_on_all_nodes_detached`.
    pub fn get_data_on_all_nodes_detached(&self, comm: Comm, h: &DataHandle) -> Result<()> {
        for node in 0..self.comm_size(comm)? {
            self.get_on_node(comm, h, node, false, None)?;
        }
        Ok(())
    }

    /// Makes `new_rank` the owner of `h`, moving the data there if needed
    /// (`starpu_mpi_data_migrate`). Every process that registered `h` calls it.
    pub fn data_migrate(&self, comm: Comm, h: &DataHandle, new_rank: i32) -> Result<()> {
        let (owner, tag) = self.owner_and_tag(h, "migrating data")?;
        if owner == new_rank {
            return Ok(());
        }
        self.get_on_node(comm, h, new_rank, false, None)?;
        self.data_register(h, tag, new_rank, comm)?;
        self.cache_flush(comm, h)
    }

    /// Sends each of `handles` from `root` to its owner (`starpu_mpi_scatter_detached`);
    /// `on_root` runs on `root` once all are sent, `on_owner` on the others once theirs
    /// arrived.
    pub fn scatter_detached(
        &self,
        handles: &[DataHandle],
        root: i32,
        comm: Comm,
        on_root: Option<Box<dyn FnOnce() + Send>>,
        on_owner: Option<Box<dyn FnOnce() + Send>>,
    ) -> Result<()> {
        self.spread(handles, root, comm, on_root, on_owner, true)
    }

    /// Sends each of `handles` from its owner to `root` (`starpu_mpi_gather_detached`);
    /// `on_root` runs on `root` once all arrived, `on_owner` on the others once sent.
    pub fn gather_detached(
        &self,
        handles: &[DataHandle],
        root: i32,
        comm: Comm,
        on_root: Option<Box<dyn FnOnce() + Send>>,
        on_owner: Option<Box<dyn FnOnce() + Send>>,
    ) -> Result<()> {
        self.spread(handles, root, comm, on_root, on_owner, false)
    }

    fn spread(
        &self,
        handles: &[DataHandle],
        root: i32,
        comm: Comm,
        on_root: Option<Box<dyn FnOnce() + Send>>,
        on_owner: Option<Box<dyn FnOnce() + Send>>,
        from_root: bool,
    ) -> Result<()> {
        let info = self.info(comm)?;
        info.check_rank(root, "root")?;
        let me = info.rank;
        let mut moves = Vec::new();
        for h in handles {
            let (owner, tag) =
                self.owner_and_tag(h, if from_root { "scatter" } else { "gather" })?;
            if owner != root && (me == root || me == owner) {
                moves.push((h, owner, tag));
            }
        }
        let done = after_all(moves.len(), if me == root { on_root } else { on_owner });
        let t = Transfer::on(comm);
        for (h, owner, tag) in moves {
            match (me == root, from_root) {
                (true, true) => self.isend_detached(h, owner, tag, &t, done())?,
                (true, false) => self.irecv_detached(h, owner, tag, &t, done())?,
                (false, true) => self.irecv_detached(h, root, tag, &t, done())?,
                (false, false) => self.isend_detached(h, root, tag, &t, done())?,
            }
        }
        Ok(())
    }

    /// Copies `src` into `dst` (`starpu_mpi_data_cpy`): within a process when one owns
    /// both, otherwise from `src`'s owner to `dst`'s, under `dst`'s tag. `then` runs on
    /// `dst`'s owner once the copy is there; `wait` blocks until then.
    pub fn data_cpy(
        &self,
        dst: &DataHandle,
        src: &DataHandle,
        comm: Comm,
        wait: bool,
        then: Option<Box<dyn FnOnce() + Send>>,
    ) -> Result<()> {
        if dst.ptr_eq(src) {
            if let Some(f) = then {
                f();
            }
            return Ok(());
        }
        let (src_owner, _) = self.owner_and_tag(src, "copying data")?;
        let (dst_owner, tag) = self.owner_and_tag(dst, "copying data")?;
        let me = self.comm_rank(comm)?;
        let t = Transfer::on(comm);
        if src_owner == dst_owner {
            if me == src_owner {
                self.rt.data_cpy(dst, src, !wait, then)?;
            }
        } else if me == src_owner {
            let r = self.isend(src, dst_owner, tag, &t)?;
            if wait {
                r.wait()?;
            }
        } else if me == dst_owner {
            if wait {
                self.recv(dst, src_owner, tag, &t)?;
                if let Some(f) = then {
                    f();
                }
            } else {
                let then = then.map(|f| Box::new(move |_| f()) as Then);
                self.irecv_detached(dst, src_owner, tag, &t, then)?;
            }
        }
        Ok(())
    }
}
