//! Runtime configuration: what `struct starpu_conf` and StarPU's environment variables say.
//!
//! A `Config` starts from defaults (or from what a binding read out of `starpu_conf`), then
//! `apply_env` lays the environment over it the way StarPU does: environment variables win
//! unless `precedence_over_environment_variables` is set.

pub use crate::env::{env_float, env_int, env_var, parse_int};
use crate::error::{Error, Result};
use std::path::PathBuf;

mod cuda;
mod memory;
pub use cuda::CudaOptions;
pub use memory::MemoryLimits;

/// Where worker threads are bound.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Binding {
    /// One worker per core, in hwloc's order (the default).
    Auto,
    /// Do not bind worker threads (`STARPU_WORKERS_NOBIND`).
    None,
    /// Worker i goes on logical CPU `list[i % len]` (`STARPU_WORKERS_CPUID`, `conf.workers_bindid`).
    Explicit(Vec<usize>),
}

#[derive(Debug, Clone)]
pub struct Config {
    /// Number of CPU workers; `None` means one per core.
    pub ncpus: Option<usize>,
    /// Cores left to the application (`STARPU_RESERVE_NCPU`, `conf.reserve_ncpus`).
    pub reserve_ncpus: usize,
    /// CUDA devices to use at most (`STARPU_NCUDA`, `conf.ncuda`); `None`: all (none
    /// without a CUDA driver).
    pub ncuda: Option<usize>,
    /// Which CUDA devices, how many workers each, their pipeline.
    pub cuda: CudaOptions,
    /// OpenCL devices to use at most (`STARPU_NOPENCL`, `conf.nopencl`); `None`: all.
    pub nopencl: Option<usize>,
    /// Take CPU OpenCL devices (PoCL...) beside GPUs and accelerators
    /// (`STARPU_OPENCL_ON_CPUS`); StarPU leaves them out by default.
    pub opencl_on_cpus: bool,
    /// Take CPU OpenCL devices only (`STARPU_OPENCL_ONLY_ON_CPUS`).
    pub opencl_only_on_cpus: bool,
    /// Device memory limits and clean-buffer targets (`STARPU_LIMIT_OPENCL_MEM`...).
    pub memory_limits: MemoryLimits,
    /// Prefetch the data of tasks placed on a worker ahead of time (`STARPU_PREFETCH`,
    /// on by default).
    pub prefetch: bool,
    /// Print the bytes moved between memory nodes at shutdown (`STARPU_BUS_STATS`).
    pub bus_stats: bool,
    /// Scheduling policy name (`STARPU_SCHED`, `conf.sched_policy_name`); `None` = default.
    pub sched_policy: Option<String>,
    /// A policy the application wrote (`conf.sched_policy`); wins over `sched_policy`.
    pub custom_policy: Option<crate::sched::PolicyFactory>,
    pub binding: Binding,
    /// Bind the thread calling init to a core of its own, taken away from the workers.
    pub main_thread_bind: bool,
    pub main_thread_cpuid: Option<usize>,
    /// Do not print informational messages (`STARPU_SILENT`).
    pub silent: bool,
    /// Block submission while more than this many tasks are pending...
    pub limit_max_submitted: Option<usize>,
    /// ...until fewer than this many remain (`STARPU_LIMIT_MIN_SUBMITTED_TASKS`).
    pub limit_min_submitted: Option<usize>,
    /// Run tasks without calling their kernels (`STARPU_DISABLE_KERNELS`).
    pub disable_kernels: bool,
    /// Directory under which `.starpu/` (performance models, ...) lives (`STARPU_HOME`).
    pub home: Option<PathBuf>,
    /// Performance-model calibration level (`STARPU_CALIBRATE`).
    pub calibrate: i32,
    /// Priority bounds forced on the global context (`conf.global_sched_ctx_{min,max}_priority`).
    pub min_priority: Option<i32>,
    pub max_priority: Option<i32>,
    /// `conf.precedence_over_environment_variables`.
    pub precedence_over_env: bool,
    /// Print how many tasks each worker ran, at shutdown (`STARPU_WORKER_STATS`).
    pub worker_stats: bool,
    /// Collect per-task and per-worker timings (`STARPU_PROFILING`,
    /// `starpu_profiling_status_set`).
    pub profiling: bool,
    /// Print data statistics at shutdown (`STARPU_STATS`).
    pub stats: bool,
    /// Report waiting tasks when none finished for a while (`STARPU_WATCHDOG_TIMEOUT`).
    pub watchdog: Option<WatchdogConfig>,
    /// Count for the performance counters from the start (`conf.start_perf_counter_collection`).
    pub perf_counters: bool,
    /// Run one parallel task at a time on combined workers
    /// (`STARPU_SINGLE_COMBINED_WORKER`, `conf.single_combined_worker`).
    pub single_combined_worker: bool,
    /// Which asynchronous copies are disabled (`STARPU_DISABLE_ASYNCHRONOUS_COPY` and
    /// its `_CUDA_`, `_OPENCL_` forms, or the `starpu_conf` fields).
    pub async_copy_disabled: AsyncCopyDisabled,
    /// Record an execution trace (`STARPU_FXT_TRACE=1`; see [`crate::trace`]).
    pub trace: bool,
    /// Where the trace goes at shutdown (`STARPU_FXT_PREFIX`, `STARPU_FXT_SUFFIX`,
    /// `STARPU_GENERATE_TRACE`, `STARPU_GENERATE_TRACE_OPTIONS`).
    pub trace_output: TraceOutput,
    /// Print the data each memory node holds at shutdown (`STARPU_MEMORY_STATS`).
    pub memory_stats: bool,
}

