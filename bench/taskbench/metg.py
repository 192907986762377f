#!/usr/bin/env python3
"""Task Bench's METG(50%) per system and pattern from bench/taskbench/run.sh's raw lines.

usage: metg.py --cores N RAW...

A raw line: `system=S pattern=P iter=I rep=R load=L tasks=T flops=F elapsed_s=E` (or
`... FAILED rc=N`). The rule is Task Bench's (scripts/chart_metg.py, SC'20):
- per (system, pattern, iterations): the mean elapsed time of its runs;
- task granularity = elapsed x cores / tasks (the core time each task takes);
- efficiency = FLOP/s / peak FLOP/s. Task Bench takes the machine's peak; here it is the best
  FLOP/s of the whole input (all systems and patterns), the peak this machine reached;
- METG = among the sizes with efficiency >= 50%, the smallest granularity, interpolated
  linearly (efficiency against granularity) toward the next smaller size when that one is
  finer; "n/r" where no size reaches 50%, "> g" where the smallest size still does (the
  sweep did not go low enough).

Prints the METG table (microseconds), then each system's sweep. Exits 1 if a run failed.
"""
import argparse
import collections
import statistics

THRESHOLD = 0.5


def parse(paths):
    """(system, pattern, iter) -> {tasks, flops, elapsed: [...]}; and the failed lines."""
    runs = collections.OrderedDict()
    failed = []
    for path in paths:
        for line in open(path):
            fields = dict(f.split("=", 1) for f in line.split() if "=" in f)
            if "system" not in fields:
                continue
            if "FAILED" in line.split():
                failed.append(line.strip())
                continue
            key = (fields["system"], fields["pattern"], int(fields["iter"]))
            run = runs.setdefault(key, {"tasks": int(fields["tasks"]), "flops": int(fields["flops"]), "elapsed": []})
            run["elapsed"].append(float(fields["elapsed_s"]))
    return runs, failed


def sweep_points(runs, cores, peak):
    """(system, pattern) -> [(iter, granularity_us, efficiency, nruns)], largest tasks first."""
    points = collections.defaultdict(list)
    for (system, pattern, it), run in runs.items():
        elapsed = statistics.mean(run["elapsed"])
        granularity = elapsed * cores / run["tasks"] * 1e6
        efficiency = run["flops"] / elapsed / peak
        points[(system, pattern)].append((it, granularity, efficiency, len(run["elapsed"])))
    for pts in points.values():
        pts.sort(key=lambda p: -p[0])
    return points


def metg(points):
    """Task Bench's METG from (iter, granularity, efficiency, n) sorted by falling iter."""
    ok = [i for i, p in enumerate(points) if p[2] >= THRESHOLD]
    if not ok:
        return None, "n/r"
    i = min(ok, key=lambda j: points[j][1])
    g, e = points[i][1], points[i][2]
    if i + 1 >= len(points):
        return g, f"> {g:.2f}"
    g1, e1 = points[i + 1][1], points[i + 1][2]
    if g1 < g and e1 < e:
        # Linear in granularity between (e1, g1) and (e, g), as numpy.interp in chart_metg.py.
        g = g1 + (THRESHOLD - e1) * (g - g1) / (e - e1)
    return g, f"{g:.2f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cores", type=int, required=True)
    ap.add_argument("raw", nargs="+")
    args = ap.parse_args()
    runs, failed = parse(args.raw)
    if not runs:
        print("no successful runs")
        return 1
    peak = max(r["flops"] / statistics.mean(r["elapsed"]) for r in runs.values())
    points = sweep_points(runs, args.cores, peak)
    systems = list(dict.fromkeys(s for s, _ in points))
    patterns = list(dict.fromkeys(p for _, p in points))

    print(f"Peak (best mean FLOP/s of the run): {peak / 1e9:.2f} GFLOP/s on {args.cores} cores")
    print()
    print("## METG(50%), microseconds (lower is better)")
    print()
    print("| pattern | " + " | ".join(systems) + " |")
    print("|---|" + "---:|" * len(systems))
    for pattern in patterns:
        cells = [metg(points[(s, pattern)])[1] if (s, pattern) in points else "-" for s in systems]
        print(f"| {pattern} | " + " | ".join(cells) + " |")
    if failed:
        print()
        print(f"{len(failed)} run(s) FAILED (listed in the raw lines)")
    print()
    print("## Sweeps: task granularity (us) and efficiency per size")
    print()
    sizes = sorted({it for (_, _, it) in runs}, reverse=True)
    for pattern in patterns:
        print(f"### {pattern}")
        print()
        print("| iterations | " + " | ".join(f"{s} granularity | {s} eff." for s in systems) + " |")
        print("|---:|" + "---:|---:|" * len(systems))
        for it in sizes:
            cells = []
            for s in systems:
                hit = [p for p in points.get((s, pattern), []) if p[0] == it]
                cells += [f"{hit[0][1]:.2f}", f"{hit[0][2]:.3f}"] if hit else ["-", "-"]
            print(f"| {it} | " + " | ".join(cells) + " |")
        print()
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
