//! The watchdog (`STARPU_WATCHDOG_TIMEOUT`): when no task has finished for the timeout while
//! tasks are pending, it prints which tasks wait and on what, instead of letting the
//! application hang silently.
//!
//! The runtime keeps no list of its tasks (each task only knows its successors), so while
//! the watchdog is on, submissions are recorded in a table here and leave it when they
//! end. A report inverts the successor lists of the recorded tasks to find what each
//! waiting task waits for: a task (and the data they share, for implicit dependencies), a
//! tag, or an acquisition the application has not released. With the watchdog off
//! (the default) none of this costs more than a branch per task.

use super::Runtime;
use crate::config::WatchdogConfig;
use crate::task::{state, Task, TaskKind, TaskRef};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

pub(crate) struct Watchdog {
    config: WatchdogConfig,
    live: Mutex<Live>,
    /// Tags application threads wait for (`starpu_tag_wait`), with how many threads wait
    /// for each: a thread may wait for a tag nothing will ever notify, with no task pending.
    tag_waits: Mutex<HashMap<u64, usize>>,
    thread: Mutex<Option<JoinHandle<()>>>,
    stop: AtomicBool,
}

/// Submitted tasks that have not ended, by id, and how many ended so far.
#[derive(Default)]
struct Live {
    tasks: HashMap<u64, TaskRef>,
    ended: u64,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Watchdog {
    pub(crate) fn new(config: WatchdogConfig) -> Watchdog {
        Watchdog {
            config,
            live: Mutex::new(Live::default()),
            tag_waits: Mutex::new(HashMap::new()),
            thread: Mutex::new(None),
            stop: AtomicBool::new(false),
        }
    }

    /// Starts the watching thread of `rt`.
    pub(crate) fn start(rt: &Arc<Runtime>) -> std::io::Result<()> {
        let Some(wd) = &rt.watchdog else {
            return Ok(());
        };
        let watched = rt.clone();
        let handle = std::thread::Builder::new()
            .name("starpu-watchdog".into())
            .spawn(move || watch(&watched))?;
        *lock(&wd.thread) = Some(handle);
        Ok(())
    }

    /// Stops and joins the watching thread.
    pub(crate) fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(h) = lock(&self.thread).take() {
            h.thread().unpark();
            let _ = h.join();
        }
    }

    pub(crate) fn submitted(&self, task: &TaskRef) {
        lock(&self.live).tasks.insert(task.id(), task.clone());
    }

    pub(crate) fn ended(&self, task: &Task) {
        let mut live = lock(&self.live);
        live.tasks.remove(&task.id());
        live.ended += 1;
    }

    fn waiting_for_tags(&self, ids: &[u64], delta: isize) {
        let mut waits = lock(&self.tag_waits);
        for &id in ids {
            let n = waits.entry(id).or_default();
            *n = n.saturating_add_signed(delta);
            if *n == 0 {
                waits.remove(&id);
            }
        }
    }
}

/// Tags an application thread waits for, recorded while it waits (see `watch_tag_wait`).
pub(crate) struct TagWait<'a> {
    wd: Option<&'a Watchdog>,
    ids: &'a [u64],
}

impl Drop for TagWait<'_> {
    fn drop(&mut self) {
        if let Some(wd) = self.wd {
            wd.waiting_for_tags(self.ids, -1);
        }
    }
}

impl Runtime {
    /// Records a submission for the watchdog, when it runs.
    #[inline]
    pub(crate) fn watch_submitted(&self, task: &TaskRef) {
        if let Some(w) = &self.watchdog {
            w.submitted(task);
        }
    }

    /// Records, for the watchdog when it runs, that this thread waits for tags `ids` until
    /// the returned guard goes.
    pub(crate) fn watch_tag_wait<'a>(&'a self, ids: &'a [u64]) -> TagWait<'a> {
        let wd = self.watchdog.as_ref();
        if let Some(w) = wd {
            w.waiting_for_tags(ids, 1);
        }
        TagWait { wd, ids }
    }

    /// Records the end of a task for the watchdog, when it runs.
    #[inline]
    pub(crate) fn watch_ended(&self, task: &Task) {
        if let Some(w) = &self.watchdog {
            w.ended(task);
        }
    }
}

/// Sleeps `d` unless the watchdog is stopped meanwhile; false once it is.
fn nap(wd: &Watchdog, d: Duration) -> bool {
    let until = Instant::now() + d;
    loop {
        if wd.stop.load(Ordering::SeqCst) {
            return false;
        }
        let now = Instant::now();
        if now >= until {
            return true;
        }
        std::thread::park_timeout(until - now);
    }
}

