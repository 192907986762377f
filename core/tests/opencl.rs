//! OpenCL workers on a real device (PoCL in CI, with `opencl_on_cpus`, as StarPU needs
//! `STARPU_OPENCL_ON_CPUS=1`). Without an OpenCL device the tests say so and pass.

mod common;

use starpu_core::drivers::opencl::Program;
use starpu_core::{AccessMode, Codelet, Config, Runtime};
use std::sync::{Arc, OnceLock};

const SCALE: &str = "__kernel void scale(__global float *v, unsigned first, unsigned n, float k) {
    const size_t i = get_global_id(0);
    if (i < n) v[first + i] *= k;
}";

/// The program, built once for the whole test binary (a PoCL build takes ~0.5 s).
fn program() -> Arc<Program> {
    static P: OnceLock<Arc<Program>> = OnceLock::new();
    P.get_or_init(|| Arc::new(Program::from_source(SCALE)))
        .clone()
}

/// A runtime with `ncpus` CPU workers and the OpenCL devices, or `None` (with a reason
/// printed) when there is no OpenCL device.
fn runtime(ncpus: usize, sched: Option<&str>) -> Option<Arc<Runtime>> {
    let rt = common::start(Config {
        ncpus: Some(ncpus),
        opencl_on_cpus: true,
        sched_policy: sched.map(Into::into),
        ..Config::default()
    });
    if rt.devices().nopencl() == 0 {
        eprintln!("skipped: no OpenCL device (install pocl-opencl-icd)");
        rt.shutdown();
        return None;
    }
    Some(rt)
}

fn opencl_scale() -> Codelet {
    let program = program();
    Codelet::new("scale_cl")
        .modes([AccessMode::RW])
        .opencl(move |call| {
            let k = *call.arg::<f32>(0)?;
            let cl = call.opencl()?;
            let v = cl.buffer_of::<f32>(0)?;
            let mut kernel = cl.kernel(&program, "scale")?;
            kernel
                .arg_buffer(&v)?
                .arg(v.first() as u32)?
                .arg(v.len() as u32)?
                .arg(k)?;
            kernel.launch(&[v.len()], None)?;
            Ok(())
        })
}

#[test]
fn an_opencl_only_codelet_runs_on_the_device_and_the_result_comes_home() {
    let Some(rt) = runtime(1, None) else { return };
    let cl = Arc::new(opencl_scale());
    let v = rt.register_vector(vec![1.0f32, 2.0, 3.0, 4.0]).unwrap();
    rt.task(&cl)
        .buffer(&v, AccessMode::RW)
        .arg(3.0f32)
        .submit()
        .unwrap();
    rt.wait_for_all().unwrap();
    assert!(v.is_valid_on(1), "the device holds the value");
    assert!(
        !v.is_valid_on(0),
        "main RAM's copy is stale after the write"
    );
    assert_eq!(
        rt.unregister_take::<Vec<f32>>(&v).unwrap(),
        vec![3.0, 6.0, 9.0, 12.0]
    );
    rt.shutdown();
}

#[test]
fn cpu_and_opencl_tasks_alternate_on_one_vector() {
    let Some(rt) = runtime(1, Some("eager")) else {
        return;
    };
    let on_cl = Arc::new(opencl_scale());
    let on_cpu = Arc::new(Codelet::new("add_cpu").modes([AccessMode::RW]).cpu(|call| {
        call.vector_mut::<f32>(0)?
            .iter_mut()
            .for_each(|x| *x += 1.0);
        Ok(())
    }));
    let v = rt.register_vector(vec![1.0f32; 1000]).unwrap();
    for _ in 0..5 {
        rt.task(&on_cl)
            .buffer(&v, AccessMode::RW)
            .arg(2.0f32)
            .submit()
            .unwrap();
        rt.task(&on_cpu)
            .buffer(&v, AccessMode::RW)
            .submit()
            .unwrap();
    }
    let mut expect = 1.0f32;
    for _ in 0..5 {
        expect = expect * 2.0 + 1.0;
    }
    let out = rt.unregister_take::<Vec<f32>>(&v).unwrap();
    assert!(out.iter().all(|&x| x == expect), "{} != {expect}", out[0]);
    rt.shutdown();
}
