"""CUDA implementations of Python codelets (starpu.cuda). Without an NVIDIA GPU and its
driver (CI), the tests of the answers there run: no CUDA worker, CUDA-only tasks refused
with NoDeviceError, nothing lost, launches outside a CUDA implementation refused. The GPU
tests are skipped there, saying why; scripts/gpu-check.sh runs them on a GPU machine
(with STARPU_REQUIRE_GPU=1: there, no CUDA worker fails them instead)."""

import os

import numpy as np
import pytest

import starpu
from device_cases import (adds_matrices_and_pieces_of_a_partition, program_cache, scale_cpu,
                          scales_an_array_on_the_device)

SCALE = r"""
extern "C" __global__ void scale(float *v, unsigned n, float k) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] *= k;
}
"""

# Element (i, j) of a 2-D buffer is at i * strides[0] + j * strides[1].
ADD2D = r"""
extern "C" __global__ void add2d(long long *a, unsigned lda, const long long *b,
                                 unsigned ldb, unsigned rows, unsigned cols) {
    unsigned j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
    if (i < rows && j < cols) a[i * lda + j] += b[i * ldb + j];
}
"""

program = program_cache(starpu.cuda.Program)


def scale_cuda(v, k):
    program(SCALE).launch("scale", (v.size + 127) // 128, 128, v, np.uint32(v.size),
                          np.float32(k))
    return "cuda"


@pytest.fixture
def gpu(rt):
    """A runtime (conftest's) with the CUDA GPUs; skips without one."""
    if starpu.cuda.worker_get_count() == 0:
        why = "no CUDA worker (no NVIDIA GPU or driver)"
        if os.environ.get("STARPU_REQUIRE_GPU"):
            pytest.fail(why)
        pytest.skip(why + ": scripts/gpu-check.sh runs these tests on a GPU machine")


def test_a_codelet_keeps_its_cuda_function():
    both = starpu.Codelet(scale_cpu, ["RW"], cuda=scale_cuda)
    assert both.func is scale_cpu and both.cuda is scale_cuda and both.opencl is None
    only = starpu.Codelet(None, ["RW"], cuda=scale_cuda)
    assert only.func is None and "scale_cuda" in repr(only)
    with pytest.raises(TypeError, match="cuda="):
        starpu.Codelet(None, ["RW"])
    with pytest.raises(TypeError, match="callables"):
        starpu.Codelet(None, ["RW"], cuda=3)


def test_programs_take_source_ptx_and_nvrtc_options():
    assert "CudaC" in repr(starpu.cuda.Program(SCALE))
    assert "-DN=4" in repr(starpu.cuda.Program(SCALE, ["-DN=4", "--use_fast_math"]))
    assert "--use_fast_math" in repr(starpu.cuda.Program(SCALE, "-DN=4 --use_fast_math"))
    assert "Ptx" in repr(starpu.cuda.Program.from_ptx(".version 7.0\n"))
    with pytest.raises(TypeError, match="options"):
        starpu.cuda.Program(SCALE, 3)
    assert starpu.cuda.Buffer.__module__ == "starpu.cuda"
    with pytest.raises(TypeError):
        starpu.cuda.Buffer()


def test_launching_outside_a_cuda_implementation_is_an_error(rt):
    with pytest.raises(starpu.InvalidArgumentError, match="only from the CUDA implementation"):
        program(SCALE).launch("scale", 1, 1)
    # Nor from the CPU implementation of a codelet.
    seen = []

    def cpu(v):
        try:
            program(SCALE).launch("scale", 1, 1, np.uint32(0), np.float32(1))
        except starpu.InvalidArgumentError as e:
            seen.append(str(e))

    starpu.task_submit()(starpu.Codelet(cpu, ["RW"], cuda=scale_cuda), np.zeros(4)).result()
    assert seen and "CUDA implementation" in seen[0]


