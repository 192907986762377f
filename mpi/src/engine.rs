//! The progression thread: the one thread of the process that makes MPI calls, as in
//! StarPU-MPI. It starts MPI (or adopts the application's, checking that MPI allows a
//! thread other than the main one to call it), posts the envelope receives, matches
//! arrivals with the receives the application posted, moves the data, and ends requests.
//!
//! Application threads never call MPI: they queue commands (`Cmd`) here, after asking the
//! runtime for the data. The runtime hands the data over (a callback on some thread) and
//! that callback queues the next step. The thread polls MPI while requests are in flight
//! (polling without pause for 300 microseconds after the last event, yielding the core to
//! the other threads between polls, then sleeping in growing steps from 5 up to 100
//! microseconds between polls: StarPU's own thread spins all the time, which takes a core
//! from the workers, or half of the core it shares with one).
//!
//! A receive needs three things, in any order: its envelope, the data granted for
//! writing, and the data message. Data whose receive is not posted yet (or whose handle
//! is not granted yet) lands in a buffer of the envelope's size and is copied in later,
//! so a sender never waits for the receiving application; a synchronous send's data is
//! taken only once the matching receive is posted.

use crate::comm::{self, check, Comm, CommInfo};
use crate::envelope::{DataTags, Envelope, ENVELOPE_TAG};
use crate::matching::Matcher;
use crate::request::{transfer_error, Kind, Op, Status};
use crate::wire::Codecs;
use mpi::ffi;
use starpu_core::{Error, Result, Runtime};
use std::cell::Cell;
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Condvar, Mutex, MutexGuard, RwLock};
use std::time::{Duration, Instant};

/// What application threads ask of the progression thread.
pub(crate) enum Cmd {
    /// The data of a send is held for reading: send it.
    Send(Arc<Op>),
    /// A receive is posted (its data is asked for, not necessarily granted yet).
    Recv(Arc<Op>),
    /// The data of a receive is held for writing.
    Granted(Arc<Op>),
    /// A posted receive whose data could not be asked for: forget it.
    Withdraw(Arc<Op>),
    Barrier(Arc<Op>),
    /// Runs MPI calls on this thread (communicator registration, datatypes...).
    Run(Box<dyn FnOnce(&mut Engine) + Send>),
    Stop,
}

