#!/usr/bin/env python3
"""Task overhead of the Python face against what a Python user would pick instead, in one
run, side by side:

- independent: N tiny tasks ``add(i, 1)`` submitted, then all results collected;
- chain: N tasks, each taking the previous task's future (a dependency) as argument;
- native: a compute-bound C kernel (StarPU's signature) on numpy vectors, 1 worker vs 2:
  the speed-up shows that native tasks run in parallel without the GIL.

Peers: concurrent.futures.ThreadPoolExecutor(2); dask.delayed with the threaded scheduler
(2 workers), if installed; Ray (2 CPUs, local), if installed. Each figure is the best of
``--repeat`` runs, in microseconds per task.

    python3 bench/python/bench_tasks.py [--tasks 10000] [--repeat 5] [--out FILE.md]
"""

import argparse
import asyncio
import concurrent.futures
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import starpu

REPO = Path(__file__).resolve().parents[2]


def add(a, b):
    return a + b


def best(fn, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


# ---------------------------------------------------------------- ours


def ours_independent(n):
    submit = starpu.task_submit()
    futs = [submit(add, i, 1) for i in range(n)]
    res = [f.result() for f in futs]
    assert res[-1] == n


def ours_independent_asyncio(n):
    async def main():
        submit = starpu.task_submit()
        futs = [submit(add, i, 1) for i in range(n)]
        return [await f for f in futs]

    assert asyncio.run(main())[-1] == n


def ours_chain(n):
    submit = starpu.task_submit()
    f = submit(add, 0, 1)
    for _ in range(n - 1):
        f = submit(add, f, 1)
    assert f.result() == n


# ---------------------------------------------------------------- ThreadPoolExecutor


def tpe_independent(ex, n):
    futs = [ex.submit(add, i, 1) for i in range(n)]
    res = [f.result() for f in futs]
    assert res[-1] == n


def _after(prev, b):
    return prev.result() + b


def tpe_chain(ex, n):
    f = ex.submit(add, 0, 1)
    for _ in range(n - 1):
        f = ex.submit(_after, f, 1)
    assert f.result() == n


def tpe_chain_wait(ex, n):
    v = ex.submit(add, 0, 1).result()
    for _ in range(n - 1):
        v = ex.submit(add, v, 1).result()
    assert v == n


# ---------------------------------------------------------------- dask, ray


def dask_independent(n):
    import dask

    tasks = [dask.delayed(add)(i, 1) for i in range(n)]
    res = dask.compute(*tasks, scheduler="threads", num_workers=2)
    assert res[-1] == n


def dask_chain(n):
    import dask

    x = dask.delayed(add)(0, 1)
    for _ in range(n - 1):
        x = dask.delayed(add)(x, 1)
    assert x.compute(scheduler="threads", num_workers=2) == n


def ray_setup():
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    return ray, ray.remote(add)


def ray_independent(ray, radd, n):
    res = ray.get([radd.remote(i, 1) for i in range(n)])
    assert res[-1] == n


def ray_chain(ray, radd, n):
    x = radd.remote(0, 1)
    for _ in range(n - 1):
        x = radd.remote(x, 1)
    assert ray.get(x) == n


# ---------------------------------------------------------------- native speed-up


def build_kernels():
    src = REPO / "bindings" / "python" / "tests" / "native" / "kernels.c"
    inc = Path(os.environ.get("STARPU_PREFIX", REPO / "build" / "install")) / "include/starpu/1.4"
    if not (inc / "starpu.h").exists() or not shutil.which("cc"):
        return None
    out = Path(tempfile.mkdtemp()) / "libkernels.so"
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-I", str(inc), str(src), "-o", str(out)],
                   check=True)
    return str(out)


