//! The conformance suite's Rust driver: runs a plan (see tests/conformance/README.md)
//! through starpu-core's safe Rust API only, with the kernels written in Rust.
//!
//! usage: starpu-conformance-rust PLANFILE | --capabilities

mod cuda;
mod device;
mod events;
mod kernels;
mod opencl;

use events::EVENTS;
use kernels::TaskInfo;
use starpu_core::data::interfaces::{MatrixInterface, VariableInterface, VectorInterface};
use starpu_core::data::Filter;
use starpu_core::runtime::Acquired;
use starpu_core::sched::contexts::{self, ContextOptions};
use starpu_core::task::Transaction;
use starpu_core::{AccessMode, Codelet, Config, DataHandle, ElemKind, Error, Runtime, TaskRef};
use std::collections::HashMap;
use std::sync::Arc;

const OPS: &[&str] = &[
    "init",
    "shutdown",
    "data",
    "read",
    "acquire",
    "show",
    "store",
    "release",
    "buffer",
    "partition",
    "unpartition",
    "partition_plan",
    "partition_submit",
    "partition_readonly_submit",
    "partition_readwrite_upgrade_submit",
    "partition_readonly_downgrade_submit",
    "unpartition_submit",
    "unpartition_readonly_submit",
    "partition_clean",
    "nplans",
    "unregister",
    "unregister_no_coherency",
    "invalidate",
    "seqcons",
    "redux_methods",
    "codelet",
    "insert",
    "task",
    "deps",
    "submit",
    "wait",
    "wait_all",
    "tag_deps",
    "tag_notify",
    "tag_wait",
    "open",
    "await",
    "clock",
    "ctx",
    "ctx_remove",
    "ctx_inheritor",
    "ctx_delete",
    "trs_open",
    "trs_next",
    "trs_close",
];
/// `badkey` is not here: the Rust task builder has no way to pass an unknown key.
const OPTIONS: &[&str] = &[
    "value", "ref", "delay", "prio", "callback", "sync", "tag", "nodetach", "ctx", "trs",
];
const FILTERS: &[&str] = &["vector_block", "matrix_block", "matrix_vertical_block"];
const KINDS: &[&str] = &["variable", "vector", "matrix"];
const MODES: &[(&str, AccessMode)] = &[
    ("R", AccessMode::R),
    ("W", AccessMode::W),
    ("RW", AccessMode::RW),
    ("RW|COMMUTE", AccessMode::RW.union(AccessMode::COMMUTE)),
    ("REDUX", AccessMode::REDUX),
    ("SCRATCH", AccessMode::SCRATCH),
];

/// A return code as the driver prints it: the number a C program would get (0 or the
/// negative errno of the error's kind); the harness names it.
pub fn code(result: &starpu_core::Result<()>) -> i32 {
    result.as_ref().map_or_else(|e| -e.errno(), |_| 0)
}

/// A malformed plan line.
struct PlanError(String);

type Step = Result<(), PlanError>;

fn bad(msg: impl Into<String>) -> PlanError {
    PlanError(msg.into())
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Variable,
    Vector,
    Matrix { nx: usize },
}

struct Data {
    handle: DataHandle,
    kind: Kind,
    /// Registered from a buffer of the driver (not `home=none`).
    owned: bool,
    /// The buffer given back at unregistration.
    returned: Option<Vec<i64>>,
    children: Vec<String>,
}

/// A task described by `task`, submitted later by `submit`.
struct Pending {
    codelet: String,
    buffers: Vec<(String, AccessMode)>,
    opts: Opts,
}

#[derive(Default, Clone)]
struct Opts {
    values: Vec<i64>,
    reference: Option<String>,
    delay: u64,
    prio: i32,
    callback: bool,
    sync: bool,
    tag: Option<u64>,
    nodetach: bool,
    /// `ctx=NAME`: the scheduling context's id.
    ctx: Option<u32>,
    /// `trs=NAME`: the transaction whose current epoch the task joins.
    trs: Option<Transaction>,
}

#[derive(Default)]
struct Driver {
    rt: Option<Arc<Runtime>>,
    datas: HashMap<String, Data>,
    codelets: HashMap<String, Arc<Codelet>>,
    tasks: HashMap<String, TaskRef>,
    pending: HashMap<String, Pending>,
    held: HashMap<String, Acquired>,
    /// Partition plans by name: their children's names.
    plans: HashMap<String, Vec<String>>,
    /// Scheduling contexts by name ("global" is 0).
    ctxs: HashMap<String, u32>,
    /// Open transactions by name.
    trss: HashMap<String, Transaction>,
}

