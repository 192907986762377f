#!/bin/bash
# The CUDA checks that need an NVIDIA GPU (CI has none, so they never run there): the core's
# GPU tests (multiformat data through cpu_to_cuda_cl / cuda_to_cpu_cl and the
# STARPU_CUDA_PIPELINE queue among them), the C API test, the Python and Java CUDA faces'
# tests (starpu.cuda, Codelet.runCUDA), the CUDA conformance scenarios (data written on the GPU read
# on the CPU and back, partitioned data, a CPU/GPU alternating chain, eviction under a
# small STARPU_LIMIT_CUDA_MEM, a failing kernel) and the benchmarks of bench/cuda (empty
# CUDA task against empty CPU task; tiled Cholesky against cuSOLVER's dpotrf at n = 8192,
# 16384, 32768). Written on machines without a GPU: none of this has run yet.
#
# usage:
#   scripts/gpu-check.sh pack   here (cargo, a C compiler): builds into gpu-pack/ (ignored)
#                               the library, the test binaries, the conformance driver,
#                               the Python face (with pytest) and the Java jar (with its
#                               JUnit tests and a launcher), and the shared libraries they
#                               need. With CUDA_HOME (CUDA's
#                               include/ and lib/, NVIDIA's pip wheels do) it also builds
#                               the C programs; otherwise `run` builds them on the GPU
#                               machine with its CUDA toolkit.
#   scripts/gpu-check.sh run    on the GPU machine (one GPU, no network; python3, and cc
#                               for the C programs when not packed; numpy for the Python
#                               tests and java for the Java ones, each skipped with the
#                               reason without them): runs everything from
#                               gpu-pack/ in at most 8 minutes, prints one line per check
#                               and "N passed, N failed", and the benchmark figures; the
#                               whole log goes to gpu-pack/gpu-check.log (and $OUT/ when set).
# env: PACK (default <repo>/gpu-pack), SIZES (default "8192 16384 32768"), REPS (3)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PACK=${PACK:-$ROOT/gpu-pack}

# The C programs: tests/c/cuda_api.c and bench/cuda/*.c, against the packed library.
build_c() { # CUDA_INCLUDE CUDA_LIBDIR
	local inc=$1 libdir=$2 blas=""
	local cflags="-O2 -g -fopenmp -I$PACK/install/include/starpu/1.4 -I$inc"
	local libs="-L$PACK/install/lib -lstarpu-1.4 -L$libdir -Wl,--allow-shlib-undefined"
	if [ -f /usr/include/cblas.h ] || [ -f /usr/include/x86_64-linux-gnu/cblas.h ]; then
		if pkg-config --exists openblas 2>/dev/null; then
			blas="-DCPU_BLAS $(pkg-config --cflags --libs openblas)"
		fi
	fi
	mkdir -p "$PACK/bin"
	cc $cflags -I"$ROOT/tests/c" -o "$PACK/bin/cuda_api" "$ROOT/tests/c/cuda_api.c" $libs &&
		cc $cflags -o "$PACK/bin/bench_empty" "$ROOT/bench/cuda/empty.c" $libs &&
		cc $cflags -o "$PACK/bin/bench_cholesky" "$ROOT/bench/cuda/cholesky.c" $libs \
			-lcublas -lcusolver -lcudart -lm $blas
}

# starpu_config.h as build.rs writes it where CUDA's headers are at build time.
with_cuda_config() {
	local h=$PACK/install/include/starpu/1.4/starpu_config.h
	grep -q "define STARPU_USE_CUDA" "$h" && return
	sed -i -e 's/^#define STARPU_USE_CPU 1$/#define STARPU_USE_CPU 1\n#define STARPU_USE_CUDA 1/' \
		-e 's/#define STARPU_MAXCUDADEVS 0/#define STARPU_MAXCUDADEVS 3/' "$h"
}

