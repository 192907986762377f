//! What a trace says, gathered once for every view: each task's life (submitted, pushed,
//! popped, started, ended, where, with which implementation, after which tasks), each
//! worker's timeline as spans, each application thread's waits, user events, transfers.
//!
//! Implicit (data) dependencies are rebuilt from the buffers each task declared, in
//! submission order, by sequential consistency: a reader waits for the last writers, a
//! writer for the readers since them (or for the last writers if none read). This gives
//! the graph the program described, whatever the timing (the runtime itself forgets
//! finished writers early, so its live edges depend on timing). Commuting writers and
//! reduction contributions form groups that do not wait for each other.

use super::{Trace, WaitKind, What};
use crate::data::AccessMode;
use std::collections::{BTreeMap, HashMap};

/// One buffer of a task.
#[derive(Debug, Clone, PartialEq)]
pub struct AccessInfo {
    pub handle: u64,
    pub size: u64,
    pub mode: AccessMode,
    pub interface: u32,
    pub sequential: bool,
}

/// One task, as far as the trace saw it. Times are nanoseconds on the runtime's clock.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TaskInfo {
    pub id: u64,
    /// Task name, else its codelet's ("" for none).
    pub name: String,
    pub color: u32,
    pub priority: i32,
    pub tag: Option<u64>,
    /// 1 for the first task submitted, and so on (0: its submission was not recorded).
    pub submit_order: u64,
    pub submit_ns: Option<u64>,
    pub push_ns: Option<u64>,
    pub start_ns: Option<u64>,
    pub end_ns: Option<u64>,
    pub worker: Option<usize>,
    pub nimpl: u32,
    pub footprint: u32,
    pub size: u64,
    pub model: Option<String>,
    pub accesses: Vec<AccessInfo>,
    /// The tasks this one waited for: declared and implicit (data) dependencies.
    pub deps: Vec<u64>,
    /// The tasks whose end this one's end waited for.
    pub end_deps: Vec<u64>,
    /// The iterations (`starpu_iteration_push`) open when it was submitted, outermost first.
    pub iteration: Vec<u64>,
    pub callback: Option<(u64, u64)>,
}

impl TaskInfo {
    /// The name views show ("(unnamed)" for none).
    pub fn label(&self) -> &str {
        if self.name.is_empty() {
            "(unnamed)"
        } else {
            &self.name
        }
    }
}

/// What a worker does during a span of its timeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpanKind {
    /// Running the task at this index of [`Model::tasks`] (data fetch and kernel).
    Executing(usize),
    /// Running a task's callback.
    Callback(usize),
    Sleeping,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub start: u64,
    pub end: u64,
    pub kind: SpanKind,
}

/// A wait of an application thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wait {
    pub thread: u32,
    pub start: u64,
    pub end: u64,
    pub kind: WaitKind,
}

/// A user event or string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserEvent {
    pub time: u64,
    pub thread: u32,
    pub worker: Option<usize>,
    /// The code, or the string.
    pub value: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Transfer {
    pub start: u64,
    pub end: u64,
    pub src: u32,
    pub dst: u32,
    pub bytes: u64,
    pub handle: u64,
}

/// A trace, digested.
#[derive(Debug, Clone, Default)]
pub struct Model {
    /// In submission order (tasks never submitted while recording come last, by id).
    pub tasks: Vec<TaskInfo>,
    index: HashMap<u64, usize>,
    /// Per worker, its spans in time order (what is not covered is idle time).
    pub spans: Vec<Vec<Span>>,
    pub waits: Vec<Wait>,
    pub user_events: Vec<UserEvent>,
    pub transfers: Vec<Transfer>,
    /// Tag `.0` waits for tag `.1`.
    pub tag_deps: Vec<(u64, u64)>,
    /// Handles seen, by address: size and interface id.
    pub handles: BTreeMap<u64, (u64, u32)>,
    /// Ready tasks (pushed, not popped) and tasks submitted and not ended, after each
    /// change: (time, ready, submitted).
    pub counts: Vec<(u64, usize, usize)>,
    /// First and last event times.
    pub start_ns: u64,
    pub end_ns: u64,
}