/// `NAME yes|no`: a transaction and whether the epoch runs.
fn yes_no<'a>(verb: &str, args: &[&'a str]) -> Result<(&'a str, bool), PlanError> {
    match args {
        [name, "yes"] => Ok((name, true)),
        [name, "no"] => Ok((name, false)),
        _ => Err(bad(format!("{verb}: expected a transaction and yes|no"))),
    }
}

fn mode_of(s: &str) -> Result<AccessMode, PlanError> {
    MODES
        .iter()
        .find(|(n, _)| *n == s)
        .map(|m| m.1)
        .ok_or_else(|| bad(format!("unknown mode {s}")))
}

fn num<T: std::str::FromStr>(s: &str) -> Result<T, PlanError> {
    s.parse().map_err(|_| bad(format!("bad number {s}")))
}

fn option<'a>(tok: &'a str, key: &str) -> Option<&'a str> {
    tok.strip_prefix(key)?.strip_prefix('=')
}

impl Driver {
    fn rt(&self) -> Result<&Arc<Runtime>, Error> {
        self.rt.as_ref().ok_or_else(Error::not_initialized)
    }

    fn data(&self, name: &str) -> Result<&Data, PlanError> {
        self.datas
            .get(name)
            .ok_or_else(|| bad(format!("unknown data {name}")))
    }

    /// Prints `error VERB [SUBJECT] CODE` for a failed call.
    fn report(&self, verb: &str, subject: Option<&str>, r: starpu_core::Result<()>) {
        if let Err(e) = r {
            eprintln!("{verb}: {e}");
            let subject = subject.map(|s| format!(" {s}")).unwrap_or_default();
            EVENTS.print(&format!("error {verb}{subject} {}", -e.errno()));
        }
    }

