#!/bin/bash
# Installs what building and testing need, when missing: Debian packages (hwloc, BLAS,
# pkg-config, gfortran for the Fortran face, valgrind) and Python packages (pytest;
# maturin, numpy and joblib for the Python face), and the nightly Rust toolchain with
# rust-src for the ThreadSanitizer run. Safe to run again: it only installs what lacks.
set -euo pipefail

APT_PACKAGES=(build-essential pkg-config libhwloc-dev libudev-dev libopenblas-dev liblapacke-dev gfortran)
APT_PACKAGES+=(valgrind) # scripts/valgrind.sh
# OpenCL workers: PoCL is a real OpenCL device on the CPU, so the accelerator path runs
# on machines without a GPU; the ICD loader and headers build StarPU's OpenCL programs.
APT_PACKAGES+=(pocl-opencl-icd ocl-icd-opencl-dev opencl-headers clinfo)
# StarPU-MPI over Open MPI (the `mpi` crate runs bindgen: libclang).
APT_PACKAGES+=(libopenmpi-dev openmpi-bin libclang-dev)
PIP_PACKAGES=(pytest maturin numpy joblib)

missing=()
for p in "${APT_PACKAGES[@]}"; do
	dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
# The Java face: a JDK (17 or later) and Maven; Maven's plugins and JUnit come from Maven
# Central at the first build.
command -v javac >/dev/null 2>&1 || missing+=(default-jdk-headless)
command -v mvn >/dev/null 2>&1 || missing+=(maven)
if [ ${#missing[@]} -gt 0 ]; then
	echo "setup: installing ${missing[*]}"
	SUDO=""
	[ "$(id -u)" -ne 0 ] && SUDO=sudo
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

for p in "${PIP_PACKAGES[@]}"; do
	python3 -c "import $p" 2>/dev/null || {
		echo "setup: pip install $p"
		python3 -m pip install -q "$p"
	}
done

command -v cargo >/dev/null || { echo "setup: cargo (Rust) is required: https://rustup.rs" >&2; exit 1; }
# scripts/tsan.sh: the nightly toolchain with rust-src (-Zsanitizer=thread, -Zbuild-std).
if command -v rustup >/dev/null; then
	if ! rustup run nightly rustc --version >/dev/null 2>&1; then
		echo "setup: rustup toolchain install nightly"
		rustup toolchain install nightly --profile minimal --component rust-src >/dev/null
	elif ! rustup component list --toolchain nightly --installed 2>/dev/null | grep -q '^rust-src'; then
		echo "setup: rustup component add rust-src --toolchain nightly"
		rustup component add rust-src --toolchain nightly >/dev/null
	fi
fi
