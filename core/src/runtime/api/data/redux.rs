//! Reductions: closing a reduction group makes its reduction tasks.

use crate::data::DataHandle;
use crate::runtime::Runtime;
use crate::task::reduction::reduce;
use crate::task::ReadyList;

impl Runtime {
    /// Closes a reduction group on `h` if there is one: the reduction tasks are submitted
    /// (before unregistration or invalidation, which wait for the data to be idle).
    pub(crate) fn end_reduction(&self, h: &DataHandle) {
        let mut ready = ReadyList::new();
        {
            let mut deps = h.0.deps.lock().unwrap_or_else(|e| e.into_inner());
            deps.end_reduction(&mut |members| reduce(self, h, members, &mut ready));
        }
        self.schedule(ready);
    }
}