/// What the progression thread and the application threads share.
pub(crate) struct Shared {
    queue: Mutex<VecDeque<Cmd>>,
    wake: Condvar,
    /// Requests posted and not ended.
    pending: Mutex<usize>,
    idle: Condvar,
    /// A request was posted since `take_newer` last looked (`starpu_mpi_wait_for_all`).
    newer: AtomicBool,
    pub comms: RwLock<Vec<CommInfo>>,
    pub codecs: Codecs,
    pub stats: crate::stats::Stats,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Shared {
    pub(crate) fn new() -> Shared {
        Shared {
            queue: Mutex::new(VecDeque::new()),
            wake: Condvar::new(),
            pending: Mutex::new(0),
            idle: Condvar::new(),
            newer: AtomicBool::new(false),
            comms: RwLock::new(Vec::new()),
            codecs: Codecs::default(),
            stats: Default::default(),
        }
    }

    pub(crate) fn push(&self, c: Cmd) {
        lock(&self.queue).push_back(c);
        self.wake.notify_one();
    }

    /// Counts a request that `finish` will end.
    pub(crate) fn begin(&self) {
        *lock(&self.pending) += 1;
        self.newer.store(true, Ordering::SeqCst);
    }

    pub(crate) fn end(&self) {
        let mut p = lock(&self.pending);
        *p -= 1;
        if *p == 0 {
            self.idle.notify_all();
        }
    }

    /// Blocks until no request is in progress.
    pub(crate) fn wait_idle(&self) {
        let mut p = lock(&self.pending);
        while *p > 0 {
            p = self.idle.wait(p).unwrap_or_else(|e| e.into_inner());
        }
    }

    pub(crate) fn take_newer(&self) -> bool {
        self.newer.swap(false, Ordering::SeqCst)
    }

    pub(crate) fn pending(&self) -> usize {
        *lock(&self.pending)
    }

    /// The registered communicator the application calls `c`.
    pub(crate) fn comm(&self, c: Comm) -> Result<CommInfo> {
        self.comms
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .find(|i| i.user == c)
            .copied()
            .ok_or_else(|| {
                Error::invalid(format!(
                    "communicator {:#x} is not registered with StarPU-MPI (starpu_mpi_comm_register)",
                    c.raw().0 as usize
                ))
            })
    }
}

thread_local! {
    static ON_PROGRESSION_THREAD: Cell<bool> = const { Cell::new(false) };
}

/// Refuses a blocking call from the progression thread (a communication callback): it
/// would wait for the very thread it blocks.
pub(crate) fn check_not_progression_thread(what: &str) -> Result<()> {
    if ON_PROGRESSION_THREAD.with(Cell::get) {
        return Err(Error::deadlock(format!(
            "{what} from a communication callback would never end: callbacks run on the \
             progression thread, which makes the communications progress"
        )));
    }
    Ok(())
}

/// How StarPU-MPI starts (by default it starts MPI too, on `MPI_COMM_WORLD`).
#[derive(Clone, Copy, Debug)]
pub struct StartOptions {
    /// Call `MPI_Init_thread` (and `MPI_Finalize` at shutdown); otherwise the application
    /// initialised MPI, with `MPI_THREAD_SERIALIZED` or better.
    pub initialize_mpi: bool,
    /// The communicator StarPU-MPI works on first (`MPI_COMM_WORLD` is registered too).
    pub comm: Option<Comm>,
}

impl Default for StartOptions {
    fn default() -> Self {
        StartOptions {
            initialize_mpi: true,
            comm: None,
        }
    }
}

/// The result of starting: the communicators registered, world first.
pub(crate) struct Started {
    pub world: CommInfo,
}

/// Starts the progression thread; returns once MPI is ready (or could not be).
pub(crate) fn spawn(
    shared: Arc<Shared>,
    rt: Arc<Runtime>,
    opts: StartOptions,
) -> Result<(std::thread::JoinHandle<()>, Started)> {
    let (tx, rx) = mpsc::channel();
    let thread = std::thread::Builder::new()
        .name("starpu-mpi".into())
        .spawn(move || {
            ON_PROGRESSION_THREAD.with(|c| c.set(true));
            precise_naps();
            match Engine::start(shared, rt, opts) {
                Ok((mut engine, started)) => {
                    let _ = tx.send(Ok(started));
                    engine.run();
                }
                Err(e) => {
                    let _ = tx.send(Err(e));
                }
            }
        })
        .map_err(|e| Error::invalid(format!("cannot start the MPI progression thread: {e}")))?;
    match rx.recv() {
        Ok(Ok(started)) => Ok((thread, started)),
        Ok(Err(e)) => {
            let _ = thread.join();
            Err(e)
        }
        Err(_) => {
            let _ = thread.join();
            Err(Error::invalid(
                "the MPI progression thread ended while starting",
            ))
        }
    }
}

/// A receive the application posted.
struct Recv {
    op: Arc<Op>,
    granted: bool,
    arrival: Option<u64>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum ArrState {
    /// Envelope only (a synchronous send not matched yet, or data not asked for yet).
    Waiting,
    Receiving {
        in_place: bool,
    },
    Received {
        in_place: bool,
    },
}

/// An envelope that arrived, and its data.
struct Arrival {
    comm: usize,
    src: i32,
    env: Envelope,
    buf: Vec<u8>,
    state: ArrState,
    recv: Option<u64>,
}

/// An MPI request in flight and what its completion means.
enum InFlight {
    EnvelopeIn {
        comm: usize,
        env: Box<Envelope>,
    },
    EnvelopeOut(#[allow(dead_code)] Box<Envelope>),
    SendData {
        op: Arc<Op>,
        size: usize,
        _packed: Option<Vec<u8>>,
    },
    ArrivalData(u64),
    Barrier(Arc<Op>),
}

pub(crate) struct Engine {
    shared: Arc<Shared>,
    rt: Arc<Runtime>,
    reqs: Vec<ffi::MPI_Request>,
    what: Vec<InFlight>,
    matcher: Matcher<u64, u64>,
    recvs: HashMap<u64, Recv>,
    arrivals: HashMap<u64, Arrival>,
    next_arrival: u64,
    tags: HashMap<(usize, i32), DataTags>,
    tag_ub: u32,
    /// Room for `MPI_Testsome`'s answers, kept from one poll to the next.
    indices: Vec<i32>,
    statuses: Vec<ffi::MPI_Status>,
    /// Our MPI, finalised when dropped (None when the application initialised MPI).
    universe: Option<mpi::environment::Universe>,
    stopping: bool,
}

fn byte() -> ffi::MPI_Datatype {
    // SAFETY: reads a constant handle of the MPI library.
    unsafe { ffi::RSMPI_UINT8_T }
}

impl Engine {
    fn start(
        shared: Arc<Shared>,
        rt: Arc<Runtime>,
        opts: StartOptions,
    ) -> Result<(Engine, Started)> {
        use mpi::environment::{self as env, Threading};
        let serialized = |t: Threading| matches!(t, Threading::Serialized | Threading::Multiple);
        let universe = if opts.initialize_mpi && !env::is_initialized() {
            let (u, provided) = mpi::initialize_with_threading(Threading::Serialized)
                .ok_or_else(|| Error::invalid("MPI_Init_thread failed"))?;
            if !serialized(provided) {
                return Err(Error::unsupported(format!(
                    "this MPI gives thread level {provided:?}: StarPU-MPI needs \
                     MPI_THREAD_SERIALIZED or better"
                )));
            }
            Some(u)
        } else {
            if !env::is_initialized() {
                return Err(Error::invalid(
                    "MPI is not initialised: call MPI_Init_thread with MPI_THREAD_SERIALIZED \
                     first, or ask StarPU-MPI to initialise it",
                ));
            }
            let provided = env::threading_support();
            if !serialized(provided) {
                return Err(Error::unsupported(format!(
                    "MPI was initialised with thread level {provided:?}: StarPU-MPI makes its \
                     MPI calls from its own thread and needs MPI_THREAD_SERIALIZED or better \
                     (MPI_Init_thread)"
                )));
            }
            None
        };
        let mut e = Engine {
            shared,
            rt,
            reqs: Vec::new(),
            what: Vec::new(),
            matcher: Matcher::new(comm::any_source()),
            recvs: HashMap::new(),
            arrivals: HashMap::new(),
            next_arrival: 0,
            tags: HashMap::new(),
            tag_ub: 32767,
            indices: Vec::new(),
            statuses: Vec::new(),
            universe,
            stopping: false,
        };
        let world = e.register(Comm::world())?;
        e.tag_ub = tag_upper_bound(world.private);
        if let Some(c) = opts.comm.filter(|&c| c != Comm::world()) {
            e.register(c)?;
        }
        Ok((e, Started { world }))
    }

