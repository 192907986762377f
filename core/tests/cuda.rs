#![cfg(feature = "cuda")]
//! CUDA workers. Two sets of tests, one for each kind of machine:
//! - `no_gpu_*`: what a machine without a CUDA driver or device answers (CI): zero CUDA
//!   workers, a CUDA-only task refused at submission, clean errors from the CUDA calls.
//!   They say "skipped" and pass where a GPU is present.
//! - `gpu_*`: real kernels (CUDA C compiled by NVRTC, cuBLAS) on a real device; they say
//!   "skipped" and pass without one. `scripts/gpu-check.sh` runs them on a GPU machine.
//!
//! The rest runs everywhere.

mod common;

use common::points::{self, multiformat_of};
use starpu_core::drivers::cuda::{self, Module};
use starpu_core::memory::Limits;
use starpu_core::task::where_mask;
use starpu_core::worker::WorkerKind;
use starpu_core::{AccessMode, Codelet, Config, ErrorKind, Filter, Runtime};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

fn has_gpu() -> bool {
    !cuda::all().is_empty()
}

fn skip_with_gpu() -> bool {
    if has_gpu() {
        eprintln!("skipped: this machine has a CUDA device (the gpu_* tests cover it)");
    }
    has_gpu()
}

fn skip_without_gpu() -> bool {
    if !has_gpu() {
        eprintln!("skipped: no CUDA device (scripts/gpu-check.sh runs this on a GPU machine)");
    }
    !has_gpu()
}

/// A CUDA-only codelet adding `k` to each element of an int64 vector.
fn cuda_add() -> Codelet {
    Codelet::new("add_cuda")
        .modes([AccessMode::RW])
        .cuda(move |call| {
            let k = *call.arg::<i64>(0)?;
            let cuda = call.cuda()?;
            let v = cuda.buffer_of::<i64>(0)?;
            let n = v.len() as u32;
            cuda.launch(module(), "add")?
                .arg_buffer(&v)
                .arg(n)
                .arg(k)
                .run((n.div_ceil(128), 1, 1), (128, 1, 1), 0)?;
            Ok(())
        })
}

fn cpu_scale() -> Codelet {
    Codelet::new("scale_cpu")
        .modes([AccessMode::RW])
        .cpu(|call| {
            let k = *call.arg::<i64>(0)?;
            call.vector_mut::<i64>(0)?.iter_mut().for_each(|x| *x *= k);
            Ok(())
        })
}

const ADD: &str = r#"
extern "C" __global__ void add(long long *v, unsigned n, long long k) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] += k;
}"#;

fn module() -> &'static Module {
    static M: OnceLock<Module> = OnceLock::new();
    M.get_or_init(|| Module::from_source(ADD))
}

fn runtime(ncpus: usize, sched: &str, limits: Limits) -> Arc<Runtime> {
    common::start(Config {
        ncpus: Some(ncpus),
        sched_policy: Some(sched.into()),
        memory_limits: limits,
        ..Config::default()
    })
}

// ------------------------------------------------------------------ everywhere

#[test]
fn a_codelet_with_a_cuda_implementation_may_run_on_cuda_workers() {
    let cl = cuda_add();
    assert_eq!(cl.effective_where(), where_mask::CUDA);
    assert_eq!(cl.funcs(WorkerKind::Cuda).len(), 1);
    let both = cpu_scale().cuda(|_| Ok(()));
    assert_eq!(both.effective_where(), where_mask::CPU | where_mask::CUDA);
}

#[test]
fn ncuda_zero_gives_no_cuda_worker_on_any_machine() {
    let rt = common::start(Config {
        ncpus: Some(1),
        ncuda: Some(0),
        ..Config::default()
    });
    assert_eq!(rt.devices().ncuda(), 0);
    assert!(rt.worker_ids(Some(WorkerKind::Cuda)).is_empty());
    rt.shutdown();
}

#[test]
fn the_cuda_side_of_a_cpu_kernel_is_a_clear_error() {
    let rt = common::runtime(1, Some("eager"));
    let seen = Arc::new(std::sync::Mutex::new(String::new()));
    let s = seen.clone();
    let cl = Arc::new(
        Codelet::new("asks_cuda")
            .modes([AccessMode::R])
            .cpu(move |call| {
                *s.lock().unwrap() = call.cuda().err().map(|e| e.message).unwrap_or_default();
                Ok(())
            }),
    );
    let v = rt.register_vector(vec![1i64; 4]).unwrap();
    rt.task(&cl).buffer(&v, AccessMode::R).submit().unwrap();
    rt.wait_for_all().unwrap();
    assert!(
        seen.lock()
            .unwrap()
            .contains("does not run on a CUDA worker"),
        "{}",
        seen.lock().unwrap()
    );
    // Outside any worker too: the library handles belong to CUDA workers.
    let e = cuda::libs::cublas_handle().unwrap_err();
    assert_eq!(e.kind, ErrorKind::InvalidArgument);
    assert!(cuda::libs::cusolver_handle().is_err());
    rt.unregister(&v, true).unwrap();
    rt.shutdown();
}

