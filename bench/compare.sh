#!/bin/bash
# Side-by-side benchmark: Debian's StarPU (pkg-config starpu-1.3) against our
# library (pkg-config starpu-1.4 from $PREFIX), built from the very same
# sources in bench/starpu-api/ and run interleaved in the same time window.
#
# usage: bench/compare.sh [small|cholesky] [PREFIX]
#
#   small     (default) bench_empty 200000 insert, bench_independent 200000
#             10000, bench_chain 100000, bench_readers 200000; metric ns/task
#             (submission + starpu_task_wait_for_all), lower is better.
#   cholesky  bench_cholesky 2048 256 (CHOL="4096 256" for another size);
#             metric GFlop/s, higher is better; each repetition also runs
#             LAPACKE dpotrf on the whole matrix with 2 BLAS threads (ref_blas
#             potrf N), the reference the report divides by
#             (needs libopenblas-dev and liblapacke-dev; installed if missing).
#
# Environment (all optional):
#   PREFIX    where our library is installed (make -C bindings/c install
#             PREFIX=...); default <repo>/build/install.  An argument wins.
#   REPS      repetitions per configuration (default 5)
#   SCHEDS    scheduling policies (default "eager lws")
#   NCPU      STARPU_NCPU (default 2)
#   TIMEOUT   seconds allowed per run (default 600)
#   BUILD     where the two builds go (default <repo>/bench/out, git-ignored)
#   RESULTS   where the report goes (default <repo>/bench/results)
#   BASELINE  prefix of another install of our library (e.g. an earlier commit's
#             `make install PREFIX=...`): runs it too, as a third column "before",
#             to measure a change of ours against StarPU in the same run
#   STARPU_REF  prefix of a StarPU built from source (../shared/bench/build-starpu.sh:
#             StarPU 1.4.12, pkg-config starpu-1.4): the StarPU column runs it instead
#             of Debian's StarPU 1.3 (which never runs more than 4 CPU workers)
#
# Every run gets STARPU_SILENT=1, OPENBLAS_NUM_THREADS=1 and a STARPU_HOME in
# a fresh temporary directory (one per library, so neither reads the other's
# calibration files).  The two libraries alternate run by run, and which one
# goes first flips with every configuration and every repetition.  A run that
# exits non-zero (or prints no result line) is kept as a FAILED line, shows up
# as FAILED in the table, and makes the script exit 1.  If our library is not
# installed, the script says so and fills the StarPU column alone.
#
# Output: the table on stdout, and bench/results/<date>-compare.md (or
# <date>-compare-cholesky.md; -2, -3... when that name is taken) with the
# date, machine, versions, exact command, table and every raw line.
set -u

usage() { sed -n '2,/^set -u/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; }

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
SRC=$HERE/starpu-api

MODE=small
ARG_PREFIX=
for a in "$@"; do
	case $a in
		small|cholesky) MODE=$a ;;
		-h|--help) usage; exit 0 ;;
		-*) echo "compare.sh: unknown option $a" >&2; usage >&2; exit 2 ;;
		*) ARG_PREFIX=$a ;;
	esac