    /// Registers communicator `user`: a private duplicate with its envelope receive
    /// posted. Collective over `user`, like any communicator creation.
    pub(crate) fn register(&mut self, user: Comm) -> Result<CommInfo> {
        if let Ok(info) = self.shared.comm(user) {
            return Ok(info);
        }
        let mut private = ffi::MPI_Comm(std::ptr::null_mut());
        let (mut rank, mut size) = (0, 0);
        // SAFETY: MPI calls on the progression thread with valid out-pointers.
        unsafe {
            check("MPI_Comm_dup", ffi::MPI_Comm_dup(user.raw(), &mut private))?;
            check(
                "MPI_Comm_set_errhandler",
                ffi::MPI_Comm_set_errhandler(private, ffi::RSMPI_ERRORS_RETURN),
            )?;
            check("MPI_Comm_rank", ffi::MPI_Comm_rank(private, &mut rank))?;
            check("MPI_Comm_size", ffi::MPI_Comm_size(private, &mut size))?;
        }
        let info = {
            let mut comms = self.shared.comms.write().unwrap_or_else(|e| e.into_inner());
            let info = CommInfo {
                user,
                private: Comm::from_raw(private),
                rank,
                size,
                index: comms.len(),
            };
            comms.push(info);
            info
        };
        self.post_envelope_recv(info.index, Box::default())?;
        Ok(info)
    }

    fn post_envelope_recv(&mut self, comm: usize, mut env: Box<Envelope>) -> Result<()> {
        let private = self.shared.comms.read().unwrap_or_else(|e| e.into_inner())[comm].private;
        let req = self.irecv(
            &mut *env as *mut Envelope as usize,
            Envelope::BYTES,
            comm::any_source(),
            ENVELOPE_TAG,
            private,
        )?;
        self.track(req, InFlight::EnvelopeIn { comm, env });
        Ok(())
    }

