"""OpenCL implementations of Python codelets (starpu.opencl), on a real OpenCL device:
PoCL in CI, which the runtime takes with STARPU_OPENCL_ON_CPUS=1 as StarPU does. Without
an OpenCL device these tests are skipped, saying why; the refusal of OpenCL-only codelets
without OpenCL workers is tested either way."""

import numpy as np
import pytest

import starpu
from device_cases import (adds_matrices_and_pieces_of_a_partition, program_cache, scale_cpu,
                          scales_an_array_on_the_device)

SCALE = """
__kernel void scale(__global float *v, unsigned first, unsigned n, float k) {
    const size_t i = get_global_id(0);
    if (i < n) v[first + i] *= k;
}
"""

# Element (i, j) of a 2-D buffer is at first + i * strides[0] + j * strides[1].
ADD2D = """
__kernel void add2d(__global long *a, unsigned fa, unsigned lda,
                    __global const long *b, unsigned fb, unsigned ldb) {
    const size_t j = get_global_id(0), i = get_global_id(1);
    a[fa + i * lda + j] += b[fb + i * ldb + j];
}
"""

# A tree reduction in each work group's __local memory (its size a power of two).
GROUP_MAX = """
__kernel void group_max(__global const int *v, __global int *out, __local int *tmp) {
    const size_t l = get_local_id(0);
    tmp[l] = v[get_global_id(0)];
    for (size_t h = get_local_size(0) / 2; h > 0; h /= 2) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l < h) tmp[l] = max(tmp[l], tmp[l + h]);
    }
    if (l == 0) out[get_group_id(0)] = tmp[0];
}
"""

program = program_cache(starpu.opencl.Program)


def scale_cl(v, k):
    program(SCALE).launch("scale", v.size, v, np.uint32(v.first), np.uint32(v.size),
                          np.float32(k))
    return "opencl"


def start(monkeypatch, ncpus=1, nopencl=None):
    monkeypatch.setenv("STARPU_OPENCL_ON_CPUS", "1")
    starpu.init(ncpus=ncpus, silent=True, nopencl=nopencl)
    if nopencl != 0 and starpu.opencl.worker_get_count() == 0:
        starpu.shutdown()
        pytest.skip("no OpenCL device (install pocl-opencl-icd)")


@pytest.fixture
def ocl(monkeypatch):
    """A runtime with one CPU worker and the OpenCL devices."""
    start(monkeypatch)
    yield
    while starpu.is_initialized():
        starpu.shutdown()


def test_an_opencl_only_codelet_scales_a_numpy_array_on_the_device(ocl):
    scale = starpu.Codelet(None, modes=["RW"], opencl=scale_cl, name="scale")
    assert scale.func is None and scale.opencl is scale_cl
    scales_an_array_on_the_device(scale, 8, "opencl")


def test_buffers_describe_the_data_and_its_place_in_the_device_buffer(ocl):
    seen = []

    def look(a):
        seen.append((a.shape, a.strides, a.first, a.offset, a.size, a.ndim, a.itemsize,
                     a.dtype, a.mem != 0))

    look_cl = starpu.Codelet(None, modes=["R"], opencl=look)
    m = np.zeros((3, 5), dtype=np.int64)
    starpu.task_submit()(look_cl, m).result()
    col = np.zeros((4, 10), dtype=np.int32)[:, 2:5]  # 3 columns of 4 rows, ld 10
    starpu.task_submit()(look_cl, col).result()
    assert seen[0] == ((3, 5), (5, 1), 0, 0, 15, 2, 8, np.dtype(np.int64), True)
    # The device copy of a strided array is packed: its rows are 3 apart there, not 10.
    assert seen[1][:2] == ((4, 3), (3, 1)) and seen[1][5:7] == (2, 4)


def test_a_2d_launch_adds_matrices_and_pieces_of_a_partition(ocl):
    add = starpu.Codelet(None, modes=["RW", "R"], opencl=lambda a, b: program(ADD2D).launch(
        "add2d", (a.shape[1], a.shape[0]), a, np.uint32(a.first), np.uint32(a.strides[0]),
        b, np.uint32(b.first), np.uint32(b.strides[0]), local_size=(1, 1)))
    # Rows 2 and 3 of `a` as the second piece of a partition plan: its device buffer is
    # the whole array's, its data starts at `first`.
    ha, _, _, expected = adds_matrices_and_pieces_of_a_partition(add)
    assert ha.get().tolist() == expected.tolist()


def test_local_memory_and_work_groups(ocl):
    def group_max(v, out):
        group = v.size // out.size
        program(GROUP_MAX).launch("group_max", v.size, v, out,
                                  starpu.opencl.Local(4 * group), local_size=group)

    cl = starpu.Codelet(None, modes=["R", "W"], opencl=group_max)
    v = ((np.arange(32) * 13) % 32).astype(np.int32)
    out = np.zeros(4, dtype=np.int32)
    starpu.task_submit()(cl, v, out)
    assert starpu.acquire(out).tolist() == v.reshape(4, 8).max(axis=1).tolist()
    starpu.release(out)