pack() {
	set -e
	rm -rf "$PACK"
	mkdir -p "$PACK/bin" "$PACK/lib"
	cd "$ROOT"
	# No StarPU-MPI in the pack (the GPU machine need not have Open MPI).
	make install PREFIX="$PACK/install" FEATURES="--no-default-features --features mimalloc,opencl,cuda"
	cargo build --release -p starpu-conformance-rust
	cp target/release/starpu-conformance-rust "$PACK/bin/"
	local t
	t=$(cargo test --release -p starpu-core --test cuda --no-run --message-format=json 2>/dev/null |
		python3 -c 'import json,sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] == "cuda":
        print(m["executable"])')
	cp "$t" "$PACK/bin/core_cuda_tests"
	pack_python
	pack_java
	with_cuda_config
	if [ -n "${CUDA_HOME:-}" ]; then
		build_c "$CUDA_HOME/include" "$CUDA_HOME/lib"
	fi
	# The shared libraries the binaries need, but the C library's and CUDA's (the GPU
	# machine has its own driver and toolkit).
	for b in "$PACK"/bin/* "$PACK"/install/lib/libstarpu-1.4.so; do
		ldd "$b" | awk '/=> \// {print $3}'
	done | sort -u | grep -Ev '/(libc|libm|libdl|librt|libpthread|ld-linux[^/]*|libcuda|libcudart|libcublas[^/]*|libcusolver|libstarpu-1\.4)\.so' |
		xargs -r cp -L -t "$PACK/lib"
	# Small enough to carry (the device tool takes 64 MiB with the tree).
	rm -rf "$PACK"/install/lib/*.a "$PACK"/install/bin
	strip --strip-debug "$PACK"/bin/* "$PACK"/lib/* "$PACK"/install/lib/*.so "$PACK"/python/starpu/*.so
	set +e
	echo "packed in $PACK ($(du -sh "$PACK" | cut -f1)); carry it to the GPU machine and run: scripts/gpu-check.sh run"
}

# The Python face and pytest (pure Python: the GPU machine has no network), for
# bindings/python/tests/test_cuda.py.
pack_python() {
	rm -rf "$PACK/wheel" "$PACK/python"
	python3 -m pip wheel -q --no-build-isolation --no-deps ./bindings/python -w "$PACK/wheel"
	python3 -m pip install -q --no-deps --target "$PACK/python" "$PACK"/wheel/*.whl
	rm -rf "$PACK/wheel"
	python3 - "$PACK/python" <<'PY'
import importlib, os, shutil, sys
for name in ["pytest", "_pytest", "pluggy", "iniconfig", "packaging", "pygments", "py"]:
    try:
        m = importlib.import_module(name)
    except ImportError:
        continue
    src = m.__file__
    if os.path.basename(src) == "__init__.py":
        shutil.copytree(os.path.dirname(src), os.path.join(sys.argv[1], name))
    else:
        shutil.copy(src, sys.argv[1])
PY
}

# starpu-java.jar, its JUnit test classes, the JUnit platform from Maven's repository and
# a small launcher (the GPU machine has no network and maybe no Maven).
pack_java() {
	(cd bindings/java && mvn -B -ntp -q package -DskipTests)
	rm -rf "$PACK/java"
	mkdir -p "$PACK/java/lib"
	cp bindings/java/target/starpu-java-*.jar "$PACK/java/lib/"
	cp -r bindings/java/target/test-classes "$PACK/java/"
	local a
	for a in org/junit/platform/junit-platform-launcher org/junit/platform/junit-platform-engine \
		org/junit/platform/junit-platform-commons org/junit/jupiter/junit-jupiter-api \
		org/junit/jupiter/junit-jupiter-engine org/opentest4j/opentest4j org/apiguardian/apiguardian-api; do
		local v
		v=$(ls "$HOME/.m2/repository/$a" | sort -V | tail -1)
		cp "$HOME/.m2/repository/$a/$v/$(basename "$a")-$v.jar" "$PACK/java/lib/"
	done
	mkdir -p "$PACK/java/src"
	cat >"$PACK/java/src/GpuJUnit.java" <<'JAVA'
import java.io.PrintWriter;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/** Runs the JUnit class named first; fails unless every test ran and passed. */
public class GpuJUnit {
	public static void main(String[] args) {
		LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
				.selectors(selectClass(args[0])).build();
		SummaryGeneratingListener listener = new SummaryGeneratingListener();
		LauncherFactory.create().execute(request, listener);
		TestExecutionSummary s = listener.getSummary();
		PrintWriter out = new PrintWriter(System.out, true);
		s.printTo(out);
		s.printFailuresTo(out, 30);
		long bad = s.getTotalFailureCount() + s.getTestsSkippedCount() + s.getTestsAbortedCount();
		System.exit(bad == 0 && s.getTestsSucceededCount() > 0 ? 0 : 1);
	}
}
JAVA
	javac -cp "$PACK/java/lib/*" -d "$PACK/java" "$PACK/java/src/GpuJUnit.java"
}

PASS=0
FAIL=0
check() { # NAME TIMEOUT COMMAND...: one check, PASS or FAIL, its output in the log
	local name=$1 limit=$2
	shift 2
	echo "--- $name: $*" >>"$LOG"
	local run=(timeout "$limit")
	# A function of this script runs as is (the scenarios have their own time limit).
	if declare -F "$1" >/dev/null; then run=(); fi
	"${run[@]}" "$@" >>"$LOG" 2>&1
	local rc=$?
	if [ $rc -eq 0 ]; then
		PASS=$((PASS + 1))
		echo "PASS  $name"
	else
		FAIL=$((FAIL + 1))
		echo "FAIL  $name (exit $rc; see $LOG)"
	fi
}

bench() { # NAME TIMEOUT COMMAND...: a benchmark's result lines, or why there are none
	local name=$1 limit=$2
	shift 2
	echo "--- benchmark $name: $*" >>"$LOG"
	timeout "$limit" "$@" 2>>"$LOG" | sed "s/^/  $name: /"
	local rc=${PIPESTATUS[0]}
	if [ "$rc" -ne 0 ]; then echo "  $name: FAILED (exit $rc; see $LOG)"; fi
}

# Runs one conformance scenario with the Rust driver and compares, as the harness does.
scenario() { # FILE
	python3 - "$1" "$PACK/bin/starpu-conformance-rust" <<'PY'
import subprocess, sys, tempfile
sys.path.insert(0, sys.argv[1].rsplit("/scenarios/", 1)[0])
import conformance as c
s = c.load_scenario(sys.argv[1])
with tempfile.NamedTemporaryFile("w", suffix=".plan") as plan:
    plan.write(s.plan_text())
    plan.flush()
    p = subprocess.run([sys.argv[2], plan.name], capture_output=True, text=True,
                       timeout=s.timeout)
actual, problems = c.render(c.parse_output(p.stdout), s.observations)
print(p.stderr)
if p.returncode == 77:
    sys.exit("skipped: no CUDA device")
if actual != s.expected or problems or p.returncode != 0:
    print("expected:", *s.expected, "actual:", *actual, *problems, sep="\n")
    sys.exit(1)
PY
}

run() {
	mkdir -p "$PACK"
	LOG=$PACK/gpu-check.log
	: >"$LOG"
	local cuda=${CUDA_HOME:-/usr/local/cuda}
	# CUDA's libraries: the toolkit's, and those of NVIDIA's pip wheels (CuPy's) if any.
	local wheels
	wheels=$(python3 -c 'import glob, site, sys
dirs = site.getsitepackages() + [site.getusersitepackages()]
print(":".join(d for p in dirs for d in sorted(glob.glob(p + "/nvidia/*/lib"))))' 2>/dev/null)
	export LD_LIBRARY_PATH=$PACK/lib:$PACK/install/lib:$cuda/lib64${wheels:+:$wheels}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	export STARPU_HOME=$PACK/starpu-home STARPU_SILENT=1
	rm -rf "$STARPU_HOME"
	mkdir -p "$STARPU_HOME"
	local t0=$SECONDS
	echo "GPU: $( (nvidia-smi -L || echo 'no nvidia-smi') 2>&1 | head -1)"
	with_cuda_config
	# Built here (CUDA_HOME) against a CUDA whose libraries this machine lacks: build again.
	if [ ! -x "$PACK/bin/bench_cholesky" ] ||
		LD_LIBRARY_PATH=$LD_LIBRARY_PATH ldd "$PACK/bin/bench_cholesky" | grep -q "not found"; then
		check "build the C programs (cc, CUDA at $cuda)" 120 build_c "$cuda/include" "$cuda/lib64"
	fi
	local core=$PACK/bin/core_cuda_tests
	check "core: CUDA tests (cargo test --test cuda)" 120 "$core" --test-threads=1 \
		--skip multiformat --skip pipeline --skip queued
	check "core: multiformat data through cpu_to_cuda_cl and cuda_to_cpu_cl" 60 "$core" multiformat
	check "core: STARPU_CUDA_PIPELINE (0, 1, 4 queued tasks)" 60 "$core" queued
	check "C API: tests/c/cuda_api" 60 "$PACK/bin/cuda_api"
	if python3 -c "import numpy" 2>/dev/null; then
		check "Python: starpu.cuda (bindings/python/tests/test_cuda.py)" 120 \
			env PYTHONPATH="$PACK/python" STARPU_REQUIRE_GPU=1 python3 -m pytest -q \
			-p no:cacheprovider "$ROOT/bindings/python/tests/test_cuda.py"
	else
		echo "SKIP  Python: starpu.cuda (no numpy on this machine)"
	fi
	if command -v java >/dev/null; then
		check "Java: Codelet.runCUDA (CudaTest)" 120 env STARPU_REQUIRE_GPU=1 STARPU_WORKERS_NOBIND=1 \
			java -cp "$PACK/java:$PACK/java/test-classes:$PACK/java/lib/*" GpuJUnit \
			fr.labri.hpccloud.starpu.cuda.CudaTest
	else
		echo "SKIP  Java: Codelet.runCUDA (no java on this machine)"
	fi
	for s in "$ROOT"/tests/conformance/scenarios/cuda_*.scn; do
		check "conformance (Rust driver): $(basename "$s" .scn)" 120 scenario "$s"
	done
	echo "$PASS passed, $FAIL failed"

	echo "Benchmarks (the machine: $(nproc) cores; $(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null))"
	bench empty 60 env STARPU_NCPU=1 STARPU_NCUDA=1 "$PACK/bin/bench_empty" 20000
	for n in ${SIZES:-8192 16384 32768}; do
		local nb=2048
		[ "$n" -le 8192 ] && nb=1024
		bench cholesky 150 env STARPU_SCHED="${STARPU_SCHED:-dmdas}" \
			"$PACK/bin/bench_cholesky" "$n" "$nb" "${REPS:-3}"
	done
	echo "($((SECONDS - t0)) s; log: $LOG)"
	if [ -n "${OUT:-}" ]; then cp "$LOG" "$PACK/gpu-check.summary" "$OUT/"; fi
	[ "$FAIL" -eq 0 ]
}

case "${1:-}" in
pack) pack ;;
run)
	mkdir -p "$PACK"
	run 2>&1 | tee "$PACK/gpu-check.summary"; exit "${PIPESTATUS[0]}" ;;
*)
	sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'
	exit 2
	;;
esac
