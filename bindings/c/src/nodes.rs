//! The memory nodes as the C face sees them: the running runtime's node table, or main
//! RAM alone before `starpu_init` (StarPU's node 0 exists as soon as the library is
//! loaded: `starpu_malloc_on_node(STARPU_MAIN_RAM, ...)` works before init).

use starpu_core::memory::{Memory, NodeId, NodeKind};
use std::sync::{Arc, OnceLock};

/// The memory nodes in use.
pub fn memory() -> Arc<Memory> {
    static RAM_ONLY: OnceLock<Arc<Memory>> = OnceLock::new();
    match crate::ffi::runtime() {
        Ok(rt) => rt.memory().clone(),
        Err(_) => RAM_ONLY
            .get_or_init(|| Arc::new(Memory::ram_only()))
            .clone(),
    }
}

/// How many memory nodes there are.
pub fn count() -> usize {
    memory().node_count()
}

pub fn kind(node: NodeId) -> Option<NodeKind> {
    memory().kind(node)
}

/// Checks that memory node `node` exists.
pub fn check(node: NodeId) -> starpu_core::Result<()> {
    memory().check(node).map(drop)
}
