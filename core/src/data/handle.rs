//! Data handles: one registered piece of data, its replicas on the memory nodes, and the
//! bookkeeping that orders the tasks using it.

use super::element::ElemKind;
use super::implicit::ImplicitDeps;
use super::interfaces::{Description, Interface, InterfaceOps};
use super::AccessMode;
use crate::error::{Error, Result};
use crate::memory::{self, NodeId};
use crate::task::TaskRef;
use std::any::Any;
use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, Weak};

/// The copy of the data on one memory node.
pub(crate) struct Replica {
    pub(crate) desc: Description,
    /// Holds the current value of the data.
    pub(crate) valid: AtomicBool,
    /// A buffer exists (the application's, or one the runtime allocated).
    pub(crate) allocated: AtomicBool,
    /// The runtime allocated the buffer and frees it when the handle goes away.
    pub(crate) owned: AtomicBool,
}

/// How a replica starts out.
pub(crate) struct ReplicaInit {
    pub(crate) desc: Description,
    pub(crate) valid: bool,
    pub(crate) allocated: bool,
}

/// Lifecycle of a handle.
pub(crate) mod hstate {
    pub const REGISTERED: u8 = 0;
    /// Split into children by `partition`: only the children may be used.
    pub const PARTITIONED: u8 = 1;
    pub const UNREGISTERED: u8 = 2;
}

#[derive(Default)]
struct Meta {
    name: Option<String>,
    coordinates: Vec<i32>,
}

/// Where a handle's home buffers come from, and what keeps them alive.
#[derive(Default)]
pub struct Origin {
    /// The element type, checked by kernels' typed views.
    pub elem: ElemKind,
    /// Owns the home buffers (a `Vec<T>` the application gave, a numpy array, a Java
    /// buffer...): dropped with the handle, or given back by `unregister_take`.
    pub owner: Option<Box<dyn Any + Send + Sync>>,
}

pub struct HandleInner {
    ops: &'static dyn InterfaceOps,
    elem: ElemKind,
    owner: Mutex<Option<Box<dyn Any + Send + Sync>>>,
    home: Option<NodeId>,
    pub(crate) replicas: Box<[Replica]>,
    pub(crate) deps: Mutex<ImplicitDeps>,
    sequential: AtomicBool,
    /// Submitted, not yet terminated task accesses and application acquisitions.
    pub(crate) in_flight: AtomicUsize,
    /// The id of the task last registered as this handle's plain writer (0: the last
    /// access was something else). A hint read without the dependency lock, so that a
    /// worker ending a writer that is no longer the last one does not take that lock.
    pub(crate) last_writer_hint: AtomicU64,
    /// Serialises allocation and copies between replicas.
    coherency: Mutex<()>,
    pub(crate) state: AtomicU8,
    pub(crate) children: Mutex<Vec<DataHandle>>,
    pub(crate) parent: Option<Weak<HandleInner>>,
    /// Application acquisitions not yet released, most recent last.
    pub(crate) acquisitions: Mutex<Vec<TaskRef>>,
    meta: Mutex<Meta>,
    user_data: AtomicUsize,
    // --- partition plans (data/partition/plan.rs) ---
    /// This handle's part in asynchronous partition plans, created when it first takes
    /// one: tasks on handles that never do pay one atomic load per access.
    pub(crate) plan_links: OnceLock<Box<Mutex<super::partition::PlanLinks>>>,
    /// Commute gate, reduction and SCRATCH state (`modes.rs`).
    pub(crate) modes: super::modes::ModeState,
}