impl Model {
    /// The task with id `id`.
    pub fn task(&self, id: u64) -> Option<&TaskInfo> {
        self.index.get(&id).map(|&i| &self.tasks[i])
    }

    /// Digests `t`.
    pub fn of(t: &Trace) -> Model {
        let mut m = Model {
            spans: vec![Vec::new(); t.workers.len()],
            start_ns: t.events.first().map_or(0, |r| r.time_ns),
            end_ns: t.events.last().map_or(0, |r| r.time_ns),
            ..Default::default()
        };
        let mut tasks: BTreeMap<u64, TaskInfo> = BTreeMap::new();
        let mut order = 0u64;
        // Per thread: the iterations open, the wait begun; per worker, its sleep begun.
        let mut iterations: HashMap<u32, Vec<u64>> = HashMap::new();
        let mut waiting: HashMap<u32, (u64, WaitKind)> = HashMap::new();
        let mut asleep: HashMap<usize, u64> = HashMap::new();
        let (mut ready, mut submitted) = (0usize, 0usize);
        let mut pending_spans: Vec<(usize, u64, u64, SpanKindById)> = Vec::new();
        for r in &t.events {
            let now = r.time_ns;
            let worker = t.worker_of(r);
            let what = r.what();
            if let Some(id) = what.task() {
                tasks.entry(id).or_insert_with(|| TaskInfo {
                    id,
                    ..Default::default()
                });
            }
            match what {
                What::Submit {
                    task: id,
                    name,
                    color,
                    priority,
                    tag,
                } => {
                    order += 1;
                    submitted += 1;
                    m.counts.push((now, ready, submitted));
                    let ti = tasks.get_mut(&id).expect("entered above");
                    ti.name = t.string(name).to_string();
                    ti.color = color;
                    ti.priority = priority;
                    ti.tag = tag;
                    ti.submit_order = order;
                    ti.submit_ns = Some(now);
                    ti.iteration = iterations.get(&r.thread).cloned().unwrap_or_default();
                }
                What::Access {
                    task: id,
                    handle,
                    size,
                    mode,
                    interface,
                    sequential,
                    ..
                } => {
                    m.handles.insert(handle, (size, interface));
                    if let Some(ti) = tasks.get_mut(&id) {
                        ti.accesses.push(AccessInfo {
                            handle,
                            size,
                            mode,
                            interface,
                            sequential,
                        });
                    }
                }
                What::Dep { pred, succ } => {
                    if let Some(ti) = tasks.get_mut(&succ) {
                        ti.deps.push(pred);
                    }
                }
                What::EndDep { pred, succ } => {
                    if let Some(ti) = tasks.get_mut(&succ) {
                        ti.end_deps.push(pred);
                    }
                }
                What::TagDep { tag, dep } => m.tag_deps.push((tag, dep)),
                What::Push { task: id } => {
                    ready += 1;
                    m.counts.push((now, ready, submitted));
                    if let Some(ti) = tasks.get_mut(&id) {
                        ti.push_ns = Some(now);
                    }
                }
                What::Start { task: id } => {
                    ready = ready.saturating_sub(1);
                    m.counts.push((now, ready, submitted));
                    if let Some(ti) = tasks.get_mut(&id) {
                        ti.start_ns = Some(now);
                        ti.worker = worker;
                    }
                }
                What::End {
                    task: id,
                    nimpl,
                    footprint,
                    size,
                    model,
                } => {
                    submitted = submitted.saturating_sub(1);
                    m.counts.push((now, ready, submitted));
                    if let Some(ti) = tasks.get_mut(&id) {
                        ti.end_ns = Some(now);
                        ti.nimpl = nimpl;
                        ti.footprint = footprint;
                        ti.size = size;
                        ti.model = model.map(|s| t.string(s).to_string());
                        if let (Some(w), Some(start)) = (worker, ti.start_ns) {
                            pending_spans.push((w, start, now, SpanKindById::Executing(id)));
                        }
                    }
                }
                What::CallbackEnd { task: id } => {
                    // Callbacks run from the task's end (or from when its dependencies
                    // were met, for a task with nothing to run).
                    if let Some(ti) = tasks.get_mut(&id) {
                        if let Some(s) = ti.end_ns.or(ti.push_ns) {
                            ti.callback = Some((s, now));
                            if let Some(w) = worker {
                                pending_spans.push((w, s, now, SpanKindById::Callback(id)));
                            }
                        }
                    }
                }
                What::Sleep => {
                    if let Some(w) = worker {
                        asleep.insert(w, now);
                    }
                }
                What::Wake => {
                    if let Some(w) = worker {
                        if let Some(s) = asleep.remove(&w) {
                            pending_spans.push((w, s, now, SpanKindById::Sleeping));
                        }
                    }
                }
                What::WaitBegin { kind, .. } => {
                    waiting.insert(r.thread, (now, kind));
                }
                What::WaitEnd => {
                    if let Some((s, kind)) = waiting.remove(&r.thread) {
                        m.waits.push(Wait {
                            thread: r.thread,
                            start: s,
                            end: now,
                            kind,
                        });
                    }
                }
                What::User { code } => m.user_events.push(UserEvent {
                    time: now,
                    thread: r.thread,
                    worker,
                    value: code.to_string(),
                }),
                What::UserString { text, .. } => m.user_events.push(UserEvent {
                    time: now,
                    thread: r.thread,
                    worker,
                    value: t.string(text).to_string(),
                }),
                What::IterationPush { iteration } => {
                    iterations.entry(r.thread).or_default().push(iteration)
                }
                What::IterationPop => {
                    iterations.entry(r.thread).or_default().pop();
                }
                What::Transfer {
                    src,
                    dst,
                    bytes,
                    handle,
                    end,
                } => m.transfers.push(Transfer {
                    start: now,
                    end,
                    src,
                    dst,
                    bytes,
                    handle,
                }),
                What::Unknown { .. } => {}
            }
        }
        // Submitted tasks first, in submission order, then the others by id.
        // A task only named by a dependency, never submitted or run while recording, is
        // not shown; nor are edges to it.
        let mut list: Vec<TaskInfo> = tasks
            .into_values()
            .filter(|t| t.submit_ns.is_some() || t.start_ns.is_some() || t.end_ns.is_some())
            .collect();
        let known: std::collections::HashSet<u64> = list.iter().map(|t| t.id).collect();
        for t in &mut list {
            // Recorded only for tasks with a model: else the bytes of their buffers.
            if t.size == 0 {
                t.size = t.accesses.iter().map(|a| a.size).sum();
            }
            t.deps.retain(|d| known.contains(d));
            t.end_deps.retain(|d| known.contains(d));
        }
        list.sort_by_key(|t| (t.submit_order == 0, t.submit_order, t.id));
        m.index = list.iter().enumerate().map(|(i, t)| (t.id, i)).collect();
        m.tasks = list;
        add_data_dependencies(&mut m);
        for (w, start, end, k) in pending_spans {
            let Some(spans) = m.spans.get_mut(w) else {
                continue;
            };
            let idx = |id: u64| m.index.get(&id).copied();
            let kind = match k {
                SpanKindById::Executing(id) => idx(id).map(SpanKind::Executing),
                SpanKindById::Callback(id) => idx(id).map(SpanKind::Callback),
                SpanKindById::Sleeping => Some(SpanKind::Sleeping),
            };
            if let Some(kind) = kind {
                spans.push(Span { start, end, kind });
            }
        }
        for s in &mut m.spans {
            s.sort_by_key(|s| (s.start, s.end));
        }
        m
    }
}

