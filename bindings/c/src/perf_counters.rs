//! `starpu_perf_monitoring.h`: performance counters. The core defines and collects the
//! counters and calls listeners (`starpu_core::counters`); this file gives them StarPU's C
//! shape: ids, names, counter sets, listeners with C callbacks, and typed sample reads.
//!
//! Counter ids are indexes in the core's table (StarPU's ids are opaque too). A listener
//! takes the counters enabled in its set when it is attached. The `context` given to a
//! callback is NULL for the global and per-worker listeners and the codelet for a
//! per-codelet one (StarPU gives its internal worker structure, which programs cannot
//! read).

use crate::abi::starpu_codelet;
use crate::ffi::{self, report};
use crate::unavailable::say_once;
use libc::{c_char, c_int, c_uint, c_void};
use starpu_core::counters::{self, Attach, Listener, Sample, Scope, Value, ValueType, COUNTERS};
use starpu_core::Error;
use std::sync::Arc;

/// `struct starpu_perf_counter_set`: counters of one scope, each enabled or not.
pub struct starpu_perf_counter_set {
    scope: Scope,
    enabled: Vec<usize>,
}

/// `struct starpu_perf_counter_listener`: a set and the callback to call with samples.
pub struct starpu_perf_counter_listener {
    set: *mut starpu_perf_counter_set,
    callback: PerfCounterCallback,
    /// Kept as StarPU keeps it: callbacks get the scope's context, not this.
    _user_arg: *mut c_void,
}

/// `struct starpu_perf_counter_sample`: the values a callback may read.
pub struct starpu_perf_counter_sample {
    sample: Sample,
}

/// A listener's C callback.
pub type PerfCounterCallback = Option<
    unsafe extern "C" fn(
        listener: *mut starpu_perf_counter_listener,
        sample: *mut starpu_perf_counter_sample,
        context: *mut c_void,
    ),
>;

/// `starpu_perf_counter_scope_name_to_id`: -1 for an unknown name.
///
/// # Safety
/// `name` is NULL or a C string.
#[no_mangle]
pub unsafe extern "C" fn starpu_perf_counter_scope_name_to_id(name: *const c_char) -> c_int {
    let name = ffi::str_ref(name);
    Scope::ALL
        .into_iter()
        .find(|s| Some(s.name()) == name)
        .map_or(-1, |s| s as c_int)
}

/// `starpu_perf_counter_scope_id_to_name`: NULL for an unknown scope.
#[no_mangle]
pub extern "C" fn starpu_perf_counter_scope_id_to_name(scope: c_int) -> *const c_char {
    Scope::from_id(scope).map_or(std::ptr::null(), |s| ffi::interned_c_str(s.name()))
}

/// `starpu_perf_counter_type_name_to_id`: -1 for an unknown name.
///
/// # Safety
/// `name` is NULL or a C string.
#[no_mangle]
pub unsafe extern "C" fn starpu_perf_counter_type_name_to_id(name: *const c_char) -> c_int {
    let name = ffi::str_ref(name);
    ValueType::ALL
        .into_iter()
        .find(|t| Some(t.name()) == name)
        .map_or(-1, |t| t as c_int)
}

/// `starpu_perf_counter_type_id_to_name`: NULL for an unknown type.
#[no_mangle]
pub extern "C" fn starpu_perf_counter_type_id_to_name(ty: c_int) -> *const c_char {
    ValueType::from_id(ty).map_or(std::ptr::null(), |t| ffi::interned_c_str(t.name()))
}

/// `starpu_perf_counter_nb`: how many counters `scope` has.
#[no_mangle]
pub extern "C" fn starpu_perf_counter_nb(scope: c_int) -> c_int {
    Scope::from_id(scope).map_or(0, |s| counters::count(s) as c_int)
}

/// `starpu_perf_counter_name_to_id`: -1 for an unknown counter.
///
/// # Safety
/// `name` is NULL or a C string.
#[no_mangle]
pub unsafe extern "C" fn starpu_perf_counter_name_to_id(
    scope: c_int,
    name: *const c_char,
) -> c_int {
    match (Scope::from_id(scope), ffi::str_ref(name)) {
        (Some(s), Some(n)) => counters::id_of(s, n).map_or(-1, |i| i as c_int),
        _ => -1,
    }
}

/// `starpu_perf_counter_nth_to_id`: -1 past the last counter of `scope`.
#[no_mangle]
pub extern "C" fn starpu_perf_counter_nth_to_id(scope: c_int, nth: c_int) -> c_int {
    match (Scope::from_id(scope), usize::try_from(nth)) {
        (Some(s), Ok(n)) => counters::nth(s, n).map_or(-1, |i| i as c_int),
        _ => -1,
    }
}