/// The watching thread: checks every timeout whether a task ended since the last check.
fn watch(rt: &Runtime) {
    let wd = rt.watchdog.as_ref().expect("started with a watchdog");
    if !nap(wd, wd.config.delay) {
        return;
    }
    let mut last = lock(&wd.live).ended;
    let mut quiet_since = Instant::now();
    while nap(wd, wd.config.timeout) {
        let ended = lock(&wd.live).ended;
        let idle = rt.nsubmitted() == 0 && lock(&wd.tag_waits).is_empty();
        if ended != last || idle {
            last = ended;
            quiet_since = Instant::now();
            continue;
        }
        let quiet = quiet_since.elapsed();
        if quiet < wd.config.timeout {
            continue;
        }
        eprint!("{}", report(rt, quiet));
        if wd.config.crash {
            eprintln!("[starpu] watchdog: STARPU_WATCHDOG_CRASH is set: aborting");
            std::process::abort();
        }
        quiet_since = Instant::now();
    }
}

/// Why one task is held back.
enum Wait {
    /// An implicit (data) or explicit dependency on another task.
    Task { pred: TaskRef, data: bool },
    /// A tag its tag depends on.
    Tag(u64),
}

/// The report: one header line, then one line per task that waits or runs.
pub(crate) fn report(rt: &Runtime, quiet: Duration) -> String {
    let wd = rt
        .watchdog
        .as_ref()
        .expect("reports come from the watchdog");
    let mut tasks: Vec<TaskRef> = lock(&wd.live).tasks.values().cloned().collect();
    tasks.sort_by_key(|t| t.id());
    // Invert the successor lists: what each task waits for.
    let mut waits: HashMap<u64, Vec<Wait>> = HashMap::new();
    for pred in &tasks {
        let (data, explicit) = pred.successors_snapshot();
        for (list, is_data) in [(data, true), (explicit, false)] {
            for s in list {
                waits.entry(s.id()).or_default().push(Wait::Task {
                    pred: pred.clone(),
                    data: is_data,
                });
            }
        }
    }
    for (tag, waiting) in rt.tags.pending_waits() {
        for t in waiting {
            waits.entry(t.id()).or_default().push(Wait::Tag(tag));
        }
    }
    let carriers: HashMap<u64, &TaskRef> = tasks
        .iter()
        .filter_map(|t| Some((t.spec()?.tag?, t)))
        .collect();

    let mut out = String::new();
    let pending = rt.nsubmitted();
    let mut waited: Vec<u64> = lock(&wd.tag_waits).keys().copied().collect();
    waited.sort_unstable();
    let _ = writeln!(
        out,
        "[starpu] watchdog: no task finished for {:.3} s (STARPU_WATCHDOG_TIMEOUT={} us) \
         while {pending} {} pending:",
        quiet.as_secs_f64(),
        wd.config.timeout.as_micros(),
        if pending == 1 { "task is" } else { "tasks are" }
    );
    for tag in waited.into_iter().filter(|&t| !rt.tags.is_done(t)) {
        let why = match carriers.get(&tag) {
            Some(c) => format!("carried by {}", describe(c)),
            None => "which no submitted task carries and the application did not notify: \
                     nothing will ever make it done"
                .to_string(),
        };
        let _ = writeln!(
            out,
            "[starpu] watchdog:   the application waits (starpu_tag_wait) for tag {tag}, {why}"
        );
    }
    for t in &tasks {
        let what = describe(t);
        let Some(spec) = t.spec() else { continue };
        let st = t.state();
        if matches!(spec.kind, TaskKind::Acquire(_)) && st >= state::RUNNING {
            let _ = writeln!(
                out,
                "[starpu] watchdog:   {what} is granted and not released by the application"
            );
            continue;
        }
        match st {
            state::SUBMITTED => {
                let list = waits.get(&t.id()).map(Vec::as_slice).unwrap_or(&[]);
                if list.is_empty() {
                    let _ = writeln!(out, "[starpu] watchdog:   {what} is being submitted");
                }
                for w in list {
                    let why = match w {
                        Wait::Task { pred, data } => on_task(t, pred, *data),
                        Wait::Tag(tag) => match carriers.get(tag) {
                            Some(c) => format!("tag {tag}, carried by {}", describe(c)),
                            None => format!(
                                "tag {tag}, not done (no submitted task carries it, and the \
                                 application did not notify it)"
                            ),
                        },
                    };
                    let _ = writeln!(out, "[starpu] watchdog:   {what} waits for {why}");
                }
            }
            state::READY => {
                let why = if rt.is_paused() {
                    "the runtime is paused"
                } else if !rt.runnable_somewhere(t) {
                    "no worker can run it"
                } else {
                    "a worker"
                };
                let _ = writeln!(
                    out,
                    "[starpu] watchdog:   {what} is ready, waiting for {why}"
                );
            }
            state::RUNNING => {
                let _ = writeln!(out, "[starpu] watchdog:   {what} is running");
            }
            _ => {
                let _ = writeln!(
                    out,
                    "[starpu] watchdog:   {what} has completed; its end waits for end \
                     dependencies"
                );
            }
        }
    }
    out
}

