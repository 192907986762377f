#!/bin/bash
# A look as a person would: runs a small traced program (tools/examples/trace_demo.rs),
# draws its performance model (starpu_perfmodel_plot), renders the trace timeline
# (trace.html) and the model plot (SVG) in headless Chromium, and checks that each
# screenshot is a real picture. Prints "N passed, N failed"; skips without Chromium.
#
# usage: scripts/trace_screenshots.sh [--docs]
#   --docs   keep the screenshots in docs/ (trace-timeline.png, perfmodel-plot.png)
set -euo pipefail
cd "$(dirname "$0")/.."
CHROME=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROME" ]; then
	echo "skipped: Chromium is not installed (apt-get install chromium)"
	exit 0
fi
OUT=$(mktemp -d "${TMPDIR:-/tmp}/starpu-screens.XXXXXX")
trap 'rm -rf "$OUT"' EXIT
cargo build -q --release -p starpu-tools --bins --example trace_demo
target/release/examples/trace_demo "$OUT/run"
STARPU_HOME=$OUT/run target/release/starpu_perfmodel_plot -s demo_scal -o "$OUT/run" \
	-i "$OUT/run/demo_0" 2>/dev/null

# Flags that work on this project's machines (no network, root, no GPU).
shot() { # shot PAGE PNG WIDTH,HEIGHT
	"$CHROME" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$OUT/profile" --hide-scrollbars --virtual-time-budget=3000 \
		--window-size="$3" --screenshot="$2" "file://$1" >/dev/null 2>&1
}
pass=0 fail=0
check() { # check PNG: a PNG file of more than 8 KB (a blank page is about 3 KB)
	if [ -f "$1" ] && [ "$(head -c 4 "$1" | tail -c 3)" = PNG ] && [ "$(stat -c %s "$1")" -gt 8192 ]; then
		echo "ok    $(basename "$1") ($(stat -c %s "$1") bytes)"
		pass=$((pass + 1))
	else
		echo "FAIL  $(basename "$1") (missing, not a PNG, or blank)"
		fail=$((fail + 1))
	fi
}
shot "$OUT/run/trace.html" "$OUT/trace-timeline.png" 1280,560 || true
check "$OUT/trace-timeline.png"
shot "$OUT/run/starpu_demo_scal.svg" "$OUT/perfmodel-plot.png" 800,560 || true
check "$OUT/perfmodel-plot.png"
if [ "${1:-}" = --docs ]; then
	cp "$OUT/trace-timeline.png" "$OUT/perfmodel-plot.png" docs/
	echo "screenshots copied to docs/"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