    fn irecv(
        &self,
        ptr: usize,
        len: usize,
        src: i32,
        tag: i32,
        c: Comm,
    ) -> Result<ffi::MPI_Request> {
        let mut req = ffi::MPI_Request(std::ptr::null_mut());
        // SAFETY: the buffer stays alive and untouched until the request completes (owned
        // by the in-flight entry, or data held for writing).
        check("MPI_Irecv", unsafe {
            ffi::MPI_Irecv(
                ptr as *mut _,
                len as i32,
                byte(),
                src,
                tag,
                c.raw(),
                &mut req,
            )
        })?;
        Ok(req)
    }

    fn isend(
        &self,
        ptr: usize,
        len: usize,
        dest: i32,
        tag: i32,
        c: Comm,
        sync: bool,
    ) -> Result<ffi::MPI_Request> {
        let mut req = ffi::MPI_Request(std::ptr::null_mut());
        let f = if sync {
            ffi::MPI_Issend
        } else {
            ffi::MPI_Isend
        };
        // SAFETY: as for irecv; the buffer is held for reading until completion.
        check("MPI_Isend", unsafe {
            f(
                ptr as *const _,
                len as i32,
                byte(),
                dest,
                tag,
                c.raw(),
                &mut req,
            )
        })?;
        Ok(req)
    }

    fn track(&mut self, req: ffi::MPI_Request, what: InFlight) {
        self.reqs.push(req);
        self.what.push(what);
    }

    fn run(&mut self) {
        let mut idle_since: Option<Instant> = None;
        const FIRST_NAP: Duration = Duration::from_micros(5);
        let mut nap = FIRST_NAP;
        let (spin, max_nap) = polling_times();
        loop {
            let mut progressed = self.drain();
            progressed |= self.poll();
            if self.stopping && self.quiescent() {
                break;
            }
            if progressed {
                idle_since = None;
                nap = FIRST_NAP;
                continue;
            }
            let since = *idle_since.get_or_insert_with(Instant::now);
            if since.elapsed() < spin {
                // Polling on, but letting the threads that share the core (the application's,
                // the workers) run: with more processes than cores they must, for progress.
                std::thread::yield_now();
                continue;
            }
            let alone = self.alone() && self.quiescent();
            let q = lock(&self.shared.queue);
            if q.is_empty() {
                if alone {
                    // No other process: nothing can arrive that this process did not queue
                    // first (which wakes this thread), so it sleeps instead of polling MPI
                    // ten thousand times a second for nothing (measured: 14% of a core).
                    drop(self.shared.wake.wait(q));
                } else {
                    let _ = self.shared.wake.wait_timeout(q, nap);
                    nap = (nap * 2).min(max_nap);
                }
            }
        }
        self.close();
    }

    /// Every communicator in use has this process alone in it.
    fn alone(&self) -> bool {
        let comms = self.shared.comms.read().unwrap_or_else(|e| e.into_inner());
        comms.iter().all(|c| c.size == 1)
    }

    /// Only the envelope receives are left.
    fn quiescent(&self) -> bool {
        self.recvs.is_empty()
            && self
                .what
                .iter()
                .all(|w| matches!(w, InFlight::EnvelopeIn { .. }))
    }

    fn drain(&mut self) -> bool {
        let cmds = std::mem::take(&mut *lock(&self.shared.queue));
        let any = !cmds.is_empty();
        for c in cmds {
            match c {
                Cmd::Send(op) => self.send(op),
                Cmd::Recv(op) => self.post_recv(op),
                Cmd::Granted(op) => {
                    if let Some(r) = self.recvs.get_mut(&op.id) {
                        r.granted = true;
                        if let Some(a) = r.arrival {
                            self.step(a);
                        }
                    }
                }
                Cmd::Withdraw(op) => self.withdraw(&op),
                Cmd::Barrier(op) => self.barrier(op),
                Cmd::Run(f) => f(self),
                Cmd::Stop => self.stopping = true,
            }
        }
        any
    }

    fn finish(&self, op: &Op, outcome: Result<Status>) {
        op.finish(&self.rt, outcome);
        self.shared.end();
    }

    fn send(&mut self, op: Arc<Op>) {
        if let Err(e) = self.try_send(&op) {
            self.finish(&op, Err(transfer_error(&op, &e.message)));
        }
    }