/// Asynchronous copies a program disabled: every one (`all`), or those to and from one
/// kind of device. Copies are synchronous then; programs query the flags
/// (`starpu_asynchronous_copy_disabled`...) to pick their own transfer code.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AsyncCopyDisabled {
    pub all: bool,
    pub cuda: bool,
    pub opencl: bool,
}

/// What the watchdog is told by `STARPU_WATCHDOG_TIMEOUT`, `_CRASH` and `_DELAY`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WatchdogConfig {
    /// Report when no task finished for this long while tasks are pending.
    pub timeout: std::time::Duration,
    /// Abort the process after the first report (`STARPU_WATCHDOG_CRASH`).
    pub crash: bool,
    /// Start watching only this long after init (`STARPU_WATCHDOG_DELAY`).
    pub delay: std::time::Duration,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            ncpus: None,
            reserve_ncpus: 0,
            ncuda: None,
            cuda: Default::default(),
            nopencl: None,
            opencl_on_cpus: false,
            opencl_only_on_cpus: false,
            memory_limits: MemoryLimits::default(),
            prefetch: true,
            bus_stats: false,
            sched_policy: None,
            custom_policy: None,
            binding: Binding::Auto,
            main_thread_bind: false,
            main_thread_cpuid: None,
            silent: false,
            limit_max_submitted: None,
            limit_min_submitted: None,
            disable_kernels: false,
            home: None,
            calibrate: 0,
            min_priority: None,
            max_priority: None,
            precedence_over_env: false,
            worker_stats: false,
            profiling: false,
            stats: false,
            watchdog: None,
            perf_counters: false,
            single_combined_worker: false,
            async_copy_disabled: AsyncCopyDisabled::default(),
            trace: false,
            trace_output: Default::default(),
            memory_stats: false,
        }
    }
}

fn env_flag(name: &str) -> Result<Option<bool>> {
    Ok(env_int(name)?.map(|v| v != 0))
}

/// Parses a CPU list as StarPU accepts it: numbers and ranges separated by spaces or commas,
/// e.g. `"0 2 4-6"`.
pub fn parse_cpu_list(text: &str) -> Result<Vec<usize>> {
    let mut out = Vec::new();
    for item in text.split([' ', ',', '\t']).filter(|s| !s.is_empty()) {
        let bad = || Error::invalid(format!("bad CPU list item {item:?} in {text:?}"));
        if let Some((a, b)) = item.split_once('-') {
            let a: usize = a.parse().map_err(|_| bad())?;
            let b: usize = if b.is_empty() {
                a
            } else {
                b.parse().map_err(|_| bad())?
            };
            if b < a {
                return Err(bad());
            }
            out.extend(a..=b);
        } else {
            out.push(item.parse().map_err(|_| bad())?);
        }
    }
    Ok(out)
}

