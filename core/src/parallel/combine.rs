//! Which combined workers a runtime starts with, as StarPU builds them: one per object of
//! the machine's hierarchy (package, NUMA node, shared cache, the machine) holding several
//! workers, from hwloc; without hwloc, or with workers that are not bound to cores,
//! contiguous groups of 2, 4, 8... workers (and all of them).

use crate::env::env_int;
use crate::error::{Error, Result};
use crate::topology::Topology;
use crate::worker::Worker;

/// Limits on the combined workers built at start (`STARPU_MIN_WORKERSIZE`,
/// `STARPU_MAX_WORKERSIZE`, `STARPU_SYNTHESIZE_ARITY_COMBINED_WORKER`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CombineSettings {
    /// Smallest combined worker (at least 2; default 2).
    pub min_size: Option<usize>,
    /// Largest combined worker (default: every CPU worker).
    pub max_size: Option<usize>,
    /// Most sub-groups a topology group is split into before intermediate sizes are
    /// synthesized (StarPU's default 2).
    pub arity: Option<usize>,
}

impl CombineSettings {
    /// Reads the environment variables.
    pub fn from_env() -> Result<CombineSettings> {
        let size = |name: &str| -> Result<Option<usize>> {
            match env_int(name)? {
                None => Ok(None),
                Some(v) if v >= 1 => Ok(Some(v as usize)),
                Some(v) => Err(Error::invalid(format!("{name}={v}: expected at least 1"))),
            }
        };
        Ok(CombineSettings {
            min_size: size("STARPU_MIN_WORKERSIZE")?,
            max_size: size("STARPU_MAX_WORKERSIZE")?,
            arity: size("STARPU_SYNTHESIZE_ARITY_COMBINED_WORKER")?,
        })
    }
}

/// The member lists of the combined workers for `workers` (all CPU workers here).
pub(crate) fn combinations(
    workers: &[Worker],
    topology: &Topology,
    settings: &CombineSettings,
) -> Vec<Vec<usize>> {
    let n = workers.len();
    let min = settings.min_size.unwrap_or(2).max(2);
    let max = settings.max_size.unwrap_or(n).min(n);
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut add = |g: Vec<usize>| {
        if g.len() >= min && g.len() <= max && !groups.contains(&g) {
            groups.push(g);
        }
    };
    let bound = workers.iter().all(|w| w.cpu.is_some());
    let topo_groups = if bound {
        topology.core_groups()
    } else {
        Vec::new()
    };
    if topo_groups.is_empty() {
        contiguous(n, min, max).into_iter().for_each(&mut add);
    } else {
        let arity = settings.arity.unwrap_or(2).max(2);
        for cores in topo_groups {
            let members: Vec<usize> = workers
                .iter()
                .filter(|w| {
                    w.cpu
                        .is_some_and(|cpu| cores.iter().any(|&c| topology.core_cpus[c] == cpu))
                })
                .map(|w| w.id)
                .collect();
            // A wide group (many cores, no hierarchy below) also gets intermediate
            // groups: contiguous runs of arity, arity^2... of its members.
            let mut size = arity;
            while size < members.len() {
                for chunk in members.chunks(size).filter(|c| c.len() == size) {
                    add(chunk.to_vec());
                }
                size *= arity;
            }
            add(members);
        }
    }
    groups.sort_by_key(|g| (g.len(), g[0]));
    groups
}

/// Groups of `min`, `2 min`, `4 min`... contiguous workers out of `n`, then all `n`.
fn contiguous(n: usize, min: usize, max: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut size = min;
    while size <= max {
        for first in (0..n).step_by(size) {
            if first + size <= n {
                out.push((first..first + size).collect());
            }
        }
        size *= 2;
    }
    if n >= min && n <= max {
        out.push((0..n).collect());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contiguous_groups_double_in_size() {
        assert_eq!(
            contiguous(4, 2, 4),
            vec![vec![0, 1], vec![2, 3], vec![0, 1, 2, 3], vec![0, 1, 2, 3]]
        );
        assert_eq!(contiguous(3, 2, 3), vec![vec![0, 1], vec![0, 1, 2]]);
        assert!(contiguous(1, 2, 1).is_empty());
    }

    #[test]
    fn unbound_workers_are_grouped_by_position() {
        let workers: Vec<Worker> = (0..5).map(|i| Worker::new(i, None)).collect();
        let t = Topology::detect();
        let all = combinations(&workers, &t, &CombineSettings::default());
        assert_eq!(
            all,
            vec![
                vec![0, 1],
                vec![2, 3],
                vec![0, 1, 2, 3],
                vec![0, 1, 2, 3, 4]
            ]
        );
        let limited = CombineSettings {
            min_size: Some(4),
            max_size: Some(4),
            arity: None,
        };
        assert_eq!(combinations(&workers, &t, &limited), vec![vec![0, 1, 2, 3]]);
    }

    #[test]
    fn bound_workers_follow_the_topology() {
        let t = Topology::detect();
        let workers: Vec<Worker> = t
            .core_cpus
            .iter()
            .enumerate()
            .map(|(i, &c)| Worker::new(i, Some(c)))
            .collect();
        let groups = combinations(&workers, &t, &CombineSettings::default());
        // Every group has at least two distinct workers, and with several cores the
        // machine itself is one of them.
        for g in &groups {
            assert!(g.len() >= 2);
        }
        if workers.len() >= 2 {
            assert!(groups.contains(&(0..workers.len()).collect::<Vec<_>>()));
        } else {
            assert!(groups.is_empty());
        }
    }
}
