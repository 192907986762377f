//! What moving data between two nodes costs: a latency and a bandwidth per ordered pair
//! of nodes, measured once (see `perfmodel/bus.rs`), used to predict transfer times.

/// Latency (µs) and bandwidth (MB/s, i.e. bytes per µs) between each pair of nodes.
#[derive(Debug, Clone, PartialEq)]
pub struct BusCosts {
    n: usize,
    /// Indexed `src * n + dst`.
    bandwidth: Vec<f64>,
    latency: Vec<f64>,
}

impl BusCosts {
    /// Costs of `n` nodes from the two tables (MB/s and µs, `src * n + dst`).
    pub fn new(n: usize, bandwidth: Vec<f64>, latency: Vec<f64>) -> BusCosts {
        assert_eq!(bandwidth.len(), n * n);
        assert_eq!(latency.len(), n * n);
        BusCosts {
            n,
            bandwidth,
            latency,
        }
    }

    pub fn nnodes(&self) -> usize {
        self.n
    }

    /// MB/s from `src` to `dst` (NaN when not measured).
    pub fn bandwidth(&self, src: usize, dst: usize) -> f64 {
        self.at(&self.bandwidth, src, dst)
    }

    /// µs of latency from `src` to `dst`.
    pub fn latency(&self, src: usize, dst: usize) -> f64 {
        self.at(&self.latency, src, dst)
    }

    fn at(&self, t: &[f64], src: usize, dst: usize) -> f64 {
        if src < self.n && dst < self.n {
            t[src * self.n + dst]
        } else {
            f64::NAN
        }
    }

    /// µs to move `bytes` from `src` to `dst` (StarPU's `_starpu_predict_transfer_time`):
    /// the latency plus the bytes at the bandwidth; 0 within a node.
    pub fn predict(&self, src: usize, dst: usize, bytes: usize) -> f64 {
        if src == dst {
            return 0.0;
        }
        let (bw, lat) = (self.bandwidth(src, dst), self.latency(src, dst));
        if bw.is_nan() || bw <= 0.0 || lat.is_nan() {
            return 0.0;
        }
        lat + bytes as f64 / bw
    }
}