fn def(id: c_int) -> Option<&'static counters::CounterDef> {
    COUNTERS.get(usize::try_from(id).ok()?)
}

/// `starpu_perf_counter_id_to_name`: NULL for an unknown id.
#[no_mangle]
pub extern "C" fn starpu_perf_counter_id_to_name(id: c_int) -> *const c_char {
    def(id).map_or(std::ptr::null(), |d| ffi::interned_c_str(d.name))
}

/// `starpu_perf_counter_get_type_id`: -1 for an unknown id.
#[no_mangle]
pub extern "C" fn starpu_perf_counter_get_type_id(id: c_int) -> c_int {
    def(id).map_or(-1, |d| d.ty as c_int)
}

/// `starpu_perf_counter_get_help_string`: NULL for an unknown id.
#[no_mangle]
pub extern "C" fn starpu_perf_counter_get_help_string(id: c_int) -> *const c_char {
    def(id).map_or(std::ptr::null(), |d| ffi::interned_c_str(d.help))
}

/// `starpu_perf_counter_list_avail`: the counters of `scope`, on stdout, as StarPU lists
/// them.
#[no_mangle]
pub extern "C" fn starpu_perf_counter_list_avail(scope: c_int) {
    for (id, c) in COUNTERS.iter().enumerate() {
        if Some(c.scope) == Scope::from_id(scope) {
            println!("0x{id:08x}:{} [{}] - {}", c.name, c.ty.name(), c.help);
        }
    }
}

/// `starpu_perf_counter_list_all_avail`: the counters of every scope, on stdout.
#[no_mangle]
pub extern "C" fn starpu_perf_counter_list_all_avail() {
    for s in Scope::ALL {
        println!("scope: {}", s.name());
        starpu_perf_counter_list_avail(s as c_int);
    }
}

/// `starpu_perf_counter_set_alloc`: an empty set of counters of `scope` (NULL for an
/// unknown scope). Counting starts now if it had not (see `starpu_core::counters`).
#[no_mangle]
pub extern "C" fn starpu_perf_counter_set_alloc(scope: c_int) -> *mut starpu_perf_counter_set {
    let Some(scope) = Scope::from_id(scope) else {
        report(
            "starpu_perf_counter_set_alloc",
            &Error::invalid(format!("unknown scope {scope}")),
        );
        return std::ptr::null_mut();
    };
    if let Ok(rt) = ffi::runtime() {
        rt.set_counter_collection(true);
    }
    Box::into_raw(Box::new(starpu_perf_counter_set {
        scope,
        enabled: Vec::new(),
    }))
}

/// `starpu_perf_counter_set_free`.
///
/// # Safety
/// `set` is NULL or from `starpu_perf_counter_set_alloc`, not freed, and no listener
/// attached still uses it.
#[no_mangle]
pub unsafe extern "C" fn starpu_perf_counter_set_free(set: *mut starpu_perf_counter_set) {
    if !set.is_null() {
        drop(Box::from_raw(set));
    }
}

/// Checks that `id` is a counter of `set`'s scope.
unsafe fn set_and_id<'a>(
    call: &str,
    set: *mut starpu_perf_counter_set,
    id: c_int,
) -> Option<(&'a mut starpu_perf_counter_set, usize)> {
    let Some(s) = set.as_mut() else {
        report(call, &Error::invalid("set is NULL"));
        return None;
    };
    match def(id) {
        Some(d) if d.scope == s.scope => Some((s, id as usize)),
        _ => {
            report(
                call,
                &Error::invalid(format!("{id} is not a counter of scope {}", s.scope.name())),
            );
            None
        }
    }
}

/// `starpu_perf_counter_set_enable_id`.
///
/// # Safety
/// `set` is NULL or a live set.
#[no_mangle]
pub unsafe extern "C" fn starpu_perf_counter_set_enable_id(
    set: *mut starpu_perf_counter_set,
    id: c_int,
) {
    if let Some((s, id)) = set_and_id("starpu_perf_counter_set_enable_id", set, id) {
        if !s.enabled.contains(&id) {
            s.enabled.push(id);
        }
    }
}

/// `starpu_perf_counter_set_disable_id`.
///
/// # Safety
/// `set` is NULL or a live set.
#[no_mangle]
pub unsafe extern "C" fn starpu_perf_counter_set_disable_id(
    set: *mut starpu_perf_counter_set,
    id: c_int,
) {
    if let Some((s, id)) = set_and_id("starpu_perf_counter_set_disable_id", set, id) {
        s.enabled.retain(|&e| e != id);
    }
}

