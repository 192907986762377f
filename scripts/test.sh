#!/bin/bash
# Every test: formatting and lints, Rust unit and integration tests (with the C header
# layout test), the C test programs, the Fortran examples, the conformance suite, then the
# checkers: the stress test, valgrind memcheck and ThreadSanitizer (quick mode).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PREFIX=${PREFIX:-$ROOT/build/install}

scripts/setup.sh
echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy"
cargo clippy --workspace --all-targets -- -D warnings
if command -v mpicc >/dev/null; then # the Python face's starpu.mpi (off by default)
	cargo clippy -p starpu-python --features mpi --all-targets -- -D warnings
fi
echo "== cargo doc (no warnings)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --quiet
echo "== cargo test"
cargo test --workspace
echo "== make install"
make -s install PREFIX="$PREFIX" >/dev/null
export PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig STARPU_PREFIX=$PREFIX
echo "== C tests, under each scheduling policy (STARPU_SCHED)"
SCHEDS="eager prio random ws lws dmda heteroprio modular-ws modular-heft" tests/c/run.sh
echo "== C tests, one CPU worker (STARPU_NCPU=1)"
STARPU_NCPU=1 tests/c/run.sh
echo "== StarPU-MPI tests (tests/mpi/run.sh: mpirun --oversubscribe -np 4)"
tests/mpi/run.sh
echo "== Fortran examples (gfortran, fstarpu_mod.f90 as installed)"
examples/fortran/run.sh
echo "== Fortran module: StarPU's routines covered, every bound C symbol in the library"
bindings/fortran/coverage.sh "$PREFIX/lib/libstarpu-1.4.so"
echo "== Python face: build and install (pip install ./bindings/python; starpu.mpi where mpicc is)"
PY_FEATURES=$(command -v mpicc >/dev/null && echo "--features mpi" || true)
MATURIN_PEP517_ARGS=$PY_FEATURES \
	python3 -m pip install -q --no-build-isolation --force-reinstall --no-deps ./bindings/python
echo "== Python face tests"
STARPU_PREFIX=$PREFIX python3 -m pytest bindings/python/tests -q
echo "== Java: starpu-java.jar and its JUnit suite (Surefire, under -Xcheck:jni)"
(cd bindings/java && mvn -B -ntp package)
echo "== conformance suite"
python3 -m pytest tests/conformance -q
echo "== trace views in headless Chromium (scripts/trace_screenshots.sh; skipped without it)"
scripts/trace_screenshots.sh
# The checkers all run, so that one failing does not hide what the others find.
checks=0
echo "== stress test (tests/stress/run.sh ci: each policy, 1 and 2 workers)"
tests/stress/run.sh ci || checks=1
echo "== stress test with COMMUTE and REDUX accesses (eager and lws, 2 workers)"
SCHEDS="eager lws" NCPUS=2 STRESS_ARGS="--tasks 2000 --threads 3 --rounds 3 --commute --redux" \
	tests/stress/run.sh || checks=1
echo "== stress test with OpenCL workers in the mix (PoCL, STARPU_OPENCL_ON_CPUS=1)"
SCHEDS="eager lws dmda modular-heft" NCPUS=1 STARPU_OPENCL_ON_CPUS=1 \
	STRESS_ARGS="--tasks 1000 --threads 3 --rounds 3 --opencl --commute --redux" \
	tests/stress/run.sh || checks=1
echo "== valgrind memcheck (scripts/valgrind.sh)"
if command -v valgrind >/dev/null; then
	scripts/valgrind.sh || checks=1
else
	echo "skipped: valgrind is not installed"
fi
echo "== ThreadSanitizer (scripts/tsan.sh quick)"
if command -v rustup >/dev/null && rustup run nightly rustc --version >/dev/null 2>&1; then
	scripts/tsan.sh quick || checks=1
else
	echo "skipped: no nightly Rust toolchain (rustup)"
fi
exit $checks
