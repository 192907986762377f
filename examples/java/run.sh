#!/bin/bash
# Builds the Java examples against starpu-java.jar and runs each (every example checks its
# own result and exits non-zero when it is wrong). Prints one line per example.
# Usage: examples/java/run.sh [JAR]   (default: bindings/java/target/starpu-java-*.jar)
set -euo pipefail
cd "$(dirname "$0")"
JAR=${1:-$(ls ../../bindings/java/target/starpu-java-*.jar | head -1)}
OUT=build
rm -rf "$OUT/classes" && mkdir -p "$OUT/classes"
javac -Xlint:none -d "$OUT/classes" -cp "$JAR" fr/labri/hpccloud/starpu/examples/*.java
# A small text for WordCount (fixed content).
python3 - "$OUT/words.txt" <<'PY'
import random, sys
r = random.Random(7)
words = ["the", "a", "runtime", "task", "data", "worker", "java", "codelet", "handle", "block"]
with open(sys.argv[1], "w") as f:
    for _ in range(200):
        f.write(" ".join(r.choice(words) for _ in range(r.randint(1, 12))) + "\n")
PY
status=0
run() { # name args...
	local name=$1; shift
	local start end
	start=$(date +%s%N)
	if java -cp "$JAR:$OUT/classes" "fr.labri.hpccloud.starpu.examples.$name" "$@" >"$OUT/$name.out" 2>"$OUT/$name.err"; then
		end=$(date +%s%N)
		printf '%-28s ok     %6d ms   %s\n' "Java example $name" $(((end - start) / 1000000)) "$(tail -1 "$OUT/$name.out")"
	else
		printf '%-28s FAILED\n' "Java example $name"
		sed 's/^/    /' "$OUT/$name.out" "$OUT/$name.err" | tail -20
		status=1
	fi
}
run VectorScal
run WordCount "$OUT/words.txt"
run Pi
run TransitiveClosure
exit $status
