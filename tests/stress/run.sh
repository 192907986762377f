#!/bin/bash
# The stress test (stress.c): random task graphs checked against a sequential replay,
# once per scheduling policy and worker count, then once per policy under a submission
# limit (STARPU_LIMIT_MAX_SUBMITTED_TASKS, which blocks the submitting threads). One line
# per run, then "N passed, N failed"; exits non-zero if any failed.
#
# usage: tests/stress/run.sh [ci|large]     (default ci)
#   ci     2000 tasks per thread, 3 submitting threads, 3 rounds (seconds in all)
#   large  50000 tasks per thread, 4 submitting threads, 10 rounds (minutes), by hand
# env:   SCHEDS       policies (default: every policy the library lists for STARPU_SCHED=help)
#        NCPUS        worker counts (default "1 2")
#        LIMITS       submission limits, each run with 2 workers (default "40"; "" for none)
#        SEED         first seed (default 1; round r uses SEED + r)
#        STRESS_ARGS  replaces the size's arguments, e.g. "--tasks 100 --commute"
#        PREFIX       where libstarpu is installed (default <repo>/build/install when
#                     pkg-config does not find starpu-1.4)
#        TIMEOUT      seconds per run (default 300)
set -u
cd "$(dirname "$0")"
ROOT=$(cd ../.. && pwd)
case "${1:-ci}" in
ci) SIZE="--tasks 2000 --threads 3 --rounds 3" ;;
large) SIZE="--tasks 50000 --threads 4 --rounds 10" ;;
*) echo "usage: $0 [ci|large]" >&2; exit 2 ;;
esac
ARGS="--seed ${SEED:-1} ${STRESS_ARGS:-$SIZE}"
TIMEOUT=${TIMEOUT:-300}
if [ -z "${PREFIX:-}" ] && ! pkg-config --exists starpu-1.4 && [ -f "$ROOT/build/install/lib/pkgconfig/starpu-1.4.pc" ]; then
	PREFIX=$ROOT/build/install
fi
[ -n "${PREFIX:-}" ] && export PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}

BIN=$ROOT/build/stress
mkdir -p "$ROOT/build"
if ! make -s BIN="$BIN" >"$BIN.log" 2>&1; then
	cat "$BIN.log"
	echo "0 passed, 1 failed (stress did not build)"
	exit 1
fi
echo "stress: $ARGS"
export STARPU_SILENT=1
. "$ROOT/tests/verdict.sh"
pass=0 fail=0
OUT=$(mktemp "${TMPDIR:-/tmp}/starpu-stress.XXXXXX")
trap 'rm -f "$OUT"' EXIT
# Every policy the library has, as it lists them (StarPU prints "NAME -> what" lines).
if [ -z "${SCHEDS:-}" ]; then
	SCHEDS=$(STARPU_SCHED=help STARPU_NCPU=1 "$BIN/stress" --tasks 1 --threads 1 --rounds 1 2>&1 |
		sed -n 's/^[[:space:]]*\([a-z][a-z0-9_-]*\)[[:space:]]*->.*/\1/p')
	[ -n "$SCHEDS" ] || { echo "0 passed, 1 failed (no policy listed by STARPU_SCHED=help)"; exit 1; }
fi
runs=()
for sched in $SCHEDS; do
	for ncpu in ${NCPUS:-1 2}; do
		runs+=("STARPU_SCHED=$sched STARPU_NCPU=$ncpu")
	done
done
for limit in ${LIMITS-40}; do
	for sched in $SCHEDS; do
		runs+=("STARPU_SCHED=$sched STARPU_NCPU=2 STARPU_LIMIT_MAX_SUBMITTED_TASKS=$limit")
	done
done
for label in "${runs[@]}"; do
	{
		start=$SECONDS
		# shellcheck disable=SC2086
		env $label timeout "$TIMEOUT" "$BIN/stress" $ARGS >"$OUT" 2>&1
		# Exit 78: --opencl without an OpenCL device (skipped).
		verdict "$label" $? "$OUT" 20 "$((SECONDS - start))s"
	}
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
