"""Native kernels (C functions with StarPU's signature) on numpy data, without the GIL."""

import os
import shutil
import subprocess
import threading
from pathlib import Path

import numpy as np
import pytest

import starpu

HERE = Path(__file__).parent
REPO = HERE.parents[2]


def starpu_include():
    """Where starpu.h is: our installed library (`make install`)."""
    prefix = Path(os.environ.get("STARPU_PREFIX", REPO / "build" / "install"))
    inc = prefix / "include" / "starpu" / "1.4"
    return inc if (inc / "starpu.h").exists() else None


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    inc = starpu_include()
    if inc is None or shutil.which("cc") is None:
        pytest.skip("needs a C compiler and starpu.h (make install PREFIX=build/install)")
    out = tmp_path_factory.mktemp("native") / "libkernels.so"
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-I", str(inc), str(HERE / "native" / "kernels.c"),
                    "-o", str(out)], check=True)
    return str(out)


def test_native_kernel_changes_the_array(rt, lib):
    scal = starpu.native_kernel(lib, "scal_kernel", modes=["RW"])
    x = np.arange(8, dtype=np.float64)
    fut = starpu.task_submit()(scal, x, 2.5)
    assert fut.result() is None
    starpu.unregister(x)
    assert list(x) == [2.5 * i for i in range(8)]


def test_native_kernel_runs_without_the_gil(rt, lib):
    probe = starpu.native_kernel(lib, "probe_kernel", modes=["W", "R"])
    out = np.full(4, -1, dtype=np.int64)
    m = np.zeros((3, 5))  # C order: rows of 5 contiguous elements
    starpu.task_submit()(probe, out, m).result()
    starpu.unregister(out)
    assert list(out) == [0, 5, 3, 5]


def test_native_kernels_run_in_parallel_with_python(rt, lib):
    # The main thread keeps the GIL busy in Python while native tasks run: they finish
    # because they never need it.
    work = starpu.native_kernel(lib, "work_kernel", modes=["R", "W"])
    x = np.ones(1000)
    ys = [np.zeros(1000) for _ in range(4)]
    futs = [starpu.task_submit()(work, x, y, 1000) for y in ys]
    done = threading.Event()
    futs[-1].add_done_callback(lambda f: done.set())
    spins = 0
    while not all(f.done() for f in futs):
        spins += 1  # pure Python, holding the GIL
    for f in futs:
        f.result()
    starpu.task_wait_for_all()
    assert all(abs(y[0] - ys[0][0]) < 1e-12 for y in ys) and ys[0][0] > 1


def test_native_kernel_errors(rt, lib):
    with pytest.raises(ValueError, match="no function"):
        starpu.native_kernel(lib, "no_such_symbol")
    with pytest.raises(ValueError, match="cannot load"):
        starpu.native_kernel("/nonexistent/lib.so", "f")
    scal = starpu.native_kernel(lib, "scal_kernel", modes=["RW"])
    with pytest.raises(TypeError):
        starpu.task_submit()(scal, np.zeros(2), object())
    with pytest.raises(starpu.error):
        starpu.task_submit()(scal, np.zeros(6)[::2], 1.0)  # no StarPU layout


def test_python_tasks_run_concurrently_when_they_release_the_gil(rt):
    # Two tasks that each wait for the other at a barrier: they can only both get past it
    # if two workers run them at once, each holding the GIL only while running Python.
    barrier = threading.Barrier(2, timeout=20)
    futs = [starpu.task_submit()(barrier.wait) for _ in range(2)]
    assert sorted(f.result() for f in futs) == [0, 1]


def test_native_reduction_methods(rt, lib):
    acc = np.full(4, 100.0)
    h = starpu.Handle(acc)
    h.set_reduction_methods(starpu.native_kernel(lib, "sum_kernel"),
                            starpu.native_kernel(lib, "zero_kernel"))

    def contribute(a, k):
        a += k

    for k in range(10):
        starpu.task_submit(modes=["REDUX"])(contribute, h, k)
    h.unregister()
    assert acc.tolist() == [145.0] * 4
