#!/usr/bin/env python3
"""Side-by-side table for bench/compare.sh.

usage: compare_table.py [--mode small|cholesky] [--scheds "eager lws"]
                        [--ours-status ok|missing|build_failed] RAW...

RAW files hold the lines compare.sh writes:
    lib=starpu rep=1 bench=chain sched=eager ncpu=2 n=100000 ... ns_per_task=1834.2 ...
    lib=ours rep=1 FAILED rc=139 prog=bench_chain args=100000 sched=eager ncpu=2
    probe rep=1 bench=ref_dgemm blas_threads=1 nb=1024 ... gflops_median=31.2
Each configuration (benchmark, scheduler) gets one row with, per library,
the median over its runs and [min..max]; failed runs are counted and shown
as FAILED, never dropped.  The ratio is ours/StarPU of the medians.
"""
import argparse
import statistics
from collections import OrderedDict

LIBS = ("starpu", "ours", "before")


def parse(line):
    kv = {}
    flags = []
    for f in line.split():
        if "=" in f:
            k, v = f.split("=", 1)
            kv[k] = v
        else:
            flags.append(f)
    return kv, flags


def bench_name(prog, args):
    """Name a FAILED run the way the program would have named its result."""
    name = prog[len("bench_"):] if prog.startswith("bench_") else prog
    if name == "empty":
        a = [x for x in args.split(",") if x]
        name += "_" + (a[1] if len(a) > 1 else "insert")
    return name


def fmt(x):
    return f"{x:.4g}" if abs(x) >= 100 else f"{x:.3g}"


def cell(runs, status):
    ok = [r["value"] for r in runs if r["value"] is not None]
    failed = [r for r in runs if r["value"] is None]
    if not runs:
        return {"ok": "not run", "missing": "missing (not installed)",
                "build_failed": "BUILD FAILED"}.get(status, "not run"), None
    rcs = sorted({r["rc"] for r in failed})
    fail = f"FAILED {len(failed)}/{len(runs)} (rc={','.join(rcs)})" if failed else ""
    if not ok:
        return fail, None
    med = statistics.median(ok)
    text = f"{fmt(med)} [{fmt(min(ok))}..{fmt(max(ok))}] ({len(ok)} runs)"
    if fail:
        text += " + " + fail
    return text, med


def ratio_of(runs, ref):
    """The median of `runs` over `ref`, or '-' when no run succeeded."""
    values = [r["value"] for r in runs if r["value"] is not None]
    return f"{statistics.median(values) / ref:.2f}" if values and ref else "-"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", default="small")
    ap.add_argument("--scheds", default="")
    ap.add_argument("--ours-status", default="ok")
    ap.add_argument("--before", action="store_true",
                    help="add the columns of a baseline build of ours (lib=before)")
    ap.add_argument("raw", nargs="+")
    o = ap.parse_args()
    metric = "gflops" if o.mode == "cholesky" else "ns_per_task"

    rows = OrderedDict()      # (bench, sched) -> {lib: [runs]}
    probes = OrderedDict()    # blas_threads -> [gflops_median]
    potrf = []                # LAPACKE dpotrf, 2 BLAS threads: [gflops]
    for path in o.raw:
        for line in open(path):
            kv, flags = parse(line)
            if line.startswith("potrf "):
                if "gflops" in kv:
                    potrf.append(float(kv["gflops"]))
                continue
            if line.startswith("probe "):
                if "gflops_median" in kv:
                    probes.setdefault(kv.get("blas_threads", "?"), []).append(float(kv["gflops_median"]))
                continue
            lib = kv.get("lib")
            if lib not in LIBS:
                continue
            if "FAILED" in flags:
                key = (bench_name(kv.get("prog", "?"), kv.get("args", "")), kv.get("sched", "?"))
                run = {"value": None, "rc": kv.get("rc", "?")}
            elif "bench" in kv and metric in kv:
                key = (kv["bench"], kv.get("sched", "?"))
                run = {"value": float(kv[metric]), "rc": "0"}
            else:
                continue
            rows.setdefault(key, {l: [] for l in LIBS})[lib].append(run)

    if o.mode == "cholesky":
        unit = "GFlop/s"
        ratio_note = "ours/StarPU GFlop/s (>1: ours faster)"
    else:
        unit = "ns/task"
        ratio_note = "ours/StarPU ns/task (<1: ours faster)"
    before_head = f" before {unit} median [min..max] | ratio ours/before |" if o.before else ""
    print(f"| benchmark | sched | StarPU {unit} median [min..max] | ours {unit} median [min..max] | ratio {ratio_note} |{before_head}")
    print("| --- | --- | --- | --- | --- |" + (" --- | --- |" if o.before else ""))
    for (bench, sched), per in rows.items():
        s_text, s_med = cell(per["starpu"], "ok")
        o_text, o_med = cell(per["ours"], o.ours_status)
        ratio = f"{o_med / s_med:.2f}" if (s_med and o_med is not None) else "-"
        extra = ""
        if o.before:
            b_text, b_med = cell(per["before"], "ok")
            b_ratio = f"{o_med / b_med:.2f}" if (b_med and o_med is not None) else "-"
            extra = f" {b_text} | {b_ratio} |"
        print(f"| {bench} | {sched} | {s_text} | {o_text} | {ratio} |{extra}")
    if not rows:
        print("| (no runs) | | | | |")
    if potrf:
        ref = statistics.median(potrf)
        print()
        print(f"LAPACKE dpotrf on the whole matrix, 2 BLAS threads (ref_blas potrf, no runtime, once per "
              f"repetition): {fmt(ref)} GFlop/s median [{fmt(min(potrf))}..{fmt(max(potrf))}]. "
              "Cholesky medians over it: " +
              "; ".join(f"{sched}: StarPU {ratio_of(per['starpu'], ref)}, ours {ratio_of(per['ours'], ref)}"
                        for (_, sched), per in rows.items()))
    if probes:
        print()
        print("Parallel-capacity probe (ref_blas dgemm 1024, no runtime, once per repetition), GFlop/s median [min..max]: " +
              ", ".join(f"{t} BLAS thread(s): {fmt(statistics.median(v))} [{fmt(min(v))}..{fmt(max(v))}]"
                        for t, v in probes.items()))
    if o.ours_status == "missing":
        print()
        print("Our library was not installed (no starpu-1.4.pc under PREFIX/lib/pkgconfig): StarPU column only.")
    elif o.ours_status == "build_failed":
        print()
        print("The benchmarks did not build against our library: see bench/out/ours/build.log.")


if __name__ == "__main__":
    main()