    fn try_send(&mut self, op: &Arc<Op>) -> Result<()> {
        let Kind::Send { dest, sync } = op.kind else {
            unreachable!("sends only")
        };
        let out = self.shared.codecs.outgoing(op.handle())?;
        let (ptr, len) = out.ptr_len();
        if len > i32::MAX as usize {
            return Err(Error::unsupported(format!(
                "{len} bytes: messages above 2 GiB are not supported"
            )));
        }
        let c = op.comm;
        let data_tag = self
            .tags
            .entry((c.index, dest))
            .or_default()
            .next(self.tag_ub);
        let env = Box::new(Envelope {
            tag: op.tag,
            size: len as u64,
            data_tag,
            flags: if sync { crate::envelope::SYNC } else { 0 },
        });
        let at = &*env as *const Envelope as usize;
        let r = self.isend(at, Envelope::BYTES, dest, ENVELOPE_TAG, c.private, false)?;
        self.track(r, InFlight::EnvelopeOut(env));
        let r = self.isend(ptr, len, dest, data_tag, c.private, sync)?;
        self.shared.stats.sent(dest, len);
        let packed = match out {
            crate::wire::Outgoing::Packed(v) => Some(v),
            crate::wire::Outgoing::InPlace { .. } => None,
        };
        self.track(
            r,
            InFlight::SendData {
                op: op.clone(),
                size: len,
                _packed: packed,
            },
        );
        Ok(())
    }

    fn post_recv(&mut self, op: Arc<Op>) {
        let Kind::Recv { source } = op.kind else {
            unreachable!("receives only")
        };
        let key = (op.comm.index, source, op.tag);
        let id = op.id;
        self.recvs.insert(
            id,
            Recv {
                op,
                granted: false,
                arrival: None,
            },
        );
        if let Some(a) = self.matcher.post(key, id) {
            self.link(id, a);
            self.step(a);
        }
    }

    fn withdraw(&mut self, op: &Op) {
        self.matcher.withdraw(|id| *id != op.id);
        if let Some(Recv {
            arrival: Some(a), ..
        }) = self.recvs.remove(&op.id)
        {
            // Already matched: the arrival goes back, for the next receive.
            let arr = self.arrivals.get_mut(&a).expect("linked arrivals exist");
            arr.recv = None;
            let key = (arr.comm, arr.src, arr.env.tag);
            if let Some(r) = self.matcher.arrive(key, a) {
                self.link(r, a);
                self.step(a);
            }
        }
    }

    fn link(&mut self, recv: u64, arrival: u64) {
        if let Some(r) = self.recvs.get_mut(&recv) {
            r.arrival = Some(arrival);
        }
        if let Some(a) = self.arrivals.get_mut(&arrival) {
            a.recv = Some(recv);
        }
    }

    fn on_envelope(&mut self, comm: usize, src: i32, env: Envelope) {
        let id = self.next_arrival;
        self.next_arrival += 1;
        self.arrivals.insert(
            id,
            Arrival {
                comm,
                src,
                env,
                buf: Vec::new(),
                state: ArrState::Waiting,
                recv: None,
            },
        );
        if let Some(r) = self.matcher.arrive((comm, src, env.tag), id) {
            self.link(r, id);
        }
        self.step(id);
    }

    /// Moves arrival `id` forward as far as it can go now.
    fn step(&mut self, id: u64) {
        let Some(a) = self.arrivals.get(&id) else {
            return;
        };
        let (state, size, comm, src, data_tag, sync) = (
            a.state,
            a.env.size as usize,
            a.comm,
            a.src,
            a.env.data_tag,
            a.env.is_sync(),
        );
        let recv = a.recv.and_then(|r| self.recvs.get(&r));
        let (matched, granted) = (recv.is_some(), recv.is_some_and(|r| r.granted));
        match state {
            ArrState::Waiting => {
                let private =
                    self.shared.comms.read().unwrap_or_else(|e| e.into_inner())[comm].private;
                let in_place = recv
                    .filter(|r| r.granted)
                    .and_then(|r| self.shared.codecs.in_place(r.op.handle(), size));
                let posted = match in_place {
                    Some(ptr) => self
                        .irecv(ptr, size, src, data_tag, private)
                        .map(|r| (r, true)),
                    None if matched || !sync => {
                        let a = self.arrivals.get_mut(&id).expect("looked up above");
                        a.buf = vec![0u8; size];
                        let ptr = a.buf.as_mut_ptr() as usize;
                        self.irecv(ptr, size, src, data_tag, private)
                            .map(|r| (r, false))
                    }
                    None => return,
                };
                match posted {
                    Ok((req, in_place)) => {
                        self.arrivals.get_mut(&id).expect("looked up above").state =
                            ArrState::Receiving { in_place };
                        self.track(req, InFlight::ArrivalData(id));
                    }
                    Err(e) => self.fail_arrival(id, e),
                }
            }
            ArrState::Receiving { .. } => {}
            ArrState::Received { in_place } => {
                if !matched || !(in_place || granted) {
                    return;
                }
                let a = self.arrivals.remove(&id).expect("looked up above");
                let r = self
                    .recvs
                    .remove(&a.recv.expect("matched"))
                    .expect("linked");
                let status = Status {
                    source: a.src,
                    tag: a.env.tag,
                    size: a.env.size as usize,
                };
                let outcome = if in_place {
                    Ok(status)
                } else {
                    self.shared
                        .codecs
                        .deliver(r.op.handle(), &a.buf)
                        .map(|()| status)
                        .map_err(|e| transfer_error(&r.op, &e.message))
                };
                self.finish(&r.op, outcome);
            }
        }
    }

