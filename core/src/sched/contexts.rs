//! Scheduling contexts (StarPU's `starpu_sched_ctx_*`): a set of workers with a policy
//! instance of its own, priority bounds and a name. Context 0, the global one, starts with
//! every worker and is scheduled by the runtime's policy; a task submitted to context C
//! runs only on C's workers, in the order C's policy gives.
//!
//! A worker may belong to several contexts (creating a context does not take its workers
//! away from context 0: remove them from it explicitly for exclusive use). An idle worker
//! asks each of its contexts in turn, global first. Wake-ups after a push go to a worker
//! of the task's context only: waking another one would leave the task waiting while its
//! own workers sleep.
//!
//! While context 0 holds every worker and no other context exists (`active` is false),
//! none of this is on the task path: the runtime pushes to and pops from its policy as if
//! contexts did not exist.
//!
//! ```
//! use starpu_core::{Codelet, Config, Runtime};
//! use starpu_core::sched::contexts::ContextOptions;
//! use std::sync::atomic::{AtomicUsize, Ordering};
//! use std::sync::Arc;
//!
//! let rt = Runtime::start(Config { ncpus: Some(3), silent: true, ..Config::default() })?;
//! // Worker 2 alone, with its own eager policy.
//! let ctx = rt.create_context(&[2], ContextOptions::named("solo").policy("eager"))?;
//! let ran_on = Arc::new(AtomicUsize::new(usize::MAX));
//! let seen = ran_on.clone();
//! let cl = Arc::new(Codelet::new("where").cpu(move |call| {
//!     seen.store(call.worker(), Ordering::SeqCst);
//!     Ok(())
//! }));
//! rt.task(&cl).sched_ctx(ctx).synchronous(true).submit()?;
//! assert_eq!(ran_on.load(Ordering::SeqCst), 2);
//! rt.delete_context(ctx)?;
//! rt.shutdown();
//! # Ok::<(), starpu_core::Error>(())
//! ```