    fn run(&mut self, tokens: &[&str]) -> Step {
        let args = &tokens[1..];
        let subject = args.first().filter(|a| !a.contains('=')).copied();
        match tokens[0] {
            "init" => self.init(args),
            "shutdown" => {
                self.held.clear();
                self.ctxs.clear();
                self.trss.clear();
                self.rt = None;
                let r = starpu_core::shutdown();
                self.report("shutdown", None, r);
                Ok(())
            }
            "data" => self.register(args),
            "read" | "show" => self.read(tokens[0], args),
            "acquire" => {
                let (h, mode) = (self.data(args[0])?.handle.clone(), mode_of(args[1])?);
                let r = self.rt().and_then(|rt| rt.acquire_view(&h, mode));
                match r {
                    Ok(a) => {
                        self.held.insert(args[0].to_string(), a);
                    }
                    Err(e) => self.report("acquire", subject, Err(e)),
                }
                Ok(())
            }
            "store" => self.store(args),
            "release" => {
                self.held.remove(args[0]);
                Ok(())
            }
            "buffer" => {
                let d = self.data(args[0])?;
                let values = d.returned.clone().ok_or_else(|| {
                    bad(format!(
                        "{} was not given back (still registered?)",
                        args[0]
                    ))
                })?;
                EVENTS.print(&format!("buffer {} = {}", args[0], render(d.kind, &values)));
                Ok(())
            }
            "partition" => self.partition(args),
            "partition_plan" => self.partition_plan(args),
            "partition_submit"
            | "partition_readonly_submit"
            | "partition_readwrite_upgrade_submit"
            | "partition_readonly_downgrade_submit"
            | "unpartition_submit"
            | "unpartition_readonly_submit"
            | "partition_clean" => self.plan_switch(tokens[0], args),
            "nplans" => {
                let n = self.data(args[0])?.handle.nplans();
                EVENTS.print(&format!("nplans {} = {n}", args[0]));
                Ok(())
            }
            "unpartition" => {
                let h = self.data(args[0])?.handle.clone();
                let r = self.rt().and_then(|rt| rt.unpartition(&h, 0));
                if r.is_ok() {
                    let children =
                        std::mem::take(&mut self.datas.get_mut(args[0]).expect("known").children);
                    for c in children {
                        self.datas.remove(&c);
                    }
                }
                self.report("unpartition", subject, r);
                Ok(())
            }
            "unregister" | "unregister_no_coherency" => self.unregister(tokens[0], args),
            "invalidate" => {
                let h = self.data(args[0])?.handle.clone();
                let r = self.rt().and_then(|rt| rt.invalidate(&h));
                self.report("invalidate", subject, r);
                Ok(())
            }
            "seqcons" => {
                let on = num::<i32>(args[1])? != 0;
                self.data(args[0])?.handle.set_sequential_consistency(on);
                Ok(())
            }
            "redux_methods" => {
                let h = self.data(args[0])?.handle.clone();
                let r = h.set_reduction_methods(kernels::sum_reduction());
                self.report("redux_methods", subject, r);
                Ok(())
            }
            "codelet" => self.codelet(args),
            "insert" => {
                let p = self.parse_task(&args[1..])?;
                let r = self.submit_task(args[0], &p, None);
                self.report("insert", subject, r);
                Ok(())
            }
            "task" => {
                let p = self.parse_task(&args[1..])?;
                self.tasks
                    .insert(args[0].to_string(), starpu_core::Task::new());
                self.pending.insert(args[0].to_string(), p);
                Ok(())
            }
            "deps" => {
                let me = self.task(args[0])?;
                for d in &args[1..] {
                    let pred = self.task(d)?;
                    if let Err(e) = me.add_dependency(&pred) {
                        eprintln!("deps: {e}");
                    }
                }
                Ok(())
            }
            "submit" => {
                let p = self
                    .pending
                    .remove(args[0])
                    .ok_or_else(|| bad(format!("task {} was not described by `task`", args[0])))?;
                let t = self.task(args[0])?;
                let r = self.submit_task(args[0], &p, Some(t));
                self.report("submit", subject, r);
                Ok(())
            }
            "wait" => {
                let t = self.task(args[0])?;
                let r = self.rt().and_then(|rt| rt.wait(&t));
                self.report("wait", subject, r);
                Ok(())
            }
            "wait_all" => {
                let r = self.rt().and_then(|rt| rt.wait_for_all());
                self.report("wait_all", None, r);
                Ok(())
            }
            "tag_deps" => {
                let tags = args
                    .iter()
                    .map(|a| num::<u64>(a))
                    .collect::<Result<Vec<_>, _>>()?;
                if let Err(e) = self
                    .rt()
                    .and_then(|rt| rt.tags.declare_deps(tags[0], &tags[1..]))
                {
                    eprintln!("tag_deps: {e}");
                }
                Ok(())
            }
            "tag_notify" => {
                let tag = num::<u64>(args[0])?;
                if let Ok(rt) = self.rt() {
                    rt.tag_notify(tag);
                }
                Ok(())
            }
            "tag_wait" => {
                let tags = args
                    .iter()
                    .map(|a| num::<u64>(a))
                    .collect::<Result<Vec<_>, _>>()?;
                let r = self.rt().and_then(|rt| rt.tag_wait(&tags));
                self.report("tag_wait", subject, r);
                Ok(())
            }
            "open" => {
                EVENTS.open(num(args[0])?);
                Ok(())
            }
            "await" => {
                EVENTS.wait_for(args[0]);
                Ok(())
            }
            "clock" => {
                EVENTS.clock();
                Ok(())
            }
            "ctx" => self.ctx_create(args),
            "ctx_remove" => {
                let id = self.ctx(args.first().copied().unwrap_or(""))?;
                let ws = workers(&args[1..])?;
                let r = self.rt().and_then(|rt| rt.remove_context_workers(id, &ws));
                self.report("ctx_remove", subject, r);
                Ok(())
            }
            "ctx_inheritor" => {
                if args.len() != 2 {
                    return Err(bad("ctx_inheritor: expected a context and its heir"));
                }
                let (id, heir) = (self.ctx(args[0])?, self.ctx(args[1])?);
                let r = self.rt().and_then(|rt| rt.set_context_inheritor(id, heir));
                self.report("ctx_inheritor", subject, r);
                Ok(())
            }
            "ctx_delete" => {
                let id = self.ctx(args.first().copied().unwrap_or(""))?;
                let r = self.rt().and_then(|rt| rt.delete_context(id));
                self.report("ctx_delete", subject, r);
                Ok(())
            }
            "trs_open" => {
                let (name, start) = yes_no("trs_open", args)?;
                let r = self.rt().and_then(|rt| rt.transaction_open(move || start));
                match r {
                    Ok(t) => {
                        self.trss.insert(name.to_string(), t);
                    }
                    Err(e) => self.report("trs_open", subject, Err(e)),
                }
                Ok(())
            }
            "trs_next" => {
                let (name, start) = yes_no("trs_next", args)?;
                let t = self.trs(name)?;
                let r = self.rt().and_then(|rt| t.next_epoch(rt, move || start));
                self.report("trs_next", subject, r);
                Ok(())
            }
            "trs_close" => {
                let name = args.first().copied().unwrap_or("");
                let t = self.trs(name)?;
                self.trss.remove(name);
                let r = self.rt().and_then(|rt| t.close(rt));
                self.report("trs_close", subject, r);
                Ok(())
            }
            other => Err(bad(format!("unknown operation {other}"))),
        }
    }

