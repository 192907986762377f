#!/bin/bash
# Memcheck run: the C test programs (tests/c), the stress test at its CI size
# (tests/stress) and the C examples (examples/c) under valgrind, against a libstarpu
# built with the system allocator (mimalloc hides the heap from valgrind) and OpenCL.
# The opencl_* tests run on PoCL's CPU device (STARPU_OPENCL_ON_CPUS=1) with VG_OPENCL=1
# only: about 100 s each under memcheck, most of it PoCL compiling their kernels (the
# TSan run covers them in every CI run).
#
# Fails on any invalid access, use of uninitialised memory, bad free, or definite
# leak. Prints one line per program, then "N passed, N failed"; for each failure, the
# first valgrind error with its stack.
#
# usage: scripts/valgrind.sh [NAME...]     (names of tests/c programs, stress, or
#                                          examples/c programs; default: all)
# env:   VG_PREFIX   where the valgrind variant is installed (default build/valgrind-install)
#        VG_TIMEOUT  seconds per program (default 600)
#        STARPU_NCPU workers (default 2, so the run costs the same on any machine)
#        VG_OPTS     extra valgrind options
#        VG_OPENCL=1 also run the opencl_* tests (on PoCL; minutes)
#        VERBOSE=1   show every program's output and valgrind log
#
# The library is built in its own target dir (target/valgrind), so the normal build
# (target/release, build/install) is not invalidated.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PREFIX=${VG_PREFIX:-$ROOT/build/valgrind-install}
TARGET=$ROOT/target/valgrind
BIN=$ROOT/build/valgrind
VG_TIMEOUT=${VG_TIMEOUT:-600}
export STARPU_NCPU=${STARPU_NCPU:-2}

command -v valgrind >/dev/null || { echo "valgrind.sh: valgrind is not installed (scripts/setup.sh installs it)" >&2; exit 1; }

mkdir -p "$BIN/c" "$BIN/examples" "$BIN/stress"
LOG=$(mktemp -d "${TMPDIR:-/tmp}/starpu-valgrind.XXXXXX")
trap 'rm -rf "$LOG"' EXIT

echo "== valgrind: building libstarpu with the system allocator (target/valgrind)"
# CARGO=true: the Makefile's own build step would build the normal (mimalloc) variant;
# its install step copies from OUT, which is the variant built here.
if ! { CARGO_TARGET_DIR=$TARGET cargo build --release -p starpu-c --no-default-features --features opencl &&
	make -s install PREFIX="$PREFIX" OUT="$TARGET/release" CARGO=true; } >"$LOG/build.log" 2>&1; then
	cat "$LOG/build.log"
	echo "0 passed, 1 failed (library did not build)"
	exit 1
fi
export PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig
export LD_LIBRARY_PATH=$PREFIX/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

C_TESTS=$(make -s -C tests/c list)
EXAMPLES="hello_world vector_scal incrementer"
# -k: every program that builds is run; the others count as failed below.
{
	make -k -s -C tests/c BIN="$BIN/c"
	make -k -s -C examples/c OUT="$BIN/examples"
	make -k -s -C tests/stress BIN="$BIN/stress"
} >"$LOG/progs.log" 2>&1 || {
	echo "some programs did not build:"
	grep -E 'error|undefined reference' "$LOG/progs.log" | head -30 | sed 's/^/    /'
}

# memcheck options:
#  --errors-for-leak-kinds=definite  a definite leak is an error (exit status); possible
#                                    and reachable blocks (thread stacks, runtime state
#                                    still referenced at exit) are not
#  --fair-sched=yes                  valgrind runs one thread at a time; fair scheduling
#                                    keeps threads that spin or yield from starving the
#                                    others
#  --error-exitcode=99               tells valgrind's findings apart from a failed check
#  --suppressions                    scripts/valgrind.supp: a read past a string inside
#                                    glibc's dynamic loader (dlopen of PoCL by the OpenCL
#                                    ICD loader) and a block PoCL loses in its own threads
VG_EXIT=99
VALGRIND=(valgrind --tool=memcheck --error-exitcode=$VG_EXIT --leak-check=full
	--show-leak-kinds=definite --errors-for-leak-kinds=definite --num-callers=40
	--fair-sched=yes --track-origins=yes --child-silent-after-fork=yes --fullpath-after="$ROOT/"
	--suppressions="$ROOT/scripts/valgrind.supp"
	${VG_OPTS:-})