use super::{Policy, PolicyFactory, SchedView};
use crate::error::{Error, Result};
use crate::memory::NodeId;
use crate::perfmodel::PerfArch;
use crate::task::{Task, TaskRef};
use crate::topology::Topology;
use crate::worker::Worker;
use std::cell::Cell;
use std::sync::atomic::{fence, AtomicBool, AtomicI32, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

pub(crate) mod priority;

/// Most contexts at once, the global one included (`STARPU_NMAX_SCHED_CTXS`).
pub const MAX_CONTEXTS: usize = 10;
/// The global context's id (`STARPU_GLOBAL_SCHED_CTX`).
pub const GLOBAL: u32 = 0;
const NONE: u32 = u32::MAX;

/// What the contexts need of the runtime that holds them: the view their policies see,
/// the global policy, the workers and the machine, and the runtime's state.
pub(crate) trait ContextHost: SchedView {
    fn contexts(&self) -> &Contexts;
    /// The policy of the global context.
    fn global_policy(&self) -> &dyn Policy;
    fn workers(&self) -> &[Worker];
    fn topology(&self) -> &Topology;
    /// An error once the runtime is shut down.
    fn check_accepting(&self) -> Result<()>;
    fn is_stopping(&self) -> bool;
    /// Whether some worker is parked (a push must wake one).
    fn any_sleeping(&self) -> bool;
    /// The implementation worker `w` would run of `task`, if any.
    fn choose_impl(&self, task: &Task, w: usize) -> Option<usize>;
    /// Context `id` was made: it has no task yet.
    fn context_created(&self, id: u32);
}

/// How a context is made: its name, policy and priorities
/// (`starpu_sched_ctx_create`'s `STARPU_SCHED_CTX_*` arguments).
#[derive(Debug, Clone, Default)]
pub struct ContextOptions {
    pub name: String,
    /// A policy by name (`None` or empty: the default policy).
    pub policy: Option<String>,
    /// A policy the application wrote; wins over `policy`.
    pub custom_policy: Option<PolicyFactory>,
    /// Priority bounds (`None`: the policy's).
    pub min_priority: Option<i32>,
    pub max_priority: Option<i32>,
    /// The context that inherits this one's workers and tasks when it is deleted.
    pub inheritor: Option<u32>,
    /// Tasks run on the context's first worker only, its *master* (a parallel worker's
    /// context: the other members are there for the threads the master's kernel starts).
    pub master_only: bool,
    /// The context this one is nested in (a parallel worker's context in the machine
    /// context that feeds it): a task its master takes from there sees this context's
    /// CPUs in `available_cpuids`.
    pub nested_in: Option<u32>,
}

impl ContextOptions {
    /// Options for a context called `name`, default policy.
    pub fn named(name: &str) -> Self {
        ContextOptions {
            name: name.to_string(),
            ..Default::default()
        }
    }

    /// Scheduled by the policy called `name`.
    pub fn policy(mut self, name: &str) -> Self {
        self.policy = Some(name.to_string());
        self
    }

    /// Priority bounds of the context.
    pub fn priorities(mut self, min: i32, max: i32) -> Self {
        self.min_priority = Some(min);
        self.max_priority = Some(max);
        self
    }
}

struct Context {
    name: String,
    /// `None`: the runtime's own policy (context 0).
    policy: Option<Box<dyn Policy>>,
    /// Bit w: worker w belongs to the context.
    members: AtomicU64,
    min_priority: AtomicI32,
    max_priority: AtomicI32,
    inheritor: AtomicU32,
    master_only: bool,
    nested_in: AtomicU32,
}

impl Context {
    /// The workers that run the context's tasks: all members, or the first one for a
    /// master-only context.
    fn runners(&self) -> u64 {
        let m = self.members.load(Ordering::SeqCst);
        if self.master_only {
            m & m.wrapping_neg()
        } else {
            m
        }
    }
}

/// The contexts of one runtime.
pub(crate) struct Contexts {
    slots: [RwLock<Option<Arc<Context>>>; MAX_CONTEXTS],
    /// Per worker, bit c: the worker belongs to context c.
    worker_ctxs: Box<[AtomicU32]>,
    /// Where the ready tasks of a deleted context go.
    redirect: [AtomicU32; MAX_CONTEXTS],
    /// Some context other than a complete context 0 exists.
    active: AtomicBool,
    /// Serialises creation, deletion and changes of members.
    change: Mutex<()>,
    nworkers: usize,
    /// Per worker, how many holders reserve it (see `reserve_workers`).
    holds: Box<[AtomicU32]>,
    /// Bit w: worker w is reserved and takes no task.
    reserved: AtomicU64,
    /// Per worker, its priority in each context (the order it pops them in).
    priorities: priority::WorkerPriorities,
}

thread_local! {
    static CURRENT: Cell<u32> = const { Cell::new(NONE) };
}

/// Makes `ctx` the context the calling thread's tasks go to when they name none
/// (`starpu_sched_ctx_set_context`); `None` goes back to the global context.
pub fn set_current_context(ctx: Option<u32>) {
    CURRENT.with(|c| c.set(ctx.unwrap_or(NONE)));
}

/// The context set by [`set_current_context`] on this thread, if any
/// (`starpu_sched_ctx_get_context`).
pub fn current_context() -> Option<u32> {
    CURRENT.with(|c| Some(c.get()).filter(|&v| v != NONE))
}

fn all_bits(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

fn bits(workers: &[usize]) -> u64 {
    workers.iter().fold(0, |m, &w| m | (1u64 << w))
}

fn ids(mask: u64) -> Vec<usize> {
    (0..64).filter(|w| mask & (1u64 << w) != 0).collect()
}

impl Contexts {
    pub(crate) fn new(nworkers: usize, priorities: (i32, i32)) -> Contexts {
        let mut global = Some(Arc::new(Context {
            name: "global".to_string(),
            policy: None,
            members: AtomicU64::new(all_bits(nworkers)),
            min_priority: AtomicI32::new(priorities.0),
            max_priority: AtomicI32::new(priorities.1),
            inheritor: AtomicU32::new(NONE),
            master_only: false,
            nested_in: AtomicU32::new(NONE),
        }));
        let slots = std::array::from_fn(|i| RwLock::new(if i == 0 { global.take() } else { None }));
        Contexts {
            slots,
            worker_ctxs: (0..nworkers).map(|_| AtomicU32::new(1)).collect(),
            redirect: std::array::from_fn(|_| AtomicU32::new(NONE)),
            active: AtomicBool::new(false),
            change: Mutex::new(()),
            nworkers,
            holds: (0..nworkers).map(|_| AtomicU32::new(0)).collect(),
            reserved: AtomicU64::new(0),
            priorities: priority::WorkerPriorities::new(nworkers),
        }
    }

    fn get(&self, id: u32) -> Option<Arc<Context>> {
        let slot = self.slots.get(id as usize)?;
        slot.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn existing(&self, id: u32, what: &str) -> Result<Arc<Context>> {
        self.get(id).ok_or_else(|| {
            Error::invalid(format!("{what}: scheduling context {id} does not exist"))
        })
    }

    pub(crate) fn is_active(&self) -> bool {
        self.active.load(Ordering::Acquire)
    }

    fn update_active(&self) {
        let others = (1..MAX_CONTEXTS).any(|i| self.get(i as u32).is_some());
        let global_full = self
            .get(GLOBAL)
            .is_some_and(|g| g.members.load(Ordering::SeqCst) == all_bits(self.nworkers));
        let reserved = self.reserved.load(Ordering::SeqCst) != 0;
        self.active
            .store(others || !global_full || reserved, Ordering::Release);
    }
}

/// The runtime as the policy of one context sees it: only the context's workers may run
/// its tasks.
struct ContextView<'a, H> {
    rt: &'a H,
    members: u64,
}

impl<H: ContextHost> SchedView for ContextView<'_, H> {
    fn nworkers(&self) -> usize {
        self.rt.nworkers()
    }
    fn worker_arch(&self, w: usize) -> PerfArch {
        self.rt.worker_arch(w)
    }
    fn worker_node(&self, w: usize) -> NodeId {
        self.rt.worker_node(w)
    }
    fn can_run(&self, task: &Task, w: usize) -> bool {
        self.members & (1u64 << w) != 0 && self.rt.can_run(task, w)
    }
    fn nimpls(&self, task: &Task, w: usize) -> usize {
        self.rt.nimpls(task, w)
    }
    fn can_run_impl(&self, task: &Task, w: usize, nimpl: usize) -> bool {
        self.members & (1u64 << w) != 0 && self.rt.can_run_impl(task, w, nimpl)
    }
    fn expected_length(&self, task: &Task, w: usize, nimpl: usize) -> super::Expected {
        self.rt.expected_length(task, w, nimpl)
    }
    fn expected_transfer(&self, task: &Task, w: usize) -> f64 {
        self.rt.expected_transfer(task, w)
    }
    fn prefetch(&self, task: &Task, w: usize) {
        self.rt.prefetch(task, w)
    }
}

fn ctx_policy<'a, H: ContextHost>(rt: &'a H, ctx: &'a Context) -> &'a dyn Policy {
    ctx.policy.as_deref().unwrap_or(rt.global_policy())
}

pub(crate) fn do_schedule(rt: &impl ContextHost) {
    let mut released = rt.global_policy().do_schedule();
    if rt.contexts().is_active() {
        for id in 1..MAX_CONTEXTS as u32 {
            if let Some(p) = rt
                .contexts()
                .get(id)
                .as_ref()
                .and_then(|c| c.policy.as_ref())
            {
                released |= p.do_schedule();
            }
        }
    }
    if released {
        for w in rt.workers() {
            w.wake();
        }
    }
}

pub(crate) fn create_context(
    rt: &impl ContextHost,
    workers: &[usize],
    options: ContextOptions,
) -> Result<u32> {
    rt.check_accepting()?;
    let what = "scheduling context creation";
    check_worker_list(rt, workers, what)?;
    let cs = rt.contexts();
    let _g = cs.change.lock().unwrap_or_else(|e| e.into_inner());
    let Some(id) = (1..MAX_CONTEXTS as u32).find(|&i| cs.get(i).is_none()) else {
        return Err(Error::invalid(format!(
            "{what}: all {MAX_CONTEXTS} scheduling contexts are in use (STARPU_NMAX_SCHED_CTXS)"
        )));
    };
    if let Some(i) = options.inheritor {
        cs.existing(i, what)?;
    }
    if let Some(i) = options.nested_in {
        cs.existing(i, what)?;
    }
    if options.master_only && workers.is_empty() {
        return Err(Error::invalid(format!(
            "{what}: a master-only context needs at least one worker"
        )));
    }
    let policy: Box<dyn Policy> = match &options.custom_policy {
        Some(f) => (f.0)(id, rt.workers()),
        None => {
            let name = options
                .policy
                .as_deref()
                .filter(|n| !n.is_empty())
                .unwrap_or(super::DEFAULT_POLICY);
            super::create(name, rt.workers())
                .map_err(|e| Error::invalid(format!("{what}: {}", e.message)))?
        }
    };
    let (pmin, pmax) = policy.priority_range();
    let mask = bits(workers);
    let ctx = Context {
        name: options.name.clone(),
        policy: Some(policy),
        members: AtomicU64::new(mask),
        min_priority: AtomicI32::new(options.min_priority.unwrap_or(pmin)),
        max_priority: AtomicI32::new(options.max_priority.unwrap_or(pmax)),
        inheritor: AtomicU32::new(options.inheritor.unwrap_or(NONE)),
        master_only: options.master_only,
        nested_in: AtomicU32::new(options.nested_in.unwrap_or(NONE)),
    };
    let ctx = Arc::new(ctx);
    rt.context_created(id);
    *cs.slots[id as usize]
        .write()
        .unwrap_or_else(|e| e.into_inner()) = Some(ctx.clone());
    cs.redirect[id as usize].store(NONE, Ordering::SeqCst);
    for &w in workers {
        cs.priorities.joined(w, id);
        cs.worker_ctxs[w].fetch_or(1 << id, Ordering::SeqCst);
    }
    cs.update_active();
    let mut sorted = ids(mask);
    sorted.dedup();
    ctx_policy(rt, &ctx).workers_added(&sorted);
    Ok(id)
}

fn check_worker_list(rt: &impl ContextHost, workers: &[usize], what: &str) -> Result<()> {
    if let Some(&w) = workers.iter().find(|&&w| w >= rt.workers().len()) {
        return Err(Error::invalid(format!(
            "{what}: worker {w} does not exist (there are {} workers)",
            rt.workers().len()
        )));
    }
    Ok(())
}

pub(crate) fn delete_context(rt: &impl ContextHost, id: u32) -> Result<()> {
    let what = "scheduling context deletion";
    if id == GLOBAL {
        return Err(Error::invalid(format!(
            "{what}: the global context (0) cannot be deleted"
        )));
    }
    let cs = rt.contexts();
    let ctx = {
        let _g = cs.change.lock().unwrap_or_else(|e| e.into_inner());
        let ctx = cs.existing(id, what)?;
        let inheritor = ctx.inheritor.load(Ordering::SeqCst);
        let heir = if inheritor != NONE && cs.get(inheritor).is_some() {
            inheritor
        } else {
            GLOBAL
        };
        let members = ids(ctx.members.load(Ordering::SeqCst));
        if inheritor == heir {
            join(rt, heir, &members);
        }
        // From here on, pushes to `id` go to the heir; pushes in progress hold the
        // slot's read lock, so none lands in the policy after the drain below.
        cs.redirect[id as usize].store(heir, Ordering::SeqCst);
        *cs.slots[id as usize]
            .write()
            .unwrap_or_else(|e| e.into_inner()) = None;
        for &w in &members {
            cs.worker_ctxs[w].fetch_and(!(1 << id), Ordering::SeqCst);
        }
        cs.update_active();
        ctx
    };
    let left = drain(rt, &ctx);
    push_to_context(rt, left);
    ctx_policy(rt, &ctx).deinit();
    Ok(())
}

pub(crate) fn add_context_workers(rt: &impl ContextHost, id: u32, workers: &[usize]) -> Result<()> {
    check_worker_list(rt, workers, "adding workers to a scheduling context")?;
    let _g = rt
        .contexts()
        .change
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    rt.contexts()
        .existing(id, "adding workers to a scheduling context")?;
    join(rt, id, workers);
    Ok(())
}

fn join(rt: &impl ContextHost, id: u32, workers: &[usize]) {
    let cs = rt.contexts();
    let Some(ctx) = cs.get(id) else { return };
    let before = ctx.members.fetch_or(bits(workers), Ordering::SeqCst);
    let new = ids(bits(workers) & !before);
    if new.is_empty() {
        return;
    }
    for &w in &new {
        cs.priorities.joined(w, id);
        cs.worker_ctxs[w].fetch_or(1 << id, Ordering::SeqCst);
    }
    cs.update_active();
    let policy = ctx_policy(rt, &ctx);
    policy.workers_added(&new);
    let queued = drain(rt, &ctx);
    push_into(rt, id, &ctx, queued);
    for &w in &new {
        rt.workers()[w].wake();
    }
}

pub(crate) fn remove_context_workers(
    rt: &impl ContextHost,
    id: u32,
    workers: &[usize],
) -> Result<()> {
    let what = "removing workers from a scheduling context";
    check_worker_list(rt, workers, what)?;
    let cs = rt.contexts();
    let _g = cs.change.lock().unwrap_or_else(|e| e.into_inner());
    let ctx = cs.existing(id, what)?;
    let before = ctx.members.fetch_and(!bits(workers), Ordering::SeqCst);
    let gone = ids(bits(workers) & before);
    if gone.is_empty() {
        return Ok(());
    }
    for &w in &gone {
        cs.worker_ctxs[w].fetch_and(!(1 << id), Ordering::SeqCst);
    }
    cs.update_active();
    ctx_policy(rt, &ctx).workers_removed(&gone);
    let queued = drain(rt, &ctx);
    push_into(rt, id, &ctx, queued);
    Ok(())
}

pub(crate) fn set_context_inheritor(rt: &impl ContextHost, id: u32, inheritor: u32) -> Result<()> {
    let what = "setting a scheduling context's inheritor";
    let ctx = rt.contexts().existing(id, what)?;
    rt.contexts().existing(inheritor, what)?;
    ctx.inheritor.store(inheritor, Ordering::SeqCst);
    Ok(())
}

pub(crate) fn context_inheritor(rt: &impl ContextHost, id: u32) -> Result<Option<u32>> {
    let ctx = rt.contexts().existing(id, "context_inheritor")?;
    Ok(Some(ctx.inheritor.load(Ordering::SeqCst)).filter(|&i| i != NONE))
}

pub(crate) fn wake_worker(rt: &impl ContextHost, w: usize) -> bool {
    rt.workers().get(w).is_some_and(|x| x.wake())
}

pub(crate) fn context_exists(rt: &impl ContextHost, id: u32) -> bool {
    rt.contexts().get(id).is_some()
}

pub(crate) fn context_workers(rt: &impl ContextHost, id: u32) -> Result<Vec<usize>> {
    let ctx = rt.contexts().existing(id, "context_workers")?;
    Ok(ids(ctx.members.load(Ordering::SeqCst)))
}

pub(crate) fn worker_contexts(rt: &impl ContextHost, w: usize) -> Vec<u32> {
    let Some(m) = rt.contexts().worker_ctxs.get(w) else {
        return Vec::new();
    };
    let m = m.load(Ordering::SeqCst);
    (0..MAX_CONTEXTS as u32)
        .filter(|c| m & (1 << c) != 0)
        .collect()
}

pub(crate) fn context_name(rt: &impl ContextHost, id: u32) -> Result<String> {
    Ok(rt.contexts().existing(id, "context_name")?.name.clone())
}

pub(crate) fn context_policy_name(rt: &impl ContextHost, id: u32) -> Result<&'static str> {
    let ctx = rt.contexts().existing(id, "context_policy_name")?;
    Ok(ctx_policy(rt, &ctx).name())
}

