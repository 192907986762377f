# One test run's verdict, shared by the runners tests/c/run.sh, tests/mpi/run.sh and
# tests/stress/run.sh (sourced): one line a run, counted in their $pass and $fail.
#
# verdict LABEL RC OUT LINES [TIME]
#   RC 0: PASS (with VERBOSE=1, OUT follows, indented); RC $SKIP_RC (default 78, "none"
#   for a runner without skips): SKIP, counted as passed, with the reason the program
#   printed last; anything else: FAIL, why (77: no worker, 124: timed out after
#   $TIMEOUT s) and OUT's last LINES lines. TIME, when given, follows the label.
verdict() {
	local label=$1 rc=$2 out=$3 lines=$4 time=${5:+ ($5)} why
	if [ "$rc" -eq 0 ]; then
		printf 'PASS  %s%s\n' "$label" "$time"
		pass=$((pass + 1))
		[ -n "${VERBOSE:-}" ] && sed 's/^/    /' "$out"
	elif [ "$rc" = "${SKIP_RC:-78}" ]; then
		printf 'SKIP  %s (%s)\n' "$label" "$(tail -1 "$out")"
		pass=$((pass + 1))
	else
		why="exit $rc"
		[ "$rc" -eq 77 ] && why="exit 77: no worker"
		[ "$rc" -eq 124 ] && why="timed out after ${TIMEOUT}s"
		printf 'FAIL  %s (%s)\n' "$label" "$why"
		tail -"$lines" "$out" | sed 's/^/    /'
		fail=$((fail + 1))
	fi
	return 0
}
