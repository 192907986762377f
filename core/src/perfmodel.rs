//! Performance models attached to codelets (`struct starpu_perfmodel`).
//!
//! This build records the model's kind and symbol so programs that declare models run
//! unchanged; the eager, prio, random, ws and lws policies do not consult them. Learning
//! and persisting timings (for dm/dmda) is a later step.

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PerfModelType {
    #[default]
    Invalid,
    PerArch,
    Common,
    HistoryBased,
    RegressionBased,
    NonLinearRegressionBased,
    MultipleRegressionBased,
    PerArchCommon,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct PerfModel {
    pub kind: PerfModelType,
    pub symbol: Option<String>,
}
