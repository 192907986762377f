//! Heteroprio's environment variables, read once when the policy is made (StarPU reads
//! them in `initialize_heteroprio_policy`). A malformed number is an error naming the
//! variable, as everywhere in this runtime; StarPU's own asserts (an ordering policy out of
//! range) become errors too. Each `read` takes the variables from a [`Vars`] lookup: the
//! environment ([`env()`]), or a table in tests.

/// Looks a variable up (an empty value counts as unset).
pub type Vars<'a> = &'a dyn Fn(&str) -> Option<String>;

/// The process environment.
pub fn env(name: &str) -> Option<String> {
    crate::env::env_var(name)
}

use super::auto::OrderingPolicy;
use super::locality::PushStrategy;
use super::NARCH;
use crate::error::{Error, Result};
use crate::worker::WorkerKind;

/// How auto-calibration groups tasks into one bucket
/// (`STARPU_HETEROPRIO_CODELET_GROUPING_STRATEGY`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grouping {
    /// 0: the codelet's performance-model symbol, else its name.
    ByPerfModelOrName,
    /// 1: the codelet's name only.
    ByNameOnly,
}

/// The locality-aware mode's settings (`STARPU_LAHETEROPRIO_*`).
#[derive(Debug, Clone, PartialEq)]
pub struct LaOptions {
    pub push: PushStrategy,
    /// `STARPU_LAHETEROPRIO_S_<ARCH>`: memory nodes in an architecture's affinity group
    /// (`None`: StarPU's default, computed from the number of nodes).
    pub closed_nodes: [Option<u32>; NARCH],
    /// `STARPU_LAHETEROPRIO_PRIO_STEP_<ARCH>`: buckets looked at in the local node before
    /// the other nodes' (`None`: StarPU's default).
    pub prio_step: [Option<u32>; NARCH],
}

/// The weights of the ordering heuristics (`STARPU_HETEROPRIO_*_MULTIPLIER`, `_OFFSET`,
/// `_SELECTIVITY`), with StarPU's defaults.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weights {
    pub nt_nod: f64,
    pub nt_exp: f64,
    pub bn_exp: f64,
    pub urt_urt: f64,
    pub urt2_urt: f64,
    pub urt2_prop: f64,
    pub and2: f64,
    pub and3: f64,
    pub and4: f64,
    pub and5: (f64, f64),
    pub and9: (f64, f64),
    pub and10: (f64, f64),
    pub and11: (f64, f64),
    pub ant_nod: f64,
    pub ant_exp: f64,
}

/// The auto-calibration mode's settings (`STARPU_AUTOHETEROPRIO_*` and the weights).
#[derive(Debug, Clone, PartialEq)]
pub struct AutoOptions {
    pub grouping: Grouping,
    pub policy: OrderingPolicy,
    /// Pushes between two orderings (`STARPU_AUTOHETEROPRIO_ORDERING_INTERVAL`, 32).
    pub interval: i64,
    /// Use the data file as it is, gathering nothing (`STARPU_AUTOHETEROPRIO_FREEZE_GATHERING`).
    pub freeze: bool,
    pub print_after_ordering: bool,
    pub print_on_update: bool,
    /// For an architecture that cannot run a bucket: 0 = a long time, 1 = the fastest
    /// other architecture's time (`STARPU_AUTOHETEROPRIO_TIME_ESTIMATION_POLICY`).
    pub time_estimation: u32,
    pub weights: Weights,
    /// Where what was learned is read from and saved to ([`super::auto::datafile::path`]).
    pub data_file: std::path::PathBuf,
}

/// Everything heteroprio reads from the environment.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Options {
    /// `STARPU_HETEROPRIO_USE_LA`, with its settings (`None`, the default: buckets named
    /// by task priorities and per-worker prefetch queues).
    pub locality: Option<LaOptions>,
    /// `STARPU_HETEROPRIO_USE_AUTO_CALIBRATION`, with its settings.
    pub auto: Option<AutoOptions>,
}

fn int(vars: Vars, name: &str) -> Result<Option<i64>> {
    crate::env::parse_int(name, vars(name).filter(|v| !v.trim().is_empty()))
}

fn number(vars: Vars, name: &str, default: i64) -> Result<i64> {
    Ok(int(vars, name)?.unwrap_or(default))
}