pub(crate) fn with_context_policy<R>(
    rt: &impl ContextHost,
    id: u32,
    f: impl FnOnce(&dyn Policy) -> R,
) -> Result<R> {
    let ctx = rt.contexts().existing(id, "context policy")?;
    Ok(f(ctx_policy(rt, &ctx)))
}

pub(crate) fn context_priority_range(rt: &impl ContextHost, id: u32) -> Result<(i32, i32)> {
    let ctx = rt.contexts().existing(id, "context_priority_range")?;
    Ok((
        ctx.min_priority.load(Ordering::SeqCst),
        ctx.max_priority.load(Ordering::SeqCst),
    ))
}

pub(crate) fn set_context_min_priority(rt: &impl ContextHost, id: u32, prio: i32) -> Result<()> {
    let ctx = rt.contexts().existing(id, "set_context_min_priority")?;
    ctx.min_priority.store(prio, Ordering::SeqCst);
    Ok(())
}

pub(crate) fn set_context_max_priority(rt: &impl ContextHost, id: u32, prio: i32) -> Result<()> {
    let ctx = rt.contexts().existing(id, "set_context_max_priority")?;
    ctx.max_priority.store(prio, Ordering::SeqCst);
    Ok(())
}

pub(crate) fn context_nready(rt: &impl ContextHost, id: u32) -> Result<usize> {
    let ctx = rt.contexts().existing(id, "context_nready")?;
    Ok(ctx_policy(rt, &ctx).ntasks())
}

