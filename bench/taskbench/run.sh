#!/bin/bash
# Task Bench's METG (minimum effective task granularity, SC'20) on one process of this
# machine: its StarPU port built unchanged against ours and against StarPU 1.4.12, and its
# OpenMP port, swept as Task Bench's METG experiments do (compute_bound kernel, iterations
# halving, width = cores, fewer repetitions for the largest tasks), in one interleaved run:
# at each size the three systems run one after the other, their order rotating with the
# repetition, so that the machine's drift (a shared VM) falls on all three alike.
#
# usage: TB_OURS=... TB_STARPU=... TB_OPENMP=... bench/taskbench/run.sh
#   TB_OURS     Task Bench's starpu/main built against our install (STARPU_DIR=<prefix>,
#               STARPU_VERSION=1.4)
#   TB_STARPU   the same source built against StarPU 1.4.12 (with its StarPU-MPI)
#   TB_OPENMP   Task Bench's openmp/main
#   TB_BEFORE   (optional) the StarPU port built against another install of ours (an
#               earlier commit's), run as system "before": a change of ours measured in
#               the same interleaved run
#   (Task Bench is not part of this repository: bench/taskbench/README.md builds it.)
#   A system whose variable is unset is skipped.
#
# Environment (optional):
#   CORES      workers and graph width (default: nproc)
#   PATTERNS   dependence types (default "stencil_1d nearest trivial")
#   STEPS      time steps per graph (default 1000, Task Bench's)
#   MAX_LOG2   largest kernel size, 2^MAX_LOG2 iterations (default 22: 15-25 ms per task here)
#   MIN_LOG2   smallest, 2^MIN_LOG2 (default 4)
#   REPS       repetitions of the small sizes (default 3; the largest size runs once, the
#              next twice, ..., as Task Bench's scripts do)
#   TB_ARGS    extra Task Bench arguments (default "-radix 5 -field 2", as its METG scripts)
#   MPIRUN     launcher of the StarPU port (default "mpirun -np 1 --bind-to none": the port
#              initialises MPI itself, but as an Open MPI singleton StarPU 1.4.12's
#              MPI_Finalize waited 20 s to over 2 minutes after the measurement; mpirun
#              would bind the process to one core without --bind-to none). Set it empty
#              to run the binaries directly.
#   RESULTS    where the report goes (default <repo>/bench/results)
#
# Output: the METG table on stdout and bench/results/<date>-taskbench.md (machine, load,
# commands, tables, every raw line).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CORES=${CORES:-$(nproc)}
PATTERNS=${PATTERNS:-"stencil_1d nearest trivial"}
STEPS=${STEPS:-1000}
MAX_LOG2=${MAX_LOG2:-22}
MIN_LOG2=${MIN_LOG2:-4}
REPS=${REPS:-3}
TB_ARGS=${TB_ARGS:-"-radix 5 -field 2"}
MPIRUN=${MPIRUN-mpirun -np 1 --bind-to none}
RESULTS=${RESULTS:-$ROOT/bench/results}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/taskbench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

declare -A BIN=([ours]=${TB_OURS:-} [before]=${TB_BEFORE:-} [starpu]=${TB_STARPU:-} [openmp]=${TB_OPENMP:-})
SYSTEMS=()
for s in ours before starpu openmp; do
	if [ -z "${BIN[$s]}" ] && [ $s = before ]; then
		continue
	elif [ -z "${BIN[$s]}" ]; then
		echo "run.sh: TB_${s^^} not set: $s skipped" >&2
	elif [ ! -x "${BIN[$s]}" ]; then
		echo "run.sh: ${BIN[$s]} is not an executable" >&2
		exit 2
	else
		SYSTEMS+=("$s")
	fi
done
[ ${#SYSTEMS[@]} -gt 0 ] || { echo "run.sh: set TB_OURS, TB_STARPU and/or TB_OPENMP" >&2; exit 2; }

export STARPU_SILENT=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# StarPU 1.4 links libgomp; OMP_PROC_BIND slows its workers (shared/bench/build-starpu.sh).
unset OMP_PROC_BIND

# The command line of one run (printed into the report as well).
command_of() { # system iterations pattern
	local common="-steps $STEPS -width $CORES -type $3 -kernel compute_bound -iter $2 $TB_ARGS"
	case $1 in
	openmp) echo "OMP_PROC_BIND=spread ${BIN[openmp]} $common -worker $CORES" ;;
	*) echo "STARPU_HOME=$TMP/home-$1 $MPIRUN ${BIN[$1]} $common -core $CORES" ;;
	esac
}

