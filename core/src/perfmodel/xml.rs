//! A model in StarPU's XML form (`starpu_perfmodel_dump_xml`, `starpu-perfmodel.dtd`):
//! one `<combination>` per architecture with its devices, one `<implementation>` per
//! implementation holding the regression of the model's type and the history entries.

use super::state::{ModelState, PerArch, Tables};
use super::PerfModelType;
use crate::worker::WorkerKind;
use std::fmt::Write;

fn device_type(kind: WorkerKind) -> &'static str {
    match kind {
        WorkerKind::Cpu => "CPU",
        WorkerKind::Cuda => "CUDA",
        WorkerKind::OpenCl => "OpenCL",
    }
}

/// C's `%e`: one digit, six decimals, a signed two-digit (or more) exponent.
fn e(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.into();
    }
    let s = format!("{x:.6e}");
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let sign = if exp < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exp.abs())
}

fn regression(out: &mut String, tables: &Tables, per: &PerArch) {
    let r = &per.regression;
    match tables.kind {
        PerfModelType::RegressionBased => {
            let _ = writeln!(out, "      <!-- time = alpha size ^ beta -->");
            let _ = writeln!(
                out,
                "      <l_regression sumlnx=\"{}\" sumlnx2=\"{}\" sumlny=\"{}\" sumlnxlny=\"{}\" alpha=\"{}\" beta=\"{}\" nsample=\"{}\" minx=\"{}\" maxx=\"{}\"/>",
                e(r.sumlnx),
                e(r.sumlnx2),
                e(r.sumlny),
                e(r.sumlnxlny),
                e(r.alpha),
                e(r.beta),
                r.nsample,
                r.minx,
                r.maxx
            );
        }
        PerfModelType::NonLinearRegressionBased => {
            let _ = writeln!(out, "      <!-- time = a size ^b + c -->");
            let _ = writeln!(
                out,
                "      <nl_regression a=\"{}\" b=\"{}\" c=\"{}\"/>",
                e(r.a),
                e(r.b),
                e(r.c)
            );
        }
        PerfModelType::MultipleRegressionBased => match &tables.mlr_layout {
            Some(layout) if !per.mlr.coeff.is_empty() && !layout.combinations.is_empty() => {
                let _ = writeln!(
                    out,
                    "      <ml_regression constant=\"{}\">",
                    e(per.mlr.coeff[0])
                );
                for (i, name) in layout.term_names().iter().enumerate() {
                    let coef = per.mlr.coeff.get(i + 1).copied().unwrap_or(f64::NAN);
                    let _ = writeln!(
                        out,
                        "        <monomial name=\"{name}\" coef=\"{}\"/>",
                        e(coef)
                    );
                }
                let _ = writeln!(out, "      </ml_regression>");
            }
            _ => {
                let _ = writeln!(out, "      <ml_regression constant=\"nan\"/>");
            }
        },
        _ => {}
    }
}

/// The XML text of `state`'s model.
pub fn to_xml(state: &ModelState) -> String {
    let tables = state.read();
    let mut out = String::new();
    let _ = writeln!(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
    let _ = writeln!(
        out,
        "<!DOCTYPE StarPUPerfmodel SYSTEM \"starpu-perfmodel.dtd\">"
    );
    let _ = writeln!(out, "<!-- symbol {} -->", state.symbol);
    let _ = writeln!(out, "<!-- All times in us -->");
    let _ = writeln!(
        out,
        "<perfmodel version=\"{}\">",
        super::settings::FORMAT_VERSION
    );
    // The tables are sorted by (architecture, implementation): consecutive tables of one
    // architecture make one combination.
    let mut comb = 0;
    let mut open: Option<&Vec<(u32, u32, u32)>> = None;
    for ((key, nimpl), (arch, per)) in tables.per_arch.iter() {
        if open != Some(key) {
            if open.is_some() {
                let _ = writeln!(out, "  </combination>");
                comb += 1;
            }
            open = Some(key);
            let _ = writeln!(out, "  <combination>");
            for d in &arch.devices {
                let _ = write!(
                    out,
                    "    <device type=\"{}\" id=\"{}\"",
                    device_type(d.kind),
                    d.devid
                );
                if d.kind == WorkerKind::Cpu {
                    let _ = write!(out, " ncores=\"{}\"", d.ncores);
                }
                let _ = writeln!(out, "/>");
            }
        }
        let _ = writeln!(out, "    <implementation id=\"{nimpl}\">");
        let _ = writeln!(out, "      <!-- {} -->", arch.name(*nimpl, comb));
        regression(&mut out, &tables, per);
        for h in &per.entries {
            let _ = writeln!(
                out,
                "      <entry footprint=\"{:08x}\" size=\"{}\" flops=\"{}\" mean=\"{}\" deviation=\"{}\" sum=\"{}\" sum2=\"{}\" nsample=\"{}\"/>",
                h.footprint,
                h.size,
                e(h.flops),
                e(h.mean),
                e(h.deviation),
                e(h.sum),
                e(h.sum2),
                h.nsample
            );
        }
        let _ = writeln!(out, "    </implementation>");
    }
    if open.is_some() {
        let _ = writeln!(out, "  </combination>");
    }
    let _ = writeln!(out, "</perfmodel>");
    out
}

#[cfg(test)]
mod tests {
    use super::e;

    #[test]
    fn numbers_print_as_c_does() {
        assert_eq!(e(1234.5), "1.234500e+03");
        assert_eq!(e(0.0), "0.000000e+00");
        assert_eq!(e(-2.5e-7), "-2.500000e-07");
        assert_eq!(e(f64::NAN), "nan");
    }
}
