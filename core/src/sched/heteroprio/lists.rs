//! Heteroprio's lists: for each architecture, its priority levels in order, each naming a
//! bucket; for each bucket, the architectures whose lists name it, the fastest
//! architecture and the others' slow factors. The application sets them from its init
//! hook; auto-calibration rewrites them as it learns.

use super::{MAX_PRIO, NARCH};

/// What a bucket is to the architectures (its tasks live elsewhere).
#[derive(Clone)]
pub struct BucketInfo {
    /// Architectures whose lists name this bucket (bit = StarPU's archtype number).
    pub valid_archs: u32,
    /// The architecture that runs this bucket's tasks fastest, if known.
    pub faster_arch: Option<usize>,
    pub slow_factors: [f32; NARCH],
}

pub struct Lists {
    pub nb_prios: [usize; NARCH],
    pub mapping: [[usize; MAX_PRIO]; NARCH],
    pub buckets: Vec<BucketInfo>,
}

impl Lists {
    /// No level anywhere, level p mapped to bucket p (StarPU's zeroed data).
    pub fn empty() -> Self {
        let mut l = Lists {
            nb_prios: [0; NARCH],
            mapping: [[0; MAX_PRIO]; NARCH],
            buckets: vec![
                BucketInfo {
                    valid_archs: 0,
                    faster_arch: None,
                    slow_factors: [0.0; NARCH],
                };
                MAX_PRIO
            ],
        };
        l.clear_mapping();
        l
    }

    /// Every architecture with workers gets one level per bucket, level p = bucket p
    /// (StarPU's `default_init_sched` over heteroprio's priority range).
    pub fn direct(nworkers_per_arch: &[usize; NARCH]) -> Self {
        let mut l = Lists::empty();
        for (arch, &n) in nworkers_per_arch.iter().enumerate() {
            if n > 0 {
                l.nb_prios[arch] = MAX_PRIO;
                for p in 0..MAX_PRIO {
                    l.set_mapping(arch, p, p);
                }
            }
        }
        l
    }

    /// Level p of every architecture names bucket p, and no bucket is named
    /// (`starpu_heteroprio_clear_mapping_hp`); the number of levels is kept.
    pub fn clear_mapping(&mut self) {
        for arch in 0..NARCH {
            for p in 0..MAX_PRIO {
                self.mapping[arch][p] = p;
            }
        }
        for b in &mut self.buckets {
            b.valid_archs = 0;
        }
    }

    pub fn set_mapping(&mut self, arch: usize, level: usize, bucket: usize) {
        self.mapping[arch][level] = bucket;
        self.buckets[bucket].valid_archs |= 1 << arch;
    }

    pub fn set_faster_arch(&mut self, arch: usize, bucket: usize) {
        let b = &mut self.buckets[bucket];
        b.faster_arch = Some(arch);
        b.slow_factors[arch] = 0.0;
    }

    /// Whether `arch`'s list names `bucket` (StarPU's `arch_can_execute_prio`).
    pub fn names(&self, arch: usize, bucket: usize) -> bool {
        self.buckets[bucket].valid_archs & (1 << arch) != 0
    }

    /// The buckets `arch` takes from, in order.
    pub fn levels(&self, arch: usize) -> &[usize] {
        &self.mapping[arch][..self.nb_prios[arch]]
    }

    /// Whether a worker of `arch` may take a task of `bucket`, which holds `ntasks`: a
    /// slower architecture waits until the bucket holds at least its slow factor in tasks
    /// per worker of the fastest one. StarPU skips the check when the fastest is the CPU
    /// (its architecture 0, also its "not set" value), and when the fastest architecture
    /// has no worker here nobody could take the tasks held back, so none are.
    pub fn takes_from(
        &self,
        bucket: usize,
        arch: usize,
        ntasks: usize,
        nworkers_per_arch: &[usize; NARCH],
    ) -> bool {
        let b = &self.buckets[bucket];
        match b.faster_arch {
            None | Some(0) => true,
            Some(f) if f == arch || nworkers_per_arch[f] == 0 => true,
            Some(f) => ntasks as f32 / nworkers_per_arch[f] as f32 >= b.slow_factors[arch],
        }
    }
}
