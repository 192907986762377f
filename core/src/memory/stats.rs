//! Bytes and transfers per bus (an ordered pair of distinct nodes), for StarPU's bus
//! profiling calls and the `STARPU_BUS_STATS` summary.

use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Default)]
struct Bus {
    bytes: AtomicU64,
    count: AtomicU64,
    /// Microseconds spent transferring (from start to observed end).
    micros: AtomicU64,
}

/// What went over one bus.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BusInfo {
    pub src: usize,
    pub dst: usize,
    pub bytes: u64,
    pub count: u64,
    pub micros: u64,
}

pub struct BusStats {
    nnodes: usize,
    /// Indexed `src * nnodes + dst`.
    buses: Vec<Bus>,
}

impl BusStats {
    pub(super) fn new(nnodes: usize) -> BusStats {
        BusStats {
            nnodes,
            buses: (0..nnodes * nnodes).map(|_| Bus::default()).collect(),
        }
    }

    fn bus(&self, src: usize, dst: usize) -> Option<&Bus> {
        (src != dst && src < self.nnodes && dst < self.nnodes)
            .then(|| &self.buses[src * self.nnodes + dst])
    }

    /// A transfer of `bytes` started from `src` to `dst`.
    pub(super) fn record(&self, src: usize, dst: usize, bytes: usize) {
        if let Some(b) = self.bus(src, dst) {
            b.bytes.fetch_add(bytes as u64, Ordering::Relaxed);
            b.count.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// A transfer from `src` to `dst` took `micros`.
    pub fn add_time(&self, src: usize, dst: usize, micros: f64) {
        if let Some(b) = self.bus(src, dst) {
            b.micros.fetch_add(micros as u64, Ordering::Relaxed);
        }
    }

    /// The buses, in StarPU's numbering: every ordered pair of distinct nodes, by source
    /// then destination (`starpu_bus_get_id`, `_get_src`, `_get_dst`).
    pub fn buses(&self) -> Vec<(usize, usize)> {
        (0..self.nnodes)
            .flat_map(|s| {
                (0..self.nnodes)
                    .filter(move |&d| d != s)
                    .map(move |d| (s, d))
            })
            .collect()
    }

    pub fn info(&self, src: usize, dst: usize) -> Option<BusInfo> {
        self.bus(src, dst).map(|b| BusInfo {
            src,
            dst,
            bytes: b.bytes.load(Ordering::Relaxed),
            count: b.count.load(Ordering::Relaxed),
            micros: b.micros.load(Ordering::Relaxed),
        })
    }

    /// Starts counting again (`starpu_bus_profiling_helper`... and profiling resets).
    pub fn reset(&self) {
        for b in &self.buses {
            b.bytes.store(0, Ordering::Relaxed);
            b.count.store(0, Ordering::Relaxed);
            b.micros.store(0, Ordering::Relaxed);
        }
    }

    /// StarPU's summary (`starpu_profiling_bus_helper_display_summary`), with `name`
    /// naming each node.
    pub fn summary(&self, name: impl Fn(usize) -> String) -> String {
        let gb = |b: u64| b as f64 / (1024.0 * 1024.0 * 1024.0);
        let mut s = String::from("\n#---------------------\nData transfer stats:\n");
        let mut total = 0;
        for (src, dst) in self.buses() {
            let i = self.info(src, dst).unwrap_or_default();
            let d = gb(i.bytes);
            let secs = i.micros as f64 / 1e6;
            s += &format!(
                "\t{} -> {}\t{d:.4} GB\t{:.4} MB/s\t(transfers : {} - avg {:.4} MB)\n",
                name(src),
                name(dst),
                d * 1024.0 / secs,
                i.count,
                d * 1024.0 / i.count as f64
            );
            total += i.bytes;
        }
        s += &format!(
            "Total transfers: {:.4} GB\n#---------------------\n",
            gb(total)
        );
        s
    }
}