pub(crate) fn submission_context(rt: &impl ContextHost, named: Option<u32>) -> Result<u32> {
    if named.is_none() && !rt.contexts().is_active() {
        return Ok(GLOBAL);
    }
    Ok(resolve_context(rt, named)?.unwrap_or(GLOBAL))
}

pub(crate) fn resolve_context(rt: &impl ContextHost, named: Option<u32>) -> Result<Option<u32>> {
    let id = named.or_else(current_context);
    match id {
        None | Some(GLOBAL) => Ok(id),
        Some(c) if rt.contexts().get(c).is_some() => Ok(Some(c)),
        Some(c) => Err(Error::invalid(format!(
            "task submission: scheduling context {c} does not exist"
        ))),
    }
}

fn drain(rt: &impl ContextHost, ctx: &Context) -> Vec<TaskRef> {
    let policy = ctx_policy(rt, ctx);
    let mut out = Vec::new();
    for w in 0..rt.workers().len() {
        while let Some(t) = policy.pop(w, &|_| true) {
            out.push(t);
        }
    }
    out
}

fn push_into(rt: &impl ContextHost, id: u32, ctx: &Context, tasks: Vec<TaskRef>) {
    if tasks.is_empty() {
        return;
    }
    let members = schedulable(rt, ctx);
    let view = ContextView { rt, members };
    let policy = ctx_policy(rt, ctx);
    let from = crate::worker::current_worker_id();
    let _ = id;
    for t in tasks {
        let target = policy.push(t, from, &view);
        wake_in(rt, members, target);
    }
}

