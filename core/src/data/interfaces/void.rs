//! The void interface: a handle with no data, used only to carry dependencies.

use super::Interface;
use crate::error::Result;
use crate::memory::{Copier, Node};

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
    fn allocate(&mut self, _node: &Node) -> Result<()> {
        Ok(())
    }
    fn free(&mut self, _node: &Node) {}
    fn copy_to(&self, _dst: &Self, _c: &mut dyn Copier) -> Result<()> {
        Ok(())
    }
    fn without_buffers(&self) -> Self {
        *self
    }
}