run_one() { # system iterations pattern rep
	local out=$TMP/out rc
	local load
	load=$(cut -d' ' -f1 /proc/loadavg)
	mkdir -p "$TMP/home-$1"
	# shellcheck disable=SC2046 # the command is split on purpose
	timeout 600 env $(command_of "$1" "$2" "$3") >"$out" 2>&1
	rc=$?
	local tasks flops elapsed
	tasks=$(awk '/^Total Tasks/ {print $3}' "$out")
	flops=$(awk '/^Total FLOPs/ {print $3}' "$out")
	elapsed=$(awk '/^Elapsed Time/ {print $3}' "$out")
	local head="system=$1 pattern=$3 iter=$2 rep=$4 load=$load"
	if [ $rc -ne 0 ] || [ -z "$elapsed" ]; then
		echo "$head FAILED rc=$rc"
		sed 's/^/    /' "$out" | tail -5 >>"$TMP/stderr.txt"
	else
		echo "$head tasks=$tasks flops=$flops elapsed_s=$elapsed"
	fi
}

START=$(date -u '+%Y-%m-%d %H:%M:%S UTC')
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
: >"$TMP/raw.txt"
for pattern in $PATTERNS; do
	for ((k = MAX_LOG2; k >= MIN_LOG2; k--)); do
		reps=$((MAX_LOG2 - k + 1))
		[ $reps -le "$REPS" ] || reps=$REPS
		echo "run.sh: $pattern, 2^$k iterations, $reps run(s) each (load $(cut -d' ' -f1 /proc/loadavg))" >&2
		for ((rep = 1; rep <= reps; rep++)); do
			n=${#SYSTEMS[@]}
			for ((i = 0; i < n; i++)); do
				s=${SYSTEMS[$(((i + rep - 1) % n))]}
				run_one "$s" $((1 << k)) "$pattern" "$rep" | tee -a "$TMP/raw.txt" | grep FAILED >&2
			done
		done
	done
done
END=$(date -u '+%Y-%m-%d %H:%M:%S UTC')
LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)

TABLE=$(python3 "$HERE/metg.py" --cores "$CORES" "$TMP/raw.txt")
status=$?
echo "$TABLE"
mkdir -p "$RESULTS"
OUT=$RESULTS/$(date '+%Y-%m-%d')-taskbench.md
i=2
while [ -e "$OUT" ]; do OUT=$RESULTS/$(date '+%Y-%m-%d')-taskbench-$i.md; i=$((i + 1)); done
section() { # title file: a report section holding the file verbatim
	printf '## %s\n\n```\n' "$1"
	cat "$2"
	printf '```\n'
}
loads=$(awk '{for (i = 1; i <= NF; i++) if ($i ~ /^load=/) {v = substr($i, 6); if (min == "" || v < min) min = v; if (v > max) max = v}} END {print min ".." max}' "$TMP/raw.txt")
{
	echo "# Task Bench METG on $CORES cores, one process: ours, StarPU 1.4.12, OpenMP ($(date '+%Y-%m-%d'))"
	echo
	echo "- runs: $START .. $END"
	echo "- machine: nproc=$(nproc), model name: $(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo), kernel $(uname -r); shared with other engineers' builds"
	echo "- load average (1, 5, 15 min): $LOAD_START at the start, $LOAD_END at the end; 1-min load at each run's start: $loads"
	echo "- repository: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
	echo "- command: \`CORES=$CORES PATTERNS=\"$PATTERNS\" STEPS=$STEPS MAX_LOG2=$MAX_LOG2 MIN_LOG2=$MIN_LOG2 REPS=$REPS TB_ARGS=\"$TB_ARGS\" MPIRUN=\"$MPIRUN\" bench/taskbench/run.sh\`"
	for s in "${SYSTEMS[@]}"; do
		libs=$(ldd "${BIN[$s]}" | awk '/libstarpu-|libgomp/ {print $3}')
		echo "- $s: \`${BIN[$s]}\`, loads$(for l in $libs; do printf ' %s (%s)' "$l" "$(date -u -r "$l" '+%Y-%m-%d %H:%M')"; done)"
	done
	echo "- one run, per system (\`ITER\`: 2^$MAX_LOG2 down to 2^$MIN_LOG2, \`TYPE\`: each pattern):"
	echo
	for s in "${SYSTEMS[@]}"; do echo "      $(command_of "$s" ITER TYPE)"; done
	echo
	echo "Method (Task Bench's scripts/chart_metg.py): per system, pattern and size, the mean"
	echo "elapsed time over its runs; task granularity = elapsed x cores / tasks; efficiency ="
	echo "FLOP/s / the best FLOP/s of this whole run (all systems and patterns: the machine's"
	echo "achieved peak); METG(50%) = the smallest granularity with efficiency >= 50%,"
	echo "interpolated linearly toward the next smaller size. Lower is better."
	echo
	echo "$TABLE"
	echo
	section "Raw lines" "$TMP/raw.txt"
	if [ -s "$TMP/stderr.txt" ]; then
		echo
		section "Output of failed runs (last lines)" "$TMP/stderr.txt"
	fi
} >"$OUT"
echo "run.sh: report written to ${OUT#"$ROOT"/}" >&2
grep -q FAILED "$TMP/raw.txt" && status=1
exit $status