    /// The open transaction called `name`.
    fn trs(&self, name: &str) -> Result<Transaction, PlanError> {
        self.trss
            .get(name)
            .cloned()
            .ok_or_else(|| bad(format!("unknown transaction {name}")))
    }

    /// The id of the context called `name`.
    fn ctx(&self, name: &str) -> Result<u32, PlanError> {
        if name == "global" {
            return Ok(contexts::GLOBAL);
        }
        self.ctxs
            .get(name)
            .copied()
            .ok_or_else(|| bad(format!("unknown context {name}")))
    }

    /// `ctx NAME W... [policy=P]`.
    fn ctx_create(&mut self, args: &[&str]) -> Step {
        let name = args.first().ok_or_else(|| bad("ctx: expected a name"))?;
        let mut opts = ContextOptions::named(name).policy("eager");
        for a in &args[1..] {
            if let Some(p) = option(a, "policy") {
                opts = opts.policy(p);
            } else if a.contains('=') {
                return Err(bad(format!("ctx: unknown option {a}")));
            }
        }
        let ws = workers(&args[1..])?;
        match self.rt().and_then(|rt| rt.create_context(&ws, opts)) {
            Ok(id) => {
                self.ctxs.insert(name.to_string(), id);
            }
            Err(e) => self.report("ctx", Some(name), Err(e)),
        }
        Ok(())
    }

    fn task(&self, name: &str) -> Result<TaskRef, PlanError> {
        self.tasks
            .get(name)
            .cloned()
            .ok_or_else(|| bad(format!("unknown task {name}")))
    }

    fn init(&mut self, args: &[&str]) -> Step {
        let mut config = Config::default();
        let (mut nopencl, mut limit) = (0, None);
        let (mut ncuda, mut limit_cuda) = (0, None);
        for a in args {
            if let Some(n) = option(a, "ncpus") {
                config.ncpus = Some(num(n)?);
            } else if let Some(s) = option(a, "sched") {
                config.sched_policy = Some(s.to_string());
            } else if let Some(n) = option(a, "opencl") {
                nopencl = num(n)?; // PoCL also needs STARPU_OPENCL_ON_CPUS=1
            } else if let Some(m) = option(a, "limit_opencl_mem") {
                limit = Some(num::<usize>(m)? << 20);
            } else if let Some(n) = option(a, "cuda") {
                ncuda = num(n)?;
            } else if let Some(m) = option(a, "limit_cuda_mem") {
                limit_cuda = Some(num::<usize>(m)? << 20);
            } else {
                return Err(bad(format!("unknown init option {a}")));
            }
        }
        let r = config.apply_env().and_then(|()| {
            config.ncuda = Some(ncuda);
            config.nopencl = Some(nopencl);
            config.memory_limits.opencl = limit.or(config.memory_limits.opencl);
            config.memory_limits.cuda = limit_cuda.or(config.memory_limits.cuda);
            starpu_core::init(config)
        });
        match r {
            Ok(rt) if rt.devices().nopencl() < nopencl => {
                eprintln!(
                    "{nopencl} OpenCL worker(s) asked for, {} found: no OpenCL device (PoCL \
                     needs STARPU_OPENCL_ON_CPUS=1)",
                    rt.devices().nopencl()
                );
                let _ = starpu_core::shutdown();
                std::process::exit(77);
            }
            Ok(rt) if rt.devices().ncuda() < ncuda => {
                eprintln!(
                    "{ncuda} CUDA worker(s) asked for, {} found: no CUDA device",
                    rt.devices().ncuda()
                );
                let _ = starpu_core::shutdown();
                std::process::exit(77);
            }
            Ok(rt) => self.rt = Some(rt),
            Err(e) => self.report("init", None, Err(e)),
        }
        Ok(())
    }