# The first error of a valgrind log: from its first line to the blank line after it,
# without the frames inside Rust's standard library (inlined allocation and
# catch_unwind wrappers), at most 16 lines.
first_error() {
	awk '/^==[0-9]+== (Invalid|Conditional jump|Use of uninitialised|Syscall param|Mismatched free|Source and destination overlap|Argument .* of function|[0-9,]+ (\([0-9,]+ direct, [0-9,]+ indirect\) )?bytes in [0-9,]+ blocks are definitely lost)/ { on = 1 }
		on && /^==[0-9]+== *$/ { exit }
		on && /library\/(alloc|core|std)\/src\// { next }
		on { print; if (++n >= 16) exit }' "$1"
}

# Each program: name, binary; it runs from a scratch STARPU_HOME. A program that exits
# 78 skipped itself (SKIP, not counted as failed).
# STARPU_TEST_CHECKER tells a test it runs under a checker: checks that measure the
# resident memory cannot hold there (valgrind's own memory, memcheck's shadow memory and
# its queue of freed blocks are counted in it), so a test skips them when it is set.
export STARPU_TEST_CHECKER=valgrind
export STARPU_HOME=$LOG/home STARPU_SILENT=1
mkdir -p "$STARPU_HOME"
pass=0 fail=0 skip=0
failed=()
check() { # name binary [args...]
	local name=$1 bin=$2
	shift 2
	if [ ! -x "$bin" ]; then
		printf 'FAIL  %s (did not build)\n' "$name"
		fail=$((fail + 1)) failed+=("$name")
		return
	fi
	local start=$SECONDS
	# The OpenCL programs use PoCL's CPU device (as tests/c/run.sh runs them), only with
	# VG_OPENCL=1: PoCL compiling their kernels under memcheck takes minutes.
	local ocl=()
	case $name in */opencl_*)
		if [ -z "${VG_OPENCL:-}" ]; then
			printf 'SKIP  %s (PoCL under memcheck takes about 100 s: VG_OPENCL=1 runs it)\n' "$name"
			skip=$((skip + 1))
			return
		fi
		ocl=(env STARPU_OPENCL_ON_CPUS=1) ;;
	esac
	timeout "$VG_TIMEOUT" "${ocl[@]}" "${VALGRIND[@]}" --log-file="$LOG/vg.log" "$bin" "$@" >"$LOG/out" 2>&1
	local rc=$? secs=$((SECONDS - start))
	if [ $rc -eq 0 ]; then
		printf 'PASS  %s (%ds)\n' "$name" "$secs"
		pass=$((pass + 1))
		[ -n "${VERBOSE:-}" ] && sed 's/^/    /' "$LOG/out" "$LOG/vg.log"
		return
	fi
	# 78: the program skipped itself (an OpenCL test without an OpenCL device).
	if [ $rc -eq 78 ]; then
		printf 'SKIP  %s (%s)\n' "$name" "$(tail -1 "$LOG/out")"
		skip=$((skip + 1))
		return
	fi
	local why="exit $rc"
	[ $rc -eq $VG_EXIT ] && why="valgrind: $(grep -m1 'ERROR SUMMARY' "$LOG/vg.log" | sed -e 's/^==[0-9]*== ERROR SUMMARY: //' -e 's/ (suppressed.*//')"
	[ $rc -eq 124 ] && why="timed out after ${VG_TIMEOUT}s"
	printf 'FAIL  %s (%s, %ds)\n' "$name" "$why" "$secs"
	if [ -n "${VERBOSE:-}" ]; then
		sed 's/^/    /' "$LOG/out" "$LOG/vg.log"
	else
		[ $rc -ne $VG_EXIT ] && tail -10 "$LOG/out" | sed 's/^/    | /'
		first_error "$LOG/vg.log" | sed 's/^==[0-9]*== /    /'
	fi
	fail=$((fail + 1)) failed+=("$name")
}

WANT=" $* "
[ $# -eq 0 ] && WANT=""
sel() { [ -z "$WANT" ] || [[ "$WANT" == *" $1 "* ]]; }

echo "== valgrind memcheck, STARPU_NCPU=$STARPU_NCPU ($(valgrind --version))"
total_start=$SECONDS
for t in $C_TESTS; do
	sel "$t" && check "tests/c/$t" "$BIN/c/$t"
done
# The stress test at a size memcheck runs in seconds.
sel stress && check "tests/stress (400 tasks x 2 threads, 2 rounds)" "$BIN/stress/stress" --seed 1 --tasks 400 --threads 2 --rounds 2
for e in $EXAMPLES; do
	sel "$e" && check "examples/c/$e" "$BIN/examples/$e"
done
echo "valgrind: $((SECONDS - total_start))s"
summary="$pass passed, $fail failed"
[ $skip -gt 0 ] && summary+=", $skip skipped"
echo "$summary"
[ $fail -eq 0 ]