fn count(name: &str, v: i64) -> Result<Option<usize>> {
    match v {
        -1 => Ok(None),
        v if v >= 0 => Ok(Some(v as usize)),
        v => Err(Error::invalid(format!("{name}={v} must be -1 or >= 0"))),
    }
}

impl Config {
    /// Lays StarPU's environment variables over this configuration.
    pub fn apply_env(&mut self) -> Result<()> {
        // STARPU_SILENT and STARPU_HOME are not part of starpu_conf: always read.
        if let Some(s) = env_flag("STARPU_SILENT")? {
            self.silent = s;
        }
        if let Some(h) = env_var("STARPU_HOME") {
            self.home = Some(PathBuf::from(h));
        }
        if let Some(v) = env_flag("STARPU_DISABLE_KERNELS")? {
            self.disable_kernels = v;
        }
        if let Some(v) = env_int("STARPU_LIMIT_MAX_SUBMITTED_TASKS")? {
            self.limit_max_submitted = usize::try_from(v).ok().filter(|&v| v > 0);
        }
        if let Some(v) = env_int("STARPU_LIMIT_MIN_SUBMITTED_TASKS")? {
            self.limit_min_submitted = usize::try_from(v).ok().filter(|&v| v > 0);
        }
        if let Some(v) = env_flag("STARPU_WORKER_STATS")? {
            self.worker_stats = v;
        }
        if let Some(v) = env_flag("STARPU_PROFILING")? {
            self.profiling = v;
        }
        if let Some(v) = env_flag("STARPU_STATS")? {
            self.stats = v;
        }
        for (name, flag) in [
            ("STARPU_FXT_TRACE", &mut self.trace),
            ("STARPU_GENERATE_TRACE", &mut self.trace_output.generate),
            ("STARPU_BUS_STATS", &mut self.bus_stats),
            ("STARPU_MEMORY_STATS", &mut self.memory_stats),
        ] {
            if let Some(v) = env_flag(name)? {
                *flag = v;
            }
        }
        let out = &mut self.trace_output;
        out.dir = env_var("STARPU_FXT_PREFIX")
            .map(PathBuf::from)
            .or(out.dir.take());
        out.suffix = env_var("STARPU_FXT_SUFFIX").or(out.suffix.take());
        out.options = env_var("STARPU_GENERATE_TRACE_OPTIONS").or(out.options.take());
        self.watchdog = watchdog_from_env()?.or(self.watchdog);
        if let Some(v) = env_int("STARPU_CALIBRATE")? {
            self.calibrate = v as i32;
        }
        // Read by StarPU's drivers and memory manager whatever the configuration says.
        for (name, flag) in [
            ("STARPU_OPENCL_ON_CPUS", &mut self.opencl_on_cpus),
            ("STARPU_OPENCL_ONLY_ON_CPUS", &mut self.opencl_only_on_cpus),
            ("STARPU_PREFETCH", &mut self.prefetch),
        ] {
            if let Some(v) = env_int(name)? {
                *flag = v > 0;
            }
        }
        self.memory_limits.apply_env()?;
        if self.precedence_over_env {
            return Ok(());
        }
        // STARPU_NCPUS is the deprecated spelling; STARPU_NCPU wins when both are set.
        for name in ["STARPU_NCPUS", "STARPU_NCPU"] {
            if let Some(v) = env_int(name)? {
                self.ncpus = count(name, v)?;
            }
        }
        if let Some(v) = env_int("STARPU_RESERVE_NCPU")? {
            self.reserve_ncpus = count("STARPU_RESERVE_NCPU", v)?.unwrap_or(0);
        }
        if let Some(v) = env_int("STARPU_NCUDA")? {
            self.ncuda = count("STARPU_NCUDA", v)?;
        }
        self.cuda.apply_env()?;
        if let Some(v) = env_int("STARPU_NOPENCL")? {
            self.nopencl = count("STARPU_NOPENCL", v)?;
        }
        if let Some(v) = env_flag("STARPU_SINGLE_COMBINED_WORKER")? {
            self.single_combined_worker = v;
        }
        let copies = &mut self.async_copy_disabled;
        for (name, flag) in [
            ("STARPU_DISABLE_ASYNCHRONOUS_COPY", &mut copies.all),
            ("STARPU_DISABLE_ASYNCHRONOUS_CUDA_COPY", &mut copies.cuda),
            (
                "STARPU_DISABLE_ASYNCHRONOUS_OPENCL_COPY",
                &mut copies.opencl,
            ),
        ] {
            if let Some(v) = env_flag(name)? {
                *flag = v;
            }
        }
        if let Some(s) = env_var("STARPU_SCHED") {
            self.sched_policy = Some(s.trim().to_string());
        }
        if let Some(list) = env_var("STARPU_WORKERS_CPUID") {
            self.binding = Binding::Explicit(parse_cpu_list(&list)?);
        }
        if env_flag("STARPU_WORKERS_NOBIND")? == Some(true) {
            self.binding = Binding::None;
        }
        if let Some(v) = env_flag("STARPU_MAIN_THREAD_BIND")? {
            self.main_thread_bind = v;
        }
        if let Some(v) = env_int("STARPU_MAIN_THREAD_CPUID")? {
            self.main_thread_cpuid = usize::try_from(v).ok();
            self.main_thread_bind |= self.main_thread_cpuid.is_some();
        }
        if let Some(v) = env_int("STARPU_MIN_PRIO")? {
            self.min_priority = Some(v as i32);
        }
        if let Some(v) = env_int("STARPU_MAX_PRIO")? {
            self.max_priority = Some(v as i32);
        }
        Ok(())
    }
}

