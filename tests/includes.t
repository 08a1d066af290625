#!/usr/bin/env bash
# The include graph (scripts/check-includes.py): no cycle among the core's
# files, a family includes of the core bench.h alone, the core no family,
# the layers include only the layers below them, a family prints nothing;
# and the check fails on a planted break of each rule.  No BPF, no build.
source "$(dirname "$0")/lib.sh"

ROOT=$(cd "$(dirname "$0")/.." && pwd)
check() { python3 "$ROOT/scripts/check-includes.py" "$@"; }

err=$(check "$ROOT" 2>&1)
ok $? "the tree keeps the rules" || diag "$err"

# A copy of the tree to break, one rule at a time.
plant() {	# plant FILE LINE: the copy with LINE added to FILE
	rm -rf "$TMPD/t"
	mkdir "$TMPD/t"
	cp -r "$ROOT/src" "$ROOT/benchs" "$ROOT/bpf" "$TMPD/t/"
	printf '%s\n' "$2" >>"$TMPD/t/$1"
}

plant benchs/noop/noop.c '#include "runner.h"'
err=$(check "$TMPD/t" 2>&1)
[ $? -eq 1 ] && grep -q 'family sees more than bench.h: benchs/noop/noop.c includes src/run/runner.h' <<<"$err"
ok $? "a family including runner.h fails, named" || diag "$err"

plant src/stats/stats.c '#include "runner.h"'
err=$(check "$TMPD/t" 2>&1)
[ $? -eq 1 ] && grep -q '^check-includes: cycle: .*src/run/runner.*src/stats/stats' <<<"$err"
ok $? "stats including runner.h closes a cycle, named" || diag "$err"

plant src/bench/opts.h '#include "bench.h"'
err=$(check "$TMPD/t" 2>&1)
[ $? -eq 1 ] && grep -q '^check-includes: cycle: src/bench/bench <-> .*src/bench/opts' <<<"$err"
ok $? "a header including upward closes a cycle too" || diag "$err"

plant src/run/runner.c '#include "../../benchs/noop/noop.h"'
touch "$TMPD/t/benchs/noop/noop.h"
err=$(check "$TMPD/t" 2>&1)
[ $? -eq 1 ] && grep -q 'the core includes a benchmark: src/run/runner.c' <<<"$err"
ok $? "the core including a family's header fails" || diag "$err"

plant src/run/result.c '#include "report.h"'
err=$(check "$TMPD/t" 2>&1)
[ $? -eq 1 ] && grep -q '^check-includes: an include runs back up: src/run/result.c (src/run) includes src/output/report.h (src/output)' <<<"$err"
ok $? "the runner's result including a reporter runs back up, named" || diag "$err"

plant src/stats/stats.c '#include "probe.h"'
err=$(check "$TMPD/t" 2>&1)
[ $? -eq 1 ] && grep -q 'an include runs back up: src/stats/stats.c (src/stats) includes src/kernel/probe.h' <<<"$err"
ok $? "two folders of one layer include none of each other" || diag "$err"

plant benchs/noop/noop.c 'static void shout(void) { fprintf(stderr, "%d\n", 1); }'
err=$(check "$TMPD/t" 2>&1)
n=$(wc -l <"$ROOT/benchs/noop/noop.c")
[ $? -eq 0 ] && grep -q "a family prints: benchs/noop/noop.c:$((n + 1)): fprintf" <<<"$err"
ok $? "a family's fprintf fails, named with its line" || diag "$err"

plant benchs/noop/noop.c 'static const char *const why = "printf(x) and stderr";	/* puts( stdout */'
err=$(check "$TMPD/t" 2>&1)
ok $? "words in a string or a comment are no print" || diag "$err"

plant benchs/noop/noop.c 'static void say(struct bench_env *e) { bench_note(e, "%s", "x"); }'
err=$(check "$TMPD/t" 2>&1)
ok $? "a note is the result's: allowed" || diag "$err"

done_testing
