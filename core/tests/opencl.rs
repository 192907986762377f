//! OpenCL workers on a real device (PoCL in CI, with `opencl_on_cpus`, as StarPU needs
//! `STARPU_OPENCL_ON_CPUS=1`). Without an OpenCL device the tests say so and pass.

mod common;

use common::points::{self, multiformat_of};
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

/// A codelet with a CPU and an OpenCL implementation that count where they ran.
fn counting(cpu: Arc<AtomicUsize>, ocl: Arc<AtomicUsize>) -> Codelet {
    Codelet::new("where")
        .modes([AccessMode::R])
        .cpu(move |_| {
            cpu.fetch_add(1, Ordering::SeqCst);
            Ok(())
        })
        .opencl(move |call| {
            call.opencl()?.buffer_of::<f32>(0)?;
            ocl.fetch_add(1, Ordering::SeqCst);
            Ok(())
        })
}

use std::sync::atomic::{AtomicUsize, Ordering};

#[test]
fn where_workers_and_can_execute_choose_the_kind() {
    let Some(rt) = runtime(1, Some("eager")) else {
        return;
    };
    let (cpu, ocl) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let both = Arc::new(counting(cpu.clone(), ocl.clone()));
    let v = rt.register_vector(vec![1.0f32; 16]).unwrap();
    let ocl_worker = rt.worker_ids(Some(starpu_core::worker::WorkerKind::OpenCl))[0];
    let opencl_only = starpu_core::task::where_mask::OPENCL;
    for _ in 0..3 {
        rt.task(&both)
            .buffer(&v, AccessMode::R)
            .where_mask(opencl_only)
            .submit()
            .unwrap();
        rt.task(&both)
            .buffer(&v, AccessMode::R)
            .worker(ocl_worker)
            .submit()
            .unwrap();
    }
    rt.wait_for_all().unwrap();
    assert_eq!(
        (cpu.load(Ordering::SeqCst), ocl.load(Ordering::SeqCst)),
        (0, 6)
    );
    let cpu_only =
        Arc::new(counting(cpu.clone(), ocl.clone()).can_execute(move |w, _, _| w != ocl_worker));
    for _ in 0..4 {
        rt.task(&cpu_only)
            .buffer(&v, AccessMode::R)
            .submit()
            .unwrap();
    }
    rt.wait_for_all().unwrap();
    assert_eq!(
        (cpu.load(Ordering::SeqCst), ocl.load(Ordering::SeqCst)),
        (4, 6)
    );
    // A codelet with only a CPU implementation never goes to the OpenCL worker.
    let cpu_count = cpu.clone();
    let plain = Arc::new(Codelet::new("cpu").modes([AccessMode::R]).cpu(move |_| {
        cpu_count.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }));
    assert!(rt
        .task(&plain)
        .buffer(&v, AccessMode::R)
        .worker(ocl_worker)
        .submit()
        .is_err());
    rt.unregister(&v, true).unwrap();
    rt.shutdown();
}

#[test]
fn the_bus_model_is_measured_saved_and_predicts_transfers() {
    let Some(rt) = runtime(1, None) else { return };
    let mem = rt.memory().clone();
    let bus = mem.bus().expect("measured at start");
    assert!(bus.bandwidth(0, 1) > 0.0 && bus.bandwidth(1, 0) > 0.0);
    assert!(bus.latency(0, 1) > 0.0);
    let base = starpu_core::perfmodel::settings::sampling_base().join("bus");
    let host = starpu_core::perfmodel::settings::hostname();
    for kind in ["bandwidth", "latency", "config"] {
        assert!(
            base.join(format!("{host}.{kind}")).is_file(),
            "no {kind} file"
        );
    }
    let v = rt.register_vector(vec![0.0f32; 1 << 20]).unwrap();
    let to_device = starpu_core::perfmodel::bus::data_transfer_time(&v, 1);
    assert!(
        to_device > bus.latency(0, 1),
        "{to_device} us to move 4 MiB"
    );
    assert_eq!(starpu_core::perfmodel::bus::data_transfer_time(&v, 0), 0.0);
    rt.prefetch(&v, 1, starpu_core::memory::Level::Fetch, 0, false)
        .unwrap();
    assert!(v.is_valid_on(1) && v.is_valid_on(0));
    assert_eq!(starpu_core::perfmodel::bus::data_transfer_time(&v, 1), 0.0);
    rt.unregister(&v, true).unwrap();
    rt.shutdown();
}

