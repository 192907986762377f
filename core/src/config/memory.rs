//! How much of each device's memory the runtime may use, and the clean-buffer targets:
//! settings the memory layer applies (`memory::Limits` is this type).

use crate::error::{Error, Result};

/// How much of each device the runtime may use, and the clean-buffer targets
/// (`STARPU_LIMIT_OPENCL_MEM`, `STARPU_LIMIT_OPENCL_<devid>_MEM` in MiB,
/// `STARPU_MINIMUM_CLEAN_BUFFERS` / `STARPU_TARGET_CLEAN_BUFFERS` in percent).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoryLimits {
    /// Bytes per device kind (`None`: 90% of the device's memory, as StarPU).
    pub opencl: Option<usize>,
    pub cuda: Option<usize>,
    /// Bytes for one device: (devid, bytes), per kind.
    pub opencl_devices: Vec<(u32, usize)>,
    pub cuda_devices: Vec<(u32, usize)>,
    pub minimum_clean: u32,
    pub target_clean: u32,
}

impl Default for MemoryLimits {
    fn default() -> Self {
        MemoryLimits {
            opencl: None,
            cuda: None,
            opencl_devices: Vec::new(),
            cuda_devices: Vec::new(),
            minimum_clean: 5,
            target_clean: 10,
        }
    }
}

/// Sets (devid, bytes) in `list`, replacing what `devid` had.
fn set_device(list: &mut Vec<(u32, usize)>, entry: (u32, usize)) {
    list.retain(|o| o.0 != entry.0);
    list.push(entry);
}

/// `STARPU_LIMIT_<KIND>_<devid>_MEM` gives `devid` for `name` with `kind`.
fn devid_of(name: &str, kind: &str) -> Option<u32> {
    name.strip_prefix("STARPU_LIMIT_")?
        .strip_prefix(kind)?
        .strip_prefix('_')?
        .strip_suffix("_MEM")?
        .parse()
        .ok()
}

fn mib(name: &str, v: &str) -> Result<usize> {
    v.trim()
        .parse::<usize>()
        .map(|m| m << 20)
        .map_err(|_| Error::invalid(format!("{name}={v}: not a number of MiB")))
}

impl MemoryLimits {
    /// Lays the environment variables StarPU reads over these limits (only those set).
    pub fn apply_env(&mut self) -> Result<()> {
        let env = MemoryLimits::from_env()?;
        let set = |name: &str| std::env::var_os(name).is_some();
        if set("STARPU_LIMIT_OPENCL_MEM") {
            self.opencl = env.opencl;
        }
        if set("STARPU_LIMIT_CUDA_MEM") {
            self.cuda = env.cuda;
        }
        if set("STARPU_MINIMUM_CLEAN_BUFFERS") {
            self.minimum_clean = env.minimum_clean;
        }
        if set("STARPU_TARGET_CLEAN_BUFFERS") {
            self.target_clean = env.target_clean;
        }
        for d in env.opencl_devices {
            set_device(&mut self.opencl_devices, d);
        }
        for d in env.cuda_devices {
            set_device(&mut self.cuda_devices, d);
        }
        Ok(())
    }

    /// The limits the environment variables StarPU reads give.
    pub fn from_env() -> Result<MemoryLimits> {
        let kind_wide = |name: &str| -> Result<Option<usize>> {
            std::env::var(name).ok().map(|v| mib(name, &v)).transpose()
        };
        let percent = |name: &str, default: u32| -> Result<u32> {
            match std::env::var(name) {
                Ok(v) => v
                    .trim()
                    .parse::<u32>()
                    .map_err(|_| Error::invalid(format!("{name}={v}: not a percentage"))),
                Err(_) => Ok(default),
            }
        };
        let mut limits = MemoryLimits {
            opencl: kind_wide("STARPU_LIMIT_OPENCL_MEM")?,
            cuda: kind_wide("STARPU_LIMIT_CUDA_MEM")?,
            minimum_clean: percent("STARPU_MINIMUM_CLEAN_BUFFERS", 5)?,
            target_clean: percent("STARPU_TARGET_CLEAN_BUFFERS", 10)?,
            ..MemoryLimits::default()
        };
        // Per device, whatever the device number (the memory layer uses those it has).
        let mut vars: Vec<(String, String)> = std::env::vars().collect();
        vars.sort();
        for (name, v) in vars {
            if let Some(devid) = devid_of(&name, "OPENCL") {
                limits.opencl_devices.push((devid, mib(&name, &v)?));
            } else if let Some(devid) = devid_of(&name, "CUDA") {
                limits.cuda_devices.push((devid, mib(&name, &v)?));
            }
        }
        Ok(limits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_device_variables_name_their_device() {
        assert_eq!(devid_of("STARPU_LIMIT_CUDA_1_MEM", "CUDA"), Some(1));
        assert_eq!(devid_of("STARPU_LIMIT_OPENCL_12_MEM", "OPENCL"), Some(12));
        assert_eq!(devid_of("STARPU_LIMIT_OPENCL_MEM", "OPENCL"), None);
        assert_eq!(devid_of("STARPU_LIMIT_CUDA_1_MEM", "OPENCL"), None);
        assert_eq!(devid_of("STARPU_LIMIT_CUDA_x_MEM", "CUDA"), None);
        let mut list = vec![(0, 1), (1, 2)];
        set_device(&mut list, (0, 5));
        assert_eq!(list, [(1, 2), (0, 5)]);
        assert!(mib("X", "nope").is_err());
        assert_eq!(mib("X", " 3 ").unwrap(), 3 << 20);
    }
}