// ------------------------------------------------------------------ without a GPU

#[test]
fn no_gpu_the_runtime_starts_with_zero_cuda_workers_and_stops_cleanly() {
    if skip_with_gpu() {
        return;
    }
    assert!(cuda::all().is_empty());
    // Asking for CUDA workers is not an error: there are none, as with StarPU.
    let rt = common::start(Config {
        ncpus: Some(1),
        ncuda: Some(2),
        ..Config::default()
    });
    assert_eq!(rt.devices().ncuda(), 0);
    assert!(rt.worker_ids(Some(WorkerKind::Cuda)).is_empty());
    assert!(rt
        .memory()
        .nodes()
        .iter()
        .all(|n| n.kind() != starpu_core::memory::NodeKind::Cuda));
    rt.shutdown();
}

#[test]
fn no_gpu_a_cuda_only_task_is_refused_at_submission_and_nothing_is_lost() {
    if skip_with_gpu() {
        return;
    }
    let rt = common::runtime(1, Some("dmda"));
    let cl = Arc::new(cuda_add());
    let v = rt.register_vector(vec![1i64, 2, 3]).unwrap();
    let e = rt
        .task(&cl)
        .buffer(&v, AccessMode::RW)
        .arg(5i64)
        .submit()
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::NoDevice, "{}", e.message);
    assert_eq!(e.errno(), libc::ENODEV);
    assert!(e.message.contains("1 CUDA"), "{}", e.message);
    // The handle is intact: a CPU task still runs on it.
    rt.task(&Arc::new(cpu_scale()))
        .buffer(&v, AccessMode::RW)
        .arg(2i64)
        .submit()
        .unwrap();
    assert_eq!(rt.unregister_take::<Vec<i64>>(&v).unwrap(), vec![2, 4, 6]);
    rt.shutdown();
}

