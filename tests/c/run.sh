#!/bin/bash
# Builds and runs the C API tests, one line per program, then
# "N passed, M failed"; exits non-zero if any failed.
#
# usage: tests/c/run.sh
# env:   STARPU_PC   pkg-config name of the library (default starpu-1.4, ours;
#                    starpu-1.3 is Debian's StarPU, for reference)
#        PREFIX      where that library is installed: adds PREFIX/lib/pkgconfig
#                    to PKG_CONFIG_PATH and PREFIX/lib to LD_LIBRARY_PATH
#                    (default for starpu-1.4: <repo>/build/install when it has one)
#        SCHEDS      run every test once per scheduling policy, e.g. "eager lws"
#                    (default: one run with the environment's STARPU_SCHED)
#        TIMEOUT     seconds per run (default 120)
#        VERBOSE=1   show every program's output, not only the failures'
# A program that does not build, exits non-zero (77 = no worker), or times
# out counts as failed; one that exits 78 was skipped (its last line says why:
# the OpenCL tests without an OpenCL device). The opencl_* programs run with
# STARPU_OPENCL_ON_CPUS=1: StarPU (and this library) take CPU OpenCL devices
# such as PoCL only then.
set -u
cd "$(dirname "$0")"
export STARPU_PC=${STARPU_PC:-starpu-1.4}
TIMEOUT=${TIMEOUT:-120}
# Our library, installed by `make -C bindings/c install PREFIX=build/install`,
# is found without PREFIX too.
if [ -z "${PREFIX:-}" ] && [ "$STARPU_PC" = starpu-1.4 ] && ! pkg-config --exists starpu-1.4 &&
	[ -f ../../build/install/lib/pkgconfig/starpu-1.4.pc ]; then
	PREFIX=$(cd ../../build/install && pwd)
fi
if [ -n "${PREFIX:-}" ]; then
	export PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
	export LD_LIBRARY_PATH=$PREFIX/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi

TESTS=$(make -s list)
ntests=$(echo $TESTS | wc -w)
if ! pkg-config --exists "$STARPU_PC"; then
	echo "pkg-config cannot find $STARPU_PC (PKG_CONFIG_PATH=${PKG_CONFIG_PATH:-}); set PREFIX or STARPU_PC" >&2
	echo "0 passed, $ntests failed"
	exit 1
fi
echo "library: $STARPU_PC $(pkg-config --modversion "$STARPU_PC") from $(pkg-config --variable=prefix "$STARPU_PC")"

LOG=$(mktemp -d "${TMPDIR:-/tmp}/starpu-ctests.XXXXXX")
trap 'rm -rf "$LOG"' EXIT
# -k: build every program that can be built; the others fail below.
if ! make -k -s >"$LOG/build.log" 2>&1; then
	echo "some programs did not build:"
	grep -E 'error|undefined reference' "$LOG/build.log" | head -30 | sed 's/^/    /'
fi

export STARPU_HOME=$LOG/home STARPU_SILENT=1
mkdir -p "$STARPU_HOME"
. ../verdict.sh
pass=0 fail=0
for t in $TESTS; do
	for sched in ${SCHEDS:-""}; do
		label=$t${sched:+ [STARPU_SCHED=$sched]}
		if [ ! -x "bin/$t" ]; then
			printf 'FAIL  %s (did not build)\n' "$label"
			fail=$((fail + 1))
			continue
		fi
		case $t in opencl_*) ocl=STARPU_OPENCL_ON_CPUS=1 ;; *) ocl= ;; esac
		env ${sched:+STARPU_SCHED=$sched} $ocl timeout "$TIMEOUT" "bin/$t" >"$LOG/out" 2>&1
		verdict "$label" $? "$LOG/out" 20
	done
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