pub(crate) fn push_to_context(rt: &impl ContextHost, tasks: Vec<TaskRef>) {
    let cs = rt.contexts();
    for t in tasks {
        let mut id = t.spec().and_then(|s| s.sched_ctx).unwrap_or(GLOBAL);
        // A deleted context's tasks go to its heir (which may be deleted too).
        for _ in 0..MAX_CONTEXTS {
            let guard = cs.slots[id as usize]
                .read()
                .unwrap_or_else(|e| e.into_inner());
            if let Some(ctx) = guard.as_ref() {
                let members = schedulable(rt, ctx);
                let view = ContextView { rt, members };
                let from = crate::worker::current_worker_id();
                let target = ctx_policy(rt, ctx).push(t, from, &view);
                drop(guard);
                wake_in(rt, members, target);
                break;
            }
            let next = cs.redirect[id as usize].load(Ordering::SeqCst);
            id = if next == NONE { GLOBAL } else { next };
            if id == GLOBAL && cs.get(GLOBAL).is_none() {
                break;
            }
        }
    }
}

fn wake_in(rt: &impl ContextHost, members: u64, target: Option<usize>) {
    fence(Ordering::SeqCst);
    if !rt.any_sleeping() {
        return;
    }
    if let Some(t) = target.filter(|&t| members & (1u64 << t) != 0) {
        if rt.workers()[t].wake() {
            return;
        }
    }
    for w in ids(members) {
        if w < rt.workers().len() && rt.workers()[w].wake() {
            return;
        }
    }
}

