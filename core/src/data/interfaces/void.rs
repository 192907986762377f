//! The void interface: a handle with no data, used only to carry dependencies.

use super::Interface;
use crate::error::Result;
use crate::memory::NodeId;

#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct VoidInterface {
    pub id: i32,
}

impl VoidInterface {
    pub fn new() -> Self {
        VoidInterface { id: Self::ID }
    }
}

impl Interface for VoidInterface {
    const ID: i32 = super::id::VOID;
    const NAME: &'static str = "STARPU_VOID_INTERFACE";

    fn data_size(&self) -> usize {
        0
    }
    fn footprint(&self) -> u32 {
        0
    }
    fn describe(&self) -> String {
        "void".into()
    }
    fn data_ptr(&self) -> usize {
        0
    }
    fn allocate(&mut self, _node: NodeId) -> Result<()> {
        Ok(())
    }
    fn free(&mut self, _node: NodeId) {}
    unsafe fn copy_from(&self, _src: &Self) {}
    fn without_buffers(&self) -> Self {
        *self
    }
}
