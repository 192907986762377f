//! The machine's CPUs and how threads are bound to them.
//!
//! hwloc (through `hwlocality`) gives the cores and their first processing unit, and binds
//! threads, as StarPU does. The topology is discovered once, by the thread that starts the
//! runtime, and shared with the workers: building a topology reads the environment, and a
//! worker doing it while the application calls `setenv` (as `MPI_Init` does) can crash.
//! Without the `hwloc` feature the OS's CPU count and `sched_setaffinity` stand in, so the
//! core still builds where libhwloc is missing.

use crate::error::{Error, Result};

/// The logical CPUs worker threads may be bound to, one per core, in topology order, and
/// what binding a thread needs.
pub struct Topology {
    /// OS index of the first processing unit of each core.
    pub core_cpus: Vec<usize>,
    #[cfg(feature = "hwloc")]
    hw: Option<hwlocality::Topology>,
}

impl std::fmt::Debug for Topology {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Topology")
            .field("core_cpus", &self.core_cpus)
            .finish()
    }
}

/// A kind of object of the machine's hierarchy (hwloc's object types that hold CPUs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TopologyLevel {
    Machine,
    Package,
    NumaNode,
    Die,
    Group,
    L3Cache,
    L2Cache,
    L1Cache,
    Core,
    Pu,
}

impl TopologyLevel {
    /// Whether an object of this kind holds one core at most (how cores are grouped
    /// without hwloc).
    pub fn per_core(self) -> bool {
        matches!(
            self,
            TopologyLevel::Core | TopologyLevel::Pu | TopologyLevel::L1Cache
        )
    }
}

/// Without hwloc (or when it fails): one core per CPU the process may use.
fn one_per_cpu(bound: Option<&[usize]>) -> Vec<usize> {
    if let Some(cpus) = bound {
        return cpus.to_vec();
    }
    let n = std::thread::available_parallelism().map_or(1, |n| n.get());
    (0..n).collect()
}

/// The CPUs the process was given when the first runtime started (`bound_cpus` then):
/// a later binding of the application's thread (`STARPU_MAIN_THREAD_BIND`,
/// `starpu_sched_ctx_bind_current_thread_to_cpuid`) does not shrink the next runtimes.
fn process_cpus() -> Option<&'static [usize]> {
    static CPUS: std::sync::OnceLock<Option<Vec<usize>>> = std::sync::OnceLock::new();
    CPUS.get_or_init(bound_cpus).as_deref()
}

/// The CPUs this thread may run on (its affinity: `taskset`, or the launcher's binding,
/// such as `mpirun`'s one core per process), when the OS says. Workers stay within them,
/// as StarPU's do: two processes bound to different cores must not both bind their
/// workers to the machine's first core.
fn bound_cpus() -> Option<Vec<usize>> {
    #[cfg(target_os = "linux")]
    // SAFETY: a zeroed cpu_set_t filled by the kernel for the calling thread.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return None;
        }
        let cpus: Vec<usize> = (0..libc::CPU_SETSIZE as usize)
            .filter(|&c| libc::CPU_ISSET(c, &set))
            .collect();
        return (!cpus.is_empty()).then_some(cpus);
    }
    #[allow(unreachable_code)]
    None
}

impl Topology {
    pub fn detect() -> Topology {
        Topology::detect_within(process_cpus())
    }

    /// The topology, its cores limited to `bound` (the CPUs the process may use).
    fn detect_within(bound: Option<&[usize]>) -> Topology {
        #[cfg(feature = "hwloc")]
        let hw = hwlocality::Topology::new().ok();
        #[cfg(feature = "hwloc")]
        let core_cpus = hw
            .as_ref()
            .and_then(|t| detect_cores(t, bound))
            .unwrap_or_else(|| one_per_cpu(bound));
        #[cfg(not(feature = "hwloc"))]
        let core_cpus = one_per_cpu(bound);
        Topology {
            core_cpus,
            #[cfg(feature = "hwloc")]
            hw,
        }
    }

    pub fn ncores(&self) -> usize {
        self.core_cpus.len()
    }

    /// The groups of cores that share an object of the machine's hierarchy (the machine,
    /// a package, a NUMA node, a cache), as indices into `core_cpus`, each with at least two
    /// cores and each listed once, smallest first. Empty without hwloc: callers then group
    /// cores by position (what StarPU does without hwloc).
    pub fn core_groups(&self) -> Vec<Vec<usize>> {
        #[cfg(feature = "hwloc")]
        if let Some(topo) = &self.hw {
            let mut groups: Vec<Vec<usize>> = Vec::new();
            for obj in topo.objects() {
                if !obj.object_type().is_normal() {
                    continue;
                }
                let Some(set) = obj.cpuset() else { continue };
                let cores: Vec<usize> = (0..self.core_cpus.len())
                    .filter(|&i| set.is_set(self.core_cpus[i]))
                    .collect();
                if cores.len() > 1 && !groups.contains(&cores) {
                    groups.push(cores);
                }
            }
            groups.sort_by_key(|g| (g.len(), g[0]));
            return groups;
        }
        Vec::new()
    }