pub(crate) fn pop_from_contexts(rt: &impl ContextHost, w: usize) -> Option<TaskRef> {
    let cs = rt.contexts();
    if cs.reserved.load(Ordering::SeqCst) & (1u64 << w) != 0 {
        return None;
    }
    let mask = cs.worker_ctxs[w].load(Ordering::SeqCst);
    let can_run = |t: &Task| rt.choose_impl(t, w).is_some();
    let (order, n) = cs.priorities.order(w, mask);
    for &c in &order[..n] {
        let Some(ctx) = cs.get(c as u32) else {
            continue;
        };
        if ctx.runners() & (1u64 << w) == 0 {
            continue;
        }
        if let Some(t) = ctx_policy(rt, &ctx).pop_in(w, &can_run, rt) {
            return Some(t);
        }
    }
    None
}

pub(crate) fn contexts_have_work(rt: &impl ContextHost, w: usize) -> bool {
    let cs = rt.contexts();
    if cs.reserved.load(Ordering::SeqCst) & (1u64 << w) != 0 {
        return false;
    }
    let mask = cs.worker_ctxs[w].load(Ordering::SeqCst);
    (0..MAX_CONTEXTS).any(|c| {
        mask & (1 << c) != 0
            && cs.get(c as u32).is_some_and(|ctx| {
                ctx.runners() & (1u64 << w) != 0 && ctx_policy(rt, &ctx).has_work(w)
            })
    })
}

