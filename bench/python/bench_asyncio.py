#!/usr/bin/env python3
"""asyncio against a thread pool, in one process: N tiny tasks ``add(i, 1)`` submitted,
then all results collected, in microseconds per task.

- starpu-rs, ``await asyncio.gather(*futs)`` (the tasks' ends reach the event loop in
  batches);
- starpu-rs, ``[f.result() for f in futs]``;
- ThreadPoolExecutor(2), ``[f.result() for f in futs]`` (the reference the asyncio path
  must not be slower than);
- ThreadPoolExecutor(2) under asyncio, ``await asyncio.gather(*[loop.run_in_executor(...)])``.

The variants run in turns, ``--rounds`` times each, so a machine busy for a while slows
them all alike; the table gives the median and the best round. It also gives how many
times the event loop woke up to take finished tasks (batches, not tasks).

    python3 bench/python/bench_asyncio.py [--tasks 10000] [--rounds 15] [--out FILE.md]
"""

import argparse
import asyncio
import concurrent.futures
import platform
import statistics
import sys
import time

import starpu


def add(a, b):
    return a + b


def ours_gather(n, wakeups):
    async def main():
        loop = asyncio.get_running_loop()
        t0 = time.perf_counter()
        submit = starpu.task_submit()
        futs = [submit(add, i, 1) for i in range(n)]
        res = await asyncio.gather(*futs)
        took = time.perf_counter() - t0
        # (None with a module that does not count them: an older build, for comparison.)
        count = getattr(starpu._core, "_loop_wakeups", lambda _: None)(loop)
        if count is not None:
            wakeups.append(count)
        assert res[-1] == n
        return took

    return asyncio.run(main())


def ours_result(n):
    t0 = time.perf_counter()
    submit = starpu.task_submit()
    futs = [submit(add, i, 1) for i in range(n)]
    res = [f.result() for f in futs]
    took = time.perf_counter() - t0
    assert res[-1] == n
    return took


def pool_result(ex, n):
    t0 = time.perf_counter()
    futs = [ex.submit(add, i, 1) for i in range(n)]
    res = [f.result() for f in futs]
    took = time.perf_counter() - t0
    assert res[-1] == n
    return took


def pool_gather(ex, n):
    async def main():
        loop = asyncio.get_running_loop()
        t0 = time.perf_counter()
        res = await asyncio.gather(*[loop.run_in_executor(ex, add, i, 1) for i in range(n)])
        took = time.perf_counter() - t0
        assert res[-1] == n
        return took

    return asyncio.run(main())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tasks", type=int, default=10000)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--out")
    args = ap.parse_args()
    n = args.tasks

    starpu.init(ncpus=2, silent=True)
    wakeups = []
    with concurrent.futures.ThreadPoolExecutor(2) as ex:
        variants = {
            "starpu-rs, `await asyncio.gather(*futs)`": lambda: ours_gather(n, wakeups),
            "starpu-rs, `f.result()` each": lambda: ours_result(n),
            "ThreadPoolExecutor(2), `f.result()` each": lambda: pool_result(ex, n),
            "ThreadPoolExecutor(2), `await asyncio.gather(*run_in_executor)`":
                lambda: pool_gather(ex, n),
        }
        for run in variants.values():  # warm-up: threads, code paths
            run()
        times = {name: [] for name in variants}
        for _ in range(args.rounds):
            for name, run in variants.items():
                times[name].append(run() / n * 1e6)
    starpu.shutdown()

    rows = ["| variant | median us/task | best us/task |", "|---|---|---|"]
    for name, ts in times.items():
        rows.append("| %s | %.1f | %.1f |" % (name, statistics.median(ts), min(ts)))
    report = "\n".join([
        "# Python face: asyncio against a thread pool",
        "",
        "Command: `python3 bench/python/bench_asyncio.py --tasks %d --rounds %d`" % (n, args.rounds),
        "",
        "Machine: %s, %d cores, Python %s, %s. %d tiny tasks (`add(i, 1)`), submitted then "
        "all collected; the variants run in turns, %d rounds each." % (
            platform.machine(), __import__("os").cpu_count(), platform.python_version(),
            time.strftime("%Y-%m-%d"), n, args.rounds),
        "",
        *rows,
        "",
        "Event-loop wake-ups per gather of %d tasks (batches of finished tasks): %s." % (
            n, "median %d, max %d" % (statistics.median(wakeups), max(wakeups))
            if wakeups else "not counted by this build"),
        "",
    ])
    print(report)
    if args.out:
        with open(args.out, "w") as f:
            f.write(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
