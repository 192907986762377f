#!/bin/bash
# The main job: builds and installs libstarpu, runs the examples and the tiled Cholesky
# benchmark on it, and prints a short report (workers, tasks run by each, time).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PREFIX=${PREFIX:-$ROOT/build/install}

scripts/setup.sh
export STARPU_HOME=${STARPU_HOME:-$ROOT/build/starpu_home}
mkdir -p "$STARPU_HOME" build/examples build/bench
export PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig
{
	make -s install PREFIX="$PREFIX"
	cargo build --release -q -p starpu-examples
	make -s -C examples/c OUT="$ROOT/build/examples"
	make -s -C examples/fortran OUT="$ROOT/build/examples/fortran"
	make -s -C examples/mpi OUT="$ROOT/build/examples/mpi"
	make -s -C build/bench -f "$ROOT/bench/starpu-api/Makefile" VPATH="$ROOT/bench/starpu-api" \
		STARPU_PC=starpu-1.4 bench_cholesky
} >build/make.log 2>&1 || { cat build/make.log; exit 1; }
export STARPU_SILENT=1 STARPU_WORKER_STATS=1 OPENBLAS_NUM_THREADS=1

# Tasks per worker, from the statistics the library prints at shutdown.
per_worker() {
	grep -E $'^\t.*\t[0-9]+ tasks$' "$1" | awk -F'\t' '{split($3, a, " "); printf "%s%s", sep, a[1]; sep=","}'
}

status=0
run() { # name command...
	local name=$1; shift
	local start end
	start=$(date +%s%N)
	if "$@" >build/out.txt 2>build/err.txt; then
		end=$(date +%s%N)
		printf '%-28s ok     %6d ms   tasks per worker: %s\n' "$name" $(((end - start) / 1000000)) "$(per_worker build/err.txt)"
		sed 's/^/    /' build/out.txt
	else
		printf '%-28s FAILED\n' "$name"
		sed 's/^/    /' build/out.txt build/err.txt
		status=1
	fi
}

echo "== main job: libstarpu from $PREFIX, $(nproc) cores, STARPU_NCPU=${STARPU_NCPU:-all}"
for ex in vector_scal tag_graph cholesky; do
	run "Rust example $ex" "target/release/$ex"
done
for ex in hello_world vector_scal incrementer; do
	run "C example $ex" "build/examples/$ex"
done
for ex in vector_scal matrix partition dynbuf insert_values; do
	run "Fortran example $ex" "build/examples/fortran/$ex"
done
# StarPU-MPI: 4 processes on this machine (as root, Open MPI wants to be told).
MPIRUN=(env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun --oversubscribe -np 4)
run "MPI example ring (4 procs)" "${MPIRUN[@]}" build/examples/mpi/ring
run "MPI Cholesky 1024/128 (2x2)" "${MPIRUN[@]}" build/examples/mpi/cholesky 1024 128
python3 -m pip install -q --no-build-isolation --force-reinstall --no-deps ./bindings/python \
	>build/pip.log 2>&1 || { cat build/pip.log; exit 1; }
for ex in examples/python/*.py; do
	run "Python example $(basename "$ex" .py)" python3 "$ex"
done
for sched in eager lws; do
	STARPU_SCHED=$sched STARPU_NCPU=2 run "Cholesky 2048/256 ($sched)" build/bench/bench_cholesky 2048 256
done
echo "== Java examples (starpu-java.jar)"
if (cd bindings/java && mvn -q -B -ntp -DskipTests package) >build/java.log 2>&1; then
	examples/java/run.sh || status=1
else
	echo "Java examples                FAILED (building the jar)"
	tail -20 build/java.log
	status=1
fi
exit $status