/// dmda counts the transfer, dm does not: with the data in main RAM and a kernel much
/// faster on the device than the transfer is long, dm sends the task to the device and
/// dmda keeps it on the CPU.
#[test]
fn dmda_weighs_the_transfer_and_dm_does_not() {
    for (policy, expect_cpu) in [("dm", 0), ("dmda", 1)] {
        let Some(rt) = runtime(1, Some(policy)) else {
            return;
        };
        let v = rt.register_vector(vec![0.0f32; 1 << 21]).unwrap();
        let transfer = starpu_core::perfmodel::bus::data_transfer_time(&v, 1);
        // On the CPU: half the transfer; on the device: a tenth of that.
        let cpu_len = transfer / 2.0;
        let (cpu, ocl) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let mut cl = counting(cpu.clone(), ocl.clone());
        cl.model = Some(starpu_core::perfmodel::PerfModel::per_arch(
            move |_, arch, _| match arch.devices[0].kind {
                starpu_core::worker::WorkerKind::Cpu => cpu_len,
                _ => cpu_len / 10.0,
            },
        ));
        rt.task(&Arc::new(cl))
            .buffer(&v, AccessMode::R)
            .submit()
            .unwrap();
        rt.wait_for_all().unwrap();
        assert_eq!(
            (cpu.load(Ordering::SeqCst), ocl.load(Ordering::SeqCst)),
            (expect_cpu, 1 - expect_cpu),
            "{policy} with a {transfer:.0} us transfer"
        );
        rt.unregister(&v, true).unwrap();
        rt.shutdown();
    }
}

/// The transfers between main RAM and the device reach the trace (when recording) and the
/// bus statistics: the vector goes to the device for the task and comes back to be read.
#[test]
fn transfers_reach_the_trace_and_the_bus_statistics() {
    use starpu_core::data::AcquireNode;
    use starpu_core::trace::model::Model;
    let rt = common::start(Config {
        ncpus: Some(1),
        opencl_on_cpus: true,
        trace: true,
        ..Config::default()
    });
    if rt.devices().nopencl() == 0 {
        eprintln!("skipped: no OpenCL device (install pocl-opencl-icd)");
        rt.shutdown();
        return;
    }
    let cl = Arc::new(opencl_scale());
    let v = rt.register_vector(vec![1.0f32; 256]).unwrap();
    rt.task(&cl)
        .buffer(&v, AccessMode::RW)
        .arg(2.0f32)
        .submit()
        .unwrap();
    rt.acquire(&v, AcquireNode::Node(0), AccessMode::R).unwrap();
    rt.release(&v).unwrap();
    let m = Model::of(&rt.trace_snapshot());
    let routes: Vec<(u32, u32, u64)> = m
        .transfers
        .iter()
        .map(|t| (t.src, t.dst, t.bytes))
        .collect();
    assert_eq!(routes, vec![(0, 1, 1024), (1, 0, 1024)], "{routes:?}");
    let text = rt.bus_stats_text();
    assert!(text.contains("Data transfer stats:"), "{text}");
    assert_eq!(
        rt.unregister_take::<Vec<f32>>(&v).unwrap(),
        vec![2.0f32; 256]
    );
    rt.shutdown();
}

/// Sums each work group's elements through `__local` memory, scaled by a factor given as
/// raw bytes: the arguments a face passes when it knows values only as bytes.
const GROUP_SUM: &str = "__kernel void group_sum(__global const int *v, __global int *out,
                                                  __local int *tmp, int k) {
    const size_t l = get_local_id(0), n = get_local_size(0);
    tmp[l] = v[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        int s = 0;
        for (size_t i = 0; i < n; i++) s += tmp[i];
        out[get_group_id(0)] = k * s;
    }
}";

#[test]
fn raw_bytes_and_local_memory_arguments() {
    let Some(rt) = runtime(1, None) else { return };
    let program = Arc::new(Program::from_source(GROUP_SUM));
    let cl = Arc::new(
        Codelet::new("group_sum")
            .modes([AccessMode::R, AccessMode::W])
            .opencl(move |call| {
                let cl = call.opencl()?;
                let (v, out) = (cl.buffer_of::<i32>(0)?, cl.buffer_of::<i32>(1)?);
                let group = v.len() / out.len();
                let mut kernel = cl.kernel(&program, "group_sum")?;
                kernel
                    .arg_buffer(&v)?
                    .arg_buffer(&out)?
                    .arg_local(group * 4)?
                    .arg_bytes(&3i32.to_ne_bytes())?;
                kernel.launch(&[v.len()], Some(&[group]))?;
                Ok(())
            }),
    );
    let v = rt.register_vector((1..=16).collect::<Vec<i32>>()).unwrap();
    let out = rt.register_vector(vec![0i32; 4]).unwrap();
    rt.task(&cl)
        .buffer(&v, AccessMode::R)
        .buffer(&out, AccessMode::W)
        .submit()
        .unwrap();
    rt.wait_for_all().unwrap();
    // Groups of 4: 1+2+3+4 = 10, 26, 42, 58, times 3.
    assert_eq!(
        rt.unregister_take::<Vec<i32>>(&out).unwrap(),
        vec![30, 78, 126, 174]
    );
    rt.unregister(&v, true).unwrap();
    rt.shutdown();
}

