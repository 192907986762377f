#!/usr/bin/env python3
"""Task Bench's METG (minimum effective task granularity) from a sweep of runs.

usage: metg.py CORES LOG...

Each LOG holds the output of Task Bench runs (one or more) over the same graph with
decreasing kernel iterations. For each run: task granularity = elapsed time x CORES /
tasks, efficiency = FLOP/s / the best FLOP/s of the sweep (the largest tasks). The METG at
50% is the smallest granularity whose efficiency is at least 0.5, interpolated (on a log
scale) between the two runs around the threshold, as Task Bench's charts do. Prints each
run's line, then the METG.
"""
import math
import re
import sys


def runs(path):
    text = open(path).read()
    for block in text.split("Running Task Benchmark")[1:]:
        get = lambda key: float(re.search(key + r"\s+([0-9.e+-]+)", block).group(1))
        yield {
            "iter": int(get(r"Iterations:")),
            "tasks": get(r"Total Tasks"),
            "elapsed": get(r"Elapsed Time"),
            "flops": get(r"FLOP/s"),
        }


def metg(points, threshold=0.5):
    """points: (granularity, efficiency), any order; None if never efficient enough."""
    pts = sorted(points)
    best = None
    for (g0, e0), (g1, e1) in zip(pts, pts[1:]):
        if e0 < threshold <= e1:
            # Log-linear interpolation of the granularity at the threshold.
            t = (threshold - e0) / (e1 - e0)
            best = math.exp(math.log(g0) + t * (math.log(g1) - math.log(g0)))
            break
    if best is None:
        ok = [g for g, e in pts if e >= threshold]
        best = min(ok) if ok else None
    return best


def main():
    cores = int(sys.argv[1])
    all_runs = [r for p in sys.argv[2:] for r in runs(p)]
    peak = max(r["flops"] for r in all_runs)
    points = []
    print(f"{'iterations':>10} {'tasks':>7} {'elapsed_s':>10} {'granularity_us':>15} {'efficiency':>10}")
    for r in sorted(all_runs, key=lambda r: -r["iter"]):
        g = r["elapsed"] * cores / r["tasks"] * 1e6
        e = r["flops"] / peak
        points.append((g, e))
        print(f"{r['iter']:>10} {int(r['tasks']):>7} {r['elapsed']:>10.4f} {g:>15.2f} {e:>10.3f}")
    m = metg(points)
    print("METG(50%) =", "not reached" if m is None else f"{m:.1f} us")


if __name__ == "__main__":
    main()