#[test]
fn no_gpu_the_c_api_helpers_answer_without_a_device() {
    if skip_with_gpu() {
        return;
    }
    assert!(cuda::raw::set_device(0).is_err());
    assert!(cuda::raw::device_properties(0).is_none());
    let (a, b) = ([1u8; 8], [0u8; 8]);
    let r = unsafe {
        cuda::raw::copy(
            a.as_ptr() as usize,
            b.as_ptr() as usize,
            starpu_core::memory::driver::Region::contiguous(8),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(r.unwrap_err().kind, ErrorKind::NoDevice);
    // Pinning is not needed without a device: nothing done, no error.
    let mut buf = vec![0u8; 64];
    assert!(!unsafe { cuda::pinned::pin(buf.as_mut_ptr() as usize, 64) }.unwrap());
    assert!(!cuda::pinned::unpin(buf.as_mut_ptr() as usize));
    assert!(cuda::raw::runtime_error_string(2).contains('2') || has_gpu());
}

// ------------------------------------------------------------------ with a GPU

#[test]
fn gpu_data_written_on_the_device_is_read_on_the_cpu_and_back() {
    if skip_without_gpu() {
        return;
    }
    let rt = runtime(1, "eager", Limits::default());
    let (on_gpu, on_cpu) = (Arc::new(cuda_add()), Arc::new(cpu_scale()));
    let v = rt.register_vector(vec![1i64, 2, 3, 4]).unwrap();
    rt.task(&on_gpu)
        .buffer(&v, AccessMode::RW)
        .arg(10i64)
        .submit()
        .unwrap();
    rt.wait_for_all().unwrap();
    assert!(
        v.is_valid_on(1) && !v.is_valid_on(0),
        "only the GPU holds it"
    );
    rt.task(&on_cpu)
        .buffer(&v, AccessMode::RW)
        .arg(2i64)
        .submit()
        .unwrap();
    rt.task(&on_gpu)
        .buffer(&v, AccessMode::RW)
        .arg(1i64)
        .submit()
        .unwrap();
    assert_eq!(
        rt.unregister_take::<Vec<i64>>(&v).unwrap(),
        vec![23, 25, 27, 29]
    );
    rt.shutdown();
}

#[test]
fn gpu_partitioned_pieces_are_changed_on_the_device() {
    if skip_without_gpu() {
        return;
    }
    let rt = runtime(1, "eager", Limits::default());
    let on_gpu = Arc::new(cuda_add());
    let v = rt.register_vector((0..10i64).collect::<Vec<_>>()).unwrap();
    let pieces = rt.partition(&v, &Filter::vector_block(3)).unwrap();
    for (i, p) in pieces.iter().enumerate() {
        rt.task(&on_gpu)
            .buffer(p, AccessMode::RW)
            .arg(100 * (i as i64 + 1))
            .submit()
            .unwrap();
    }
    rt.unpartition(&v, 0).unwrap();
    assert_eq!(
        rt.unregister_take::<Vec<i64>>(&v).unwrap(),
        vec![100, 101, 102, 103, 204, 205, 206, 307, 308, 309]
    );
    rt.shutdown();
}

#[test]
fn gpu_eviction_under_a_small_limit_loses_nothing() {
    if skip_without_gpu() {
        return;
    }
    // 1 MiB on the device; 6 vectors of 320 KB go through it three times.
    let limits = Limits {
        cuda: Some(1 << 20),
        ..Limits::default()
    };
    let rt = runtime(1, "eager", limits);
    let on_gpu = Arc::new(cuda_add());
    let vs: Vec<_> = (0..6)
        .map(|_| rt.register_vector(vec![0i64; 40_000]).unwrap())
        .collect();
    for k in 1..=3i64 {
        for v in &vs {
            rt.task(&on_gpu)
                .buffer(v, AccessMode::RW)
                .arg(k)
                .submit()
                .unwrap();
        }
    }
    rt.wait_for_all().unwrap();
    assert!(rt.memory().node(1).unwrap().used() <= 1 << 20);
    for v in &vs {
        let out = rt.unregister_take::<Vec<i64>>(v).unwrap();
        assert!(out.iter().all(|&x| x == 6));
    }
    rt.shutdown();
}

#[test]
fn gpu_cublas_runs_on_the_worker_stream() {
    if skip_without_gpu() {
        return;
    }
    use cudarc::cublas::sys as cb;
    let rt = runtime(1, "eager", Limits::default());
    // y = 2 * x + y with cuBLAS's daxpy on the worker's handle.
    let axpy = Arc::new(
        Codelet::new("daxpy")
            .modes([AccessMode::R, AccessMode::RW])
            .cuda(|call| {
                let cuda = call.cuda()?;
                let (x, y) = (cuda.buffer_of::<f64>(0)?, cuda.buffer_of::<f64>(1)?);
                let h = cuda.cublas_raw()? as cb::cublasHandle_t;
                let alpha = 2.0f64;
                let s = unsafe {
                    cb::cublasDaxpy_v2(
                        h,
                        x.len() as i32,
                        &alpha,
                        x.ptr as *const f64,
                        1,
                        y.ptr as *mut f64,
                        1,
                    )
                };
                if s != cb::cublasStatus_t::CUBLAS_STATUS_SUCCESS {
                    return Err(format!("cublasDaxpy: {s:?}").into());
                }
                Ok(())
            }),
    );
    let x = rt.register_vector(vec![1.0f64, 2.0, 3.0]).unwrap();
    let y = rt.register_vector(vec![10.0f64; 3]).unwrap();
    rt.task(&axpy)
        .buffer(&x, AccessMode::R)
        .buffer(&y, AccessMode::RW)
        .submit()
        .unwrap();
    assert_eq!(
        rt.unregister_take::<Vec<f64>>(&y).unwrap(),
        vec![12.0, 14.0, 16.0]
    );
    rt.unregister(&x, true).unwrap();
    rt.shutdown();
}

#[test]
fn gpu_models_send_each_task_where_it_ends_first() {
    if skip_without_gpu() {
        return;
    }
    // dmda with a model 100 times faster on the GPU than on the CPU (and a small
    // transfer): the tasks go to the GPU; the reverse model keeps them on the CPU.
    for (gpu_faster, expect_gpu) in [(true, 4), (false, 0)] {
        let rt = runtime(1, "dmda", Limits::default());
        let (cpu, gpu) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let (c, g) = (cpu.clone(), gpu.clone());
        let mut cl = Codelet::new("either")
            .modes([AccessMode::R])
            .cpu(move |_| {
                c.fetch_add(1, Ordering::SeqCst);
                Ok(())
            })
            .cuda(move |_| {
                g.fetch_add(1, Ordering::SeqCst);
                Ok(())
            });
        cl.model = Some(starpu_core::perfmodel::PerfModel::per_arch(
            move |_, arch, _| match (arch.devices[0].kind, gpu_faster) {
                (WorkerKind::Cpu, true) | (WorkerKind::Cuda, false) => 100_000.0,
                _ => 1_000.0,
            },
        ));
        let cl = Arc::new(cl);
        let v = rt.register_vector(vec![0i64; 16]).unwrap();
        for _ in 0..4 {
            rt.task(&cl).buffer(&v, AccessMode::R).submit().unwrap();
        }
        rt.wait_for_all().unwrap();
        assert_eq!(gpu.load(Ordering::SeqCst), expect_gpu);
        assert_eq!(cpu.load(Ordering::SeqCst), 4 - expect_gpu);
        rt.unregister(&v, true).unwrap();
        rt.shutdown();
    }
}

#[test]
fn gpu_pinned_memory_is_registered_and_released() {
    if skip_without_gpu() {
        return;
    }
    let p = starpu_core::memory::alloc_ram(1 << 20).unwrap();
    assert!(unsafe { cuda::pinned::pin(p, 1 << 20) }.unwrap());
    assert!(cuda::pinned::unpin(p));
    assert!(!cuda::pinned::unpin(p), "unpinned once");
    starpu_core::memory::free_ram(p);
    assert!(cuda::raw::device_properties(cuda::all()[0].ordinal).is_some());
}

// ------------------------------------------------------------------ multiformat data

/// Points {x, y} in the CPU format, all x then all y in the CUDA format.
const AOS_TO_SOA: &str = r#"
extern "C" __global__ void aos_to_soa(const float *aos, float *soa, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { soa[i] = aos[2 * i]; soa[n + i] = aos[2 * i + 1]; }
}
extern "C" __global__ void scale_soa(float *soa, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { soa[i] *= 2.0f; soa[n + i] += 1.0f; }
}"#;

const POINTS: usize = 50;

/// A CUDA implementation launching `name` over the multiformat buffer's points, given the
/// CPU format's device address first when `both`, then the CUDA format's.
fn soa_kernel(
    module: Arc<Module>,
    name: &'static str,
    both: bool,
) -> impl Fn(&starpu_core::task::KernelCall) -> starpu_core::task::KernelResult + Send + Sync {
    move |call| {
        let m = multiformat_of(call);
        let cuda = call.cuda()?;
        let mut launch = cuda.launch(&module, name)?;
        if both {
            launch.arg(m.cpu_ptr as u64);
        }
        launch
            .arg(m.cuda_ptr as u64)
            .arg(m.nx)
            .run((m.nx.div_ceil(64), 1, 1), (64, 1, 1), 0)?;
        Ok(())
    }
}

/// Multiformat points with CUDA conversions (counted: to the GPU, back to the CPU), and
/// a CUDA-only codelet scaling them in the CUDA format, a CPU one adding 1 to each x.
struct Points {
    ops: Box<starpu_core::data::interfaces::MultiformatOps>,
    points: Box<[f32]>,
    to_gpu: Arc<AtomicUsize>,
    to_cpu: Arc<AtomicUsize>,
    scale: Arc<Codelet>,
    add1: Arc<Codelet>,
}

impl Points {
    fn new() -> Points {
        let module = Arc::new(Module::from_source(AOS_TO_SOA));
        Points {
            ops: Box::new(starpu_core::data::interfaces::MultiformatOps {
                cpu_elemsize: 8,
                opencl_elemsize: 0,
                cpu_to_opencl_cl: std::ptr::null_mut(),
                opencl_to_cpu_cl: std::ptr::null_mut(),
                cuda_elemsize: 8,
                cpu_to_cuda_cl: std::ptr::null_mut(),
                cuda_to_cpu_cl: std::ptr::null_mut(),
            }),
            points: points::points(POINTS),
            to_gpu: Arc::new(AtomicUsize::new(0)),
            to_cpu: Arc::new(AtomicUsize::new(0)),
            scale: Arc::new(
                Codelet::new("scale_soa")
                    .modes([AccessMode::RW])
                    .cuda(soa_kernel(module, "scale_soa", false)),
            ),
            add1: points::add1_aos(),
        }
    }

    /// The points registered in `rt` with their CUDA conversions.
    fn register(&mut self, rt: &Runtime) -> starpu_core::DataHandle {
        use starpu_core::task::multiformat::{set_conversions, Conversions};
        let convert = soa_kernel(
            Arc::new(Module::from_source(AOS_TO_SOA)),
            "aos_to_soa",
            true,
        );
        let counted = self.to_gpu.clone();
        let cpu_to_cuda = Codelet::new("aos_to_soa").cuda(move |call| {
            counted.fetch_add(1, Ordering::SeqCst);
            convert(call)
        });
        let cuda_to_cpu = points::soa_to_aos(self.to_cpu.clone(), |m| m.cuda_ptr);
        // SAFETY: `points` and `ops` outlive the handle (the tests unregister it).
        let h = unsafe { points::register(rt, &mut self.points, &self.ops) };
        set_conversions(
            &h,
            Conversions {
                cpu_to_cuda: Some(Arc::new(cpu_to_cuda)),
                cuda_to_cpu: Some(Arc::new(cuda_to_cpu)),
                ..Conversions::default()
            },
        )
        .unwrap();
        h
    }
}

#[test]
fn no_gpu_a_cuda_task_on_multiformat_data_is_refused_naming_the_cuda_conversions() {
    if skip_with_gpu() {
        return;
    }
    let rt = runtime(1, "eager", Limits::default());
    let mut p = Points::new();
    let h = p.register(&rt);
    let e = rt
        .task(&p.scale)
        .buffer(&h, AccessMode::RW)
        .submit()
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::NoDevice);
    assert!(
        e.message
            .contains("cpu_to_cuda_cl with a CUDA implementation"),
        "{}",
        e.message
    );
    // The CPU side works, in the CPU format, without any conversion.
    rt.task(&p.add1)
        .buffer(&h, AccessMode::RW)
        .submit()
        .unwrap();
    rt.unregister(&h, true).unwrap();
    assert_eq!(p.points[2..4], [2.0, 101.0]);
    assert_eq!(
        p.to_gpu.load(Ordering::SeqCst) + p.to_cpu.load(Ordering::SeqCst),
        0
    );
    rt.shutdown();
}

#[test]
fn gpu_multiformat_data_is_converted_for_the_gpu_and_back() {
    if skip_without_gpu() {
        return;
    }
    let rt = runtime(1, "eager", Limits::default());
    let mut p = Points::new();
    let h = p.register(&rt);
    // On the GPU (converted there), then on a CPU (converted back), then the GPU.
    for cl in [&p.scale, &p.add1, &p.scale] {
        rt.task(cl).buffer(&h, AccessMode::RW).submit().unwrap();
    }
    rt.wait_for_all().unwrap();
    let counts = || {
        (
            p.to_gpu.load(Ordering::SeqCst),
            p.to_cpu.load(Ordering::SeqCst),
        )
    };
    assert_eq!(counts(), (2, 1));
    rt.unregister(&h, true).unwrap();
    assert_eq!(counts(), (2, 2), "unregistration converts back");
    for i in 0..POINTS {
        let (x, y) = (p.points[2 * i], p.points[2 * i + 1]);
        assert_eq!(
            (x, y),
            (4.0 * i as f32 + 2.0, 102.0 + i as f32),
            "point {i}"
        );
    }
    rt.shutdown();
}

// ------------------------------------------------------------------ STARPU_CUDA_PIPELINE

/// `cuda_add` declared asynchronous (`STARPU_CUDA_ASYNC`): its task may end after it
/// returns, once its kernel is over.
fn cuda_add_async() -> Codelet {
    let mut cl = cuda_add();
    cl.cuda_flags[0] = starpu_core::task::CUDA_ASYNC;
    cl
}

#[test]
fn gpu_asynchronous_tasks_queued_on_the_stream_end_in_order_with_their_data() {
    if skip_without_gpu() {
        return;
    }
    for pipeline in [0, 1, 4] {
        let rt = common::start(Config {
            ncpus: Some(1),
            sched_policy: Some("eager".into()),
            cuda: starpu_core::drivers::CudaOptions {
                pipeline,
                ..Default::default()
            },
            ..Config::default()
        });
        let (on_gpu, on_cpu) = (Arc::new(cuda_add_async()), Arc::new(cpu_scale()));
        let v = rt.register_vector(vec![1i64; 4096]).unwrap();
        // Ten kernels in a row on the stream, then a CPU task that needs all of them.
        for k in 1..=10i64 {
            rt.task(&on_gpu)
                .buffer(&v, AccessMode::RW)
                .arg(k)
                .submit()
                .unwrap();
        }
        rt.task(&on_cpu)
            .buffer(&v, AccessMode::RW)
            .arg(2i64)
            .submit()
            .unwrap();
        rt.wait_for_all().unwrap();
        assert_eq!(
            rt.unregister_take::<Vec<i64>>(&v).unwrap(),
            vec![2 * (1 + 55); 4096],
            "pipeline {pipeline}"
        );
        rt.shutdown();
    }
}
