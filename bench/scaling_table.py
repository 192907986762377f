#!/usr/bin/env python3
"""The table of bench/scaling.sh: median ns per task for each bench, policy and worker count,
ours beside StarPU with the ratio, and how ours at the most workers compares with ours at one.

Input: raw lines of bench/compare.sh (`lib=ours rep=1 bench=... sched=... ncpu=N ...
ns_per_task=V`), FAILED lines counted as missing."""
import statistics
import sys
from collections import defaultdict


def parse(path):
    runs = defaultdict(list)
    for line in open(path):
        fields = dict(f.split("=", 1) for f in line.split() if "=" in f)
        if "ns_per_task" not in fields:
            continue
        key = (fields["bench"], fields["sched"], int(fields["ncpu"]), fields["lib"])
        runs[key].append(float(fields["ns_per_task"]))
    return {k: statistics.median(v) for k, v in runs.items()}


def table(med):
    counts = sorted({k[2] for k in med})
    rows = sorted({(k[0], k[1]) for k in med})
    head = ["bench", "sched"] + [f"{n} w: ours / StarPU" for n in counts]
    if len(counts) > 1:
        head.append(f"ours {counts[-1]} w / ours {counts[0]} w")
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for bench, sched in rows:
        cells = [bench, sched]
        for n in counts:
            ours, ref = med.get((bench, sched, n, "ours")), med.get((bench, sched, n, "starpu"))
            if ours is None or ref is None:
                cells.append("-")
            else:
                cells.append(f"{ours:.0f} / {ref:.0f} ({ours / ref:.2f})")
        if len(counts) > 1:
            lo, hi = med.get((bench, sched, counts[0], "ours")), med.get((bench, sched, counts[-1], "ours"))
            cells.append(f"{hi / lo:.2f}" if lo and hi else "-")
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


if __name__ == "__main__":
    print(table(parse(sys.argv[1])))
