#!/bin/bash
# Every test: formatting and lints, Rust unit and integration tests (with the C header
# layout test), the C test programs, and the conformance suite.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PREFIX=${PREFIX:-$ROOT/build/install}

scripts/setup.sh
echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy"
cargo clippy --workspace --all-targets -- -D warnings
echo "== cargo test"
cargo test --workspace
echo "== make install"
make -s install PREFIX="$PREFIX" >/dev/null
export PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig STARPU_PREFIX=$PREFIX
echo "== C tests, under each scheduling policy (STARPU_SCHED)"
SCHEDS="eager prio random ws lws" tests/c/run.sh
echo "== C tests, one CPU worker (STARPU_NCPU=1)"
STARPU_NCPU=1 tests/c/run.sh
echo "== conformance suite"
python3 -m pytest tests/conformance -q