/// `task 'name' (id N)`, or what an acquisition holds.
fn describe(t: &Task) -> String {
    if let Some(spec) = t.spec() {
        if matches!(spec.kind, TaskKind::Acquire(_)) {
            let a = &spec.accesses[0];
            return format!(
                "the acquisition of data {} in mode {:?} (id {})",
                a.handle.label(),
                a.mode,
                t.id()
            );
        }
        if let Some(tag) = spec.tag {
            return format!("task '{}' (id {}, tag {tag})", t.label(), t.id());
        }
    }
    format!("task '{}' (id {})", t.label(), t.id())
}

/// `pred`, and for a data dependency the data `t` and `pred` share with their modes.
fn on_task(t: &Task, pred: &Task, data: bool) -> String {
    let mut s = describe(pred);
    if !data {
        s.push_str(" (an explicit dependency)");
        return s;
    }
    let (Some(ts), Some(ps)) = (t.spec(), pred.spec()) else {
        return s;
    };
    for a in &ts.accesses {
        if let Some(p) = ps.accesses.iter().find(|p| p.handle.ptr_eq(&a.handle)) {
            let _ = write!(
                s,
                " on data {} (mode {:?} after {:?})",
                a.handle.label(),
                a.mode,
                p.mode
            );
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::data::{AccessMode, AcquireNode};
    use crate::task::Codelet;

    /// One worker, a watchdog whose thread never reports during a test (the tests ask for
    /// the report themselves).
    fn watched_runtime() -> Arc<Runtime> {
        let config = Config {
            ncpus: Some(1),
            silent: true,
            watchdog: Some(WatchdogConfig {
                timeout: Duration::from_secs(3600),
                crash: false,
                delay: Duration::ZERO,
            }),
            ..Config::default()
        };
        Runtime::start(config).unwrap()
    }

    #[test]
    fn the_report_names_held_data_and_missing_tags() {
        let rt = watched_runtime();
        let x = rt.register_variable(1i32).unwrap();
        rt.acquire(
            &x,
            AcquireNode::Node(crate::memory::MAIN_RAM),
            AccessMode::RW,
        )
        .unwrap();
        let cl = Arc::new(
            Codelet::new("reader")
                .modes([AccessMode::R])
                .cpu(|_| Ok(())),
        );
        rt.task(&cl).buffer(&x, AccessMode::R).submit().unwrap();
        rt.tags.declare_deps(2, &[1]).unwrap();
        rt.empty_task().name("tagged").tag(2).submit().unwrap();

        let text = report(&rt, Duration::from_secs(1));
        assert!(text.contains("while 2 tasks are pending"), "{text}");
        assert!(
            text.contains("is granted and not released by the application"),
            "{text}"
        );
        assert!(text.contains("task 'reader'"), "{text}");
        assert!(text.contains("(mode R after RW)"), "{text}");
        assert!(
            text.contains("task 'tagged' (id") && text.contains("waits for tag 1, not done"),
            "{text}"
        );

        rt.release(&x).unwrap();
        rt.tag_notify(1);
        rt.wait_for_all().unwrap();
        assert!(lock(&rt.watchdog.as_ref().unwrap().live).tasks.is_empty());
        rt.shutdown();
    }

    #[test]
    fn the_report_names_a_tag_the_application_waits_for_in_vain() {
        let rt = watched_runtime();
        let waiter = {
            let rt = rt.clone();
            std::thread::spawn(move || rt.tag_wait(&[77]))
        };
        let wd = rt.watchdog.as_ref().unwrap();
        while lock(&wd.tag_waits).is_empty() {
            std::thread::sleep(Duration::from_millis(1));
        }
        let text = report(&rt, Duration::from_secs(1));
        assert!(text.contains("while 0 tasks are pending"), "{text}");
        assert!(
            text.contains(
                "the application waits (starpu_tag_wait) for tag 77, which no \
                           submitted task carries"
            ),
            "{text}"
        );
        rt.tag_notify(77);
        waiter.join().unwrap().unwrap();
        assert!(lock(&wd.tag_waits).is_empty());
        rt.shutdown();
    }
}
