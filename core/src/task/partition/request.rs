//! The application's requests on a partition plan (`starpu_data_partition_submit` and its
//! kin): which views each one may start from, and the switches it submits.

use super::Switcher;
use crate::data::partition::plan::{active, check_node, find_plan, Active, SwitchOptions};
use crate::data::DataHandle;
use crate::error::{Error, Result};
use std::sync::Arc;

/// A change of view the application asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Request {
    /// The plan's children, read-write (`starpu_data_partition_submit`).
    Partition,
    /// The plan's children, read-only (`starpu_data_partition_readonly_submit`).
    PartitionReadonly,
    /// The only read-only plan, read-write (`starpu_data_partition_readwrite_upgrade_submit`).
    Upgrade,
    /// The read-write plan, read-only (`starpu_data_partition_readonly_downgrade_submit`).
    Downgrade,
    /// The whole data back (`starpu_data_unpartition_submit`).
    Unpartition,
    /// The whole data back, the children still readable
    /// (`starpu_data_unpartition_readonly_submit`).
    UnpartitionReadonly,
}

impl Request {
    /// How errors name it.
    fn what(self) -> &'static str {
        match self {
            Request::Partition => "partition submission",
            Request::PartitionReadonly => "read-only partition submission",
            Request::Upgrade => "read-write upgrade",
            Request::Downgrade => "read-only downgrade",
            Request::Unpartition => "unpartition submission",
            Request::UnpartitionReadonly => "read-only unpartition submission",
        }
    }
}

impl Switcher<'_> {
    /// Carries out `req` on the plan of `parent` whose children are `children`, when the
    /// views active now allow it.
    pub(crate) fn request(
        &mut self,
        req: Request,
        parent: &DataHandle,
        children: &[DataHandle],
        opts: SwitchOptions,
    ) -> Result<()> {
        let what = req.what();
        let plan = find_plan(parent, children, what)?;
        let data = parent.label();
        let refuse = |why: String| -> Result<()> { Err(Error::invalid(format!("{what}: {why}"))) };
        let now = active(parent);
        let mine_rw = matches!(&now, Active::ReadWrite(p) if Arc::ptr_eq(p, &plan));
        match req {
            Request::Partition => {
                match now {
                    Active::Whole => {}
                    _ if mine_rw => {
                        return refuse(format!("data {data} is already partitioned with this plan"))
                    }
                    _ => {
                        return refuse(format!(
                            "data {data} has another partitioning active (unpartition it \
                             first; one read-write partitioning at a time, not alongside \
                             read-only ones)"
                        ))
                    }
                }
                self.activate(parent, true)?;
                self.partition(parent, &plan, false, opts)
            }
            Request::PartitionReadonly => {
                match now {
                    Active::ReadWrite(_) => {
                        return refuse(format!(
                            "data {data} is partitioned read-write (downgrade or unpartition it \
                             first)"
                        ))
                    }
                    a if a.has(&plan) => {
                        return refuse(format!("this plan of data {data} is active already"));
                    }
                    _ => {}
                }
                self.activate(parent, false)?;
                self.partition(parent, &plan, true, opts)
            }
            Request::Upgrade => {
                match now {
                    Active::ReadOnly(l) if l.len() == 1 && Arc::ptr_eq(&l[0], &plan) => {}
                    Active::ReadOnly(l) if l.iter().any(|p| Arc::ptr_eq(p, &plan)) => {
                        return refuse(format!(
                            "data {data} has other read-only partitionings active (unpartition \
                             them first)"
                        ))
                    }
                    _ => {
                        return refuse(format!("this plan of data {data} is not active read-only"))
                    }
                }
                self.activate(parent, true)?;
                self.upgrade(parent, &plan)
            }
            Request::Downgrade if mine_rw => self.downgrade(parent, &plan, opts),
            Request::Downgrade => {
                refuse(format!("this plan of data {data} is not active read-write"))
            }
            Request::Unpartition if now.has(&plan) => {
                check_node(parent, opts.gathering_node)?;
                self.unpartition(parent, &plan, opts)
            }
            Request::Unpartition => refuse(format!("this plan of data {data} is not active")),
            Request::UnpartitionReadonly => {
                check_node(parent, opts.gathering_node)?;
                if mine_rw {
                    self.downgrade(parent, &plan, opts)
                } else if now.has(&plan) {
                    self.gather_readonly(parent, &plan, opts)
                } else {
                    refuse(format!("this plan of data {data} is not active"))
                }
            }
        }
    }
}
