//! Model files in StarPU's text format, version 45
//! (`$STARPU_HOME/.starpu/sampling/codelets/45/<symbol>.<hostname>`), so that models
//! calibrated by StarPU serve this runtime and the other way round, and StarPU's tools
//! (`starpu_perfmodel_display`, `starpu_perfmodel_plot`) read ours.
//!
//! Layout: comment lines start with `#`. The version; the number of architecture
//! combinations; for each, its devices (type, id, cores) and its number of
//! implementations; for each implementation the number of history entries, the linear
//! regression line (sums, alpha, beta, samples, min and max size), the non-linear line
//! (a, b, c), the multiple-regression coefficients (a count, then values) and the entries
//! (footprint in hex, size, flops, mean, deviation, sum, sum of squares, samples).

use super::arch::{PerfArch, PerfDevice};
use super::history::HistoryEntry;
use super::settings::FORMAT_VERSION;
use super::state::{PerArch, Tables};
use super::PerfModelType;
use crate::error::{Error, Result};
use crate::worker::WorkerKind;
use std::fmt::Write as _;
use std::path::Path;

/// A double as StarPU prints it: `%-15e` (C's exponent has at least two digits), `nan`
/// for NaN.
fn num(v: f64) -> String {
    if v.is_nan() {
        return format!("{:<15}", "nan");
    }
    if v.is_infinite() {
        return format!("{:<15}", if v > 0.0 { "inf" } else { "-inf" });
    }
    let s = format!("{v:.6e}");
    let (mantissa, exp) = s.split_once('e').expect("{:e} has an exponent");
    let exp: i32 = exp.parse().expect("integer exponent");
    let sign = if exp < 0 { '-' } else { '+' };
    format!("{:<15}", format!("{mantissa}e{sign}{:02}", exp.abs()))
}

/// The file's text for `tables`.
pub fn render(t: &Tables) -> String {
    let mut out = String::new();
    let w = &mut out;
    let _ = write!(
        w,
        "##################\n# Performance Model Version\n{FORMAT_VERSION}\n\n"
    );
    // Group the implementations by architecture.
    let mut archs: Vec<(&PerfArch, Vec<(usize, &PerArch)>)> = Vec::new();
    for ((_, nimpl), (arch, per)) in &t.per_arch {
        match archs.last_mut() {
            Some((a, impls)) if *a == arch => impls.push((*nimpl, per)),
            _ => archs.push((arch, vec![(*nimpl, per)])),
        }
    }
    let _ = writeln!(
        w,
        "####################\n# COMBs\n# number of combinations\n{}",
        archs.len()
    );
    let empty = PerArch::default();
    for (comb, (arch, impls)) in archs.iter().enumerate() {
        let _ = writeln!(
            w,
            "####################\n# COMB_{comb}\n# number of types devices\n{}",
            arch.devices.len()
        );
        for (i, d) in arch.devices.iter().enumerate() {
            let _ = writeln!(
                w,
                "####################\n# DEV_{i}\n# device type (CPU - 0, CUDA - 1, OPENCL - 2, MIC - 3, MPI_MS - 5)\n{}",
                d.kind.starpu_id()
            );
            let _ = writeln!(
                w,
                "####################\n# DEV_{i}\n# device id \n{}",
                d.devid
            );
            let _ = writeln!(
                w,
                "####################\n# DEV_{i}\n# number of cores \n{}",
                d.ncores
            );
        }
        let nimpls = impls.iter().map(|(i, _)| i + 1).max().unwrap_or(0);
        let _ = writeln!(w, "##########\n# number of implementations\n{nimpls}");
        for nimpl in 0..nimpls {
            let per = impls
                .iter()
                .find(|(i, _)| *i == nimpl)
                .map_or(&empty, |(_, p)| *p);
            render_per_arch(w, t, &arch.name(nimpl, comb), per);
        }
    }
    out
}

