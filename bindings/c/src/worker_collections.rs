//! `starpu_worker_list` and `starpu_worker_tree` (starpu_worker.h): the method tables of
//! StarPU's two kinds of worker collections. A program (or a policy) copies one into its
//! `struct starpu_worker_collection` and calls `init`, which gives the collection its id
//! array; `deinit` takes it back.
//!
//! Both add and remove workers alike. They iterate differently: a list in the order the
//! workers were added, a tree in the machine's topology order, which for this runtime's
//! workers (one per core, numbered in topology order) is the order of their ids.

use crate::abi::{starpu_sched_ctx_iterator, starpu_task, starpu_worker_collection};
use crate::sched_ctx::{
    list_add, list_get_next, list_has_next, list_init_iterator,
    list_init_iterator_for_parallel_tasks, list_remove,
};
use libc::{c_char, c_int, c_uint};

const NMAX: usize = crate::abi::STARPU_NMAXWORKERS;

/// Gives `w` an empty id array (the collection's own, freed by `deinit`).
unsafe extern "C" fn collection_init(w: *mut starpu_worker_collection) {
    let Some(w) = w.as_mut() else { return };
    let ids: Box<[c_int; NMAX]> = Box::new([0; NMAX]);
    w.workerids = Box::into_raw(ids) as *mut c_int;
    w.nworkers = 0;
    w.present = [0; NMAX];
    w.is_unblocked = [0; NMAX];
    w.is_master = [0; NMAX];
}

/// Frees the id array `init` gave.
unsafe extern "C" fn collection_deinit(w: *mut starpu_worker_collection) {
    let Some(w) = w.as_mut() else { return };
    if !w.workerids.is_null() {
        drop(Box::from_raw(w.workerids as *mut [c_int; NMAX]));
        w.workerids = std::ptr::null_mut();
    }
    w.nworkers = 0;
    w.present = [0; NMAX];
}

/// The first present worker at or after the cursor, in id (topology) order.
unsafe fn tree_next_from(
    w: *mut starpu_worker_collection,
    it: *mut starpu_sched_ctx_iterator,
) -> Option<usize> {
    let start = usize::try_from((*it).cursor).ok()?;
    (start..NMAX).find(|&i| (*w).present[i] != 0)
}

unsafe extern "C" fn tree_has_next(
    w: *mut starpu_worker_collection,
    it: *mut starpu_sched_ctx_iterator,
) -> c_uint {
    tree_next_from(w, it).is_some() as c_uint
}

unsafe extern "C" fn tree_get_next(
    w: *mut starpu_worker_collection,
    it: *mut starpu_sched_ctx_iterator,
) -> c_int {
    match tree_next_from(w, it) {
        Some(i) => {
            (*it).cursor = i as c_int + 1;
            i as c_int
        }
        None => -1,
    }
}

unsafe extern "C" fn tree_init_iterator_for_parallel_tasks(
    w: *mut starpu_worker_collection,
    it: *mut starpu_sched_ctx_iterator,
    _task: *mut starpu_task,
) {
    list_init_iterator(w, it);
}

const fn table(ty: c_uint, tree: bool) -> starpu_worker_collection {
    starpu_worker_collection {
        workerids: std::ptr::null_mut(),
        collection_private: std::ptr::null_mut(),
        nworkers: 0,
        unblocked_workers: std::ptr::null_mut(),
        nunblocked_workers: 0,
        masters: std::ptr::null_mut(),
        nmasters: 0,
        present: [0 as c_char; NMAX],
        is_unblocked: [0 as c_char; NMAX],
        is_master: [0 as c_char; NMAX],
        r#type: ty,
        has_next: Some(if tree { tree_has_next } else { list_has_next }),
        get_next: Some(if tree { tree_get_next } else { list_get_next }),
        add: Some(list_add),
        remove: Some(list_remove),
        init: Some(collection_init),
        deinit: Some(collection_deinit),
        init_iterator: Some(list_init_iterator),
        init_iterator_for_parallel_tasks: Some(if tree {
            tree_init_iterator_for_parallel_tasks
        } else {
            list_init_iterator_for_parallel_tasks
        }),
    }
}

/// `starpu_worker_list`: a collection iterated in the order workers were added.
#[no_mangle]
pub static mut starpu_worker_list: starpu_worker_collection = table(1, false);

/// `starpu_worker_tree`: a collection iterated in topology order.
#[no_mangle]
pub static mut starpu_worker_tree: starpu_worker_collection = table(0, true);