    /// The data of an arrival cannot be received: its receive (if any) fails.
    fn fail_arrival(&mut self, id: u64, e: Error) {
        let Some(a) = self.arrivals.remove(&id) else {
            return;
        };
        match a.recv.and_then(|r| self.recvs.remove(&r)) {
            Some(r) => self.finish(&r.op, Err(transfer_error(&r.op, &e.message))),
            None => eprintln!(
                "[starpu][starpu_mpi] rank {}: data from rank {} (tag {}) lost: {e}",
                self.rank_of(a.comm),
                a.src,
                a.env.tag
            ),
        }
    }

    fn rank_of(&self, comm: usize) -> i32 {
        self.shared.comms.read().unwrap_or_else(|e| e.into_inner())[comm].rank
    }

    fn barrier(&mut self, op: Arc<Op>) {
        let mut req = ffi::MPI_Request(std::ptr::null_mut());
        // SAFETY: MPI call on the progression thread.
        let r = check("MPI_Ibarrier", unsafe {
            ffi::MPI_Ibarrier(op.comm.private.raw(), &mut req)
        });
        match r {
            Ok(()) => self.track(req, InFlight::Barrier(op)),
            Err(e) => self.finish(&op, Err(e)),
        }
    }

    /// Tests the requests in flight; handles those that completed.
    fn poll(&mut self) -> bool {
        if self.reqs.is_empty() {
            return false;
        }
        let n = self.reqs.len();
        let mut count = 0;
        if self.indices.len() < n {
            self.indices.resize(n, 0);
            // SAFETY: MPI_Status is plain data.
            self.statuses.resize(n, unsafe { std::mem::zeroed() });
        }
        let (idx, st) = (&mut self.indices, &mut self.statuses);
        // SAFETY: arrays of at least n entries; MPI call on the progression thread.
        let code = unsafe {
            ffi::MPI_Testsome(
                n as i32,
                self.reqs.as_mut_ptr(),
                &mut count,
                idx.as_mut_ptr(),
                st.as_mut_ptr(),
            )
        };
        if count <= 0 || count as usize > n {
            if code != 0 {
                let _ =
                    check("MPI_Testsome", code).map_err(|e| eprintln!("[starpu][starpu_mpi] {e}"));
            }
            return false;
        }
        let mut done: Vec<(usize, ffi::MPI_Status)> = (0..count as usize)
            .map(|i| (idx[i] as usize, st[i]))
            .collect();
        done.sort_by_key(|d| std::cmp::Reverse(d.0));
        let mut completed = Vec::with_capacity(done.len());
        for (i, s) in done {
            self.reqs.swap_remove(i);
            let error = if code != 0 { s.MPI_ERROR } else { 0 };
            completed.push((self.what.swap_remove(i), s.MPI_SOURCE, error));
        }
        for (what, source, error) in completed.into_iter().rev() {
            self.completed(what, source, error);
        }
        true
    }

