#!/bin/bash
# Installs what building and testing need, when missing: Debian packages (hwloc, BLAS,
# pkg-config) and Python packages (pytest). Safe to run again: it only installs what lacks.
set -euo pipefail

APT_PACKAGES=(build-essential pkg-config libhwloc-dev libudev-dev libopenblas-dev liblapacke-dev)
PIP_PACKAGES=(pytest)

missing=()
for p in "${APT_PACKAGES[@]}"; do
	dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
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