/// A registered piece of data. Cloning gives another reference to the same handle.
#[derive(Clone)]
pub struct DataHandle(pub(crate) Arc<HandleInner>);

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl DataHandle {
    /// A new handle over `desc`. With `home = Some(node)` the description's buffers hold
    /// the data on that node; with `None` the runtime allocates on first use.
    pub(crate) fn new(
        home: Option<NodeId>,
        desc: Description,
        sequential: bool,
        origin: Origin,
    ) -> DataHandle {
        let ops = desc.ops();
        let replicas = (0..memory::node_count())
            .map(|node| {
                let d = desc.duplicate();
                let here = Some(node) == home;
                if !here {
                    // SAFETY: d is a description of ops's type.
                    unsafe { ops.clear_buffers(d.ptr()) };
                }
                ReplicaInit {
                    desc: d,
                    valid: here,
                    allocated: here,
                }
            })
            .collect();
        DataHandle::from_replicas(home, replicas, sequential, None, origin)
    }

    /// A handle whose replicas are given one per memory node (children of a partition).
    pub(crate) fn from_replicas(
        home: Option<NodeId>,
        replicas: Vec<ReplicaInit>,
        sequential: bool,
        parent: Option<Weak<HandleInner>>,
        origin: Origin,
    ) -> DataHandle {
        let ops = replicas[0].desc.ops();
        let replicas = replicas
            .into_iter()
            .map(|r| Replica {
                desc: r.desc,
                valid: AtomicBool::new(r.valid),
                allocated: AtomicBool::new(r.allocated),
                owned: AtomicBool::new(false),
            })
            .collect();
        DataHandle(Arc::new(HandleInner {
            ops,
            elem: origin.elem,
            owner: Mutex::new(origin.owner),
            home,
            replicas,
            deps: Mutex::new(ImplicitDeps::default()),
            sequential: AtomicBool::new(sequential),
            in_flight: AtomicUsize::new(0),
            last_writer_hint: AtomicU64::new(0),
            coherency: Mutex::new(()),
            state: AtomicU8::new(hstate::REGISTERED),
            children: Mutex::new(Vec::new()),
            parent,
            acquisitions: Mutex::new(Vec::new()),
            meta: Mutex::new(Meta::default()),
            user_data: AtomicUsize::new(0),
            plan_links: OnceLock::new(),
            modes: Default::default(),
        }))
    }

    /// A stable identity for this handle (what C sees as `starpu_data_handle_t`).
    pub fn as_ptr(&self) -> *const c_void {
        Arc::as_ptr(&self.0) as *const c_void
    }

    pub fn ptr_eq(&self, other: &DataHandle) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    pub fn ops(&self) -> &'static dyn InterfaceOps {
        self.0.ops
    }

    /// The element type the data was registered with (`Unknown` from C).
    pub fn elem_kind(&self) -> ElemKind {
        self.0.elem
    }

    /// Runs `f` with the object that owns the home buffers (`None` if there is none, or
    /// after unregistration).
    pub fn with_owner<R>(&self, f: impl FnOnce(Option<&(dyn Any + Send + Sync)>) -> R) -> R {
        f(lock(&self.0.owner).as_deref())
    }

    /// Records that the application gave buffers for the replica on `node`
    /// (`starpu_data_ptr_register`): it counts as allocated, and the runtime will not
    /// free it.
    pub fn mark_allocated(&self, node: NodeId) {
        if let Some(r) = self.0.replicas.get(node) {
            r.owned.store(false, Ordering::Release);
            r.allocated.store(true, Ordering::Release);
        }
    }

    /// Whether the home buffers' owner is an `O`.
    pub(crate) fn owner_is<O: Any>(&self) -> bool {
        lock(&self.0.owner).as_ref().is_some_and(|o| o.is::<O>())
    }

    pub fn interface_id(&self) -> i32 {
        self.0.ops.id()
    }

    /// The home node; `None` for data registered with home node -1.
    pub fn home_node(&self) -> Option<NodeId> {
        self.0.home
    }

    pub fn is_registered(&self) -> bool {
        self.0.state.load(Ordering::Acquire) != hstate::UNREGISTERED
    }

    pub fn is_partitioned(&self) -> bool {
        self.0.state.load(Ordering::Acquire) == hstate::PARTITIONED
    }

    /// The parent handle, for a child made by partitioning.
    pub fn parent(&self) -> Option<DataHandle> {
        self.0.parent.as_ref()?.upgrade().map(DataHandle)
    }

    /// The interface description on `node` (`starpu_data_get_interface_on_node`), as the C
    /// struct kernels see. Its buffers may be unallocated when the data never went there.
    pub fn interface_on_node(&self, node: NodeId) -> Option<*mut c_void> {
        self.0
            .replicas
            .get(node)
            .map(|r| r.desc.ptr() as *mut c_void)
    }

    /// A copy of the description on `node`, typed, for getters such as `starpu_vector_get_nx`.
    pub fn interface<T: Interface>(&self, node: NodeId) -> Option<T> {
        self.0.replicas.get(node)?.desc.get::<T>().copied()
    }

    /// A copy of the description on the home node (main memory for data without home).
    pub fn home_description(&self) -> Description {
        self.0.replicas[self.main_node()].desc.duplicate()
    }

    /// Size in bytes of the data (`starpu_data_get_size`).
    pub fn size(&self) -> usize {
        self.0.replicas[self.main_node()].desc.data_size()
    }

    pub fn alloc_size(&self) -> usize {
        self.0.replicas[self.main_node()].desc.alloc_size()
    }

    pub fn footprint(&self) -> u32 {
        self.0.replicas[self.main_node()].desc.footprint()
    }

    pub fn describe(&self) -> String {
        self.0.replicas[self.main_node()].desc.describe()
    }

    fn main_node(&self) -> NodeId {
        self.0.home.unwrap_or(memory::MAIN_RAM)
    }

    /// Whether a buffer exists on `node`.
    pub fn is_allocated_on(&self, node: NodeId) -> bool {
        self.0
            .replicas
            .get(node)
            .is_some_and(|r| r.allocated.load(Ordering::Acquire))
    }

    /// Whether `node` holds the current value.
    pub fn is_valid_on(&self, node: NodeId) -> bool {
        self.0
            .replicas
            .get(node)
            .is_some_and(|r| r.valid.load(Ordering::Acquire))
    }

    pub fn sequential_consistency(&self) -> bool {
        self.0.sequential.load(Ordering::Relaxed)
    }

    pub fn set_sequential_consistency(&self, on: bool) {
        self.0.sequential.store(on, Ordering::Relaxed);
    }

    pub fn name(&self) -> Option<String> {
        lock(&self.0.meta).name.clone()
    }

    pub fn set_name(&self, name: Option<String>) {
        lock(&self.0.meta).name = name;
    }

    pub fn coordinates(&self) -> Vec<i32> {
        lock(&self.0.meta).coordinates.clone()
    }

    pub fn set_coordinates(&self, dims: &[i32]) {
        lock(&self.0.meta).coordinates = dims.to_vec();
    }

    pub fn user_data(&self) -> usize {
        self.0.user_data.load(Ordering::Relaxed)
    }

    pub fn set_user_data(&self, v: usize) {
        self.0.user_data.store(v, Ordering::Relaxed);
    }

    /// The children made by `partition`, empty when not partitioned.
    pub fn children(&self) -> Vec<DataHandle> {
        lock(&self.0.children).clone()
    }

    pub fn nchildren(&self) -> usize {
        lock(&self.0.children).len()
    }

    pub fn child(&self, i: usize) -> Option<DataHandle> {
        lock(&self.0.children).get(i).cloned()
    }

    /// Whether the application holds this data acquired (an acquisition granted and not
    /// released).
    pub fn is_acquired(&self) -> bool {
        lock(&self.0.acquisitions)
            .iter()
            .any(|t| t.state() >= crate::task::state::RUNNING)
    }

    /// Task accesses and acquisitions not yet over.
    pub fn busy(&self) -> usize {
        self.0.in_flight.load(Ordering::SeqCst)
    }

    /// Checks that tasks may use this handle now.
    pub(crate) fn check_usable(&self) -> Result<()> {
        match self.0.state.load(Ordering::Acquire) {
            hstate::REGISTERED => Ok(()),
            hstate::PARTITIONED => Err(Error::invalid(format!(
                "data {} is partitioned: use its children, or unpartition it first",
                self.label()
            ))),
            _ => Err(Error::invalid(format!(
                "data {} is not registered (unregistered already?)",
                self.label()
            ))),
        }
    }

    /// How messages name this handle: its name if set, else its address.
    pub fn label(&self) -> String {
        match self.name() {
            Some(n) => format!("'{n}'"),
            None => format!("{:p}", self.as_ptr()),
        }
    }

    /// Makes the replica on `node` usable for an access in `mode` and returns its
    /// description: allocates it if needed, and brings the current value in when the
    /// access reads. Called by the worker that runs the task (or grants an acquisition).
    pub(crate) fn fetch(&self, node: NodeId, mode: AccessMode) -> Result<*mut c_void> {
        let r = &self.0.replicas[node];
        let ptr = r.desc.ptr() as *mut c_void;
        let reads = mode.reads();
        if (reads && r.valid.load(Ordering::Acquire))
            || (!reads && r.allocated.load(Ordering::Acquire))
        {
            return Ok(ptr);
        }
        let _g = lock(&self.0.coherency);
        if !r.allocated.load(Ordering::Acquire) {
            // SAFETY: the description is of ops's type; no task uses this replica yet.
            unsafe { self.0.ops.allocate(r.desc.ptr(), node)? };
            r.owned.store(true, Ordering::Release);
            r.allocated.store(true, Ordering::Release);
        }
        if reads && !r.valid.load(Ordering::Acquire) {
            // Bring the value from a node that has it. None has it when the data was
            // registered without a home and never written: the fresh buffer (zeroed) is it.
            if let Some(src) = self
                .0
                .replicas
                .iter()
                .find(|s| s.valid.load(Ordering::Acquire))
            {
                // SAFETY: both replicas are allocated descriptions of the same shape.
                unsafe { self.0.ops.copy(src.desc.ptr(), r.desc.ptr()) };
            }
            r.valid.store(true, Ordering::Release);
        }
        Ok(ptr)
    }

    /// Records the effect of an access that just ended on `node`: a write makes `node` the
    /// only valid replica.
    pub(crate) fn after_access(&self, node: NodeId, mode: AccessMode) {
        if !mode.writes() {
            return;
        }
        let r = &self.0.replicas[node];
        if r.valid.load(Ordering::Acquire) && self.0.replicas.len() == 1 {
            return;
        }
        let _g = lock(&self.0.coherency);
        for (n, other) in self.0.replicas.iter().enumerate() {
            other.valid.store(n == node, Ordering::Release);
        }
    }

    /// A new buffer shaped like this data, for a worker's SCRATCH buffer (`scratch.rs`).
    pub(crate) fn scratch(&self, node: NodeId) -> Result<Description> {
        let d = self.0.replicas[node].desc.duplicate();
        // SAFETY: d is a private copy of a description of ops's type.
        unsafe {
            self.0.ops.clear_buffers(d.ptr());
            self.0.ops.allocate(d.ptr(), node)?;
        }
        Ok(d)
    }

    /// Makes sure the data has a buffer on `node` holding its value (used before
    /// partitioning, so children can point into it).
    pub(crate) fn materialize(&self, node: NodeId) -> Result<()> {
        self.fetch(node, AccessMode::R).map(|_| ())
    }

    /// Brings the current value back to the home node, if it is elsewhere.
    pub(crate) fn write_back(&self) {
        let Some(home) = self.0.home else { return };
        if self.is_valid_on(home) {
            return;
        }
        let _ = self.fetch(home, AccessMode::R);
    }

    /// Forgets every replica's value (`starpu_data_invalidate`); buffers the runtime
    /// allocated are released.
    pub(crate) fn invalidate(&self) {
        self.forget_value(true);
    }

    /// Makes the value of `h` undefined on every node, keeping the buffers
    /// (`starpu_data_deinitialize`): the handle is as if registered without data, and its
    /// next access must write (or its init codelet runs) before anything reads.
    pub(crate) fn deinitialize(&self) {
        self.forget_value(false);
    }

    /// Marks every replica invalid; frees the runtime's buffers when `free`.
    fn forget_value(&self, free: bool) {
        // (partition plans) Children of plans point into the buffers: they stay.
        let keep = !free || self.nplans() > 0;
        let _g = lock(&self.0.coherency);
        for (node, r) in self.0.replicas.iter().enumerate() {
            r.valid.store(false, Ordering::Release);
            if !keep && r.owned.swap(false, Ordering::AcqRel) {
                // SAFETY: the runtime allocated this buffer; no task uses the handle now.
                unsafe { self.0.ops.free(r.desc.ptr(), node) };
                r.allocated.store(false, Ordering::Release);
            }
        }
    }

    /// Frees the buffer the runtime allocated on `node` when nothing needs it there
    /// (`starpu_data_evict_from_node`): not the application's buffer, not the only valid
    /// copy of the value, not while a task or an acquisition uses the handle or children
    /// of a partition live in it. True if it was freed.
    pub(crate) fn evict(&self, node: NodeId) -> bool {
        let Some(r) = self.0.replicas.get(node) else {
            return false;
        };
        if self.nplans() > 0 || !lock(&self.0.children).is_empty() {
            return false;
        }
        let _g = lock(&self.0.coherency);
        if self.0.in_flight.load(Ordering::SeqCst) != 0
            || !r.owned.load(Ordering::Acquire)
            || !r.allocated.load(Ordering::Acquire)
        {
            return false;
        }
        let elsewhere = self
            .0
            .replicas
            .iter()
            .enumerate()
            .any(|(n, o)| n != node && o.valid.load(Ordering::Acquire));
        if r.valid.load(Ordering::Acquire) && !elsewhere {
            return false;
        }
        r.valid.store(false, Ordering::Release);
        if r.owned.swap(false, Ordering::AcqRel) {
            // SAFETY: the runtime allocated this buffer and no task uses the handle.
            unsafe { self.0.ops.free(r.desc.ptr(), node) };
        }
        r.allocated.store(false, Ordering::Release);
        true
    }

    /// Releases what the runtime allocated and ends the handle. Returns the owner of the
    /// home buffers: the memory belongs to the application again (a face drops it, or
    /// gives it back), even if clones of the handle are still around.
    pub(crate) fn retire(&self) -> Option<Box<dyn Any + Send + Sync>> {
        self.invalidate();
        self.0.state.store(hstate::UNREGISTERED, Ordering::Release);
        // Breaks the handle -> last task -> handle reference cycle.
        *lock(&self.0.deps) = ImplicitDeps::default();
        self.0.modes.retire();
        lock(&self.0.children).clear();
        lock(&self.0.owner).take()
    }
}

impl std::fmt::Debug for DataHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DataHandle({:p}, {})", self.as_ptr(), self.describe())
    }
}