done
PREFIX=${ARG_PREFIX:-${PREFIX:-$ROOT/build/install}}
case $PREFIX in /*) ;; *) PREFIX=$PWD/$PREFIX ;; esac
REPS=${REPS:-5}
SCHEDS=${SCHEDS:-"eager lws"}
NCPU=${NCPU:-2}
TIMEOUT=${TIMEOUT:-600}
BUILD=${BUILD:-$ROOT/bench/out}
RESULTS=${RESULTS:-$ROOT/bench/results}

# The command line as typed, with the settings it ran under, for the report.
BASELINE=${BASELINE:-}
CMDLINE="REPS=$REPS SCHEDS=\"$SCHEDS\" NCPU=$NCPU${CHOL:+ CHOL=\"$CHOL\"} PREFIX=$PREFIX${BASELINE:+ BASELINE=$BASELINE}${STARPU_REF:+ STARPU_REF=$STARPU_REF} bench/compare.sh${*:+ $*}"

say() { echo "compare.sh: $*" >&2; }

# --------------------------------------------------------------- prerequisites
apt_install() {
	local sudo=
	[ "$(id -u)" -ne 0 ] && sudo=sudo
	say "installing $* with apt-get"
	$sudo apt-get install -y "$@" >&2 || { $sudo apt-get update >&2 && $sudo apt-get install -y "$@" >&2; }
}

STARPU_REF=${STARPU_REF:-}
if [ -n "$STARPU_REF" ]; then
	[ -f "$STARPU_REF/lib/pkgconfig/starpu-1.4.pc" ] ||
		{ say "STARPU_REF=$STARPU_REF has no lib/pkgconfig/starpu-1.4.pc"; exit 1; }
elif ! pkg-config --exists starpu-1.3; then
	say "Debian's StarPU (pkg-config starpu-1.3) not found"
	apt_install libstarpu-dev
	pkg-config --exists starpu-1.3 || { say "starpu-1.3 still missing after apt-get; giving up"; exit 1; }
fi
# has_blas: can a C file include <cblas.h> and <lapacke.h> and link OpenBLAS + LAPACKE?
has_blas() {
	printf '#include <cblas.h>\n#include <lapacke.h>\nint main(void){return 0;}\n' |
		cc -x c - -o /dev/null -llapacke -lopenblas -lm >/dev/null 2>&1
}
if [ "$MODE" = cholesky ] && ! has_blas; then
	apt_install libopenblas-dev liblapacke-dev
	has_blas || { say "OpenBLAS/LAPACKE still missing after apt-get; giving up"; exit 1; }
fi

# ---------------------------------------------------------------------- builds
if [ "$MODE" = small ]; then
	TARGETS="bench_empty bench_independent bench_chain bench_readers"
else
	TARGETS="bench_cholesky ref_blas"
fi

LIBS="starpu ours"
declare -A BDIR STATUS PCNAME LIBPATH VERSION LIBPREFIX
BDIR[starpu]=$BUILD/starpu-1.3
BDIR[ours]=$BUILD/ours
BDIR[before]=$BUILD/before
PCNAME[starpu]=starpu-1.3
PCNAME[ours]=starpu-1.4
PCNAME[before]=starpu-1.4
LIBPREFIX[ours]=$PREFIX
LIBPREFIX[before]=$BASELINE
if [ -n "$STARPU_REF" ]; then
	BDIR[starpu]=$BUILD/starpu-ref
	PCNAME[starpu]=starpu-1.4
	LIBPREFIX[starpu]=$STARPU_REF
fi
OURS_PCDIR=$PREFIX/lib/pkgconfig

# pcenv LIB CMD...: run CMD with the pkg-config search path for LIB.  Each
# side sees only its own .pc files: our install also provides starpu-1.3.pc
# and libstarpu.pc aliases, so Debian's StarPU is looked up with
# PKG_CONFIG_PATH unset, ours with PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig alone.
pcenv() {
	local lib=$1; shift
	if [ "$lib" = starpu ] && [ -z "$STARPU_REF" ]; then
		env -u PKG_CONFIG_PATH "$@"
	else
		PKG_CONFIG_PATH=${LIBPREFIX[$lib]}/lib/pkgconfig "$@"
	fi
}

# build LIB: fresh build of $TARGETS into ${BDIR[LIB]}; sets STATUS[LIB].
build() {
	local lib=$1 pc=${PCNAME[$1]} dir=${BDIR[$1]}
	rm -rf "$dir"; mkdir -p "$dir"
	VERSION[$lib]=$(pcenv "$lib" pkg-config --modversion "$pc")
	local libs extra=
	libs=$(pcenv "$lib" pkg-config --libs "$pc")
	# rpath to our lib dir, so the binaries cannot pick up another libstarpu.
	local prefix=${LIBPREFIX[$lib]:-}
	[ -n "$prefix" ] && extra="-Wl,-rpath,$prefix/lib"
	if pcenv "$lib" make -s -C "$dir" -f "$SRC/Makefile" VPATH="$SRC" \
		STARPU_PC="$pc" STARPU_LIBS="$libs $extra" $TARGETS >"$dir/build.log" 2>&1; then
		STATUS[$lib]=ok
		# Which libstarpu the binaries really load, for the report.
		LIBPATH[$lib]=$(env ${extra:+LD_LIBRARY_PATH=$prefix/lib} ldd "$dir/$(set -- $TARGETS; echo "$1")" |
			awk '/libstarpu/ {print $1 " => " $3}' | head -1)
		say "built ${TARGETS// /, } against $pc ${VERSION[$lib]} in $dir (${LIBPATH[$lib]})"
		# Never compare a library with itself.
		local loaded=${LIBPATH[$lib]#*=> }
		if [ -n "$prefix" ] && [ "${loaded#"$prefix"/}" = "$loaded" ]; then
			STATUS[$lib]=build_failed
			say "BUILD FAILED: the binaries against $lib load $loaded, not a library under $prefix"
		elif [ "$lib" = starpu ] && [ "${loaded#"$PREFIX"/}" != "$loaded" ]; then
			STATUS[$lib]=build_failed
			say "BUILD FAILED: the StarPU binaries load $loaded, which is under our PREFIX"
		fi
	else
		STATUS[$lib]=build_failed
		say "BUILD FAILED against $pc (log: $dir/build.log):"
		tail -20 "$dir/build.log" >&2
	fi
}

build starpu
[ "${STATUS[starpu]}" = ok ] || { say "cannot build against StarPU (${PCNAME[starpu]}); giving up"; exit 1; }

if [ -f "$OURS_PCDIR/starpu-1.4.pc" ]; then
	build ours
else
	STATUS[ours]=missing
	VERSION[ours]="not installed"
	say "OUR LIBRARY IS MISSING: no $OURS_PCDIR/starpu-1.4.pc."
	say "  Install it first (make -C bindings/c install PREFIX=$PREFIX), or give its"
	say "  prefix: bench/compare.sh $MODE /path/to/prefix.  Running StarPU alone."
fi

if [ -n "$BASELINE" ]; then
	if [ -f "$BASELINE/lib/pkgconfig/starpu-1.4.pc" ]; then
		LIBS="$LIBS before"
		build before
	else
		say "BASELINE=$BASELINE has no lib/pkgconfig/starpu-1.4.pc; giving up"
		exit 1
	fi
fi

# ------------------------------------------------------------------------ runs
TMP=$(mktemp -d "${TMPDIR:-/tmp}/starpu-compare.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
RAW=$TMP/raw.txt
ERRLOG=$TMP/stderr.log
: >"$RAW"; : >"$ERRLOG"
for lib in $LIBS; do mkdir -p "$TMP/home-$lib"; done

# run LIB REP CMD...: one run of ${BDIR[LIB]}/CMD; appends one raw line.
run() {
	local lib=$1 rep=$2; shift 2
	local prog=$1; shift
	local envs=(STARPU_SILENT=1 OPENBLAS_NUM_THREADS=1 STARPU_HOME=$TMP/home-$lib
		    STARPU_NCPU=$NCPU STARPU_SCHED=$SCHED)
	[ -n "${LIBPREFIX[$lib]:-}" ] && envs+=(LD_LIBRARY_PATH=${LIBPREFIX[$lib]}/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH})
	local line rc
	echo "== lib=$lib rep=$rep sched=$SCHED $prog $*" >>"$ERRLOG"
	# (the outer braces also catch the shell's own "Aborted"/"Killed" notice)
	{ (cd "$TMP" && exec env "${envs[@]}" timeout "$TIMEOUT" "${BDIR[$lib]}/$prog" "$@") >"$TMP/out.txt" 2>>"$ERRLOG"; } 2>>"$ERRLOG"
	rc=$?
	line=$(grep '^bench=' "$TMP/out.txt" | tail -1)
	if [ "$rc" -ne 0 ] || [ -z "$line" ]; then
		line="FAILED rc=$rc prog=$prog args=$(IFS=,; echo "$*") sched=$SCHED ncpu=$NCPU"
	fi
	echo "lib=$lib rep=$rep $line" | tee -a "$RAW" >&2
}

# probe REP: how much parallel capacity the machine has right now (see
# bench/starpu-api/README.md, "Caveat: the machine").
probe() {
	local t
	for t in 1 2; do
		local line
		line=$(OPENBLAS_NUM_THREADS=$t timeout "$TIMEOUT" "${BDIR[starpu]}/ref_blas" dgemm 1024 10 2>>"$ERRLOG" | grep '^bench=')
		echo "probe rep=$1 ${line:-FAILED}" | tee -a "$RAW" >&2
	done
}

# potrf_ref REP N: LAPACKE dpotrf on the whole N x N matrix with 2 BLAS threads, the
# no-runtime reference a tiled Cholesky on 2 workers is measured against.
potrf_ref() {
	local line
	line=$(OPENBLAS_NUM_THREADS=2 timeout "$TIMEOUT" "${BDIR[starpu]}/ref_blas" potrf "$2" 2>>"$ERRLOG" | grep '^bench=')
	echo "potrf rep=$1 ${line:-FAILED}" | tee -a "$RAW" >&2
}

if [ "$MODE" = small ]; then
	CONFIGS=("bench_empty 200000 insert" "bench_independent 200000 10000" "bench_chain 100000" "bench_readers 200000")
else
	CONFIGS=("bench_cholesky ${CHOL:-2048 256}")
fi

RUNLIBS=starpu
[ "${STATUS[ours]}" = ok ] && RUNLIBS="starpu ours"
[ "${STATUS[before]:-}" = ok ] && RUNLIBS="$RUNLIBS before"

START=$(date -u '+%Y-%m-%d %H:%M:%S UTC')
for rep in $(seq "$REPS"); do
	if [ "$MODE" = cholesky ]; then
		probe "$rep"
		chol=${CHOL:-2048 256}
		potrf_ref "$rep" "${chol%% *}"
	fi
	idx=0
	for cfg in "${CONFIGS[@]}"; do
		for SCHED in $SCHEDS; do
			# Which library goes first flips with every configuration and
			# every repetition, so neither is always first in a pair.
			# (the run order rotates through the libraries)
			order=$RUNLIBS
			for _ in $(seq $(((rep + idx) % $(echo $RUNLIBS | wc -w)))); do
				order="${order#* } ${order%% *}"
			done
			idx=$((idx + 1))
			for lib in $order; do
				run "$lib" "$rep" $cfg
			done
		done
	done
done
END=$(date -u '+%Y-%m-%d %H:%M:%S UTC')

# ---------------------------------------------------------------------- report
TABLE=$(python3 "$HERE/compare_table.py" --mode "$MODE" --scheds "$SCHEDS" \
	--ours-status "${STATUS[ours]}" ${BASELINE:+--before} "$RAW")
echo
echo "$TABLE"

mkdir -p "$RESULTS"
DAY=$(date '+%Y-%m-%d')
base=$DAY-compare; [ "$MODE" = cholesky ] && base=$DAY-compare-cholesky
OUTFILE=$RESULTS/$base.md
i=2
while [ -e "$OUTFILE" ]; do OUTFILE=$RESULTS/$base-$i.md; i=$((i + 1)); done

GITREV=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -n "$(git -C "$ROOT" status --porcelain --untracked-files=no 2>/dev/null)" ] && GITREV="$GITREV (tracked files modified)"
OURS_SO=
if [ "${STATUS[ours]}" = ok ]; then
	so=${LIBPATH[ours]#*=> }
	[ -f "$so" ] && OURS_SO=" (file dated $(date -u -r "$so" '+%Y-%m-%d %H:%M:%S UTC'))"
fi
{
	echo "# StarPU vs ours, $MODE benchmarks, $DAY"
	echo
	echo "- runs: $START .. $END"
	echo "- command: \`$CMDLINE\`"
	echo "- machine: nproc=$(nproc), model name: $(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo), kernel $(uname -r)"
	echo "- compiler: $(cc --version | head -1)"
	echo "- StarPU: pkg-config ${PCNAME[starpu]} ${VERSION[starpu]}${STARPU_REF:+ from $STARPU_REF}, loads ${LIBPATH[starpu]:-?}"
	echo "- ours: pkg-config starpu-1.4 from $OURS_PCDIR: ${STATUS[ours]}, version ${VERSION[ours]}${LIBPATH[ours]:+, loads ${LIBPATH[ours]}}$OURS_SO"
	[ -n "$BASELINE" ] && echo "- before: pkg-config starpu-1.4 from $BASELINE/lib/pkgconfig: ${STATUS[before]}, loads ${LIBPATH[before]:-?}"
	echo "- repository: $GITREV"
	echo "- settings: STARPU_NCPU=$NCPU, STARPU_SCHED in {$SCHEDS}, STARPU_SILENT=1, OPENBLAS_NUM_THREADS=1, fresh STARPU_HOME per library, REPS=$REPS, libraries alternating run by run"
	echo
	echo "## Table"
	echo
	echo "$TABLE"
	echo
	echo "## Raw lines"
	echo
	echo '```'
	cat "$RAW"
	echo '```'
	if [ -s "$ERRLOG" ] && grep -qv '^== ' "$ERRLOG"; then
		echo
		echo "## stderr of the runs"
		echo
		echo '```'
		# only the runs that wrote something to stderr, each under its header
		awk '/^== / {h = $0; next} {if (h != "") {print h; h = ""} print}' "$ERRLOG" | tail -200
		echo '```'
	fi
} >"$OUTFILE"
echo
say "report written to ${OUTFILE#$ROOT/}"

# Exit status: 0 when every run that could be made succeeded.
grep -q ' FAILED ' "$RAW" && exit 1
exit 0