    /// For each object of kind `level` in the machine, in topology order, the logical
    /// CPUs (entries of `core_cpus`) it holds; objects holding none are left out. `None`
    /// without hwloc: callers then take the machine as one object (or one object per
    /// core for the core-sized levels).
    pub fn cpus_per_object(&self, level: TopologyLevel) -> Option<Vec<Vec<usize>>> {
        #[cfg(feature = "hwloc")]
        if let Some(topo) = &self.hw {
            use hwlocality::object::types::ObjectType as T;
            let kind = match level {
                TopologyLevel::Machine => T::Machine,
                TopologyLevel::Package => T::Package,
                TopologyLevel::NumaNode => T::NUMANode,
                TopologyLevel::Die => T::Die,
                TopologyLevel::Group => T::Group,
                TopologyLevel::L3Cache => T::L3Cache,
                TopologyLevel::L2Cache => T::L2Cache,
                TopologyLevel::L1Cache => T::L1Cache,
                TopologyLevel::Core => T::Core,
                TopologyLevel::Pu => T::PU,
            };
            let out: Vec<Vec<usize>> = topo
                .objects_with_type(kind)
                .filter_map(|obj| {
                    let set = obj.cpuset()?;
                    let cpus: Vec<usize> = self
                        .core_cpus
                        .iter()
                        .copied()
                        .filter(|&c| set.is_set(c))
                        .collect();
                    (!cpus.is_empty()).then_some(cpus)
                })
                .collect();
            return Some(out);
        }
        let _ = level;
        None
    }

    /// Binds the calling thread to logical CPU `cpu`.
    pub fn bind_current_thread(&self, cpu: usize) -> Result<()> {
        self.bind_current_thread_to(&[cpu])
    }

    /// Binds the calling thread to the logical CPUs `cpus` (the threads it starts
    /// inherit the set: a FORKJOIN kernel's threads spread over its combined worker).
    #[cfg(feature = "hwloc")]
    pub fn bind_current_thread_to(&self, cpus: &[usize]) -> Result<()> {
        use hwlocality::cpu::{binding::CpuBindingFlags, cpuset::CpuSet};
        let topo = self
            .hw
            .as_ref()
            .ok_or_else(|| Error::no_device("hwloc could not load the machine topology"))?;
        let mut set = CpuSet::new();
        for &cpu in cpus {
            set.set(cpu);
        }
        topo.bind_cpu(&set, CpuBindingFlags::THREAD)
            .map_err(|e| Error::invalid(format!("cannot bind thread to CPUs {cpus:?}: {e}")))
    }

    /// Binds the calling thread to the logical CPUs `cpus`.
    #[cfg(not(feature = "hwloc"))]
    pub fn bind_current_thread_to(&self, cpus: &[usize]) -> Result<()> {
        // SAFETY: cpu_set_t is plain data; sched_setaffinity only reads it.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            for &cpu in cpus {
                libc::CPU_SET(cpu, &mut set);
            }
            if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0 {
                return Err(Error::invalid(format!(
                    "cannot bind thread to CPUs {cpus:?}"
                )));
            }
        }
        Ok(())
    }
}

#[cfg(feature = "hwloc")]
fn detect_cores(topo: &hwlocality::Topology, bound: Option<&[usize]>) -> Option<Vec<usize>> {
    use hwlocality::object::types::ObjectType;
    // Only the cores this process may run on (cgroups, and its binding) count.
    let allowed = topo.allowed_cpuset();
    let cpus: Vec<usize> = topo
        .objects_with_type(ObjectType::Core)
        .filter_map(|core| {
            let set = core.cpuset()?;
            set.iter_set()
                .map(usize::from)
                .find(|&pu| allowed.is_set(pu) && bound.is_none_or(|b| b.contains(&pu)))
        })
        .collect();
    (!cpus.is_empty()).then_some(cpus)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[test]
    fn cores_stay_within_the_threads_binding() {
        // A thread bound to the last CPU sees that CPU only (as a process bound by mpirun).
        let last = *bound_cpus().expect("an affinity").last().unwrap();
        std::thread::spawn(move || {
            // SAFETY: binds the calling thread only.
            unsafe {
                let mut set: libc::cpu_set_t = std::mem::zeroed();
                libc::CPU_SET(last, &mut set);
                assert_eq!(
                    libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set),
                    0
                );
            }
            let bound = bound_cpus();
            assert_eq!(bound, Some(vec![last]));
            assert_eq!(
                Topology::detect_within(bound.as_deref()).core_cpus,
                vec![last]
            );
            assert_eq!(one_per_cpu(bound.as_deref()), vec![last]);
        })
        .join()
        .unwrap();
    }

    #[test]
    fn detects_at_least_one_core() {
        let t = Topology::detect();
        assert!(t.ncores() >= 1);
        let mut sorted = t.core_cpus.clone();
        sorted.dedup();
        assert_eq!(sorted.len(), t.ncores(), "one CPU per core");
    }

    #[test]
    fn binds_another_thread_with_the_shared_topology() {
        let t = std::sync::Arc::new(Topology::detect());
        let cpu = t.core_cpus[0];
        let t2 = t.clone();
        std::thread::spawn(move || t2.bind_current_thread(cpu).unwrap())
            .join()
            .unwrap();
    }
}