pub(crate) fn contexts_ntasks(rt: &impl ContextHost) -> usize {
    (1..MAX_CONTEXTS as u32)
        .filter_map(|c| rt.contexts().get(c))
        .map(|ctx| ctx_policy(rt, &ctx).ntasks())
        .sum()
}

pub(crate) fn with_task_policy(rt: &impl ContextHost, task: &Task, f: impl FnOnce(&dyn Policy)) {
    match task
        .spec()
        .and_then(|s| s.sched_ctx)
        .filter(|&c| c != GLOBAL)
    {
        None => f(rt.global_policy()),
        Some(c) => {
            if let Some(ctx) = rt.contexts().get(c) {
                f(ctx_policy(rt, &ctx))
            }
        }
    }
}

pub(crate) fn deinit_policies(rt: &impl ContextHost) {
    for c in 0..MAX_CONTEXTS as u32 {
        if let Some(ctx) = rt.contexts().get(c) {
            ctx_policy(rt, &ctx).deinit();
        }
    }
}

fn schedulable(rt: &impl ContextHost, ctx: &Context) -> u64 {
    ctx.runners() & !rt.contexts().reserved.load(Ordering::SeqCst)
}

pub(crate) fn reserve_workers(rt: &impl ContextHost, workers: &[usize]) {
    let cs = rt.contexts();
    for &w in workers {
        if cs.holds[w].fetch_add(1, Ordering::SeqCst) == 0 {
            cs.reserved.fetch_or(1u64 << w, Ordering::SeqCst);
        }
    }
    cs.update_active();
}

pub(crate) fn release_workers(rt: &impl ContextHost, workers: &[usize]) {
    let cs = rt.contexts();
    for &w in workers {
        let prev = cs.holds[w]
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |h| h.checked_sub(1))
            .unwrap_or(0);
        if prev == 1 {
            cs.reserved.fetch_and(!(1u64 << w), Ordering::SeqCst);
        }
    }
    cs.update_active();
    for &w in workers {
        rt.workers()[w].wake();
    }
}

pub(crate) fn worker_reserved(rt: &impl ContextHost, w: usize) -> bool {
    rt.contexts().reserved.load(Ordering::SeqCst) & (1u64 << w) != 0
}

fn wait_idle(rt: &impl ContextHost, workers: &[usize]) {
    let mut left: Vec<usize> = workers.to_vec();
    while !left.is_empty() && !rt.is_stopping() {
        left.retain(|&w| !rt.workers()[w].sleeping.load(Ordering::SeqCst));
        if !left.is_empty() {
            std::thread::sleep(std::time::Duration::from_micros(50));
        }
    }
}

pub(crate) fn context_master(rt: &impl ContextHost, id: u32) -> Result<Option<usize>> {
    let ctx = rt.contexts().existing(id, "context_master")?;
    Ok(Some(ctx.runners())
        .filter(|_| ctx.master_only)
        .and_then(|m| ids(m).first().copied()))
}

pub(crate) fn master_context_of(rt: &impl ContextHost, w: usize) -> Option<u32> {
    (1..MAX_CONTEXTS as u32).find(|&c| {
        rt.contexts()
            .get(c)
            .is_some_and(|ctx| ctx.master_only && ctx.runners() == 1u64 << w)
    })
}