/// A span recorded before tasks have their final indices.
#[derive(Debug, Clone, Copy)]
enum SpanKindById {
    Executing(u64),
    Callback(u64),
    Sleeping,
}

/// Per handle, what the next access must wait for.
#[derive(Default)]
struct HandleDeps {
    /// The last write epoch (one writer, or a group of commuting or reduction writers).
    writers: Vec<u64>,
    group: Option<AccessMode>,
    /// What the group's members wait for.
    group_preds: Vec<u64>,
    readers: Vec<u64>,
}

fn add_data_dependencies(m: &mut Model) {
    let mut handles: HashMap<u64, HandleDeps> = HashMap::new();
    for t in &mut m.tasks {
        if t.submit_order == 0 {
            continue;
        }
        let mut preds: Vec<u64> = Vec::new();
        let mut seen: Vec<u64> = Vec::new();
        for a in &t.accesses {
            if !a.sequential || a.mode.is_scratch() || seen.contains(&a.handle) {
                continue;
            }
            seen.push(a.handle);
            // A handle given twice is one access of both modes.
            let mode = t
                .accesses
                .iter()
                .filter(|b| b.handle == a.handle && b.sequential)
                .fold(AccessMode::NONE, |m, b| m | b.mode);
            let h = handles.entry(a.handle).or_default();
            let grouped = if mode.is_redux() {
                Some(AccessMode::REDUX)
            } else if mode.is_commute() && mode.writes() {
                Some(AccessMode::COMMUTE)
            } else {
                None
            };
            if !mode.writes() && !mode.is_redux() {
                preds.extend(&h.writers);
                h.readers.push(t.id);
            } else if grouped.is_some() && grouped == h.group && h.readers.is_empty() {
                preds.extend(&h.group_preds);
                h.writers.push(t.id);
            } else {
                let before = if h.readers.is_empty() {
                    std::mem::take(&mut h.writers)
                } else {
                    std::mem::take(&mut h.readers)
                };
                preds.extend(&before);
                h.group_preds = before;
                h.writers = vec![t.id];
                h.readers.clear();
                h.group = grouped;
            }
        }
        for p in preds {
            if p != t.id && !t.deps.contains(&p) {
                t.deps.push(p);
            }
        }
        t.deps.sort_unstable();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::{RawEvent, Trace};

    fn submit(t: &mut Trace, th: u32, time: u64, id: u64, accesses: &[(u64, AccessMode)]) {
        let mut push = |w: What| {
            let mut e: RawEvent = w.encode();
            e.time = time;
            t.push_raw(th, e);
        };
        push(What::Submit {
            task: id,
            name: 0,
            color: 0,
            priority: 0,
            tag: None,
        });
        for (i, (h, mode)) in accesses.iter().enumerate() {
            push(What::Access {
                task: id,
                handle: *h,
                size: 8,
                mode: *mode,
                interface: 0,
                index: i as u16,
                sequential: true,
            });
        }
    }

    #[test]
    fn data_dependencies_follow_sequential_consistency() {
        let mut t = Trace::default();
        let th = t.add_thread(None);
        let (r, w, rw) = (AccessMode::R, AccessMode::W, AccessMode::RW);
        submit(&mut t, th, 1, 10, &[(1, w)]); // writes A
        submit(&mut t, th, 2, 11, &[(1, r)]); // reads A
        submit(&mut t, th, 3, 12, &[(1, r), (2, w)]); // reads A, writes B
        submit(&mut t, th, 4, 13, &[(1, rw)]); // after both readers
        submit(&mut t, th, 5, 14, &[(2, r), (1, r)]); // after 12 (B) and 13 (A)
        let m = Model::of(&t);
        let deps = |id| m.task(id).unwrap().deps.clone();
        assert_eq!(deps(10), Vec::<u64>::new());
        assert_eq!(deps(11), vec![10]);
        assert_eq!(deps(12), vec![10]);
        assert_eq!(deps(13), vec![11, 12]);
        assert_eq!(deps(14), vec![12, 13]);
    }

    #[test]
    fn commuting_writers_wait_for_what_came_before_not_for_each_other() {
        let mut t = Trace::default();
        let th = t.add_thread(None);
        let c = AccessMode::RW | AccessMode::COMMUTE;
        submit(&mut t, th, 1, 1, &[(7, AccessMode::W)]);
        submit(&mut t, th, 2, 2, &[(7, c)]);
        submit(&mut t, th, 3, 3, &[(7, c)]);
        submit(&mut t, th, 4, 4, &[(7, AccessMode::R)]);
        let m = Model::of(&t);
        assert_eq!(m.task(2).unwrap().deps, vec![1]);
        assert_eq!(m.task(3).unwrap().deps, vec![1]);
        assert_eq!(m.task(4).unwrap().deps, vec![2, 3]);
    }
}