/// Points {x, y} in the CPU format, all x then all y in the OpenCL format.
const AOS_TO_SOA: &str =
    "__kernel void aos_to_soa(__global const float *aos, __global float *soa, unsigned n) {
    const size_t i = get_global_id(0);
    if (i < n) { soa[i] = aos[2 * i]; soa[n + i] = aos[2 * i + 1]; }
}
__kernel void scale_soa(__global float *soa, unsigned n) {
    const size_t i = get_global_id(0);
    if (i < n) { soa[i] *= 2.0f; soa[n + i] += 1.0f; }
}";

/// An OpenCL implementation launching `name` over the multiformat buffer's `nx` items,
/// with the cl_mem of each format `formats` picks as arguments.
fn soa_kernel(
    program: Arc<Program>,
    name: &'static str,
    both: bool,
) -> impl Fn(&starpu_core::task::KernelCall) -> starpu_core::task::KernelResult + Send + Sync {
    move |call| {
        let m = multiformat_of(call);
        let cl = call.opencl()?;
        let mut kernel = cl.kernel(&program, name)?;
        if both {
            kernel.arg(m.cpu_ptr as *mut std::ffi::c_void)?;
        }
        kernel
            .arg(m.opencl_ptr as *mut std::ffi::c_void)?
            .arg(m.nx)?;
        kernel.launch(&[m.nx as usize], None)?;
        Ok(())
    }
}

#[test]
fn multiformat_data_is_converted_for_the_device_and_back() {
    use starpu_core::data::interfaces::MultiformatOps;
    use starpu_core::task::multiformat::{set_conversions, Conversions};
    use std::sync::atomic::{AtomicUsize, Ordering};
    let Some(rt) = runtime(1, None) else { return };
    const N: usize = 50;
    // (Kept until the end: the handle refers to it, as StarPU's do.)
    let ops = Box::new(MultiformatOps {
        cpu_elemsize: 8,
        opencl_elemsize: 8,
        cpu_to_opencl_cl: std::ptr::null_mut(),
        opencl_to_cpu_cl: std::ptr::null_mut(),
        cuda_elemsize: 0,
        cpu_to_cuda_cl: std::ptr::null_mut(),
        cuda_to_cpu_cl: std::ptr::null_mut(),
    });
    let program = Arc::new(Program::from_source(AOS_TO_SOA));
    let (to_device, to_cpu) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let convert = soa_kernel(program.clone(), "aos_to_soa", true);
    let counted = to_device.clone();
    let cpu_to_opencl = Codelet::new("aos_to_soa").opencl(move |call| {
        counted.fetch_add(1, Ordering::SeqCst);
        convert(call)
    });
    let opencl_to_cpu = points::soa_to_aos(to_cpu.clone(), |m| m.opencl_ptr);
    let scale = Arc::new(
        Codelet::new("scale_soa")
            .modes([AccessMode::RW])
            .opencl(soa_kernel(program, "scale_soa", false)),
    );
    let add1 = points::add1_aos();
    let mut points = points::points(N);
    // SAFETY: `points` and `ops` outlive the handle (unregistered below).
    let h = unsafe { points::register(&rt, &mut points, &ops) };
    set_conversions(
        &h,
        Conversions {
            cpu_to_opencl: Some(Arc::new(cpu_to_opencl)),
            opencl_to_cpu: Some(Arc::new(opencl_to_cpu)),
            ..Conversions::default()
        },
    )
    .unwrap();
    // On the device (converted there), then on a CPU (converted back), then the device.
    for cl in [&scale, &add1, &scale] {
        rt.task(cl).buffer(&h, AccessMode::RW).submit().unwrap();
    }
    rt.wait_for_all().unwrap();
    assert_eq!(
        (
            to_device.load(Ordering::SeqCst),
            to_cpu.load(Ordering::SeqCst)
        ),
        (2, 1)
    );
    rt.unregister(&h, true).unwrap();
    assert_eq!(
        to_cpu.load(Ordering::SeqCst),
        2,
        "unregistration converts back"
    );
    for i in 0..N {
        let (x, y) = (points[2 * i], points[2 * i + 1]);
        assert_eq!(
            (x, y),
            (4.0 * i as f32 + 2.0, 102.0 + i as f32),
            "point {i}"
        );
    }
    rt.shutdown();
}