pub(crate) fn worker_is_subordinate(rt: &impl ContextHost, w: usize) -> bool {
    let bit = 1u64 << w;
    (1..MAX_CONTEXTS as u32).any(|c| {
        rt.contexts().get(c).is_some_and(|ctx| {
            ctx.master_only
                && ctx.members.load(Ordering::SeqCst) & bit != 0
                && ctx.runners() & bit == 0
        })
    })
}

pub(crate) fn context_nested_in(rt: &impl ContextHost, id: u32) -> Result<Option<u32>> {
    let ctx = rt.contexts().existing(id, "context_nested_in")?;
    Ok(Some(ctx.nested_in.load(Ordering::SeqCst)).filter(|&n| n != NONE))
}

pub(crate) fn set_context_nesting(rt: &impl ContextHost, id: u32, parent: u32) -> Result<()> {
    let what = "nesting a scheduling context";
    let ctx = rt.contexts().existing(id, what)?;
    rt.contexts().existing(parent, what)?;
    ctx.nested_in.store(parent, Ordering::SeqCst);
    Ok(())
}

pub(crate) fn worker_cpuid(rt: &impl ContextHost, w: usize) -> usize {
    let n = rt.topology().ncores().max(1);
    rt.workers()[w]
        .cpu
        .unwrap_or_else(|| rt.topology().core_cpus.get(w % n).copied().unwrap_or(w))
}

pub(crate) fn available_cpuids(rt: &impl ContextHost, id: u32) -> Result<Vec<usize>> {
    let ctx = rt
        .contexts()
        .existing(id, "starpu_sched_ctx_get_available_cpuids")?;
    let members = ids(ctx.members.load(Ordering::SeqCst));
    let me = crate::worker::current_worker_id().filter(|&w| w < rt.workers().len());
    let Some(me) = me else {
        return Ok(members.iter().map(|&w| worker_cpuid(rt, w)).collect());
    };
    for c in 1..MAX_CONTEXTS as u32 {
        let Some(inner) = rt.contexts().get(c) else {
            continue;
        };
        if inner.master_only
            && inner.nested_in.load(Ordering::SeqCst) == id
            && inner.runners() == 1u64 << me
        {
            let all = ids(inner.members.load(Ordering::SeqCst));
            return Ok(all.iter().map(|&w| worker_cpuid(rt, w)).collect());
        }
    }
    if ctx.master_only && ctx.runners() == 1u64 << me {
        return Ok(members.iter().map(|&w| worker_cpuid(rt, w)).collect());
    }
    Ok(members
        .iter()
        .filter(|&&w| w == me)
        .map(|&w| worker_cpuid(rt, w))
        .collect())
}

pub(crate) fn bind_current_thread_to_cpuid(rt: &impl ContextHost, cpuid: usize) -> Result<()> {
    let online = std::thread::available_parallelism().map_or(1, |n| n.get());
    let known = rt.topology().core_cpus.contains(&cpuid) || cpuid < online;
    if !known {
        return Err(Error::invalid(format!(
            "binding a thread: CPU {cpuid} does not exist (the machine has {online})"
        )));
    }
    rt.topology().bind_current_thread(cpuid)
}

pub(crate) fn exec_parallel_code<R>(
    rt: &impl ContextHost,
    id: u32,
    f: impl FnOnce() -> R,
) -> Result<R> {
    let ctx = rt
        .contexts()
        .existing(id, "starpu_sched_ctx_exec_parallel_code")?;
    let me = crate::worker::current_worker_id();
    let workers: Vec<usize> = ids(ctx.members.load(Ordering::SeqCst))
        .into_iter()
        .filter(|&w| Some(w) != me)
        .collect();
    drop(ctx);
    reserve_workers(rt, &workers);
    struct Release<'a, H: ContextHost>(&'a H, Vec<usize>);
    impl<H: ContextHost> Drop for Release<'_, H> {
        fn drop(&mut self) {
            release_workers(self.0, &self.1);
        }
    }
    let _release = Release(rt, workers.clone());
    wait_idle(rt, &workers);
    Ok(f())
}
