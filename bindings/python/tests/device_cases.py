"""What the CUDA and OpenCL tests (test_cuda.py, test_opencl.py) share: their programs
built once per source, the CPU implementation beside a device's, and the cases both
devices pass with their own codelets."""

import numpy as np

import starpu


def program_cache(make):
    """A function giving one Program per source for the whole session, made by `make`
    (the device's Program: NVRTC and PoCL builds take a while)."""
    programs = {}

    def program(source):
        if source not in programs:
            programs[source] = make(source)
        return programs[source]

    return program


def scale_cpu(v, k):
    v *= k
    return "cpu"


def scales_an_array_on_the_device(scale, n, device):
    """x *= 3, then *= 0.5, by `scale`, a codelet of the device only (it returns `device`);
    the value stays there until main memory asks for it."""
    x = np.arange(n, dtype=np.float32)
    assert starpu.task_submit()(scale, x, 3.0).result() == device
    assert starpu.task_submit()(scale, x, 0.5).result() == device
    assert starpu.acquire(x, mode="R").tolist() == [1.5 * i for i in range(n)]
    starpu.release(x)


def adds_matrices_and_pieces_of_a_partition(add):
    """a += b by `add` (RW, R) on two 4 x 6 arrays, then again on their second halves (rows
    2 and 3) as pieces of a partition; gives the handle of `a`, `a` itself and the value
    expected, which each device test checks its way."""
    a = np.arange(24, dtype=np.int64).reshape(4, 6)
    b = np.full((4, 6), 100, dtype=np.int64)
    ha, hb = starpu.Handle(a), starpu.Handle(b)
    starpu.task_submit()(add, ha, hb)
    pa, pb = ha.partition(2, 0), hb.partition(2, 0)
    starpu.task_submit()(add, pa[1], pb[1])
    ha.unpartition(pa, 2)
    hb.unpartition(pb, 2)
    expected = np.arange(24).reshape(4, 6) + 100
    expected[2:] += 100
    return ha, hb, a, expected
