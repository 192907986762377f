//! What this build cannot do, answered the way StarPU answers when it was built without the
//! feature, and said once on stderr per feature so that a program's output is not
//! flooded.

use std::collections::HashSet;
use std::sync::Mutex;

/// Prints `[starpu][call] <what>` the first time a call of `feature` is used; every time,
/// the call's `Unsupported` error becomes the thread's last error (`starpu_rs_last_error`).
pub(crate) fn say_once(feature: &'static str, call: &str, what: &str) {
    static SAID: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);
    let e = starpu_core::Error::unsupported(what);
    let mut said = SAID.lock().unwrap_or_else(|e| e.into_inner());
    if said.get_or_insert_with(HashSet::new).insert(feature) {
        crate::ffi::report(call, &e);
    } else {
        crate::last_error::record(call, &e);
    }
}