/// `starpu_perf_counter_listener_init`: a listener of the counters of `set`, calling
/// `callback(listener, sample, context)`.
///
/// # Safety
/// `set` is a live set that outlives the listener.
#[no_mangle]
pub unsafe extern "C" fn starpu_perf_counter_listener_init(
    set: *mut starpu_perf_counter_set,
    callback: PerfCounterCallback,
    user_arg: *mut c_void,
) -> *mut starpu_perf_counter_listener {
    if set.is_null() || callback.is_none() {
        report(
            "starpu_perf_counter_listener_init",
            &Error::invalid("set or callback is NULL"),
        );
        return std::ptr::null_mut();
    }
    Box::into_raw(Box::new(starpu_perf_counter_listener {
        set,
        callback,
        _user_arg: user_arg,
    }))
}

/// `starpu_perf_counter_listener_exit`: frees a listener (detach it first).
///
/// # Safety
/// `listener` is NULL or from `starpu_perf_counter_listener_init`, attached nowhere.
#[no_mangle]
pub unsafe extern "C" fn starpu_perf_counter_listener_exit(
    listener: *mut starpu_perf_counter_listener,
) {
    if !listener.is_null() {
        drop(Box::from_raw(listener));
    }
}

/// Attaches C listener `l` at `at` (context given to its callback: `context`).
unsafe fn attach(
    call: &str,
    at: Attach,
    scope: Scope,
    l: *mut starpu_perf_counter_listener,
    context: usize,
) {
    let result = (|| {
        let lr = l
            .as_ref()
            .ok_or_else(|| Error::invalid("listener is NULL"))?;
        let set = &*lr.set;
        if set.scope != scope {
            return Err(Error::invalid(format!(
                "the listener's set is of scope {}, not {}",
                set.scope.name(),
                scope.name()
            )));
        }
        let (callback, listener) = (lr.callback, l as usize);
        let core = Listener {
            scope,
            enabled: set.enabled.clone(),
            callback: Box::new(move |sample: &Sample| {
                let mut s = starpu_perf_counter_sample {
                    sample: sample.clone(),
                };
                let lp = listener as *mut starpu_perf_counter_listener;
                if let Some(f) = callback {
                    // SAFETY: the listener stays alive while attached (API contract).
                    unsafe { f(lp, &mut s, context as *mut c_void) };
                }
            }),
        };
        ffi::runtime()?.set_counter_listener(at, Some(Arc::new(core)));
        Ok(())
    })();
    if let Err(e) = result {
        report(call, &e);
    }
}

fn detach(at: Attach) {
    if let Ok(rt) = ffi::runtime() {
        rt.set_counter_listener(at, None);
    }
}

/// `starpu_perf_counter_set_global_listener`.
///
/// # Safety
/// `listener` is NULL or a live listener.
#[no_mangle]
pub unsafe extern "C" fn starpu_perf_counter_set_global_listener(
    listener: *mut starpu_perf_counter_listener,
) {
    attach(
        "starpu_perf_counter_set_global_listener",
        Attach::Global,
        Scope::Global,
        listener,
        0,
    );
}

/// `starpu_perf_counter_set_per_worker_listener`.
///
/// # Safety
/// `listener` is NULL or a live listener.
#[no_mangle]
pub unsafe extern "C" fn starpu_perf_counter_set_per_worker_listener(
    workerid: c_uint,
    listener: *mut starpu_perf_counter_listener,
) {
    attach(
        "starpu_perf_counter_set_per_worker_listener",
        Attach::Worker(workerid as usize),
        Scope::PerWorker,
        listener,
        0,
    );
}

/// `starpu_perf_counter_set_all_per_worker_listeners`.
///
/// # Safety
/// `listener` is NULL or a live listener.
#[no_mangle]
pub unsafe extern "C" fn starpu_perf_counter_set_all_per_worker_listeners(
    listener: *mut starpu_perf_counter_listener,
) {
    for w in 0..crate::workers::starpu_worker_get_count() {
        starpu_perf_counter_set_per_worker_listener(w, listener);
    }
}

/// The name the core counts codelet `cl`'s tasks under.
unsafe fn codelet_key(cl: *mut starpu_codelet) -> Option<Attach> {
    let c = cl.as_ref()?;
    Some(Attach::Codelet(
        ffi::string(c.name).unwrap_or_else(|| "(unnamed)".into()),
    ))
}

