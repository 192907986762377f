#!/bin/bash
# ThreadSanitizer run: the core's tests, then the C test programs, the stress test and
# (full mode) the C examples against a libstarpu built with TSan. Fails on any report
# (data race, lock-order inversion, ...). One line per program, then
# "N passed, N failed"; for each failure, the first report with its stacks. The library
# is built with OpenCL: the opencl_* tests run on PoCL's CPU device
# (STARPU_OPENCL_ON_CPUS=1); a program that exits 78 skipped itself (SKIP).
#
# usage: scripts/tsan.sh [quick|full]      (default quick)
#   quick  core tests; each C test and the stress test (CI size) once, with the
#          default policy (lws) and 2 workers. CI runs this (scripts/test.sh).
#   full   core tests; the C tests and the stress test under eager, prio, random,
#          ws and lws, with 1 and 2 workers each; the C examples.
# env:   TSAN_TIMEOUT  seconds per program (default 600)
#        VERBOSE=1     show every program's output
#
# How: the nightly toolchain with rust-src (installed with rustup when missing) builds
# the runtime and Rust's standard library with -Zsanitizer=thread (-Zbuild-std), in
# its own target dir (target/tsan), with the system allocator (mimalloc's own
# synchronization is invisible to TSan). The C programs are compiled by gcc with
# -fsanitize=thread and linked with the TSan runtime that comes with that nightly:
# gcc 12's libtsan is older than the LLVM that instruments the Rust code and lacks
# entry points it calls (__tsan_memcpy, __tsan_memset, __tsan_memmove).
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
MODE=${1:-quick}
case "$MODE" in quick | full) ;; *) echo "usage: $0 [quick|full]" >&2; exit 2 ;; esac
TRIPLE=x86_64-unknown-linux-gnu
TARGET=$ROOT/target/tsan
PREFIX=$ROOT/build/tsan-install
BIN=$ROOT/build/tsan
TSAN_TIMEOUT=${TSAN_TIMEOUT:-600}
mkdir -p "$BIN"
LOG=$(mktemp -d "${TMPDIR:-/tmp}/starpu-tsan.XXXXXX")
trap 'rm -rf "$LOG"' EXIT
START=$SECONDS

# The toolchain: nightly with rust-src (for -Zbuild-std).
if ! rustup run nightly rustc --version >/dev/null 2>&1; then
	echo "tsan.sh: installing the nightly toolchain"
	rustup toolchain install nightly --profile minimal --component rust-src >/dev/null || exit 1
fi
if ! rustup component list --toolchain nightly --installed 2>/dev/null | grep -q '^rust-src'; then
	echo "tsan.sh: adding rust-src to nightly"
	rustup component add rust-src --toolchain nightly >/dev/null || exit 1
fi
TSAN_RT=$(rustc +nightly --print sysroot)/lib/rustlib/$TRIPLE/lib/librustc-nightly_rt.tsan.a
[ -f "$TSAN_RT" ] || { echo "tsan.sh: no TSan runtime at $TSAN_RT" >&2; exit 1; }

export CARGO_TARGET_DIR=$TARGET
export RUSTFLAGS="-Zsanitizer=thread" RUSTDOCFLAGS="-Zsanitizer=thread"
CARGO=(cargo +nightly)
ZFLAGS=(-Zbuild-std --target "$TRIPLE")
# exitcode: a program with a report exits 66 even when it passed its own checks;
# halt_on_error=0 lets it go on, so one run shows every report. Reports go to
# $LOG/<name>.<pid>, apart from the program's output.
tsan_options() { # log name
	echo "exitcode=66 halt_on_error=0 second_deadlock_stack=1 history_size=4 log_path=$LOG/$1"
}

# The first report of a TSan log: its header and the first frames of each stack,
# without the frames inside Rust's standard library.
first_report() {
	awk '/^WARNING: ThreadSanitizer/ { on = 1 }
		!on { next }
		/^SUMMARY: ThreadSanitizer/ { print; exit }
		/rustlib\/src\/rust\/library\// { next }
		/^ +#[0-9]+ / { if (++frames[block] > 8) next }
		/^ *$/ { block++ }
		{ print; if (++n >= 60) exit }' "$1"
}

pass=0 fail=0
report_failure() { # label rc logname seconds
	local why="exit $2"
	[ "$2" -eq 66 ] && why="ThreadSanitizer: $(cat "$LOG/$3".* 2>/dev/null | grep -c '^WARNING: ThreadSanitizer') report(s)"
	[ "$2" -eq 124 ] && why="timed out after ${TSAN_TIMEOUT}s"
	printf 'FAIL  %s (%s, %ds)\n' "$1" "$why" "$4"
	local f
	f=$(grep -l '^WARNING: ThreadSanitizer' "$LOG/$3".* 2>/dev/null | head -1)
	if [ -n "$f" ]; then
		first_report "$f" | sed 's/^/    /'
	else
		tail -20 "$LOG/out" | sed 's/^/    | /'
	fi
	fail=$((fail + 1))
}

echo "== tsan ($MODE): core tests (cargo +nightly test -p starpu-core, -Zsanitizer=thread)"
t0=$SECONDS
TSAN_OPTIONS=$(tsan_options core) "${CARGO[@]}" test "${ZFLAGS[@]}" -p starpu-core >"$LOG/out" 2>&1
rc=$?
if [ $rc -eq 0 ] && ! ls "$LOG"/core.* >/dev/null 2>&1; then
	printf 'PASS  core tests (%s, %ds)\n' "$(grep -E '^test result' "$LOG/out" | awk '{s += $4} END {print s " tests"}')" $((SECONDS - t0))
	pass=$((pass + 1))