def test_cpu_and_opencl_implementations_alternate_on_one_array(ocl):
    ocl_add = starpu.Codelet(None, modes=["RW"], opencl=lambda v, k: program(SCALE).launch(
        "scale", v.size, v, np.uint32(v.first), np.uint32(v.size), np.float32(k)))
    cpu_add = starpu.Codelet(scale_cpu, modes=["RW"])
    x = np.ones(5, dtype=np.float32)
    for k in range(1, 6):
        starpu.task_submit()(ocl_add if k % 2 else cpu_add, x, float(k))
    assert starpu.acquire(x, mode="R").tolist() == [120.0] * 5
    starpu.release(x)


@pytest.mark.parametrize("ncpus,nopencl,where", [(0, None, "opencl"), (1, 0, "cpu")])
def test_a_codelet_with_both_runs_where_workers_are(monkeypatch, ncpus, nopencl, where):
    start(monkeypatch, ncpus=ncpus, nopencl=nopencl)
    try:
        both = starpu.Codelet(scale_cpu, modes=["RW"], opencl=scale_cl)
        x = np.ones(4, dtype=np.float32)
        assert starpu.task_submit()(both, x, 2.0).result() == where
        assert starpu.acquire(x).tolist() == [2.0] * 4
        starpu.release(x)
    finally:
        starpu.shutdown()


def test_a_program_that_does_not_build_fails_its_task_only(ocl):
    broken = starpu.opencl.Program("__kernel void f(__global int *v) { v[0] = ; }")
    x = np.arange(3, dtype=np.float32)
    cl = starpu.Codelet(None, modes=["RW"], opencl=lambda v: broken.launch("f", 1, v),
                        name="broken")
    fut = starpu.task_submit(name="t_broken")(cl, x)
    with pytest.raises(starpu.TaskFailedError) as e:
        fut.result()
    assert "Build program failure" in str(e.value)
    assert "error:" in str(e.value)  # the compiler's log
    assert e.value.starpu_task == "t_broken"
    with pytest.raises(starpu.TaskFailedError):
        starpu.task_wait_for_all()
    # Nothing lost: the data keeps its value, later tasks run.
    scale = starpu.Codelet(None, modes=["RW"], opencl=scale_cl)
    starpu.task_submit()(scale, x, 2.0).result()
    assert starpu.acquire(x).tolist() == [0.0, 2.0, 4.0]
    starpu.release(x)


def test_launch_errors_fail_the_task_with_a_clear_exception(ocl):
    x = np.arange(4, dtype=np.float32)

    def run(f):
        cl = starpu.Codelet(None, modes=["RW"], opencl=f)
        fut = starpu.task_submit()(cl, x)
        try:
            fut.result()
        finally:
            try:
                starpu.task_wait_for_all()
            except Exception:
                pass

    # A Python int has no OpenCL type: say which numpy scalar to use.
    with pytest.raises(TypeError, match="numpy.float32"):
        run(lambda v: program(SCALE).launch("scale", 4, v, 0, np.uint32(4), np.float32(1)))
    # OpenCL refuses an argument of the wrong size, a kernel that is not there.
    with pytest.raises(starpu.TaskFailedError, match="clSetKernelArg"):
        run(lambda v: program(SCALE).launch("scale", 4, v, np.uint64(0), np.uint32(4),
                                            np.float32(1)))
    with pytest.raises(starpu.TaskFailedError, match="Invalid kernel name"):
        run(lambda v: program(SCALE).launch("no_such_kernel", 4, v))
    with pytest.raises(starpu.InvalidArgumentError, match="1 to 3 sizes"):
        run(lambda v: program(SCALE).launch("scale", (1, 1, 1, 1), v))
    # A buffer kept from an earlier call is refused, not handed to OpenCL.
    kept = []

    def keep(v):
        kept.append(v)

    run(keep)
    with pytest.raises(starpu.InvalidArgumentError, match="another task"):
        run(lambda v: program(SCALE).launch("scale", 4, kept[0], np.uint32(0),
                                            np.uint32(4), np.float32(1)))
    assert starpu.acquire(x).tolist() == [0.0, 1.0, 2.0, 3.0]
    starpu.release(x)


def test_launch_outside_an_opencl_implementation_is_refused(ocl):
    with pytest.raises(starpu.InvalidArgumentError, match="OpenCL implementation"):
        program(SCALE).launch("scale", 1)
    cpu = starpu.Codelet(lambda: program(SCALE).launch("scale", 1), modes=[])
    with pytest.raises(starpu.InvalidArgumentError, match="OpenCL implementation"):
        starpu.task_submit()(cpu).result()
    with pytest.raises(starpu.InvalidArgumentError):
        starpu.task_wait_for_all()


def test_without_opencl_workers_an_opencl_only_codelet_is_refused_at_submission():
    starpu.init(ncpus=1, silent=True, nopencl=0)
    try:
        assert starpu.opencl.worker_get_count() == 0
        scale = starpu.Codelet(None, modes=["RW"], opencl=scale_cl)
        x = np.arange(3, dtype=np.float32)
        with pytest.raises(starpu.NoDeviceError, match="OpenCL"):
            starpu.task_submit()(scale, x, 2.0)
        assert x.tolist() == [0.0, 1.0, 2.0]
        assert starpu.task_submit()(lambda: 7).result() == 7
    finally:
        starpu.shutdown()


def test_a_codelet_needs_some_implementation():
    with pytest.raises(TypeError, match="opencl="):
        starpu.Codelet(None, modes=["R"])
    with pytest.raises(TypeError):
        starpu.Codelet(None, modes=["R"], opencl=3)