fn float(vars: Vars, name: &str, default: f64) -> Result<f64> {
    match vars(name).filter(|v| !v.trim().is_empty()) {
        None => Ok(default),
        Some(v) => v
            .trim()
            .parse::<f64>()
            .map_err(|_| Error::invalid(format!("{name}={v:?} is not a number"))),
    }
}

fn count(vars: Vars, name: &str) -> Result<Option<u32>> {
    match int(vars, name)? {
        None => Ok(None),
        Some(v) => u32::try_from(v)
            .map(Some)
            .map_err(|_| Error::invalid(format!("{name}={v} must be >= 0"))),
    }
}

/// StarPU's name of an architecture in variable names (`starpu_worker_get_type_as_env_var`).
pub fn arch_env_name(arch: usize) -> Option<&'static str> {
    let kind = WorkerKind::from_starpu_id(arch as u32)?;
    Some(match kind {
        WorkerKind::Cpu => "CPU",
        WorkerKind::Cuda => "CUDA",
        WorkerKind::OpenCl => "OPENCL",
    })
}

impl LaOptions {
    pub fn read(vars: Vars) -> Result<Self> {
        let push = match vars("STARPU_LAHETEROPRIO_PUSH").filter(|v| !v.trim().is_empty()) {
            None => PushStrategy::Auto,
            Some(v) => PushStrategy::parse(v.trim()).ok_or_else(|| {
                Error::invalid(format!(
                    "STARPU_LAHETEROPRIO_PUSH={v:?} is not a push strategy \
                     (WORKER, LcS, LS_SDH, LS_SDH2, LS_SDHB, LC_SMWB or AUTO)"
                ))
            })?,
        };
        let mut closed_nodes = [None; NARCH];
        let mut prio_step = [None; NARCH];
        for arch in 0..NARCH {
            if let Some(name) = arch_env_name(arch) {
                closed_nodes[arch] = count(vars, &format!("STARPU_LAHETEROPRIO_S_{name}"))?;
                prio_step[arch] = count(vars, &format!("STARPU_LAHETEROPRIO_PRIO_STEP_{name}"))?;
            }
        }
        Ok(LaOptions {
            push,
            closed_nodes,
            prio_step,
        })
    }
}

impl Weights {
    pub fn read(vars: Vars) -> Result<Self> {
        let f = |name: &str, default: f64| float(vars, name, default);
        let pair = |x: &str, y: &str| -> Result<(f64, f64)> { Ok((f(x, 1.3)?, f(y, 1.0)?)) };
        Ok(Weights {
            nt_nod: f("STARPU_HETEROPRIO_NOD_TIME_COMBINATION_NOD_MULTIPLIER", 0.3)?,
            nt_exp: f(
                "STARPU_HETEROPRIO_NOD_TIME_COMBINATION_EXP_SELECTIVITY",
                0.5,
            )?,
            bn_exp: f("STARPU_HETEROPRIO_BEST_NODS_SCORE_EXP_SELECTIVITY", 0.5)?,
            urt_urt: f("STARPU_HETEROPRIO_URT_URT_MULTIPLIER", 0.5)?,
            urt2_urt: f("STARPU_HETEROPRIO_URT_2_URT_MULTIPLIER", 0.5)?,
            urt2_prop: f("STARPU_HETEROPRIO_URT_2_ARCH_NEED_MULTIPLIER", 2.0)?,
            and2: f("STARPU_HETEROPRIO_URT_DOT_DIFF_2_ARCH_NEED_MULTIPLIER", 1.0)?,
            and3: f("STARPU_HETEROPRIO_URT_DOT_DIFF_3_ARCH_NEED_MULTIPLIER", 1.0)?,
            and4: f("STARPU_HETEROPRIO_URT_DOT_DIFF_4_ARCH_NEED_MULTIPLIER", 1.0)?,
            and5: pair(
                "STARPU_HETEROPRIO_URT_DOT_DIFF_5_NOD_OFFSET",
                "STARPU_HETEROPRIO_URT_DOT_DIFF_5_ARCH_DIFF_OFFSET",
            )?,
            and9: pair(
                "STARPU_HETEROPRIO_URT_DOT_DIFF_9_NOD_OFFSET",
                "STARPU_HETEROPRIO_URT_DOT_DIFF_9_ARCH_DIFF_OFFSET",
            )?,
            // StarPU spells this one AURT (sic); the name is kept so that scripts match.
            and10: pair(
                "STARPU_HETEROPRIO_AURT_DOT_DIFF_10_NOD_OFFSET",
                "STARPU_HETEROPRIO_URT_DOT_DIFF_10_ARCH_DIFF_OFFSET",
            )?,
            and11: pair(
                "STARPU_HETEROPRIO_URT_DOT_DIFF_11_NOD_OFFSET",
                "STARPU_HETEROPRIO_URT_DOT_DIFF_11_ARCH_DIFF_OFFSET",
            )?,
            ant_nod: f(
                "STARPU_HETEROPRIO_URTS_TIME_COMBINATION_NOD_MULTIPLIER",
                0.3,
            )?,
            ant_exp: f(
                "STARPU_HETEROPRIO_URTS_TIME_COMBINATION_EXP_SELECTIVITY",
                0.5,
            )?,
        })
    }
}