    fn completed(&mut self, what: InFlight, source: i32, error: i32) {
        let result = check("an MPI transfer", error);
        match what {
            InFlight::EnvelopeIn { comm, env } => {
                let value = *env;
                if let Err(e) = self.post_envelope_recv(comm, env) {
                    eprintln!("[starpu][starpu_mpi] cannot receive envelopes any more: {e}");
                }
                match result {
                    Ok(()) => self.on_envelope(comm, source, value),
                    Err(e) => eprintln!("[starpu][starpu_mpi] envelope lost: {e}"),
                }
            }
            InFlight::EnvelopeOut(_) => {
                if let Err(e) = result {
                    eprintln!("[starpu][starpu_mpi] envelope not sent: {e}");
                }
            }
            InFlight::SendData { op, size, .. } => {
                let Kind::Send { dest, .. } = op.kind else {
                    unreachable!()
                };
                let outcome = result
                    .map(|()| Status {
                        source: dest,
                        tag: op.tag,
                        size,
                    })
                    .map_err(|e| transfer_error(&op, &e.message));
                self.finish(&op, outcome);
            }
            InFlight::ArrivalData(id) => match result {
                Ok(()) => {
                    if let Some(a) = self.arrivals.get_mut(&id) {
                        if let ArrState::Receiving { in_place } = a.state {
                            a.state = ArrState::Received { in_place };
                        }
                    }
                    self.step(id);
                }
                Err(e) => self.fail_arrival(id, e),
            },
            InFlight::Barrier(op) => {
                let outcome = result.map(|()| Status::default());
                self.finish(&op, outcome);
            }
        }
    }

    /// The end: receives that can no longer match fail, what is left in flight is
    /// cancelled, our communicators are freed, and MPI is finalised if we started it.
    fn close(&mut self) {
        for (_, r) in std::mem::take(&mut self.recvs) {
            let e = transfer_error(&r.op, "StarPU-MPI shut down before the message arrived");
            self.finish(&r.op, Err(e));
        }
        let unreceived = self.matcher.arrived().count();
        if unreceived > 0 {
            eprintln!(
                "[starpu][starpu_mpi] {unreceived} message(s) sent to this process were never received"
            );
        }
        for req in &mut self.reqs {
            // SAFETY: MPI calls on the progression thread; every request is live.
            unsafe {
                ffi::MPI_Cancel(req);
                ffi::MPI_Wait(req, ffi::RSMPI_STATUS_IGNORE);
            }
        }
        self.reqs.clear();
        self.what.clear();
        let comms =
            std::mem::take(&mut *self.shared.comms.write().unwrap_or_else(|e| e.into_inner()));
        for c in comms {
            let mut raw = c.private.raw();
            // SAFETY: our own duplicate, with nothing in flight any more.
            unsafe { ffi::MPI_Comm_free(&mut raw) };
        }
        drop(self.universe.take());
    }
}

/// The tag upper bound of a communicator (MPI guarantees at least 32767).
fn tag_upper_bound(c: Comm) -> u32 {
    let mut value: *mut i32 = std::ptr::null_mut();
    let mut flag = 0;
    // SAFETY: MPI call on the progression thread; the attribute is an int MPI owns.
    unsafe {
        ffi::MPI_Comm_get_attr(
            c.raw(),
            ffi::MPI_TAG_UB as i32,
            &mut value as *mut *mut i32 as *mut _,
            &mut flag,
        );
        if flag != 0 && !value.is_null() && *value > 0 {
            return *value as u32;
        }
    }
    32767
}

/// Makes this thread's timed sleeps as short as asked: Linux rounds them up by the timer
/// slack (50 microseconds by default), too coarse for naps between polls.
fn precise_naps() {
    #[cfg(target_os = "linux")]
    // SAFETY: changes only the calling thread's timer slack.
    unsafe {
        libc::prctl(libc::PR_SET_TIMERSLACK, 1, 0, 0, 0);
    }
}

/// How long the progression thread keeps polling once idle before it naps
/// (`STARPU_MPI_POLLING_SPIN_US`, 300 microseconds by default: a peer answering within a
/// round trip is seen at once, and a large message keeps MPI's progress going; measured on
/// ping-pongs, 20 doubled the latency and 100 halved the bandwidth of 1 MiB messages),
/// and its longest nap
/// between polls while communications are in flight (`STARPU_MPI_POLLING_NAP_US`, 100):
/// the worst added latency of a message that arrives while it naps.
fn polling_times() -> (Duration, Duration) {
    let us = |name, default| {
        let v = crate::context::env_number(name).filter(|&v| v >= 0);
        Duration::from_micros(v.map_or(default, |v| v as u64))
    };
    (
        us("STARPU_MPI_POLLING_SPIN_US", 300),
        us("STARPU_MPI_POLLING_NAP_US", 100),
    )
}