    fn register(&mut self, args: &[&str]) -> Step {
        let name = args[0].to_string();
        let home_none = args.contains(&"home=none");
        let nums: Vec<&str> = args[2..]
            .iter()
            .copied()
            .filter(|a| !a.contains('='))
            .collect();
        let (kind, len, values) = match args.get(1).copied() {
            Some("variable") => (Kind::Variable, 1, &nums[..]),
            Some("vector") => (Kind::Vector, num::<usize>(nums[0])?, &nums[1..]),
            Some("matrix") => {
                let (nx, ny) = (num::<usize>(nums[0])?, num::<usize>(nums[1])?);
                (Kind::Matrix { nx }, nx * ny, &nums[2..])
            }
            other => return Err(bad(format!("unknown data kind {other:?}"))),
        };
        let mut init = vec![0i64; len];
        for (slot, v) in init.iter_mut().zip(values) {
            *slot = num(v)?;
        }
        let rt = self
            .rt()
            .map_err(|e| bad(format!("data before init: {e}")))?
            .clone();
        let registered = if home_none {
            match kind {
                Kind::Variable => rt.register_lazy(VariableInterface::new(0, 8), ElemKind::I64),
                Kind::Vector => {
                    rt.register_lazy(VectorInterface::new(0, len as u32, 8), ElemKind::I64)
                }
                Kind::Matrix { nx } => rt.register_lazy(
                    MatrixInterface::new(0, nx as u32, nx as u32, (len / nx) as u32, 8),
                    ElemKind::I64,
                ),
            }
        } else {
            match kind {
                Kind::Variable => rt.register_variable(init[0]),
                Kind::Vector => rt.register_vector(init),
                Kind::Matrix { nx } => rt.register_matrix(init, nx, len / nx, nx),
            }
        };
        let handle = registered.map_err(|e| bad(format!("registration failed: {e}")))?;
        self.datas.insert(
            name,
            Data {
                handle,
                kind,
                owned: !home_none,
                returned: None,
                children: Vec::new(),
            },
        );
        Ok(())
    }

    fn read(&mut self, verb: &str, args: &[&str]) -> Step {
        let d = self.data(args[0])?;
        let (kind, h) = (d.kind, d.handle.clone());
        let values = if verb == "show" {
            let held = self
                .held
                .get(args[0])
                .ok_or_else(|| bad(format!("{} is not acquired", args[0])))?;
            kernels::elements(&held.views(), 0).map_err(|e| bad(e.message().to_string()))?
        } else {
            let r = self.rt().and_then(|rt| rt.acquire_view(&h, AccessMode::R));
            match r {
                Ok(held) => {
                    kernels::elements(&held.views(), 0).map_err(|e| bad(e.message().to_string()))?
                }
                Err(e) => {
                    self.report("read", Some(args[0]), Err(e));
                    return Ok(());
                }
            }
        };
        EVENTS.print(&format!("{verb} {} = {}", args[0], render(kind, &values)));
        Ok(())
    }

    fn store(&mut self, args: &[&str]) -> Step {
        let held = self
            .held
            .get(args[0])
            .ok_or_else(|| bad(format!("{} is not acquired", args[0])))?;
        let values = args[1..]
            .iter()
            .map(|v| num::<i64>(v))
            .collect::<Result<Vec<_>, _>>()?;
        let views = held.views();
        let written = if views.interface::<VariableInterface>(0).is_some() {
            views.variable_mut::<i64>(0).map(|mut x| *x = values[0])
        } else if views.interface::<VectorInterface>(0).is_some() {
            views
                .vector_mut::<i64>(0)
                .map(|mut v| v.iter_mut().zip(&values).for_each(|(x, v)| *x = *v))
        } else {
            views.matrix_mut::<i64>(0).map(|mut m| {
                m.rows_mut()
                    .flatten()
                    .zip(&values)
                    .for_each(|(x, v)| *x = *v)
            })
        };
        written.map_err(|e| bad(format!("store: {e}")))
    }