else
	# a report inside a test makes that test binary exit 66, which cargo shows as a failure
	ls "$LOG"/core.* >/dev/null 2>&1 && rc=66
	report_failure "core tests" $rc core $((SECONDS - t0))
	grep -E '^test .* FAILED|^error' "$LOG/out" | head -10 | sed 's/^/    /'
fi

echo "== tsan ($MODE): building libstarpu with -Zsanitizer=thread (target/tsan)"
if ! { "${CARGO[@]}" build "${ZFLAGS[@]}" --release -p starpu-c --no-default-features --features opencl &&
	make -s install PREFIX="$PREFIX" OUT="$TARGET/$TRIPLE/release" CARGO=true; } >"$LOG/build.log" 2>&1; then
	cat "$LOG/build.log"
	echo "$pass passed, $((fail + 1)) failed (library did not build)"
	exit 1
fi
unset RUSTFLAGS RUSTDOCFLAGS CARGO_TARGET_DIR

# Each C program: instrumented by gcc, linked with the nightly's TSan runtime (whole,
# and exported so that libstarpu's instrumentation and interceptors resolve to it).
CFLAGS_STARPU=$(PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig pkg-config --cflags starpu-1.4)
LIBS_STARPU=$(PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig pkg-config --libs starpu-1.4)
build_prog() { # source output [compiler]
	local cc=${3:-gcc} omp= ocl=
	# Programs with OpenMP kernels (parallel workers) are built as tests/c/Makefile does,
	# and so are those that call OpenCL themselves.
	grep -q '<omp.h>' "$1" && omp=-fopenmp
	grep -q '<starpu_opencl.h>' "$1" && ocl=-lOpenCL
	"$cc" -fsanitize=thread -O1 -g -fno-omit-frame-pointer $omp $CFLAGS_STARPU -pthread -c "$1" -o "$2.o" &&
		"$cc" -o "$2" "$2.o" -Wl,--whole-archive "$TSAN_RT" -Wl,--no-whole-archive -rdynamic \
			$omp $LIBS_STARPU $ocl -lpthread -ldl -lm -lrt
}

PROGS=()
for t in $(make -s -C tests/c list); do
	src=tests/c/$t.c cc=gcc
	[ -f "$src" ] || src=tests/c/$t.cpp cc=g++
	PROGS+=("tests/c/$t|$src|$cc")
done
PROGS+=("tests/stress|tests/stress/stress.c|gcc")
[ "$MODE" = full ] && for e in hello_world vector_scal incrementer; do
	PROGS+=("examples/c/$e|examples/c/$e.c|gcc")
done
for p in "${PROGS[@]}"; do
	IFS='|' read -r name src cc <<<"$p"
	out=$BIN/${name//\//_}
	build_prog "$src" "$out" "$cc" >"$LOG/progs.log" 2>&1 || {
		echo "$name did not build:"
		sed 's/^/    /' "$LOG/progs.log" | head -20
	}
done

if [ "$MODE" = full ]; then SCHEDS="eager prio random ws lws" NCPUS="1 2"; else SCHEDS=lws NCPUS=2; fi
# STARPU_TEST_CHECKER tells a test it runs under a checker: checks that measure the
# resident memory cannot hold there (TSan's shadow memory, and its allocator, which keeps
# freed memory), so a test skips them when it is set.
export STARPU_TEST_CHECKER=tsan
export STARPU_HOME=$LOG/home STARPU_SILENT=1
mkdir -p "$STARPU_HOME"
echo "== tsan ($MODE): C programs, STARPU_SCHED in ($SCHEDS), STARPU_NCPU in ($NCPUS)"
n=0
for p in "${PROGS[@]}"; do
	IFS='|' read -r name src cc <<<"$p"
	out=$BIN/${name//\//_}
	args=()
	[ "$name" = tests/stress ] && args=(--seed 1 --tasks 2000 --threads 3 --rounds 3)
	for sched in $SCHEDS; do
		for ncpu in $NCPUS; do
			label="$name [STARPU_SCHED=$sched STARPU_NCPU=$ncpu]"
			if [ ! -x "$out" ]; then
				printf 'FAIL  %s (did not build)\n' "$label"
				fail=$((fail + 1))
				continue
			fi
			n=$((n + 1))
			t0=$SECONDS
			opts=$(tsan_options "run$n")
			grep -q '<omp.h>' "$src" && opts="$opts suppressions=$ROOT/scripts/tsan-openmp.supp"
			# The OpenCL programs use PoCL's CPU device (as tests/c/run.sh runs them).
			ocl=
			case $name in */opencl_*) ocl=1 ;; esac
			STARPU_SCHED=$sched STARPU_NCPU=$ncpu TSAN_OPTIONS=$opts env ${ocl:+STARPU_OPENCL_ON_CPUS=1} \
				timeout "$TSAN_TIMEOUT" "$out" "${args[@]}" >"$LOG/out" 2>&1
			rc=$?
			if [ $rc -eq 0 ]; then
				printf 'PASS  %s (%ds)\n' "$label" $((SECONDS - t0))
				pass=$((pass + 1))
				[ -n "${VERBOSE:-}" ] && sed 's/^/    /' "$LOG/out"
			elif [ $rc -eq 78 ]; then
				# the program skipped itself (an OpenCL test without an OpenCL device)
				printf 'SKIP  %s (%s)\n' "$label" "$(tail -1 "$LOG/out")"
			else
				report_failure "$label" $rc "run$n" $((SECONDS - t0))
			fi
		done
	done
done
echo "tsan ($MODE): $((SECONDS - START))s"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
