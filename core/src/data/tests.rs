//! Data alone: handles, their replicas and filters, built over the memory nodes with no
//! runtime (no worker, no task).

use super::interfaces::{Description, VectorInterface};
use super::partition::make_children;
use super::{AccessMode, DataHandle, ElemKind, Filter, Origin};
use crate::memory::{Memory, MAIN_RAM};
use std::sync::Arc;

fn vector(mem: &Arc<Memory>, home: Option<&mut Vec<f32>>, n: u32) -> DataHandle {
    let (ptr, node) = match home {
        Some(v) => (v.as_mut_ptr() as usize, Some(MAIN_RAM)),
        None => (0, None),
    };
    let origin = Origin {
        elem: ElemKind::F32,
        owner: None,
    };
    let desc = Description::new(VectorInterface::new(ptr, n, 4));
    DataHandle::new(mem, node, desc, true, origin)
}

#[test]
fn a_registered_buffer_is_the_valid_replica_in_main_memory() {
    let mem = Arc::new(Memory::ram_only());
    let mut data = vec![1.0f32, 2.0, 3.0];
    let h = vector(&mem, Some(&mut data), 3);
    assert!(h.is_allocated_on(MAIN_RAM) && h.is_valid_on(MAIN_RAM));
    assert_eq!(h.size(), 12);
    h.fetch(MAIN_RAM, AccessMode::R).unwrap();
    h.after_access(MAIN_RAM, AccessMode::R);
    let v = h.interface::<VectorInterface>(MAIN_RAM).unwrap();
    assert_eq!((v.ptr, v.nx), (data.as_ptr() as usize, 3));
}

#[test]
fn data_without_a_home_is_allocated_zeroed_when_first_written() {
    let mem = Arc::new(Memory::ram_only());
    let h = vector(&mem, None, 5);
    assert!(!h.is_allocated_on(MAIN_RAM));
    h.fetch(MAIN_RAM, AccessMode::W).unwrap();
    h.after_access(MAIN_RAM, AccessMode::W);
    assert!(h.is_allocated_on(MAIN_RAM) && h.is_valid_on(MAIN_RAM));
    let v = h.interface::<VectorInterface>(MAIN_RAM).unwrap();
    assert_ne!(v.ptr, 0);
    // SAFETY: the replica holds 5 f32 on main memory, allocated above.
    let values = unsafe { std::slice::from_raw_parts(v.ptr as *const f32, 5) };
    assert_eq!(values, [0.0; 5]);
}

#[test]
fn a_block_filter_cuts_a_vector_into_views_of_its_buffer() {
    let mem = Arc::new(Memory::ram_only());
    let mut data: Vec<f32> = (0..10).map(|i| i as f32).collect();
    let h = vector(&mem, Some(&mut data), 10);
    let children = make_children(&h, &Filter::vector_block(3), 3, false).unwrap();
    let parts: Vec<(usize, u32)> = children
        .iter()
        .map(|c| {
            let v = c.interface::<VectorInterface>(MAIN_RAM).unwrap();
            ((v.ptr - data.as_ptr() as usize) / 4, v.nx)
        })
        .collect();
    assert_eq!(parts, [(0, 4), (4, 3), (7, 3)]);
}
