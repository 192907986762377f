#!/bin/bash
# How much of StarPU's Fortran module ours provides, and whether every C symbol it binds
# exists in the library.
#
# usage: bindings/fortran/coverage.sh [LIBRARY]
#   LIBRARY  libstarpu-1.4.so to check the bindings against
#            (default: <repo>/build/install/lib/libstarpu-1.4.so)
#
# Prints the routines and constants of StarPU's module (starpu-names.txt) ours declares,
# the ones it lacks, its extensions, then checks that each bind(C) name of the module is
# a symbol of LIBRARY. Exits non-zero when a bound symbol is missing: a module routine
# whose C side is not in the library would fail at link time in every program using it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
module=$here/fstarpu_mod.f90
names=$here/starpu-names.txt
lib=${1:-$here/../../build/install/lib/libstarpu-1.4.so}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Public names of our module: procedures (interface bodies, module procedures, generic
# interfaces) and FSTARPU_* variables; lower-case, as Fortran names are.
grep -ioE '^ *(recursive +)?(subroutine|function|interface) +fstarpu_[a-z0-9_]+' "$module" |
	awk '{print tolower($NF)}' | sort -u >"$tmp/routines"
grep -oE ':: *FSTARPU_[A-Z0-9_]+' "$module" | sed 's/:: *//' | sort -u >"$tmp/constants"

report() { # kind file-of-ours
	local kind=$1 ours=$2
	awk -v k="$kind" '$1 == k {print $2}' "$names" | sort -u >"$tmp/theirs"
	comm -12 "$tmp/theirs" "$ours" >"$tmp/have"
	comm -23 "$tmp/theirs" "$ours" >"$tmp/lack"
	comm -13 "$tmp/theirs" "$ours" >"$tmp/extra"
	echo "${kind}s: $(wc -l <"$tmp/have") of StarPU's $(wc -l <"$tmp/theirs") provided"
	if [ -s "$tmp/lack" ]; then
		echo "  not provided ($(wc -l <"$tmp/lack")):"
		fmt -w 88 "$tmp/lack" | sed 's/^/    /'
	fi
	if [ -s "$tmp/extra" ]; then
		echo "  extensions ($(wc -l <"$tmp/extra")):"
		fmt -w 88 "$tmp/extra" | sed 's/^/    /'
	fi
}
report routine "$tmp/routines"
report constant "$tmp/constants"

# Every C symbol the module binds: explicit bind(C, name="...") labels, and the routine's
# own name for a bare bind(C) (those are the fstarpu_* helpers).
{
	grep -oE 'bind\(C, *name="[a-z0-9_]+"\)' "$module" | sed -E 's/.*name="([a-z0-9_]+)".*/\1/'
	grep -iE '^ *(subroutine|function) +fstarpu_[a-z0-9_]+ *\(.*\) *bind\(C\) *$' "$module" |
		awk '{print tolower($2)}' | sed 's/(.*//'
	# Bodies whose bind(C) is on a continuation line.
	grep -iE -A1 '^ *(subroutine|function) +fstarpu_[a-z0-9_]+ *\(.*& *$' "$module" |
		grep -B1 -E '^ *bind\(C\) *$' | grep -ioE '(subroutine|function) +fstarpu_[a-z0-9_]+' |
		awk '{print tolower($2)}' || true
} | sort -u >"$tmp/bound"
if [ ! -f "$lib" ]; then
	echo "no library at $lib (make install first): bindings not checked" >&2
	exit 1
fi
nm -D --defined-only "$lib" | awk '{print $3}' | sort -u >"$tmp/symbols"
comm -23 "$tmp/bound" "$tmp/symbols" >"$tmp/unbound"
echo "C symbols the module binds: $(wc -l <"$tmp/bound"), all in $(basename "$lib"): \
$([ -s "$tmp/unbound" ] && echo no || echo yes)"
if [ -s "$tmp/unbound" ]; then
	echo "  missing from the library:"
	sed 's/^/    /' "$tmp/unbound"
	exit 1
fi