def native_run(lib, ntasks, size, reps):
    work = starpu.native_kernel(lib, "work_kernel", modes=["R", "W"])
    x = np.ones(size)
    ys = [np.zeros(size) for _ in range(ntasks)]
    for y in ys:  # register once, outside the timing
        starpu.acquire(y, "R")
        starpu.release(y)

    def go():
        futs = [starpu.task_submit()(work, x, y, reps) for y in ys]
        for f in futs:
            f.result()

    t = best(go, 3)
    for y in ys + [x]:
        starpu.unregister(y)
    return t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tasks", type=int, default=10000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--out")
    args = ap.parse_args()
    n, r = args.tasks, args.repeat
    rows = {}

    starpu.init(ncpus=2, silent=True)
    ours_independent(1000)  # warm-up (worker thread states, code paths)
    rows["starpu-rs Python face (result())"] = (
        best(lambda: ours_independent(n), r), best(lambda: ours_chain(n), r))
    rows["starpu-rs Python face (asyncio await)"] = (
        best(lambda: ours_independent_asyncio(n), r), None)
    starpu.shutdown()

    # Before the peers: Ray leaves processes behind that would compete for the cores.
    native = None
    lib = build_kernels()
    if lib:
        ntasks, size, reps = 8, 200_000, 200
        times = {}
        for ncpus in (1, 2):
            starpu.init(ncpus=ncpus, silent=True)
            times[ncpus] = native_run(lib, ntasks, size, reps)
            starpu.shutdown()
        native = dict(ntasks=ntasks, size=size, reps=reps, t1=times[1], t2=times[2],
                      speedup=times[1] / times[2])


    with concurrent.futures.ThreadPoolExecutor(2) as ex:
        tpe_independent(ex, 1000)
        rows["ThreadPoolExecutor(2)"] = (
            best(lambda: tpe_independent(ex, n), r), best(lambda: tpe_chain(ex, n), r))
        rows["ThreadPoolExecutor(2), chain by waiting"] = (
            None, best(lambda: tpe_chain_wait(ex, n), r))

    try:
        import dask  # noqa: F401

        rows["dask.delayed (threads, 2)"] = (
            best(lambda: dask_independent(n), r), best(lambda: dask_chain(n), min(r, 2)))
    except ImportError:
        rows["dask.delayed (threads, 2)"] = "not installed"

    try:
        ray, radd = ray_setup()
        ray_independent(ray, radd, 100)
        rows["Ray (2 CPUs)"] = (
            best(lambda: ray_independent(ray, radd, n), min(r, 3)),
            best(lambda: ray_chain(ray, radd, n), min(r, 2)))
        ray.shutdown()
    except ImportError:
        rows["Ray (2 CPUs)"] = "not installed"

    def us(t):
        return "-" if t is None else "%.1f" % (t / n * 1e6)

    lines = [
        "# Python face: task overhead against Python's usual tools",
        "",
        "Command: `python3 bench/python/bench_tasks.py --tasks %d --repeat %d`" % (n, r),
        "",
        "Machine: %s, %d cores, Python %s, %s. Best of %d runs; microseconds per task."
        % (platform.machine(), os.cpu_count(), platform.python_version(),
           time.strftime("%Y-%m-%d"), r),
        "",
        "| runtime | %d independent tiny tasks (submit all, then collect) | %d-task chain (each takes the previous future) |" % (n, n),
        "|---|---|---|",
    ]
    for name, v in rows.items():
        if isinstance(v, str):
            lines.append("| %s | %s | %s |" % (name, v, v))
        else:
            lines.append("| %s | %s | %s |" % (name, us(v[0]), us(v[1])))
    if native:
        lines += [
            "",
            "Native kernel (C, StarPU's signature, no GIL): %d tasks, each %d passes over its "
            "own %d-double vector: %.1f ms on 1 worker, %.1f ms on 2 workers: speed-up %.2f."
            % (native["ntasks"], native["reps"], native["size"], native["t1"] * 1e3,
               native["t2"] * 1e3, native["speedup"]),
        ]
    else:
        lines += ["", "Native kernel: skipped (no C compiler or starpu.h: `make install`)."]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        Path(args.out).write_text(text)
        Path(args.out).with_suffix(".json").write_text(json.dumps(
            {"tasks": n, "rows": {k: v for k, v in rows.items()}, "native": native}, indent=1))


if __name__ == "__main__":
    sys.exit(main())