impl AutoOptions {
    /// The settings, the data file at `data_file` unless `STARPU_HETEROPRIO_DATA_FILE`
    /// names one.
    pub fn read(vars: Vars, data_file: std::path::PathBuf) -> Result<Self> {
        let number = |name: &str, default: i64| number(vars, name, default);
        // StarPU falls back to grouping by model or name for an unknown value.
        let grouping = match number("STARPU_HETEROPRIO_CODELET_GROUPING_STRATEGY", 0)? {
            1 => Grouping::ByNameOnly,
            _ => Grouping::ByPerfModelOrName,
        };
        let name = "STARPU_AUTOHETEROPRIO_PRIORITY_ORDERING_POLICY";
        let p = number(name, OrderingPolicy::DEFAULT.0 as i64)?;
        let policy = u32::try_from(p)
            .ok()
            .and_then(OrderingPolicy::new)
            .ok_or_else(|| {
                Error::invalid(format!(
                    "{name}={p}: the ordering policy must be 0 to {}",
                    OrderingPolicy::COUNT - 1
                ))
            })?;
        let time_name = "STARPU_AUTOHETEROPRIO_TIME_ESTIMATION_POLICY";
        let time_estimation = match number(time_name, 0)? {
            t @ (0 | 1) => t as u32,
            t => {
                return Err(Error::invalid(format!("{time_name}={t} must be 0 or 1")));
            }
        };
        Ok(AutoOptions {
            grouping,
            policy,
            interval: number("STARPU_AUTOHETEROPRIO_ORDERING_INTERVAL", 32)?,
            freeze: number("STARPU_AUTOHETEROPRIO_FREEZE_GATHERING", 0)? != 0,
            print_after_ordering: number("STARPU_AUTOHETEROPRIO_PRINT_AFTER_ORDERING", 0)? != 0,
            print_on_update: number("STARPU_AUTOHETEROPRIO_PRINT_DATA_ON_UPDATE", 0)? != 0,
            time_estimation,
            weights: Weights::read(vars)?,
            data_file: vars("STARPU_HETEROPRIO_DATA_FILE")
                .filter(|v| !v.trim().is_empty())
                .map_or(data_file, std::path::PathBuf::from),
        })
    }
}

impl Options {
    /// Reads the variables. Auto-calibration is off unless
    /// `STARPU_HETEROPRIO_USE_AUTO_CALIBRATION` is non-zero: StarPU 1.4's handbook
    /// describes the variable as enabling the mode, while its source defaults it to on;
    /// this runtime keeps the documented reading, so that task priorities and init hooks
    /// choose the buckets unless the mode is asked for.
    pub fn read(vars: Vars) -> Result<Self> {
        let locality = if number(vars, "STARPU_HETEROPRIO_USE_LA", 0)? != 0 {
            Some(LaOptions::read(vars)?)
        } else {
            None
        };
        let auto = if number(vars, "STARPU_HETEROPRIO_USE_AUTO_CALIBRATION", 0)? != 0 {
            Some(AutoOptions::read(vars, super::auto::datafile::path(vars))?)
        } else {
            None
        };
        Ok(Options { locality, auto })
    }
}
