//! Performance models as the tools see them: found and read with starpu-core's model code
//! (`perfmodel::file`), listed and printed as StarPU's `starpu_perfmodel_display` prints
//! them.

use starpu_core::perfmodel::file;
use starpu_core::perfmodel::settings::{codelets_dir, hostname};
use starpu_core::perfmodel::state::{PerArch, Tables};
use starpu_core::perfmodel::PerfArch;
use starpu_core::worker::WorkerKind;
use std::fmt::Write as _;
use std::path::PathBuf;

/// `starpu_perfmodel_list`: the model directory and its files, sorted.
pub fn list() -> String {
    let dir = codelets_dir();
    let mut out = String::new();
    match std::fs::read_dir(&dir) {
        Err(e) => {
            let _ = writeln!(
                out,
                "Could not open the perfmodel directory <{}/>: {e}",
                dir.display()
            );
        }
        Ok(entries) => {
            let _ = writeln!(out, "codelet directory: <{}/>", dir.display());
            let mut names: Vec<String> = entries
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            for n in names {
                let _ = writeln!(out, "file: <{n}>");
            }
        }
    }
    out
}

/// `starpu_perfmodel_directory`.
pub fn directory() -> String {
    format!("directory: <{}/>\n", codelets_dir().display())
}

/// The file of model `symbol`: `<symbol>.<hostname>`, or `symbol` itself when it names a
/// file of the directory (StarPU accepts `symbol.hostname`).
pub fn path_of(symbol: &str) -> Option<PathBuf> {
    let dir = codelets_dir();
    let exact = dir.join(symbol);
    if symbol.contains('.') && exact.is_file() {
        return Some(exact);
    }
    let p = dir.join(format!("{symbol}.{}", hostname()));
    p.is_file().then_some(p)
}

/// `starpu_perfmodel_load_symbol`: the model's tables, or why not.
pub fn load(symbol: &str) -> Result<Tables, String> {
    let path = path_of(symbol).ok_or_else(|| {
        format!("The performance model for the symbol <{symbol}> could not be loaded")
    })?;
    file::read(&path).map_err(|e| e.message)
}

/// One architecture of a model, with its number in the model ("Comb") and its tables by
/// implementation.
pub struct ArchTables<'a> {
    pub comb: usize,
    pub arch: &'a PerfArch,
    pub impls: Vec<(usize, &'a PerArch)>,
}

/// The model's architectures, in file order.
pub fn archs(t: &Tables) -> Vec<ArchTables<'_>> {
    let mut out: Vec<ArchTables<'_>> = Vec::new();
    for ((_, nimpl), (arch, per)) in &t.per_arch {
        match out.last_mut() {
            Some(a) if a.arch == arch => a.impls.push((*nimpl, per)),
            _ => out.push(ArchTables {
                comb: out.len(),
                arch,
                impls: vec![(*nimpl, per)],
            }),
        }
    }
    out
}

/// Whether `arch` is what StarPU's `-a` option names: `cpu`, `cpu:K` (K cores),
/// `cuda`, `cudaN` / `cuda_N`, `opencl`, `openclN` / `opencl_N`.
pub fn arch_matches(filter: &str, arch: &PerfArch) -> Result<bool, String> {
    let [d] = arch.devices.as_slice() else {
        return Ok(false);
    };
    if let Some(k) = filter.strip_prefix("cpu:") {
        let k: u32 = k.parse().map_err(|_| format!("Invalid CPU size '{k}'"))?;
        return Ok(d.kind == WorkerKind::Cpu && d.ncores == k);
    }
    for (kind, name) in [
        (WorkerKind::Cpu, "cpu"),
        (WorkerKind::Cuda, "cuda"),
        (WorkerKind::OpenCl, "opencl"),
    ] {
        if let Some(rest) = filter.strip_prefix(name) {
            let rest = rest.strip_prefix('_').unwrap_or(rest);
            if rest.is_empty() {
                return Ok(d.kind == kind && (kind != WorkerKind::Cpu || d.ncores == 1));
            }
            let id: u32 = rest
                .parse()
                .map_err(|_| format!("Unknown architecture requested: {filter}"))?;
            return Ok(d.kind == kind && d.devid == id && d.ncores == 1);
        }
    }
    Err(format!("Unknown architecture requested: {filter}"))
}

