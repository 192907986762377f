//! Model tests that cross files: the file format's round trip.

use super::file;
use super::state::Tables;
use super::*;
use crate::worker::WorkerKind;

fn measure(t: &mut Tables, arch: &PerfArch, nimpl: usize, footprint: u32, times: &[f64]) {
    let per = t.get_mut(arch, nimpl);
    let e = per.push_entry(history::HistoryEntry::new(footprint, 4096, 0.0));
    for &x in times {
        e.add(x);
    }
}

#[test]
fn file_round_trip_keeps_entries_per_arch_and_implementation() {
    let mut t = Tables {
        kind: PerfModelType::HistoryBased,
        ..Default::default()
    };
    let cpu = PerfArch::cpu();
    let cuda = PerfArch::single(WorkerKind::Cuda, 1);
    measure(&mut t, &cpu, 0, 0xdead_beef, &[10.0; 12]);
    measure(&mut t, &cpu, 0, 0x0000_0001, &[1.5, 2.5]);
    measure(&mut t, &cpu, 2, 0x1234_5678, &[3.0; 10]);
    measure(&mut t, &cuda, 0, 0xdead_beef, &[0.5; 10]);
    let text = file::render(&t);
    assert!(text.starts_with("##################\n# Performance Model Version\n45\n"));
    assert!(text.contains("# Model for cpu0_impl1 (Comb0)\n# number of entries\n0\n"));
    assert!(text.contains("deadbeef\t4096"));
    let back = file::parse(&text, "test").expect("parses");
    assert_eq!(back.kind, PerfModelType::HistoryBased);
    let e = back.get(&cpu, 0).unwrap().entry(0xdead_beef).unwrap();
    assert_eq!((e.nsample, e.mean, e.sum), (12, 10.0, 120.0));
    let e = back.get(&cpu, 0).unwrap().entry(1).unwrap();
    assert_eq!((e.nsample, e.mean), (2, 2.0));
    assert_eq!(
        back.get(&cpu, 2)
            .unwrap()
            .entry(0x1234_5678)
            .unwrap()
            .nsample,
        10
    );
    assert!(back.get(&cpu, 1).is_none());
    assert_eq!(
        back.get(&cuda, 0).unwrap().entry(0xdead_beef).unwrap().mean,
        0.5
    );
    // Written again, the file is the same (entries keep their order).
    assert_eq!(file::render(&back), text);

    let dir = std::env::temp_dir().join(format!("starpu-perfmodel-{}", std::process::id()));
    let path = dir.join("codelets").join("45").join("sym.host");
    file::write(&path, &t).expect("writes");
    let again = file::read(&path).expect("reads");
    assert_eq!(file::render(&again), text);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_starpu_written_file_is_read() {
    // As StarPU 1.4 writes it: a regression-based model, one CPU implementation.
    let text = "##################\n# Performance Model Version\n45\n\n####################\n\
# COMBs\n# number of combinations\n1\n####################\n# COMB_0\n\
# number of types devices\n1\n####################\n# DEV_0\n\
# device type (CPU - 0, CUDA - 1, OPENCL - 2, MIC - 3, MPI_MS - 5)\n0\n\
####################\n# DEV_0\n# device id \n0\n####################\n# DEV_0\n\
# number of cores \n1\n##########\n# number of implementations\n1\n#####\n\
# Model for cpu0_impl0 (Comb0)\n# number of entries\n1\n\
# sumlnx\tsumlnx2\t\tsumlny\t\tsumlnxlny\talpha\t\tbeta\t\tn\tminx\t\tmaxx\n\
1.0e+01        \t2.0e+01        \t3.0e+01        \t4.0e+01        \t2.5e+00        \t1.0e+00        \t12\t1024           \t8192           \n\
# a\t\tb\t\tc\nnan            \tnan            \tnan            \n\
# not multiple-regression-base\n0\n\
# hash\t\tsize\t\tflops\t\tmean (us)\tdev (us)\tsum\t\tsum2\t\tn\n\
a3d3725e\t4096           \t0.000000e+00   \t1.200000e+01   \t1.000000e+00   \t1.440000e+02   \t1.740000e+03   \t12\n\n";
    let t = file::parse(text, "starpu").expect("parses");
    assert_eq!(t.kind, PerfModelType::RegressionBased);
    let per = t.get(&PerfArch::cpu(), 0).unwrap();
    assert_eq!(per.regression.nsample, 12);
    assert_eq!((per.regression.minx, per.regression.maxx), (1024, 8192));
    assert_eq!(per.regression.alpha, 2.5);
    let e = per.entry(0xa3d3_725e).unwrap();
    assert_eq!((e.size, e.mean, e.nsample), (4096, 12.0, 12));
}

#[test]
fn malformed_files_are_errors_not_panics() {
    for bad in [
        "",
        "44\n",
        "45\n1\n1\n9\n0\n1\n",
        "45\n1\n1\n0\n0\n1\n1\n1\nx y\n",
    ] {
        assert!(file::parse(bad, "bad").is_err(), "{bad:?}");
    }
}

#[test]
fn cost_function_models_predict_without_learning() {
    let spec = crate::task::TaskSpec::default();
    let cpu = PerfArch::cpu();
    let cuda = PerfArch::single(WorkerKind::Cuda, 0);
    let common = PerfModel::common(|_, nimpl| 5.0 + nimpl as f64);
    assert_eq!(expected_length(&common, &spec, &cpu, 1), 6.0);
    assert_eq!(expected_length(&common, &spec, &cuda, 0), 5.0);
    let per_arch = PerfModel::per_arch(|_, arch, _| match arch.devices[0].kind {
        WorkerKind::Cpu => 100.0,
        _ => 10.0,
    });
    assert_eq!(expected_length(&per_arch, &spec, &cpu, 0), 100.0);
    assert_eq!(expected_length(&per_arch, &spec, &cuda, 0), 10.0);
    // Per-device functions: the one of the task's architecture and implementation.
    let mut per_devices = PerfModel {
        kind: PerfModelType::PerArch,
        ..Default::default()
    };
    per_devices.per_devices.push((
        cpu.clone(),
        0,
        Arc::new(|_: &TaskSpec, _: &PerfArch, _| 7.0),
    ));
    per_devices.per_devices.push((
        cpu.clone(),
        1,
        Arc::new(|_: &TaskSpec, _: &PerfArch, _| 8.0),
    ));
    assert_eq!(expected_length(&per_devices, &spec, &cpu, 0), 7.0);
    assert_eq!(expected_length(&per_devices, &spec, &cpu, 1), 8.0);
    assert!(expected_length(&per_devices, &spec, &cuda, 0).is_nan());
    // A learning model without a symbol has nowhere to learn: no prediction.
    let nameless = PerfModel {
        kind: PerfModelType::HistoryBased,
        ..Default::default()
    };
    assert!(expected_length(&nameless, &spec, &cpu, 0).is_nan());
    // Without buffers or size_base, a task's footprint is 0 (StarPU's, too).
    assert_eq!(footprint(None, &spec, 0), 0);
}

/// A task description carrying the parameters `(m, n)` a multiple-regression model reads.
fn mlr_spec(m: f64, n: f64) -> crate::task::TaskSpec {
    crate::task::TaskSpec {
        payload: Some(std::sync::Arc::new((m, n))),
        ..Default::default()
    }
}

fn mlr_model(symbol: &str) -> PerfModel {
    PerfModel::multiple_regression(
        symbol,
        |spec| {
            let &(m, n) = spec.payload_as::<(f64, f64)>().expect("(m, n)");
            vec![m, n]
        },
        vec![vec![1, 1], vec![0, 2]],
        vec!["M".into(), "N".into()],
    )
}

#[test]
fn multiple_regression_fits_the_samples_it_is_fed() {
    let symbol = format!("mlr_unit_{}", std::process::id());
    let model = mlr_model(&symbol);
    let cpu = PerfArch::cpu();
    let law = |m: f64, n: f64| 3.0 + 0.25 * m * n + 2.0 * n * n;
    // Nothing measured: no prediction (and measuring starts).
    assert!(expected_length(&model, &mlr_spec(4.0, 4.0), &cpu, 0).is_nan());
    let state = model.state().expect("learns");
    let mut fed = 0;
    for m in [2.0, 8.0, 32.0] {
        for n in [1.0, 5.0, 20.0] {
            update_history(&model, &state, &mlr_spec(m, n), &cpu, 0, law(m, n));
            fed += 1;
            // Three coefficients: a fit needs more than three observations.
            let p = expected_length(&model, &mlr_spec(100.0, 7.0), &cpu, 0);
            assert_eq!(p.is_nan(), fed <= 3, "after {fed} samples: {p}");
        }
    }
    let p = expected_length(&model, &mlr_spec(100.0, 7.0), &cpu, 0);
    assert!((p - law(100.0, 7.0)).abs() < 1e-6, "{p}");
    // Another implementation or architecture learned nothing.
    assert!(expected_length(&model, &mlr_spec(100.0, 7.0), &cpu, 1).is_nan());
    // The file has StarPU's coefficient line, and a reload predicts from it alone.
    let text = file::render(&state.read());
    assert!(text.contains("# n\tintercept\tM*N\tN^2\n3\t"), "{text}");
    let back = file::parse(&text, "mlr").expect("parses");
    assert_eq!(back.kind, PerfModelType::MultipleRegressionBased);
    let coeff = &back.get(&cpu, 0).unwrap().mlr.coeff;
    for (c, want) in coeff.iter().zip([3.0, 0.25, 2.0]) {
        assert!((c - want).abs() < 1e-6, "{coeff:?}");
    }
    state::unload(&symbol);
}

#[test]
fn per_worker_models_ask_the_worker_cost_function() {
    let spec = crate::task::TaskSpec::default();
    let cpu = PerfArch::cpu();
    let m = PerfModel::per_worker(|_, worker, nimpl| 100.0 * worker as f64 + nimpl as f64);
    assert_eq!(expected_length_on(&m, &spec, &cpu, Some(3), 1), 301.0);
    assert_eq!(expected_length_on(&m, &spec, &cpu, Some(0), 0), 0.0);
    // Without a worker there is nothing to ask.
    assert!(expected_length(&m, &spec, &cpu, 0).is_nan());
}
