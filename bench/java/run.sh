#!/bin/bash
# The Java face's speed, in one run on this machine: tiny Java codelets against ForkJoinPool
# and CompletableFuture chains, WordCount against a sequential loop and a parallel stream,
# and (for reference) the empty C task of bench/starpu-api built against our library.
# Writes bench/results/DATE-java.md. Usage: bench/java/run.sh [TEXT_MB=50] [TASKS=100000] [REPS=7]
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
OUT=bench/java/build
mkdir -p "$OUT/classes" bench/results
(cd bindings/java && mvn -q -B -ntp -DskipTests package)
JAR=$(ls bindings/java/target/starpu-java-*.jar | head -1)
javac -d "$OUT/classes" -cp "$JAR" bench/java/Bench.java
export STARPU_SILENT=1 STARPU_NCPU=${STARPU_NCPU:-$(nproc)}
args=("${1:-50}" "${2:-100000}" "${3:-7}")
start=$(date +%s%N)
java -cp "$JAR" -version >/dev/null 2>&1
jvm_start=$(( ($(date +%s%N) - start) / 1000000 ))
java_out=$(java -Xms2g -Xmx8g -cp "$JAR:$OUT/classes" Bench "${args[@]}")
# Our empty C task, same machine, same session.
c_out=""
PREFIX=${PREFIX:-$ROOT/build/install}
if make -s install PREFIX="$PREFIX" >/dev/null 2>&1 &&
	PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig" make -s -C "$OUT" -f "$ROOT/bench/starpu-api/Makefile" \
		VPATH="$ROOT/bench/starpu-api" STARPU_PC=starpu-1.4 bench_empty >/dev/null 2>&1; then
	c_out=$("$OUT/bench_empty" 200000 insert; "$OUT/bench_empty" 200000 insert)
fi
date=$(date +%Y-%m-%d)
report=bench/results/$date-java.md
{
	echo "# Java face speed, $date"
	echo
	echo "Machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(java -version 2>&1 | head -1)."
	echo "Command: \`bench/java/run.sh ${args[*]}\` (STARPU_NCPU=$STARPU_NCPU). Median and best of the runs after two warm-up rounds."
	echo "A JVM start (\`java -version\`) takes ${jvm_start} ms and is not part of any figure below."
	echo
	echo '```'
	echo "$java_out"
	echo "$c_out"
	echo '```'
} >"$report"
cat "$report"