    fn filter(args: &[&str]) -> Result<Filter, PlanError> {
        let n: usize = num(args[2])?;
        Ok(match args[1] {
            "vector_block" => Filter::vector_block(n),
            "matrix_block" => Filter::matrix_block(n),
            "matrix_vertical_block" => Filter::matrix_vertical_block(n),
            other => return Err(bad(format!("unknown filter {other}"))),
        })
    }

    /// Names `children` `PREFIX.0`, `PREFIX.1`, ... (of the same kind as their parent's)
    /// and returns the names.
    fn name_children(
        &mut self,
        prefix: &str,
        kind: Kind,
        children: Vec<DataHandle>,
    ) -> Vec<String> {
        let mut names = Vec::new();
        for (i, c) in children.into_iter().enumerate() {
            let name = format!("{prefix}.{i}");
            let kind = match kind {
                Kind::Matrix { .. } => Kind::Matrix {
                    nx: c
                        .interface::<MatrixInterface>(0)
                        .map_or(1, |m| m.nx as usize),
                },
                k => k,
            };
            self.datas.insert(
                name.clone(),
                Data {
                    handle: c,
                    kind,
                    owned: false,
                    returned: None,
                    children: Vec::new(),
                },
            );
            names.push(name);
        }
        names
    }

    fn partition(&mut self, args: &[&str]) -> Step {
        let filter = Self::filter(args)?;
        let d = self.data(args[0])?;
        let (h, kind) = (d.handle.clone(), d.kind);
        let r = self.rt().and_then(|rt| rt.partition(&h, &filter));
        match r {
            Ok(children) => {
                let names = self.name_children(args[0], kind, children);
                self.datas.get_mut(args[0]).expect("known").children = names;
            }
            Err(e) => self.report("partition", Some(args[0]), Err(e)),
        }
        Ok(())
    }

    /// `partition_plan H FILTER N P`: plan P of H, children named P.0 ... P.N-1.
    fn partition_plan(&mut self, args: &[&str]) -> Step {
        if args.len() != 4 {
            return Err(bad(
                "partition_plan: expected a handle, a filter, a count and a plan",
            ));
        }
        let filter = Self::filter(args)?;
        let d = self.data(args[0])?;
        let (h, kind) = (d.handle.clone(), d.kind);
        let r = self.rt().and_then(|rt| rt.partition_plan(&h, &filter));
        match r {
            Ok(children) => {
                let names = self.name_children(args[3], kind, children);
                self.plans.insert(args[3].to_string(), names);
            }
            Err(e) => self.report("partition_plan", Some(args[0]), Err(e)),
        }
        Ok(())
    }

    /// The plan switches (`VERB H P`). They return nothing in StarPU's C API, so a refused
    /// switch is said on stderr only, as the C driver's library does.
    fn plan_switch(&mut self, verb: &str, args: &[&str]) -> Step {
        if args.len() != 2 {
            return Err(bad(format!("{verb}: expected a handle and a plan")));
        }
        let parent = self.data(args[0])?.handle.clone();
        let names = self
            .plans
            .get(args[1])
            .ok_or_else(|| bad(format!("unknown plan '{}'", args[1])))?
            .clone();
        let children: Vec<DataHandle> = names
            .iter()
            .map(|n| self.data(n).map(|d| d.handle.clone()))
            .collect::<Result<_, _>>()?;
        let rt = match self.rt() {
            Ok(rt) => rt.clone(),
            Err(e) => {
                self.report(verb, Some(args[0]), Err(e));
                return Ok(());
            }
        };
        let r = match verb {
            "partition_submit" => rt.partition_submit(&parent, &children),
            "partition_readonly_submit" => rt.partition_readonly_submit(&parent, &children),
            "partition_readwrite_upgrade_submit" => {
                rt.partition_readwrite_upgrade_submit(&parent, &children)
            }
            "partition_readonly_downgrade_submit" => {
                rt.partition_readonly_downgrade_submit(&parent, &children)
            }
            "unpartition_submit" => rt.unpartition_submit(&parent, &children),
            "unpartition_readonly_submit" => rt.unpartition_readonly_submit(&parent, &children),
            "partition_clean" => {
                let r = rt.partition_clean(&parent, &children, None);
                // The children go with the plan: forget their names.
                for n in &names {
                    self.datas.remove(n);
                }
                self.plans.remove(args[1]);
                r
            }
            other => return Err(bad(format!("unknown plan switch {other}"))),
        };
        if let Err(e) = r {
            eprintln!("{verb}: {e}");
        }
        Ok(())
    }

