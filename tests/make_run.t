#!/usr/bin/env bash
# make run, as a newcomer sees it: the build quiet (no compiler line; a
# failed build shows its log's tail and fails), then the run, then the
# conditions of what ran (read from its result) and two next steps, each a
# command this bpfbench has.  A copy of the build tree stands in for a fresh
# one, its cli/main.o made older than main.c so that a compile and the link
# do run; RUN_ARGS makes the run one short benchmark, and -o deps skips the
# packages (apt).
source "$(dirname "$0")/lib.sh"
need_bpf

ROOT=$(cd "$(dirname "$0")/.." && pwd)
src="$ROOT/$BUILD_DIR"
[ -e "$src/bpf-build" ] &&
	skip_all "$BUILD_DIR takes another tree's BPF objects (the sanitizer build): make run builds the plain one"
b="$TMPD/build"
stale() { touch -d @0 "$b/obj/cli/main.o"; }	# older than src/cli/main.c: to be compiled again
cp -a "$src" "$b" && rm -f "$b/run.json" "$b/build.log" && stale
ok $? "a copy of $BUILD_DIR, its main.o out of date" || { done_testing; exit; }

mkrun() {	# mkrun [MAKE ARGS...]: make run into the copy; RC, OUT (stdout and stderr)
	env -u MAKEFLAGS -u MAKELEVEL make --no-print-directory -C "$ROOT" -o deps \
		BUILD="$b" "$@" run >"$TMPD/make.out" 2>&1
	RC=$?
	OUT=$(cat "$TMPD/make.out")
}
# a compiler's or linker's command line, as make all echoes it
compile_lines() { grep -E '(^|[ /])(cc|gcc|clang|false)( |$)| -c [^ ]+\.c | -o [^ ]+\.o( |$)' <<<"$1"; }

# --- a build that fails: its log's tail, a failure, nothing run ---
mkrun CC=false RUN_ARGS="noop -w0 -d1"
[ "$RC" -ne 0 ] && grep -q '^bpfbench: building into .* failed$' <<<"$OUT" &&
	grep -q 'main\.o\] Error' <<<"$OUT" && ! grep -q '^Summary:\|^Conditions:' <<<"$OUT"
ok $? "a failed build: 'failed', the log's tail naming the error, exit $RC, nothing run" || diag "$OUT"

# --- the build quiet, the run, its conditions, two next steps ---
stale
mkrun RUN_ARGS="noop -w0 -d1"
[ "$RC" -eq 0 ] && [ "$b/obj/cli/main.o" -nt "$ROOT/src/cli/main.c" ] && compile_lines "$(cat "$b/build.log")" | grep -q 'src/cli/main\.c'
ok $? "make run builds (main.c compiled, into build.log) and runs: exit $RC" || diag "$OUT"
[ -z "$(compile_lines "$OUT")" ] && [[ $(head -n1 <<<"$OUT") == "bpfbench: building into $b/ (log: $b/build.log) ... done ("*" s)" ]]
ok $? "no compiler line printed: one 'building ... done' line" || diag "$(head -n3 <<<"$OUT")"
grep -q '^Summary: throughput' <<<"$OUT"
ok $? "the run's report is printed" || diag "$OUT"

tail4=$(tail -n4 <<<"$OUT")
mapfile -t t <<<"$tail4"
[[ ${t[0]} == "Conditions: one run of -w0 -d1 (no warm-up, 1 s measured)" ]] &&
	[[ ${t[1]} == "  on kernel $(uname -r), CPU "*", $(getconf _NPROCESSORS_ONLN) CPUs; "*"$b/run.json" ]] &&
	python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["runs"]
sys.exit(not (len(r) == 1 and r[0]["options"]["warmup"] == 0 and r[0]["options"]["duration"] == 1))' "$b/run.json"
ok $? "the conditions: one run of -w0 -d1, as its JSON says, on this kernel" || diag "$tail4"
[[ ${t[2]} == "Next: "* ]] && [[ ${t[3]} == "Next: "* ]]
ok $? "then two Next lines, last" || diag "$tail4"
for l in "${t[2]}" "${t[3]}"; do
	cmd=${l#Next: }
	cmd=${cmd%%   (*}
	cmd=${cmd%"${cmd##*[! ]}"}
	read -ra w <<<"$cmd"
	[ "${w[0]}" = "$b/bpfbench" ] && [ ${#w[@]} -ge 2 ] && "${w[@]}" --help >"$TMPD/help" 2>&1 &&
		[ -s "$TMPD/help" ] && [ $((${#l} - ${#b} + 5)) -le 120 ]
	ok $? "a Next command this bpfbench has (its --help exits 0), within 120 columns from build/: $cmd" ||
		diag "$l" "$(head -n3 "$TMPD/help")"
done
"$b/bpfbench" suite no-such-suite --help >/dev/null 2>&1
[ $? -eq 2 ]
ok $? "(a suite it does not have fails that check: exit 2)"

# --- the conditions follow what ran ---
mkrun RUN_ARGS="noop -w0 -d0.2 --period-ms 100 --sweep batch=1,2"
[ "$RC" -eq 0 ] && grep -qx "Result: 2 rows, one run each; every figure and the environment: $b/run.json" <<<"$OUT" &&
	[ "$(grep -c '^Conditions:' <<<"$OUT")" -eq 1 ] && grep -q '^Conditions: .*-d 0.2' <<<"$OUT"
ok $? "a sweep of two: the table's one Conditions line (-d 0.2), then a Result line of 2 rows" ||
	diag "$(tail -n6 <<<"$OUT")"

# --- what make run runs by default: the quick suite ---
mkrun -n
grep -qF "$b/bpfbench suite quick --json $b/run.json" <<<"$OUT"
ok $? "by default make run runs the quick suite" || diag "$OUT"

done_testing