fn render_per_arch(w: &mut String, t: &Tables, name: &str, per: &PerArch) {
    let kind = t.kind;
    let entries: &[HistoryEntry] = if kind.uses_history() {
        &per.entries
    } else {
        &[]
    };
    let _ = write!(
        w,
        "#####\n# Model for {name}\n# number of entries\n{}\n",
        entries.len()
    );
    let r = &per.regression;
    let regression = matches!(
        kind,
        PerfModelType::RegressionBased | PerfModelType::NonLinearRegressionBased
    ) && r.nsample > 1;
    let (alpha, beta) = if regression {
        (r.alpha, r.beta)
    } else {
        (f64::NAN, f64::NAN)
    };
    let _ = writeln!(
        w,
        "# sumlnx\tsumlnx2\t\tsumlny\t\tsumlnxlny\talpha\t\tbeta\t\tn\tminx\t\tmaxx"
    );
    let _ = writeln!(
        w,
        "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{:<15}\t{:<15}",
        num(r.sumlnx),
        num(r.sumlnx2),
        num(r.sumlny),
        num(r.sumlnxlny),
        num(alpha),
        num(beta),
        r.nsample,
        r.minx,
        r.maxx
    );
    let nl = kind == PerfModelType::NonLinearRegressionBased;
    let (a, b, c) = if nl {
        (r.a, r.b, r.c)
    } else {
        (f64::NAN, f64::NAN, f64::NAN)
    };
    let _ = writeln!(w, "# a\t\tb\t\tc\n{}\t{}\t{}", num(a), num(b), num(c));
    match (kind, &t.mlr_layout) {
        (PerfModelType::MultipleRegressionBased, Some(layout)) => {
            // StarPU: "# n\tintercept\t<terms>", then the count and the coefficients
            // (NaN when there is no fit yet).
            let mut mlr = per.mlr.clone();
            if mlr.needs_fit(layout) {
                mlr.refit(layout);
            }
            let _ = writeln!(w, "# n\tintercept\t{}", layout.term_names().join("\t"));
            let coeff: Vec<String> = if mlr.coeff.len() == layout.ncoeff() {
                mlr.coeff.iter().map(|c| num(*c)).collect()
            } else {
                vec![num(f64::NAN); layout.ncoeff()]
            };
            let _ = writeln!(w, "{}\t{}", layout.ncoeff(), coeff.join("\t"));
        }
        _ => {
            let _ = writeln!(w, "# not multiple-regression-base\n0");
        }
    }
    if kind.uses_history() {
        let _ = writeln!(
            w,
            "# hash\t\tsize\t\tflops\t\tmean (us)\tdev (us)\tsum\t\tsum2\t\tn"
        );
        // StarPU lists the newest entry first.
        for e in entries.iter().rev() {
            let _ = writeln!(
                w,
                "{:08x}\t{:<15}\t{}\t{}\t{}\t{}\t{}\t{}",
                e.footprint,
                e.size,
                num(e.flops),
                num(e.mean),
                num(e.deviation),
                num(e.sum),
                num(e.sum2),
                e.nsample
            );
        }
    }
    w.push('\n');
}

/// Writes `t` to `path` (directories created), through a temporary file renamed into
/// place so that a concurrent reader never sees half a file.
pub fn write(path: &Path, t: &Tables) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, render(t))?;
    std::fs::rename(&tmp, path)
}

/// The meaningful lines of a file: comments and blank lines dropped.
struct Lines<'a> {
    it: std::iter::Peekable<std::str::Lines<'a>>,
    what: String,
}

impl<'a> Lines<'a> {
    fn next_line(&mut self) -> Result<&'a str> {
        for l in self.it.by_ref() {
            let l = l.trim();
            if !l.is_empty() && !l.starts_with('#') {
                return Ok(l);
            }
        }
        Err(self.bad("the file ends too early"))
    }

    fn bad(&self, why: &str) -> Error {
        Error::invalid(format!("{}: {why}", self.what))
    }

    fn number<T: std::str::FromStr>(&mut self, field: &str) -> Result<T> {
        let l = self.next_line()?;
        l.split_whitespace()
            .next()
            .and_then(|t| t.parse().ok())
            .ok_or_else(|| self.bad(&format!("'{l}' is not a valid {field}")))
    }
}

fn float(tok: Option<&str>) -> Option<f64> {
    let t = tok?;
    match t {
        "nan" | "-nan" => Some(f64::NAN),
        _ => t.parse().ok(),
    }
}

/// Parses a model file's text.
pub fn parse(text: &str, what: &str) -> Result<Tables> {
    let mut l = Lines {
        it: text.lines().peekable(),
        what: what.to_string(),
    };
    let version: u32 = l.number("version")?;
    if version != FORMAT_VERSION {
        return Err(l.bad(&format!(
            "model version {version}, this runtime reads version {FORMAT_VERSION}"
        )));
    }
    let mut t = Tables::default();
    let ncombs: usize = l.number("number of combinations")?;
    let mut found = PerfModelType::Invalid;
    for _ in 0..ncombs {
        let ndevices: usize = l.number("number of devices")?;
        let mut devices = Vec::with_capacity(ndevices);
        for _ in 0..ndevices {
            let kind: u32 = l.number("device type")?;
            let devid: u32 = l.number("device id")?;
            let ncores: u32 = l.number("number of cores")?;
            let kind = WorkerKind::from_starpu_id(kind)
                .ok_or_else(|| l.bad(&format!("unknown device type {kind}")))?;
            devices.push(PerfDevice {
                kind,
                devid,
                ncores,
            });
        }
        let arch = PerfArch { devices };
        let nimpls: usize = l.number("number of implementations")?;
        for nimpl in 0..nimpls {
            let per = parse_per_arch(&mut l, &mut found)?;
            if !per.entries.is_empty() || per.regression.nsample > 0 || !per.mlr.coeff.is_empty() {
                *t.get_mut(&arch, nimpl) = per;
            }
        }
    }
    t.kind = found;
    Ok(t)
}