    fn unregister(&mut self, verb: &str, args: &[&str]) -> Step {
        let coherent = verb == "unregister";
        let d = self.data(args[0])?;
        let (h, kind, owned) = (d.handle.clone(), d.kind, d.owned);
        let rt = match self.rt() {
            Ok(rt) => rt.clone(),
            Err(e) => {
                self.report(verb, Some(args[0]), Err(e));
                return Ok(());
            }
        };
        let r: starpu_core::Result<Option<Vec<i64>>> = if !owned {
            rt.unregister(&h, coherent).map(|()| None)
        } else if kind == Kind::Variable {
            rt.unregister_take_as::<i64>(&h, coherent)
                .map(|v| Some(vec![v]))
        } else {
            rt.unregister_take_as::<Vec<i64>>(&h, coherent).map(Some)
        };
        match r {
            Ok(values) => self.datas.get_mut(args[0]).expect("known").returned = values,
            Err(e) => self.report(verb, Some(args[0]), Err(e)),
        }
        Ok(())
    }

    fn codelet(&mut self, args: &[&str]) -> Step {
        let kernel = args[1].to_string();
        if !kernels::KERNELS.contains(&kernel.as_str()) {
            return Err(bad(format!("unknown kernel {kernel}")));
        }
        // impl=cpu (the default), impl=opencl, impl=cuda, impl=cpu+cuda...: the
        // implementations.
        let (impls, modes) = match args.last().and_then(|a| option(a, "impl")) {
            Some(i) => (i, &args[2..args.len() - 1]),
            None => ("cpu", &args[2..]),
        };
        let mut cl = Codelet::new(args[0]);
        if impls.contains("cpu") {
            let k = kernel.clone();
            cl = cl.cpu(move |call| kernels::run(&k, call));
        }
        if impls.contains("opencl") {
            if !device::KERNELS.contains(&kernel.as_str()) {
                return Err(bad(format!("kernel {kernel} has no OpenCL implementation")));
            }
            let k = kernel.clone();
            cl = cl.opencl(move |call| opencl::run(&k, call));
        }
        if impls.contains("cuda") {
            if !device::KERNELS.contains(&kernel.as_str()) {
                return Err(bad(format!("kernel {kernel} has no CUDA implementation")));
            }
            let k = kernel.clone();
            cl = cl.cuda(move |call| cuda::run(&k, call));
        }
        if kernel == "spmd" {
            cl = cl.parallel(starpu_core::CodeletType::Spmd, i32::MAX);
        }
        cl = if modes == ["*"] {
            cl.variable_buffers()
        } else {
            cl.modes(
                modes
                    .iter()
                    .map(|m| mode_of(m))
                    .collect::<Result<Vec<_>, _>>()?,
            )
        };
        self.codelets.insert(args[0].to_string(), Arc::new(cl));
        Ok(())
    }

    fn parse_task(&self, args: &[&str]) -> Result<Pending, PlanError> {
        let codelet = args
            .first()
            .ok_or_else(|| bad("a task needs a codelet"))?
            .to_string();
        let mut buffers = Vec::new();
        let mut opts = Opts::default();
        for a in &args[1..] {
            if let Some(v) = option(a, "value") {
                opts.values.push(num(v)?);
            } else if let Some(h) = option(a, "ref") {
                opts.reference = Some(h.to_string());
            } else if let Some(d) = option(a, "delay") {
                opts.delay = num(d)?;
            } else if let Some(p) = option(a, "prio") {
                opts.prio = num(p)?;
            } else if let Some(t) = option(a, "tag") {
                opts.tag = Some(num(t)?);
            } else if let Some(c) = option(a, "ctx") {
                opts.ctx = Some(self.ctx(c)?);
            } else if let Some(t) = option(a, "trs") {
                opts.trs = Some(self.trs(t)?);
            } else if *a == "callback" {
                opts.callback = true;
            } else if *a == "sync" {
                opts.sync = true;
            } else if *a == "nodetach" {
                opts.nodetach = true;
            } else if let Some((mode, h)) = a.rsplit_once(':') {
                buffers.push((h.to_string(), mode_of(mode)?));
            } else {
                return Err(bad(format!("unknown task option {a}")));
            }
        }
        Ok(Pending {
            codelet,
            buffers,
            opts,
        })
    }

