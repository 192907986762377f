//! Process-wide model settings: where model files live, the calibration level, and how
//! many samples make an entry calibrated. StarPU keeps these global too (models are
//! shared by every codelet naming the same symbol); `Runtime::start` sets them from its
//! configuration.

use crate::config::Config;
use std::path::PathBuf;
use std::sync::atomic::{AtomicI32, AtomicU32, AtomicUsize, Ordering};
use std::sync::RwLock;

/// StarPU's `_STARPU_PERFMODEL_VERSION`: the file format, and a directory level.
pub const FORMAT_VERSION: u32 = 45;

/// Samples per footprint before a history entry is trusted (`STARPU_CALIBRATE_MINIMUM`).
pub const DEFAULT_CALIBRATION_MINIMUM: u32 = 10;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static CALIBRATE: AtomicI32 = AtomicI32::new(0);
static MINIMUM: AtomicU32 = AtomicU32::new(DEFAULT_CALIBRATION_MINIMUM);
static DIR: RwLock<Option<PathBuf>> = RwLock::new(None);
static HOSTNAME: RwLock<Option<String>> = RwLock::new(None);

/// A runtime starts: the first of the process applies its configuration (StarPU has one
/// runtime per process; tests run several at once and share the first one's settings).
pub fn runtime_started(config: &Config) {
    if LIVE.fetch_add(1, Ordering::AcqRel) == 0 {
        configure(config);
    }
}

/// A runtime stopped: with the last one, learned models are saved (when calibrating) and
/// forgotten, so the next runtime reads the files again.
pub fn runtime_stopped() {
    if LIVE.fetch_sub(1, Ordering::AcqRel) == 1 {
        super::state::save_and_forget_all();
    }
}

/// Applies `config` (and StarPU's model variables: `STARPU_PERF_MODEL_DIR`,
/// `STARPU_HOSTNAME`, `STARPU_CALIBRATE_MINIMUM`).
pub fn configure(config: &Config) {
    CALIBRATE.store(config.calibrate, Ordering::Relaxed);
    let minimum = std::env::var("STARPU_CALIBRATE_MINIMUM")
        .ok()
        .and_then(|v| v.trim().parse::<u32>().ok())
        .filter(|&m| m > 0)
        .unwrap_or(DEFAULT_CALIBRATION_MINIMUM);
    MINIMUM.store(minimum, Ordering::Relaxed);
    let dir = sampling_dir(config.home.clone());
    *DIR.write().unwrap_or_else(|e| e.into_inner()) = Some(dir);
    let host = std::env::var("STARPU_HOSTNAME")
        .ok()
        .filter(|h| !h.is_empty())
        .unwrap_or_else(system_hostname);
    *HOSTNAME.write().unwrap_or_else(|e| e.into_inner()) = Some(host);
}

/// StarPU's `sampling` directory: `STARPU_PERF_MODEL_DIR`, else `<home>/.starpu/sampling`
/// with `home` from the configuration, `STARPU_HOME` or `HOME` (tools that read models
/// without starting a runtime get the same directory).
fn sampling_dir(home: Option<PathBuf>) -> PathBuf {
    let env = |v: &str| {
        std::env::var_os(v)
            .filter(|d| !d.is_empty())
            .map(PathBuf::from)
    };
    env("STARPU_PERF_MODEL_DIR").unwrap_or_else(|| {
        home.or_else(|| env("STARPU_HOME"))
            .or_else(|| env("HOME"))
            .unwrap_or_else(std::env::temp_dir)
            .join(".starpu")
            .join("sampling")
    })
}

fn system_hostname() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: gethostname writes at most buf.len() bytes into buf.
    let r = unsafe { libc::gethostname(buf.as_mut_ptr() as *mut libc::c_char, buf.len()) };
    if r != 0 {
        return "localhost".to_string();
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).into_owned()
}

/// The calibration level (`STARPU_CALIBRATE`): 0 use models as they are (calibrating only
/// those not calibrated yet), 1 keep calibrating, 2 start over, ignoring saved files.
pub fn calibrate_level() -> i32 {
    CALIBRATE.load(Ordering::Relaxed)
}

/// Sets the level: StarPU raises it to 1 when a model turns out uncalibrated, so the
/// samples are saved at shutdown.
pub fn set_calibrate_level(level: i32) {
    CALIBRATE.store(level, Ordering::Relaxed);
}

/// Raises the level to at least 1.
pub(crate) fn force_calibration() {
    let _ = CALIBRATE.fetch_max(1, Ordering::Relaxed);
}

/// `STARPU_CALIBRATE_MINIMUM`.
pub fn calibration_minimum() -> u32 {
    MINIMUM.load(Ordering::Relaxed)
}

/// StarPU's `sampling` directory in use (where `codelets/`, `bus/` and the heteroprio
/// data live).
pub fn sampling_base() -> PathBuf {
    DIR.read()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
        .unwrap_or_else(|| sampling_dir(None))
}

/// The directory of codelet models (`.../sampling/codelets/45`).
pub fn codelets_dir() -> PathBuf {
    let base = sampling_base();
    base.join("codelets").join(FORMAT_VERSION.to_string())
}

/// The host name in model file names (`STARPU_HOSTNAME`, else the system's).
pub fn hostname() -> String {
    HOSTNAME
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
        .unwrap_or_else(system_hostname)
}

/// The file of model `symbol` (`starpu_perfmodel_get_model_path`).
pub fn model_path(symbol: &str) -> PathBuf {
    codelets_dir().join(format!("{symbol}.{}", hostname()))
}
