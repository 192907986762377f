#!/bin/bash
# StarPU-MPI benchmarks on 2 processes of this machine, each StarPU with 1 CPU worker:
#  1. ping-pong (bench/mpi/pingpong.c): raw MPI and StarPU-MPI on a vector handle in the
#     same run; ours, then Debian's StarPU 1.3 when libstarpu-dev is installed;
#  2. Task Bench's StarPU port, unchanged (stencil_1d, width 2, 200 steps), swept from
#     2^16 down to 2^4 kernel iterations; METG(50%) by bench/mpi/metg.py; ours, then
#     Debian's StarPU 1.3; each rank bound to its core (mpirun's default for 2 processes:
#     "2 ranks x 1 core"), then unbound (--bind-to none, STARPU_WORKERS_NOBIND=1) as Task
#     Bench's own StarPU scripts run it;
#  3. tiled Cholesky: examples/mpi/cholesky on 2 processes x 1 core against the
#     single-process bench_cholesky (bench/starpu-api) on 2 cores.
#
# usage: TB_OURS=.../starpu/main [TB_13=.../starpu/main] bench/mpi/run.sh [parts]
#   parts: any of pingpong taskbench cholesky (default: all)
#   TB_OURS, TB_13: Task Bench's starpu/main built against our starpumpi-1.4 (STARPU_DIR=
#   the install prefix, STARPU_VERSION=1.4) and against Debian's (a prefix with
#   include -> /usr/include and lib/lib{starpu,starpumpi}-1.3.so links). Task Bench is not
#   part of this repository: see bench/mpi/README.md.
#   REPS: repetitions of the Cholesky runs (default 3).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
PREFIX=${PREFIX:-$ROOT/build/install}
OUT=$ROOT/build/bench-mpi
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 STARPU_SILENT=1 OPENBLAS_NUM_THREADS=1
MPIRUN=(mpirun -np 2)
OURS_PC=$PREFIX/lib/pkgconfig

echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== $(mpirun --version | head -1)"

want() { [ -z "$PARTS" ] || [[ " $PARTS " == *" $1 "* ]]; }
PARTS="$*"

if want pingpong; then
echo "== 1. ping-pong (one-way latency, bandwidth), 3 runs each"
cc -O2 bench/mpi/pingpong.c -o "$OUT/pingpong-ours" $(PKG_CONFIG_PATH=$OURS_PC pkg-config --cflags --libs starpumpi-1.4)
for run in 1 2 3; do "${MPIRUN[@]}" "$OUT/pingpong-ours" starpu-rs; done
if env -u PKG_CONFIG_PATH pkg-config --exists starpumpi-1.3; then
	mpicc -O2 bench/mpi/pingpong.c -o "$OUT/pingpong-13" $(env -u PKG_CONFIG_PATH pkg-config --cflags --libs starpumpi-1.3)
	for run in 1 2 3; do
		timeout 900 "${MPIRUN[@]}" "$OUT/pingpong-13" starpu-1.3 || echo "(StarPU 1.3 ping-pong did not finish)"
	done
fi
fi

sweep() { # name binary mpirun-options...
	local name=$1 bin=$2 log=$OUT/taskbench-$1.log
	shift 2
	: >"$log"
	for k in 16 14 12 10 8 6 4; do
		timeout 600 "${MPIRUN[@]}" "$@" "$bin" -steps 200 -width 2 -type stencil_1d -kernel compute_bound \
			-iter $((1 << k)) -core 1 >>"$log" 2>&1 || echo "(iterations 2^$k did not finish)"
	done
	echo "-- Task Bench, $name"
	python3 bench/mpi/metg.py 2 "$log"
}
if want taskbench; then
echo "== 2. Task Bench stencil_1d, 2 ranks x 1 core"
for impl in ours 13; do
	var=TB_${impl^^}
	bin=${!var:-}
	if [ -z "$bin" ]; then echo "($var not set: skipped)"; continue; fi
	sweep "$impl-bound" "$bin"
	sweep "$impl-unbound" "$bin" --bind-to none -x STARPU_WORKERS_NOBIND=1
done
fi

if want cholesky; then
echo "== 3. Cholesky: 2 processes x 1 core (2x1 grid) vs 1 process x 2 cores"
PKG_CONFIG_PATH=$OURS_PC make -s -C examples/mpi OUT="$OUT" "$OUT/cholesky"
PKG_CONFIG_PATH=$OURS_PC make -s -C "$OUT" -f "$ROOT/bench/starpu-api/Makefile" \
	VPATH="$ROOT/bench/starpu-api" STARPU_PC=starpu-1.4 bench_cholesky
for size in "2048 256" "4096 256"; do
	for rep in $(seq "${REPS:-3}"); do
		STARPU_NCPU=1 "${MPIRUN[@]}" -x STARPU_NCPU "$OUT/cholesky" $size 0
		STARPU_NCPU=2 "$OUT/bench_cholesky" $size
	done
done
fi
