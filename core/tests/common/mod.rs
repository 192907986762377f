//! What the core's integration tests share: starting a quiet runtime, and the
//! multiformat points of the device tests ([`points`]).
// Each test crate uses only some of these.
#![allow(dead_code)]

pub mod points;

use starpu_core::{Config, Runtime};
use std::sync::Arc;

/// A runtime with `ncpus` CPU workers under policy `sched` (`None`: the default one).
pub fn runtime(ncpus: usize, sched: Option<&str>) -> Arc<Runtime> {
    start(Config {
        ncpus: Some(ncpus),
        sched_policy: sched.map(Into::into),
        ..Config::default()
    })
}

/// Starts a runtime from `config`, silenced (tests print their own failures). Performance
/// models learned by tests are saved at shutdown: in a temporary folder, never in the
/// user's home.
pub fn start(config: Config) -> Arc<Runtime> {
    Runtime::start(Config {
        silent: true,
        home: config
            .home
            .or_else(|| Some(std::env::temp_dir().join("starpu-core-tests"))),
        ..config
    })
    .unwrap()
}
