//! Data handles: one registered piece of data, its replicas on the memory nodes, and the
//! bookkeeping that orders the tasks using it.

use super::coherency::{msi, Coherency};
use super::element::ElemKind;
use super::implicit::ImplicitDeps;
use super::interfaces::{Description, Interface, InterfaceOps};
use crate::error::{Error, Result};
use crate::memory::{self, Memory, NodeId};
use crate::task::TaskRef;
use std::any::Any;
use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, Weak};

/// The copy of the data on one memory node, in StarPU's MSI states (`coherency.rs`).
pub(crate) struct Replica {
    pub(crate) desc: Description,
    /// `msi::INVALID`, `SHARED` (valid, maybe elsewhere too) or `OWNER` (the only valid
    /// copy).
    pub(crate) state: AtomicU8,
    /// A buffer exists (the application's, or one the runtime allocated).
    pub(crate) allocated: AtomicBool,
    /// The runtime allocated the buffer and frees it when the handle goes away.
    pub(crate) owned: AtomicBool,
    /// Tasks, acquisitions and transfers using the buffer now (it stays meanwhile). Kept
    /// only when the runtime has several memory nodes.
    pub(crate) busy: AtomicU32,
    /// When it was last used (the data side's clock), for LRU eviction.
    pub(crate) last_used: AtomicU64,
}

impl Replica {
    pub(crate) fn is_valid(&self) -> bool {
        self.state.load(Ordering::SeqCst) != msi::INVALID
    }

    pub(crate) fn is_allocated(&self) -> bool {
        self.allocated.load(Ordering::SeqCst)
    }
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
    /// This handle, for the memory nodes that keep it as a resident.
    pub(crate) me: Weak<HandleInner>,
    /// The memory nodes of the runtime the data was registered with.
    pub(crate) mem: Arc<Memory>,
    pub(crate) ops: &'static dyn InterfaceOps,
    elem: ElemKind,
    owner: Mutex<Option<Box<dyn Any + Send + Sync>>>,
    pub(crate) home: Option<NodeId>,
    pub(crate) replicas: Box<[Replica]>,
    pub(crate) deps: Mutex<ImplicitDeps>,
    sequential: AtomicBool,
    /// Submitted, not yet terminated task accesses and application acquisitions.
    pub(crate) in_flight: AtomicUsize,
    /// The id of the task last registered as this handle's plain writer (0: the last
    /// access was something else). A hint read without the dependency lock, so that a
    /// worker ending a writer that is no longer the last one does not take that lock.
    pub(crate) last_writer_hint: AtomicU64,
    /// Serialises allocation, copies and state changes of replicas; holds the requests
    /// for nodes the value is on its way to.
    pub(crate) coherency: Mutex<Coherency>,
    /// Requests pending in `coherency` (read without its lock: a writer must wait for
    /// them).
    pub(crate) npending: AtomicUsize,
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
    /// Multiformat data: its conversion codelets and which format holds the value
    /// (`task::multiformat`; set once, at registration).
    pub(crate) formats: OnceLock<Box<dyn Any + Send + Sync>>,
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
        mem: &Arc<Memory>,
        home: Option<NodeId>,
        desc: Description,
        sequential: bool,
        origin: Origin,
    ) -> DataHandle {
        let ops = desc.ops();
        let replicas = (0..mem.node_count())
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
        DataHandle::from_replicas(mem, home, replicas, sequential, None, origin)
    }

    /// A handle whose replicas are given one per memory node (children of a partition).
    pub(crate) fn from_replicas(
        mem: &Arc<Memory>,
        home: Option<NodeId>,
        replicas: Vec<ReplicaInit>,
        sequential: bool,
        parent: Option<Weak<HandleInner>>,
        origin: Origin,
    ) -> DataHandle {
        let ops = replicas[0].desc.ops();
        let nvalid = replicas.iter().filter(|r| r.valid).count();
        let replicas = replicas
            .into_iter()
            .map(|r| Replica {
                desc: r.desc,
                state: AtomicU8::new(match (r.valid, nvalid) {
                    (false, _) => msi::INVALID,
                    (true, 1) => msi::OWNER,
                    (true, _) => msi::SHARED,
                }),
                allocated: AtomicBool::new(r.allocated),
                owned: AtomicBool::new(false),
                busy: AtomicU32::new(0),
                last_used: AtomicU64::new(0),
            })
            .collect();
        DataHandle(Arc::new_cyclic(|me| HandleInner {
            me: me.clone(),
            mem: mem.clone(),
            ops,
            elem: origin.elem,
            owner: Mutex::new(origin.owner),
            home,
            replicas,
            deps: Mutex::new(ImplicitDeps::default()),
            sequential: AtomicBool::new(sequential),
            in_flight: AtomicUsize::new(0),
            last_writer_hint: AtomicU64::new(0),
            coherency: Mutex::new(Coherency::default()),
            npending: AtomicUsize::new(0),
            state: AtomicU8::new(hstate::REGISTERED),
            children: Mutex::new(Vec::new()),
            parent,
            acquisitions: Mutex::new(Vec::new()),
            meta: Mutex::new(Meta::default()),
            user_data: AtomicUsize::new(0),
            plan_links: OnceLock::new(),
            formats: OnceLock::new(),
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

    pub(crate) fn main_node(&self) -> NodeId {
        self.0.home.unwrap_or(memory::MAIN_RAM)
    }

    /// The memory nodes of the runtime the data belongs to.
    pub fn memory(&self) -> &Arc<Memory> {
        &self.0.mem
    }

    /// Whether a buffer exists on `node`.
    pub fn is_allocated_on(&self, node: NodeId) -> bool {
        self.0.replicas.get(node).is_some_and(|r| r.is_allocated())
    }

    /// Whether `node` holds the current value.
    pub fn is_valid_on(&self, node: NodeId) -> bool {
        self.0.replicas.get(node).is_some_and(|r| r.is_valid())
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

/// What the performance models read of a handle (footprints, transfer-time predictions).
impl crate::perfmodel::ModelData for DataHandle {
    fn shape_footprint(&self) -> u32 {
        self.footprint()
    }
    fn interface_id(&self) -> i32 {
        DataHandle::interface_id(self)
    }
    fn size(&self) -> usize {
        DataHandle::size(self)
    }
    fn memory(&self) -> &Memory {
        DataHandle::memory(self)
    }
    fn is_valid_on(&self, node: NodeId) -> bool {
        DataHandle::is_valid_on(self, node)
    }
    fn is_requested_on(&self, node: NodeId) -> bool {
        DataHandle::is_requested_on(self, node)
    }
}