fn parse_per_arch(l: &mut Lines<'_>, kind: &mut PerfModelType) -> Result<PerArch> {
    let nentries: usize = l.number("number of entries")?;
    let mut per = PerArch::default();
    let line = l.next_line()?;
    let f: Vec<&str> = line.split_whitespace().collect();
    let r = &mut per.regression;
    let parsed = (|| {
        r.sumlnx = float(f.first().copied())?;
        r.sumlnx2 = float(f.get(1).copied())?;
        r.sumlny = float(f.get(2).copied())?;
        r.sumlnxlny = float(f.get(3).copied())?;
        r.alpha = float(f.get(4).copied())?;
        r.beta = float(f.get(5).copied())?;
        r.nsample = f.get(6)?.parse().ok()?;
        r.minx = f.get(7)?.parse().ok()?;
        r.maxx = f.get(8)?.parse().ok()?;
        Some(())
    })();
    parsed.ok_or_else(|| l.bad(&format!("bad regression line '{line}'")))?;
    let line = l.next_line()?;
    let f: Vec<&str> = line.split_whitespace().collect();
    match (
        float(f.first().copied()),
        float(f.get(1).copied()),
        float(f.get(2).copied()),
    ) {
        (Some(a), Some(b), Some(c)) => (r.a, r.b, r.c) = (a, b, c),
        _ => return Err(l.bad(&format!("bad non-linear regression line '{line}'"))),
    }
    // Multiple regression: a count then the coefficients.
    let line = l.next_line()?;
    let ncoeff: usize = line
        .split_whitespace()
        .next()
        .and_then(|t| t.parse().ok())
        .ok_or_else(|| l.bad(&format!("bad coefficient count '{line}'")))?;
    let mut coeff: Vec<&str> = line.split_whitespace().skip(1).collect();
    while coeff.len() < ncoeff {
        coeff.extend(l.next_line()?.split_whitespace());
    }
    per.mlr.coeff = coeff
        .iter()
        .take(ncoeff)
        .map(|c| float(Some(c)).ok_or_else(|| l.bad(&format!("bad coefficient '{c}'"))))
        .collect::<Result<_>>()?;
    let mut entries = Vec::with_capacity(nentries);
    for _ in 0..nentries {
        let line = l.next_line()?;
        entries.push(parse_entry(line).ok_or_else(|| l.bad(&format!("bad entry '{line}'")))?);
    }
    // Files list the newest entry first; keep first-seen order in memory.
    for e in entries.into_iter().rev() {
        per.push_entry(e);
    }
    if *kind == PerfModelType::Invalid {
        let r = &per.regression;
        *kind = if ncoeff != 0 {
            PerfModelType::MultipleRegressionBased
        } else if !(r.a.is_nan() || r.b.is_nan() || r.c.is_nan()) {
            PerfModelType::NonLinearRegressionBased
        } else if !(r.alpha.is_nan() || r.beta.is_nan()) {
            PerfModelType::RegressionBased
        } else if nentries > 0 {
            PerfModelType::HistoryBased
        } else {
            PerfModelType::Invalid
        };
    }
    Ok(per)
}

/// One entry line; older files have no flops column.
fn parse_entry(line: &str) -> Option<HistoryEntry> {
    let f: Vec<&str> = line.split_whitespace().collect();
    let footprint = u32::from_str_radix(f.first()?, 16).ok()?;
    let size = f.get(1)?.parse().ok()?;
    let (flops, rest) = match f.len() {
        8 => (float(f.get(2).copied())?, &f[3..]),
        7 => (0.0, &f[2..]),
        _ => return None,
    };
    let mean = float(rest.first().copied())?;
    let deviation = float(rest.get(1).copied())?;
    let sum = float(rest.get(2).copied())?;
    let sum2 = float(rest.get(3).copied())?;
    let nsample = rest.get(4)?.parse().ok()?;
    if mean < 0.0 || deviation < 0.0 || sum < 0.0 || sum2 < 0.0 {
        return None;
    }
    Some(HistoryEntry::from_file(
        footprint, size, flops, mean, deviation, sum, sum2, nsample,
    ))
}

/// Reads the model file at `path`.
pub fn read(path: &Path) -> Result<Tables> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::invalid(format!("cannot read {}: {e}", path.display())))?;
    if text.trim().is_empty() {
        return Err(Error::invalid(format!("{} is empty", path.display())));
    }
    parse(&text, &path.display().to_string())
}
