#!/bin/bash
# How the cost per task grows with the number of workers, ours beside StarPU: the small-task
# benches of bench/compare.sh (empty, independent, chain, readers) at several worker counts,
# each count one interleaved compare.sh run, summed up in one table (issue: "flat per-task
# cost from 1 to 64 workers").
#
# usage: STARPU_REF=<prefix of StarPU 1.4.12> bench/scaling.sh [PREFIX]
#
# Environment (all optional but STARPU_REF, which anchors it: Debian's StarPU 1.3 runs at most
# 4 CPU workers; build 1.4.12 with ../shared/bench/build-starpu.sh):
#   NCPUS     worker counts (default "1 2 4 8 15"; on a machine with fewer cores the larger
#             counts are oversubscribed, which shows contention but not its size)
#   REPS      repetitions per configuration (default 5)
#   SCHEDS    scheduling policies (default "eager lws")
#   PREFIX    our install (default <repo>/build/install)
#   RESULTS   where the report goes (default <repo>/bench/results)
#
# Output: the table on stdout and bench/results/<date>-scaling.md (machine, command, table,
# every raw line).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
: "${STARPU_REF:?set STARPU_REF to the prefix of a StarPU 1.4 built from source}"
NCPUS=${NCPUS:-"1 2 4 8 15"}
REPS=${REPS:-5}
SCHEDS=${SCHEDS:-"eager lws"}
PREFIX=${1:-${PREFIX:-$ROOT/build/install}}
RESULTS=${RESULTS:-$ROOT/bench/results}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/starpu-scaling.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

START=$(date -u '+%Y-%m-%d %H:%M:%S UTC')
status=0
for n in $NCPUS; do
	echo "scaling.sh: $n worker(s)" >&2
	mkdir -p "$TMP/$n"
	STARPU_REF=$STARPU_REF NCPU=$n REPS=$REPS SCHEDS=$SCHEDS RESULTS=$TMP/$n \
		"$HERE/compare.sh" small "$PREFIX" >"$TMP/$n/stdout" || status=1
	grep -h '^lib=' "$TMP/$n"/*.md >>"$TMP/raw.txt"
done
END=$(date -u '+%Y-%m-%d %H:%M:%S UTC')

TABLE=$(python3 "$HERE/scaling_table.py" "$TMP/raw.txt")
echo "$TABLE"
mkdir -p "$RESULTS"
OUT=$RESULTS/$(date '+%Y-%m-%d')-scaling.md
i=2
while [ -e "$OUT" ]; do OUT=$RESULTS/$(date '+%Y-%m-%d')-scaling-$i.md; i=$((i + 1)); done
{
	echo "# Cost per task against the number of workers, ours and StarPU, $(date '+%Y-%m-%d')"
	echo
	echo "- runs: $START .. $END"
	echo "- command: \`STARPU_REF=$STARPU_REF NCPUS=\"$NCPUS\" REPS=$REPS SCHEDS=\"$SCHEDS\" bench/scaling.sh $PREFIX\`"
	echo "- machine: nproc=$(nproc), model name: $(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo), kernel $(uname -r)"
	echo "- StarPU: $(PKG_CONFIG_PATH=$STARPU_REF/lib/pkgconfig pkg-config --modversion starpu-1.4) from $STARPU_REF"
	echo "- repository: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
	[ "$(nproc)" -lt 16 ] && echo "- note: $(nproc) cores here: worker counts above $(nproc) are oversubscribed (they show contention, not its size)"
	echo
	echo "## Table (median ns per task; ratio ours / StarPU)"
	echo
	echo "$TABLE"
	echo
	echo "## Raw lines"
	echo
	echo '```'
	cat "$TMP/raw.txt"
	echo '```'
} >"$OUT"
echo "scaling.sh: report written to ${OUT#$ROOT/}" >&2
exit $status