/// A double as C's `%e` prints it.
pub fn e(v: f64) -> String {
    if v.is_nan() {
        return "nan".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf" } else { "-inf" }.into();
    }
    let s = format!("{v:.6e}");
    let (m, x) = s.split_once('e').expect("exponent");
    let x: i32 = x.parse().expect("integer exponent");
    format!("{m}e{}{:02}", if x < 0 { '-' } else { '+' }, x.abs())
}

/// `starpu_perfmodel_print` for one architecture and implementation.
fn print_one(
    out: &mut String,
    a: &ArchTables<'_>,
    nimpl: usize,
    p: &PerArch,
    parameter: Option<&str>,
    footprint: Option<u32>,
) -> Result<(), String> {
    let r = &p.regression;
    let valid = !r.alpha.is_nan() && !r.beta.is_nan();
    let nl_valid = !r.a.is_nan() && !r.b.is_nan() && !r.c.is_nan();
    if r.nsample > 0 || valid || nl_valid || !p.entries.is_empty() {
        let _ = writeln!(
            out,
            "# performance model for {}",
            a.arch.name(nimpl, a.comb)
        );
    }
    let entries = p
        .entries
        .iter()
        .filter(|en| footprint.is_none_or(|f| en.footprint == f));
    match parameter {
        None => {
            if r.nsample > 0 {
                let _ = writeln!(out, "\tRegression : #sample = {}", r.nsample);
            }
            if valid {
                let _ = writeln!(
                    out,
                    "\tLinear: y = alpha size ^ beta\n\t\talpha = {}\n\t\tbeta = {}",
                    e(r.alpha),
                    e(r.beta)
                );
            }
            if nl_valid {
                let _ = writeln!(
                    out,
                    "\tNon-Linear: y = a size ^b + c\n\t\ta = {}\n\t\tb = {}\n\t\tc = {}",
                    e(r.a),
                    e(r.b),
                    e(r.c)
                );
            }
            if !p.entries.is_empty() {
                out.push_str("# hash\t\tsize\t\tflops\t\tmean (us or J)\tstddev (us or J)\t\tn\n");
            }
            for en in entries {
                let _ = writeln!(
                    out,
                    "{:08x}\t{:<15}\t{:<15}\t{:<15}\t{:<15}\t{}",
                    en.footprint,
                    en.size,
                    e(en.flops),
                    e(en.mean),
                    e(en.deviation),
                    en.nsample
                );
            }
        }
        Some(param) => {
            let v = match param {
                "a" => Some(r.a),
                "b" => Some(r.b),
                "c" => Some(r.c),
                "alpha" => Some(r.alpha),
                "beta" => Some(r.beta),
                "mean" | "stddev" => None,
                "path-file-debug" => {
                    return Err("path-file-debug: this build keeps no debug files".into())
                }
                other => return Err(format!("Unknown parameter requested, aborting: {other}")),
            };
            match v {
                Some(v) => {
                    let _ = writeln!(out, "{}", e(v));
                }
                None => {
                    for en in entries {
                        let v = if param == "mean" {
                            en.mean
                        } else {
                            en.deviation
                        };
                        let _ = writeln!(out, "{:<15}", e(v));
                    }
                }
            }
        }
    }
    Ok(())
}

/// `starpu_perfmodel_print_all`: every architecture (or those `arch` names) and
/// implementation of the model.
pub fn print_all(
    t: &Tables,
    arch: Option<&str>,
    parameter: Option<&str>,
    footprint: Option<u32>,
) -> Result<String, String> {
    let mut out = String::new();
    for a in archs(t) {
        if let Some(f) = arch {
            if !arch_matches(f, a.arch)? {
                continue;
            }
        }
        for (nimpl, p) in &a.impls {
            print_one(&mut out, &a, *nimpl, p, parameter, footprint)?;
        }
    }
    Ok(out)
}

/// `starpu_perfmodel_list_combs`: the model's architecture combinations.
pub fn list_combs(symbol: &str, t: &Tables) -> String {
    let mut out = format!("Model <{symbol}>\n");
    for a in archs(t) {
        let n = a.arch.devices.len();
        let _ = writeln!(
            out,
            "\tComb {}: {n} device{}",
            a.comb,
            if n > 1 { "s" } else { "" }
        );
        for (i, d) in a.arch.devices.iter().enumerate() {
            let _ = writeln!(
                out,
                "\t\tDevice {i}: type: {} - devid: {} - ncores: {}",
                starpu_core::perfmodel::arch::archtype_name(d.kind),
                d.devid,
                d.ncores
            );
        }
    }
    out
}