/// The watchdog settings, in microseconds as StarPU reads them; `None` unless
/// `STARPU_WATCHDOG_TIMEOUT` is a positive number.
fn watchdog_from_env() -> Result<Option<WatchdogConfig>> {
    let us = |name: &str| -> Result<u64> {
        match env_int(name)? {
            Some(v) if v < 0 => Err(Error::invalid(format!(
                "{name}={v}: a duration in microseconds cannot be negative"
            ))),
            v => Ok(v.unwrap_or(0) as u64),
        }
    };
    let timeout = us("STARPU_WATCHDOG_TIMEOUT")?;
    if timeout == 0 {
        return Ok(None);
    }
    Ok(Some(WatchdogConfig {
        timeout: std::time::Duration::from_micros(timeout),
        crash: env_flag("STARPU_WATCHDOG_CRASH")?.unwrap_or(false),
        delay: std::time::Duration::from_micros(us("STARPU_WATCHDOG_DELAY")?),
    }))
}

/// Where the trace goes and what is made of it at shutdown.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TraceOutput {
    /// `STARPU_FXT_PREFIX`: the folder of the raw file (else `/tmp`) and of the generated
    /// files (else the working folder).
    pub dir: Option<PathBuf>,
    /// `STARPU_FXT_SUFFIX`: the raw file's name, before `_<rank>` (else `prof_file_<USER>`).
    pub suffix: Option<String>,
    /// `STARPU_GENERATE_TRACE=1`: write the views at shutdown.
    pub generate: bool,
    /// `STARPU_GENERATE_TRACE_OPTIONS`: `starpu_fxt_tool`'s options for them.
    pub options: Option<String>,
}

impl TraceOutput {
    /// The raw file's path.
    pub fn raw_path(&self) -> PathBuf {
        let name = match &self.suffix {
            Some(s) => format!("{s}_0"),
            None => format!("prof_file_{}_0", std::env::var("USER").unwrap_or_default()),
        };
        self.dir
            .clone()
            .unwrap_or_else(|| PathBuf::from("/tmp"))
            .join(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_lists_accept_ranges_and_separators() {
        assert_eq!(parse_cpu_list("0 2 4-6").unwrap(), vec![0, 2, 4, 5, 6]);
        assert_eq!(parse_cpu_list("1,3").unwrap(), vec![1, 3]);
        assert!(parse_cpu_list("a").is_err());
        assert!(parse_cpu_list("5-2").is_err());
    }

    #[test]
    fn counts_reject_negative_values_other_than_minus_one() {
        assert_eq!(count("X", -1).unwrap(), None);
        assert_eq!(count("X", 3).unwrap(), Some(3));
        assert!(count("X", -2).is_err());
    }
}
