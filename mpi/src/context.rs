//! StarPU-MPI's state in a process: one instance, started once over the running runtime
//! (StarPU's API is global), with its progression thread.

use crate::comm::{Comm, CommInfo};
use crate::engine::{self, Cmd, Shared, StartOptions};
use starpu_core::{Error, Result, Runtime};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex, RwLock};

pub struct Mpi {
    pub(crate) rt: Arc<Runtime>,
    pub(crate) shared: Arc<Shared>,
    thread: Mutex<Option<std::thread::JoinHandle<()>>>,
    world: CommInfo,
    pub(crate) data: crate::data::Registry,
    /// The communication cache (`STARPU_MPI_CACHE`, on by default).
    pub(crate) cache_on: AtomicBool,
    pub(crate) policies: crate::select::Policies,
    pub(crate) tag_ranges: crate::tags::TagRanges,
}

static GLOBAL: RwLock<Option<Arc<Mpi>>> = RwLock::new(None);

/// Starts StarPU-MPI over runtime `rt` (`starpu_mpi_init_comm`).
pub fn init(rt: Arc<Runtime>, opts: StartOptions) -> Result<Arc<Mpi>> {
    let mut g = GLOBAL.write().unwrap_or_else(|e| e.into_inner());
    if g.is_some() {
        return Err(Error::invalid("StarPU-MPI is already initialised"));
    }
    let shared = Arc::new(Shared::new());
    let (thread, started) = engine::spawn(shared.clone(), rt.clone(), opts)?;
    let mpi = Arc::new(Mpi {
        rt,
        shared,
        thread: Mutex::new(Some(thread)),
        world: started.world,
        data: Default::default(),
        cache_on: AtomicBool::new(env_number("STARPU_MPI_CACHE").is_none_or(|v| v != 0)),
        policies: Default::default(),
        tag_ranges: Default::default(),
    });
    if env_number("STARPU_MPI_STATS").is_some_and(|v| v != 0) {
        mpi.comm_stats_enable();
    }
    *g = Some(mpi.clone());
    Ok(mpi)
}

/// The running StarPU-MPI.
pub fn global() -> Result<Arc<Mpi>> {
    GLOBAL
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
        .ok_or_else(|| {
            Error::new(
                starpu_core::ErrorKind::NotInitialized,
                "StarPU-MPI is not initialised (starpu_mpi_init), or shut down already",
            )
        })
}

pub fn is_initialized() -> bool {
    GLOBAL.read().unwrap_or_else(|e| e.into_inner()).is_some()
}

/// Waits for every communication and task, stops the progression thread (which
/// finalises MPI if StarPU-MPI initialised it) (`starpu_mpi_shutdown`).
pub fn shutdown() -> Result<()> {
    let mpi = global()?;
    engine::check_not_progression_thread("shutting StarPU-MPI down")?;
    mpi.wait_for_all()?;
    GLOBAL.write().unwrap_or_else(|e| e.into_inner()).take();
    mpi.shared.push(Cmd::Stop);
    let thread = mpi.thread.lock().unwrap_or_else(|e| e.into_inner()).take();
    if let Some(t) = thread {
        t.join()
            .map_err(|_| Error::invalid("the MPI progression thread panicked"))?;
    }
    mpi.data.clear();
    Ok(())
}

/// An environment variable's integer value.
pub(crate) fn env_number(name: &str) -> Option<i64> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

impl Mpi {
    pub fn runtime(&self) -> &Arc<Runtime> {
        &self.rt
    }

    /// `MPI_COMM_WORLD`.
    pub fn world(&self) -> Comm {
        self.world.user
    }

    pub fn world_rank(&self) -> i32 {
        self.world.rank
    }

    pub fn world_size(&self) -> i32 {
        self.world.size
    }

    /// This process's rank in registered communicator `c`.
    pub fn comm_rank(&self, c: Comm) -> Result<i32> {
        Ok(self.info(c)?.rank)
    }

    pub fn comm_size(&self, c: Comm) -> Result<i32> {
        Ok(self.info(c)?.size)
    }

    pub(crate) fn info(&self, c: Comm) -> Result<CommInfo> {
        self.shared.comm(c)
    }

    /// Registers communicator `c` (`starpu_mpi_comm_register`): StarPU-MPI duplicates it,
    /// so every process of `c` must call this, as for any communicator creation.
    pub fn comm_register(&self, c: Comm) -> Result<()> {
        self.on_progression_thread(move |e| e.register(c).map(drop))
    }

    /// Runs `f` (which makes MPI calls) on the progression thread and waits for it.
    pub(crate) fn on_progression_thread<R: Send + 'static>(
        &self,
        f: impl FnOnce(&mut engine::Engine) -> Result<R> + Send + 'static,
    ) -> Result<R> {
        engine::check_not_progression_thread("an MPI call")?;
        let (tx, rx) = mpsc::channel();
        self.shared.push(Cmd::Run(Box::new(move |e| {
            let _ = tx.send(f(e));
        })));
        rx.recv()
            .map_err(|_| Error::invalid("the MPI progression thread is gone"))?
    }

    /// Whether the communication cache is on (`starpu_mpi_cache_is_enabled`).
    pub fn cache_enabled(&self) -> bool {
        self.cache_on.load(Ordering::Relaxed)
    }

    /// Turns the communication cache on or off (`starpu_mpi_cache_set`); turning it off
    /// forgets what it held.
    pub fn set_cache_enabled(&self, on: bool) {
        if !on {
            self.data.forget_cache();
        }
        self.cache_on.store(on, Ordering::Relaxed);
    }
}
