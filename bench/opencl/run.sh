#!/bin/bash
# OpenCL benchmarks side by side: Debian's StarPU 1.3 (pkg-config starpu-1.3) and ours
# (starpu-1.4 under PREFIX), built from the same sources (transfer.c, empty.c,
# pipeline.c), run interleaved on the same OpenCL device (PoCL, STARPU_OPENCL_ON_CPUS=1).
#
# usage: bench/opencl/run.sh
# env:   PREFIX   our install (default <repo>/build/install)
#        REPS     repetitions of each run (default 5)
#        RESULTS  where the report goes (default <repo>/bench/results)
#
# Runs (medians over REPS, ours and StarPU's alternating which goes first):
#   transfer 8 200         latency: a synchronous fetch of 8 bytes, RAM->device, device->RAM
#   transfer 16777216 20   bandwidth: the same with 16 MiB
#   empty 20000            ns per empty OpenCL task (STARPU_NCPU=0: the OpenCL worker alone)
#   pipeline 32 1048576 50 a CPU -> OpenCL -> CPU pipeline over 32 blocks of 4 MiB, dmda,
#                          1 CPU worker, with STARPU_PREFETCH=1 and =0
# plus each library's bus model as it calibrated it (bus/<host>.bandwidth, .latency).
# Output: the table on stdout, bench/results/<date>-opencl.md (-2, -3... if taken).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PREFIX=${PREFIX:-$ROOT/build/install}
REPS=${REPS:-5}
RESULTS=${RESULTS:-$ROOT/bench/results}
OUT=$ROOT/bench/out/opencl
mkdir -p "$OUT" "$RESULTS"

declare -A PC PCPATH
PC[starpu]=starpu-1.3
PC[ours]=starpu-1.4
PCPATH[starpu]=
PCPATH[ours]=$PREFIX/lib/pkgconfig

pc() { # LIB ARGS...: pkg-config for LIB alone (ours also installs a starpu-1.3.pc)
	local lib=$1; shift
	if [ -z "${PCPATH[$lib]}" ]; then env -u PKG_CONFIG_PATH pkg-config "$@"; else PKG_CONFIG_PATH=${PCPATH[$lib]} pkg-config "$@"; fi
}

for lib in starpu ours; do
	if ! pc $lib --exists "${PC[$lib]}"; then
		echo "run.sh: ${PC[$lib]} not found (Debian's: apt-get install libstarpu-dev; ours: make install PREFIX=$PREFIX)" >&2
		exit 1
	fi
	mkdir -p "$OUT/$lib" "$OUT/$lib/home"
	rpath="-Wl,-rpath,$(pc $lib --variable=libdir "${PC[$lib]}")"
	for p in transfer empty pipeline; do
		# shellcheck disable=SC2046
		cc -O2 -o "$OUT/$lib/$p" "$HERE/$p.c" $(pc $lib --cflags --libs "${PC[$lib]}") $rpath -lOpenCL -lm || exit 1
	done
done

RUNS=(
	"latency|transfer 8 200|"
	"bandwidth|transfer 16777216 20|"
	"empty task|empty 20000|STARPU_NCPU=0"
	"pipeline, prefetch|pipeline 32 1048576 50|STARPU_SCHED=dmda STARPU_NCPU=1 STARPU_PREFETCH=1"
	"pipeline, no prefetch|pipeline 32 1048576 50|STARPU_SCHED=dmda STARPU_NCPU=1 STARPU_PREFETCH=0"
)
RAW=$OUT/raw.txt
: >"$RAW"
run() { # LIB LABEL CMD ENV
	local lib=$1 label=$2 cmd=$3 envs=$4 line
	# shellcheck disable=SC2086
	line=$(env STARPU_SILENT=1 STARPU_OPENCL_ON_CPUS=1 STARPU_HOME="$OUT/$lib/home" $envs \
		timeout 600 "$OUT/$lib/"$cmd 2>/dev/null | tail -1)
	echo "$lib|$label|$line" | tee -a "$RAW" >&2
}
# A first run of each calibrates the bus model (not timed).
for lib in starpu ours; do
	run $lib warm-up "transfer 8 2" ""