def test_launch_geometry_is_checked_before_anything_runs(rt):
    with pytest.raises(starpu.InvalidArgumentError, match="grid: 1 to 3 sizes"):
        program(SCALE).launch("scale", (1, 1, 1, 1), 1)
    with pytest.raises(TypeError, match="block: an int or a sequence"):
        program(SCALE).launch("scale", 1, "x")


@pytest.mark.skipif("starpu.cuda.worker_get_count() != 0", reason="needs a machine without GPU")
def test_no_gpu_a_cuda_only_task_is_refused_and_the_data_is_untouched(rt):
    assert starpu.cuda.worker_get_count() == 0 == starpu.cuda_worker_get_count()
    only = starpu.Codelet(None, ["RW"], cuda=scale_cuda, name="scale_only_on_gpu")
    x = np.arange(6, dtype=np.float32)
    with pytest.raises(starpu.NoDeviceError, match="scale_only_on_gpu.*0 CUDA"):
        starpu.task_submit()(only, x, 2.0)
    # The same codelet with a CPU function runs there; the data was not lost.
    both = starpu.Codelet(scale_cpu, ["RW"], cuda=scale_cuda)
    assert starpu.task_submit()(both, x, 2.0).result() == "cpu"
    starpu.task_wait_for_all()
    assert starpu.acquire(x, mode="R").tolist() == [2.0 * i for i in range(6)]
    starpu.release(x)


def test_ncuda_zero_gives_no_cuda_worker_on_any_machine():
    starpu.init(ncpus=1, silent=True, ncuda=0)
    try:
        assert starpu.cuda.worker_get_count() == 0
    finally:
        starpu.shutdown()


def test_gpu_a_cuda_only_codelet_scales_a_numpy_array_on_the_gpu(gpu):
    scale = starpu.Codelet(None, ["RW"], cuda=scale_cuda, name="scale")
    scales_an_array_on_the_device(scale, 1000, "cuda")


def test_gpu_buffers_describe_the_data(gpu):
    seen = []

    def look(a):
        seen.append((a.shape, a.strides, a.size, a.ndim, a.itemsize, a.dtype, a.ptr != 0,
                     repr(a)))

    starpu.task_submit()(starpu.Codelet(None, ["R"], cuda=look), np.zeros((3, 5))).result()
    assert seen == [((3, 5), (5, 1), 15, 2, 8, np.dtype(np.float64), True,
                     "<starpu.cuda.Buffer shape=(3, 5)>")]


def test_gpu_a_2d_kernel_adds_matrices_and_pieces_of_a_partition(gpu):
    def add(a, b):
        rows, cols = a.shape
        program(ADD2D).launch("add2d", ((cols + 31) // 32, rows), 32, a,
                              np.uint32(a.strides[0]), b, np.uint32(b.strides[0]),
                              np.uint32(rows), np.uint32(cols))

    ha, hb, a, expected = adds_matrices_and_pieces_of_a_partition(
        starpu.Codelet(None, ["RW", "R"], cuda=add))
    ha.unregister()
    hb.unregister()
    assert (a == expected).all()


def test_gpu_cpu_and_gpu_tasks_alternate_on_one_array(gpu):
    both = starpu.Codelet(scale_cpu, ["RW"], cuda=scale_cuda)
    x = np.ones(64, dtype=np.float32)
    where = [starpu.task_submit()(both, x, 2.0).result() for _ in range(6)]
    assert "cuda" in where
    assert starpu.acquire(x, mode="R").tolist() == [64.0] * 64
    starpu.release(x)


def test_gpu_a_source_that_does_not_compile_fails_its_task_with_the_log(gpu):
    bad = starpu.cuda.Program('extern "C" __global__ void k(float *v) { v[0] = nope; }')
    cl = starpu.Codelet(None, ["RW"], cuda=lambda v: bad.launch("k", 1, 1, v))
    with pytest.raises(starpu.TaskFailedError, match="nope"):
        starpu.task_submit()(cl, np.zeros(4, dtype=np.float32)).result()