/// `starpu_perf_counter_set_per_codelet_listener`: listens to the tasks of `cl` (codelets
/// are told apart by name, as in StarPU's summaries).
///
/// # Safety
/// `cl` is NULL or a live codelet; `listener` is NULL or a live listener.
#[no_mangle]
pub unsafe extern "C" fn starpu_perf_counter_set_per_codelet_listener(
    cl: *mut starpu_codelet,
    listener: *mut starpu_perf_counter_listener,
) {
    match codelet_key(cl) {
        Some(at) => attach(
            "starpu_perf_counter_set_per_codelet_listener",
            at,
            Scope::PerCodelet,
            listener,
            cl as usize,
        ),
        None => report(
            "starpu_perf_counter_set_per_codelet_listener",
            &Error::invalid("codelet is NULL"),
        ),
    }
}

/// `starpu_perf_counter_unset_global_listener`.
#[no_mangle]
pub extern "C" fn starpu_perf_counter_unset_global_listener() {
    detach(Attach::Global);
}

/// `starpu_perf_counter_unset_per_worker_listener`.
#[no_mangle]
pub extern "C" fn starpu_perf_counter_unset_per_worker_listener(workerid: c_uint) {
    detach(Attach::Worker(workerid as usize));
}

/// `starpu_perf_counter_unset_all_per_worker_listeners`.
#[no_mangle]
pub extern "C" fn starpu_perf_counter_unset_all_per_worker_listeners() {
    for w in 0..crate::workers::starpu_worker_get_count() {
        detach(Attach::Worker(w as usize));
    }
}

/// `starpu_perf_counter_unset_per_codelet_listener`.
///
/// # Safety
/// `cl` is NULL or a live codelet.
#[no_mangle]
pub unsafe extern "C" fn starpu_perf_counter_unset_per_codelet_listener(cl: *mut starpu_codelet) {
    if let Some(at) = codelet_key(cl) {
        detach(at);
    }
}

/// The value of counter `id` in `sample`, if it is there and of type `ty`.
unsafe fn value(
    call: &str,
    sample: *mut starpu_perf_counter_sample,
    id: c_int,
    ty: ValueType,
) -> Option<Value> {
    let s = sample.as_ref()?;
    let d = def(id)?;
    if d.ty != ty {
        report(
            call,
            &Error::invalid(format!(
                "counter {} is of type {}, not {}",
                d.name,
                d.ty.name(),
                ty.name()
            )),
        );
        return None;
    }
    let v = s.sample.get(id as usize);
    if v.is_none() {
        say_once(
            "perf counter not enabled",
            call,
            &format!(
                "counter {} is not enabled in the listener's set: 0 is returned",
                d.name
            ),
        );
    }
    v
}

/// Defines `starpu_perf_counter_sample_get_<type>_value`: the sample's value of a counter
/// of that type, 0 when it is of another type or not enabled (no counter of this build is
/// an int32 or a float). cbindgen does not expand macros: starpu.h declares them by hand
/// (include/epilogue.h).
macro_rules! sample_getters {
    ($($name:ident: $ty:ident as $variant:ident -> $ret:ty = |$v:ident| $conv:expr;)*) => {
        $(
            crate::declared::assert_declared!($name);
            #[doc = concat!("`", stringify!($name), "`.")]
            ///
            /// # Safety
            /// `sample` is the one given to the running callback.
            #[no_mangle]
            pub unsafe extern "C" fn $name(
                sample: *mut starpu_perf_counter_sample,
                counter_id: c_int,
            ) -> $ret {
                match value(stringify!($name), sample, counter_id, ValueType::$ty) {
                    Some(Value::$variant($v)) => $conv,
                    _ => <$ret>::default(),
                }
            }
        )*
    };
}

sample_getters! {
    starpu_perf_counter_sample_get_int32_value: Int32 as Int -> i32 = |v| v as i32;
    starpu_perf_counter_sample_get_int64_value: Int64 as Int -> i64 = |v| v;
    starpu_perf_counter_sample_get_float_value: Float as Double -> f32 = |v| v as f32;
    starpu_perf_counter_sample_get_double_value: Double as Double -> f64 = |v| v;
}

/// `starpu_perf_counter_collection_start`: counting starts (it also starts when a set is
/// allocated, or with `conf.start_perf_counter_collection`).
#[no_mangle]
pub extern "C" fn starpu_perf_counter_collection_start() {
    if let Ok(rt) = ffi::runtime() {
        rt.set_counter_collection(true);
    }
}

/// `starpu_perf_counter_collection_stop`: counting stops; listeners hear nothing more.
#[no_mangle]
pub extern "C" fn starpu_perf_counter_collection_stop() {
    if let Ok(rt) = ffi::runtime() {
        rt.set_counter_collection(false);
    }
}
