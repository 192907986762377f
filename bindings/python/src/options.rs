//! The options of `task_submit(**options)` and `starpu.Task(..., **options)`, parsed once
//! when the submitter is made: names checked (an unknown one is a `TypeError`, as for any
//! Python call), values converted to what the core's task builder takes.

use crate::future::Future;
use crate::modes;
use crate::perf;
use crate::sched_ctx::SchedCtx;
use crate::task::Task;
use crate::transaction::Transaction;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use starpu_core::{AccessMode, TaskRef};
use std::sync::Arc;

/// Where the modes of a task's data arguments come from.
#[derive(Default)]
pub(crate) enum Modes {
    #[default]
    Defaults,
    /// StarPU's form: `{id(arg): "RW", ...}`.
    ById(Py<PyDict>),
    /// One mode per data argument, in order (for the same object given twice with
    /// different modes, and for codelets).
    Positional(Vec<AccessMode>),
}

/// The options of `task_submit` (and of `Task`).
#[derive(Default)]
pub(crate) struct Options {
    pub(crate) name: Option<Arc<str>>,
    pub(crate) synchronous: bool,
    pub(crate) priority: i32,
    pub(crate) flops: Option<f64>,
    pub(crate) perfmodel: Option<Arc<perf::Model>>,
    pub(crate) sizebase: Option<usize>,
    pub(crate) ret_handle: bool,
    pub(crate) ret_fut: Option<bool>,
    pub(crate) ret_param: bool,
    pub(crate) arg_handle: Option<bool>,
    pub(crate) modes: Modes,
    pub(crate) tag: Option<u64>,
    pub(crate) callback: Option<Py<PyAny>>,
    pub(crate) detach: Option<bool>,
    pub(crate) sched_ctx: Option<u32>,
    pub(crate) transaction: Option<Py<Transaction>>,
    pub(crate) after: Vec<TaskRef>,
    pub(crate) end_after: Vec<TaskRef>,
}

const TASK_SUBMIT_OPTIONS: &[&str] = &[
    "name",
    "synchronous",
    "priority",
    "color",
    "flops",
    "perfmodel",
    "sizebase",
    "ret_handle",
    "ret_fut",
    "ret_param",
    "arg_handle",
    "modes",
    "tag",
    "callback",
    "sched_ctx",
    "transaction",
    "after",
    "end_after",
];

impl Options {
    /// Parses keyword options; `what` names the call in messages; `extra` are options this
    /// call accepts besides `task_submit`'s.
    pub(crate) fn parse(
        what: &str,
        kwargs: Option<&Bound<'_, PyDict>>,
        extra: &[&str],
    ) -> PyResult<Options> {
        let mut o = Options::default();
        let Some(kwargs) = kwargs else {
            return Ok(o);
        };
        for (k, v) in kwargs.iter() {
            let key: String = k.extract()?;
            if !TASK_SUBMIT_OPTIONS.contains(&key.as_str()) && !extra.contains(&key.as_str()) {
                return Err(PyTypeError::new_err(format!(
                    "{what}() got an unexpected keyword argument '{key}' (options: {})",
                    TASK_SUBMIT_OPTIONS
                        .iter()
                        .chain(extra)
                        .copied()
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
            let flag = |v: &Bound<'_, PyAny>| -> PyResult<bool> { v.is_truthy() };
            if v.is_none() && key != "ret_fut" {
                continue;
            }
            match key.as_str() {
                "name" => o.name = Some(Arc::from(v.extract::<String>()?.as_str())),
                "synchronous" => o.synchronous = flag(&v)?,
                "priority" => o.priority = v.extract()?,
                "color" => {
                    let _: u32 = v.extract()?; // only used for StarPU's dag.dot
                }
                "flops" => o.flops = Some(v.extract()?),
                "perfmodel" => o.perfmodel = Some(perf::model(&v)?),
                "sizebase" => o.sizebase = Some(v.extract()?),
                "ret_handle" => o.ret_handle = flag(&v)?,
                "ret_fut" => o.ret_fut = Some(!v.is_none() && flag(&v)?),
                "ret_param" => o.ret_param = flag(&v)?,
                "arg_handle" => o.arg_handle = Some(flag(&v)?),
                "modes" => o.modes = parse_modes(&v)?,
                "tag" => o.tag = Some(v.extract()?),
                "callback" => {
                    if !v.is_callable() {
                        return Err(PyTypeError::new_err("callback must be callable"));
                    }
                    o.callback = Some(v.unbind());
                }
                "detach" => o.detach = Some(flag(&v)?),
                "sched_ctx" => {
                    o.sched_ctx = Some(match v.cast::<SchedCtx>() {
                        Ok(c) => c.get().id,
                        Err(_) => v.extract()?,
                    })
                }
                "transaction" => o.transaction = Some(v.cast::<Transaction>()?.clone().unbind()),
                "after" => o.after = tasks_of(&v)?,
                "end_after" => o.end_after = tasks_of(&v)?,
                _ => unreachable!("checked above"),
            }
        }
        Ok(o)
    }
}

/// The tasks behind a sequence of `starpu.Future`s and `starpu.Task`s (`after=`).
fn tasks_of(v: &Bound<'_, PyAny>) -> PyResult<Vec<TaskRef>> {
    v.try_iter()?
        .map(|item| {
            let item = item?;
            if let Ok(f) = item.cast::<Future>() {
                return Ok(f.get().state.task.clone());
            }
            if let Ok(t) = item.cast::<Task>() {
                return Ok(t.borrow().task.clone());
            }
            Err(PyTypeError::new_err(format!(
                "after= and end_after= take starpu.Future and starpu.Task objects, not {}",
                item.get_type().name()?
            )))
        })
        .collect()
}

fn parse_modes(v: &Bound<'_, PyAny>) -> PyResult<Modes> {
    if let Ok(d) = v.cast::<PyDict>() {
        for (_, m) in d.iter() {
            modes::parse(d.py(), &m.extract::<String>()?)?;
        }
        return Ok(Modes::ById(d.clone().unbind()));
    }
    if let Ok(s) = v.extract::<String>() {
        return Ok(Modes::Positional(vec![modes::parse(v.py(), &s)?]));
    }
    let list: Vec<String> = v.extract().map_err(|_| {
        PyTypeError::new_err(
            "modes must be a dict {id(argument): mode} or a sequence of modes, one per data \
             argument",
        )
    })?;
    Ok(Modes::Positional(modes::parse_all(v.py(), &list)?))
}

/// The mode `d` gives `arg` (by `id(arg)`), if any.
pub(crate) fn lookup_mode(
    d: &Bound<'_, PyDict>,
    arg: &Bound<'_, PyAny>,
) -> PyResult<Option<AccessMode>> {
    let key = (arg.as_ptr() as usize).into_pyobject(d.py())?;
    match d.get_item(key)? {
        Some(m) => Ok(Some(modes::parse(d.py(), &m.extract::<String>()?)?)),
        None => Ok(None),
    }
}
