#!/bin/bash
# The main job: builds and installs libstarpu, runs the examples and the tiled Cholesky
# benchmark on it, and prints a short report (workers, tasks run, time).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PREFIX=${PREFIX:-$ROOT/build/install}

scripts/setup.sh
make -s install PREFIX="$PREFIX" >/dev/null
export PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig
export STARPU_SILENT=1 STARPU_WORKER_STATS=1 OPENBLAS_NUM_THREADS=1
export STARPU_HOME=${STARPU_HOME:-$ROOT/build/starpu_home}
mkdir -p "$STARPU_HOME" build/examples

echo "== C examples (libstarpu from $PREFIX)"
make -s -C examples/c OUT="$ROOT/build/examples" >/dev/null
status=0
for ex in hello_world vector_scal incrementer; do
	start=$(date +%s%N)
	if out=$("build/examples/$ex" 2>&1); then
		end=$(date +%s%N)
		printf '%-14s ok   %6d ms\n' "$ex" $(((end - start) / 1000000))
		echo "$out" | sed 's/^/    /'
	else
		echo "$ex FAILED"
		echo "$out" | sed 's/^/    /'
		status=1
	fi
done

echo "== Tiled Cholesky (bench/starpu-api/bench_cholesky), 2 CPU workers"
make -s -C bench/starpu-api STARPU_PC=starpu-1.4 bench_cholesky >/dev/null
for sched in eager lws; do
	STARPU_SCHED=$sched STARPU_NCPU=2 bench/starpu-api/bench_cholesky 2048 256 2>&1 | sed 's/^/    /' || status=1
done
exit $status
