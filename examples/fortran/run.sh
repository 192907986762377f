#!/bin/bash
# Builds the Fortran examples against the installed library and module, runs each, prints
# one line per program then "N passed, M failed"; exits non-zero if any failed.
#
# usage: examples/fortran/run.sh
# env:   PREFIX   where the library is installed (default <repo>/build/install)
#        TIMEOUT  seconds per program (default 120)
# A program that does not build, exits non-zero (77 = no worker) or times out fails.
set -u
cd "$(dirname "$0")"
PREFIX=${PREFIX:-$(cd ../.. && pwd)/build/install}
TIMEOUT=${TIMEOUT:-120}
export PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}

OUT=$(mktemp -d "${TMPDIR:-/tmp}/starpu-fortran.XXXXXX")
trap 'rm -rf "$OUT"' EXIT
EXAMPLES=$(make -s list)
if ! make -k -s OUT="$OUT" >"$OUT/build.log" 2>&1; then
	echo "some programs did not build:"
	sed 's/^/    /' "$OUT/build.log" | head -30
fi

export STARPU_HOME=$OUT/home STARPU_SILENT=1
mkdir -p "$STARPU_HOME"
pass=0 fail=0
for e in $EXAMPLES; do
	if [ ! -x "$OUT/$e" ]; then
		printf 'FAIL  %s (did not build)\n' "$e"
		fail=$((fail + 1))
	elif timeout "$TIMEOUT" "$OUT/$e" >"$OUT/out" 2>&1; then
		printf 'ok    %s\n' "$e"
		pass=$((pass + 1))
	else
		printf 'FAIL  %s (exit status %d)\n' "$e" $?
		sed 's/^/    /' "$OUT/out"
		fail=$((fail + 1))
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