done
for rep in $(seq 1 "$REPS"); do
	for r in "${RUNS[@]}"; do
		IFS='|' read -r label cmd envs <<<"$r"
		if [ $((rep % 2)) -eq 1 ]; then order="starpu ours"; else order="ours starpu"; fi
		for lib in $order; do run $lib "$label" "$cmd" "$envs"; done
	done
done

table=$(python3 - "$RAW" <<'EOF'
import re, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    lib, label, out = line.rstrip("\n").split("|", 2)
    if label == "warm-up":
        continue
    vals = dict(re.findall(r"(\w+)=([\d.]+)", out))
    rows.setdefault(label, {}).setdefault(lib, []).append(vals)
def med(vs, k):
    xs = [float(v[k]) for v in vs if k in v]
    return statistics.median(xs) if xs else float("nan")
print("| run | metric | StarPU 1.3 | ours | ours/StarPU |")
print("| --- | --- | --- | --- | --- |")
metrics = {"latency": ["h2d_us", "d2h_us"], "bandwidth": ["h2d_MBps", "d2h_MBps"],
           "empty task": ["ns_per_task"], "pipeline, prefetch": ["ms"], "pipeline, no prefetch": ["ms"]}
for label, ms in metrics.items():
    for m in ms:
        s, o = med(rows.get(label, {}).get("starpu", []), m), med(rows.get(label, {}).get("ours", []), m)
        print(f"| {label} | {m} | {s:.1f} | {o:.1f} | {o / s:.2f} |")
EOF
)
echo "$table"

date=$(date +%F)
report=$RESULTS/$date-opencl.md
n=2
while [ -e "$report" ]; do report=$RESULTS/$date-opencl-$n.md; n=$((n + 1)); done
{
	echo "# OpenCL: transfers, empty tasks, a CPU+OpenCL pipeline ($date)"
	echo
	echo "Command: \`REPS=$REPS PREFIX=$PREFIX bench/opencl/run.sh\` (medians over $REPS runs)."
	echo
	echo "Machine: $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')),"
	echo "$(free -g | awk '/Mem:/ {print $2}') GiB; OpenCL device: $(clinfo -l 2>/dev/null | grep Device | sed 's/.*Device #0: //')"
	echo "(PoCL $(dpkg-query -W -f='${Version}' pocl-opencl-icd 2>/dev/null)), with STARPU_OPENCL_ON_CPUS=1."
	echo "Libraries: StarPU $(pc starpu --modversion starpu-1.3) (Debian), ours $(pc ours --modversion starpu-1.4) from $PREFIX."
	echo
	echo "$table"
	echo
	echo "Latency and bandwidth: one synchronous starpu_data_fetch_on_node of the size given"
	echo "(8 bytes, 16 MiB), RAM to device (h2d) and back (d2h), data management included."
	echo "Empty task: ns per task, submission to starpu_task_wait_for_all, STARPU_NCPU=0."
	echo "Pipeline: ms for 32 blocks of 4 MiB, fill (CPU) -> compute (OpenCL) -> check (CPU)."
	echo
	for lib in starpu ours; do
		echo "## Bus model of ${PC[$lib]} (sampling/bus, as it calibrated it)"
		echo
		echo '```'
		for f in "$OUT/$lib/home/.starpu/sampling/bus/"*.bandwidth "$OUT/$lib/home/.starpu/sampling/bus/"*.latency; do
			[ -f "$f" ] && { echo "$(basename "$f"):"; head -3 "$f"; }
		done
		echo '```'
		echo
	done
	echo "## Raw lines"
	echo
	echo '```'
	cat "$RAW"
	echo '```'
} >"$report"
echo "run.sh: report written to $report" >&2