    /// Builds task `name` from `p` and submits it (the task object `existing` if `task`
    /// made one, so that dependencies declared on it hold).
    fn submit_task(
        &mut self,
        name: &str,
        p: &Pending,
        existing: Option<TaskRef>,
    ) -> starpu_core::Result<()> {
        let rt = self.rt()?.clone();
        let cl = self
            .codelets
            .get(&p.codelet)
            .cloned()
            .ok_or_else(|| Error::invalid(format!("unknown codelet {}", p.codelet)))?;
        let task = existing.unwrap_or_else(starpu_core::Task::new);
        self.tasks.insert(name.to_string(), task.clone());
        let reference = match &p.opts.reference {
            Some(r) => Some(
                self.datas
                    .get(r)
                    .ok_or_else(|| Error::invalid(format!("unknown data {r}")))?
                    .handle
                    .clone(),
            ),
            None => None,
        };
        let info = Arc::new(TaskInfo {
            name: name.to_string(),
            delay_ms: p.opts.delay,
            reference,
            runtime: rt.clone(),
        });
        let mut b = rt.task_for(task, Some(cl)).name(name).arg(info);
        for v in &p.opts.values {
            b = b.arg(*v);
        }
        for (h, mode) in &p.buffers {
            let handle = if h == "null" {
                stale_handle(&rt)?
            } else {
                self.datas
                    .get(h)
                    .ok_or_else(|| Error::invalid(format!("unknown data {h}")))?
                    .handle
                    .clone()
            };
            b = b.buffer(&handle, *mode);
        }
        if p.opts.callback {
            let n = name.to_string();
            b = b.callback(move |_| EVENTS.event("cb", &n, None));
        }
        if let Some(t) = p.opts.tag {
            b = b.tag(t);
        }
        if let Some(c) = p.opts.ctx {
            b = b.sched_ctx(c);
        }
        if let Some(t) = &p.opts.trs {
            b = b.transaction(t);
        }
        b.priority(p.opts.prio)
            .synchronous(p.opts.sync)
            .detach(!p.opts.nodetach)
            .submit()
            .map(drop)
    }
}

/// What `null` (a NULL handle in C) becomes here: safe Rust has no NULL handle, and the
/// only wrong handle it can hold is one that is no longer registered.
fn stale_handle(rt: &Runtime) -> starpu_core::Result<DataHandle> {
    let h = rt.register_variable(0i64)?;
    rt.unregister(&h, true)?;
    Ok(h)
}

/// `v v v`, or rows separated by ` | ` for a matrix.
fn render(kind: Kind, values: &[i64]) -> String {
    let nx = match kind {
        Kind::Matrix { nx } => nx.max(1),
        _ => usize::MAX,
    };
    values
        .chunks(nx.min(values.len().max(1)))
        .map(|row| {
            row.iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join(" | ")
}

/// The worker ids among `args` (tokens without `=`).
fn workers(args: &[&str]) -> Result<Vec<usize>, PlanError> {
    args.iter()
        .filter(|a| !a.contains('='))
        .map(|a| num(a))
        .collect()
}

fn capabilities() {
    for op in OPS {
        println!("op {op}");
    }
    for k in kernels::KERNELS {
        println!("kernel {k}");
    }
    for o in OPTIONS {
        println!("option {o}");
    }
    for f in FILTERS {
        println!("filter {f}");
    }
    for k in KINDS {
        println!("kind {k}");
    }
    for (m, _) in MODES {
        println!("mode {m}");
    }
    println!("home none");
    println!("handle null");
    println!("nbuffers variable");
    println!("device opencl");
    println!("impl opencl");
    println!("device cuda");
    println!("impl cuda");
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 2 {
        eprintln!("usage: {} PLANFILE | --capabilities", args[0]);
        std::process::exit(2);
    }
    if args[1] == "--capabilities" {
        capabilities();
        return;
    }
    let plan = match std::fs::read_to_string(&args[1]) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{}: {e}", args[1]);
            std::process::exit(2);
        }
    };
    let mut driver = Driver::default();
    for (n, line) in plan.lines().enumerate() {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if tokens.is_empty() {
            continue;
        }
        if let Err(PlanError(msg)) = driver.run(&tokens) {
            eprintln!("{}:{}: scenario error: {msg}", args[1], n + 1);
            std::process::exit(2);
        }
    }
    if driver.rt.is_some() {
        driver.held.clear();
        let _ = starpu_core::shutdown();
    }
}
