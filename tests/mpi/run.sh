#!/bin/bash
# Builds the StarPU-MPI test programs (C, and the Rust ones of the starpu-mpi crate) and
# runs each under `mpirun --oversubscribe -np $NP` (those of ALONE_TESTS under -np 1),
# one line per program, then
# "N passed, M failed"; exits non-zero if any failed.
#
# usage: tests/mpi/run.sh [test...]
# env:   PREFIX   where starpumpi-1.4 is installed (default <repo>/build/install)
#        NP       processes per run (default 4)
#        TIMEOUT  seconds per run (default 120): a run that hangs counts as failed
#        VERBOSE=1  show every program's output
set -u
cd "$(dirname "$0")"
ROOT=$(cd ../.. && pwd)
PREFIX=${PREFIX:-$ROOT/build/install}
NP=${NP:-4}
TIMEOUT=${TIMEOUT:-120}
export PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
# Open MPI refuses to start as root unless told; CI runs as root.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export STARPU_SILENT=1
MPIRUN=(mpirun --oversubscribe -np)
# Programs about StarPU-MPI in a single process.
ALONE_TESTS=" alone "

C_TESTS=$(make -s list)
RUST_TESTS="rust_ring scenarios"
if ! pkg-config --exists starpumpi-1.4; then
	echo "pkg-config cannot find starpumpi-1.4 (PKG_CONFIG_PATH=$PKG_CONFIG_PATH): run make install first" >&2
	echo "0 passed, $(echo $C_TESTS $RUST_TESTS | wc -w) failed"
	exit 1
fi
LOG=$(mktemp -d "${TMPDIR:-/tmp}/starpu-mpitests.XXXXXX")
trap 'rm -rf "$LOG"' EXIT
if ! make -k -s >"$LOG/build.log" 2>&1; then
	echo "some programs did not build:"
	grep -E 'error|undefined reference' "$LOG/build.log" | head -30 | sed 's/^/    /'
fi
(cd "$ROOT" && cargo build --release -q -p starpu-mpi --examples) >"$LOG/cargo.log" 2>&1 ||
	sed 's/^/    /' "$LOG/cargo.log" | tail -20

# Every C symbol fstarpu_mpi_mod.f90 binds is in the library (a missing one would break
# the link of any program using that routine).
check_fortran_symbols() {
	local module lib flat
	module=$(pkg-config --variable=starpu_includedir starpumpi-1.4)/fstarpu_mpi_mod.f90
	lib=$(pkg-config --variable=libdir starpumpi-1.4)/libstarpu-1.4.so
	flat=$(sed ':a;N;$!ba;s/&\n *//g' "$module")
	{
		grep -oE 'bind\(C, *name="[a-z0-9_]+"\)' <<<"$flat" | sed -E 's/.*name="([a-z0-9_]+)".*/\1/'
		grep -iE '^ *(subroutine|function) +fstarpu_[a-z0-9_]+ *\(.*\) *bind\(C\) *$' <<<"$flat" |
			awk '{print tolower($2)}' | sed 's/(.*//'
	} | sort -u >"$LOG/bound"
	nm -D --defined-only "$lib" | awk '{print $3}' | sort -u >"$LOG/symbols"
	comm -23 "$LOG/bound" "$LOG/symbols" >"$LOG/missing"
	echo "$(wc -l <"$LOG/bound") symbols bound, $(wc -l <"$LOG/missing") missing: $(tr '\n' ' ' <"$LOG/missing")"
	[ ! -s "$LOG/missing" ]
}

WANT=${*:-$C_TESTS $RUST_TESTS fortran_symbols}
export STARPU_HOME=$LOG/home
mkdir -p "$STARPU_HOME"
. "$ROOT/tests/verdict.sh"
SKIP_RC=none # an MPI program has no reason to skip
pass=0 fail=0
for t in $WANT; do
	if [ "$t" = fortran_symbols ]; then
		if check_fortran_symbols >"$LOG/out" 2>&1; then
			printf 'PASS  %s (%s)\n' "$t" "$(cat "$LOG/out")"
			pass=$((pass + 1))
		else
			printf 'FAIL  %s (%s)\n' "$t" "$(cat "$LOG/out")"
			fail=$((fail + 1))
		fi
		continue
	fi
	if [ -x "bin/$t" ]; then
		prog=bin/$t
	elif [ -x "$ROOT/target/release/examples/$t" ]; then
		prog=$ROOT/target/release/examples/$t
	else
		printf 'FAIL  %s (did not build)\n' "$t"
		fail=$((fail + 1))
		continue
	fi
	start=$(date +%s.%N)
	np=$NP
	[[ $ALONE_TESTS == *" $t "* ]] && np=1
	timeout "$TIMEOUT" "${MPIRUN[@]}" "$np" "$prog" >"$LOG/out" 2>&1
	rc=$?
	secs=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
	verdict "$t" $rc "$LOG/out" 30 "${secs}s"
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
