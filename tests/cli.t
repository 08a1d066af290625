#!/usr/bin/env bash
# The command line: every bad input exits 2 with one line naming the problem;
# good inputs parse to what they say (checked through --json's "options").
source "$(dirname "$0")/lib.sh"

# bad ARGS... -- WORD: exits 2, stderr is one line mentioning WORD
bad() {
	local word="${*: -1}" args=("${@:1:$#-2}")
	run "${args[@]}"
	local lines
	lines=$(printf '%s' "$ERR" | grep -c .)
	if [ "$RC" -eq 2 ] && [ "$lines" -eq 1 ] && grep -qF -- "$word" <<<"$ERR"; then
		pass "rejects: ${args[*]}"
	else
		fail "rejects: ${args[*]}" "rc=$RC stderr=$ERR (want 2, one line naming '$word')"
	fi
}

bad nosuchbench -- nosuchbench
bad --nosuchopt bpf-loop -- --nosuchopt
bad -Z bpf-loop -- -Z
bad bpf-loop -d -- -d
bad bpf-loop -d abc -- abc
bad bpf-loop -d -5 -- -5
bad bpf-loop -d 0 -- duration
bad bpf-loop -d 1.2345 -- 1.2345
bad bpf-loop -d 0.001 -- 0.001
bad bpf-loop -w 99999 -- warmup
bad bpf-loop -p 0 -- producers
bad bpf-loop -p 100000 -- producers
bad bpf-loop -p 12x -- 12x
bad bpf-loop -c 1 -- consumers
bad bpf-loop --nr_loops 0 -- nr_loops
bad bpf-loop --nr_loops 9999999999 -- nr_loops
bad bpf-loop --nr_loops=abc -- abc
bad bpf-loop --nr_loops -- nr_loops
bad bpf-loop --nr_loops 99999999999999999999999 -- nr_loops
bad bpf-loop --prod-affinity 999 -- 999
bad bpf-loop --prod-affinity 0-9999 -- 0-9999
bad bpf-loop --prod-affinity 3-1 -- 3-1
bad bpf-loop --prod-affinity 0,,1 -- 0,,1
bad bpf-loop --prod-affinity x -- x
bad bpf-loop --prod-affinity "" -- prod-affinity
bad bpf-loop --cons-affinity 0 -- consumers
bad bpf-loop extra -- extra
bad bpf-loop --trigger nosuch -- nosuch
bad bpf-loop --trigger -- trigger
bad bpf-loop --test-run-repeat 0 -- test-run-repeat
bad bpf-loop --test-run-repeat 16777217 -- test-run-repeat
bad bpf-loop --trigger raw-tp --test-run-repeat 10 -- test-run-repeat
bad bpf-loop --batch 10 -- --batch
bad bpf-loop -q -v -- -q
bad bpf-loop --period-ms 1 -- period-ms
bad bpf-loop --affinity=yes -- --affinity
bad bpf-loop --json -- --json
bad noop --batch 0 -- batch
bad noop --batch 5000 -- batch
bad -- nosuch --help -- nosuch
bad '' -d1 -- "''"

run
[ "$RC" -eq 2 ] && grep -q Usage <<<"$OUT"
ok $? "no arguments: usage, exit 2"
run --help
[ "$RC" -eq 0 ] && grep -q -- --duration <<<"$OUT"
ok $? "--help lists the global options, exit 0"
# every subcommand completion offers (main()'s table) is in --help's usage
subs=$("$BPFBENCH" completion bash | sed -nE "s/^\t('probe'(\|'[a-z-]+')*)\) return 0 ;;$/\1/p" | tr -d "'" | tr '|' ' ')
missing=
for s in $subs; do grep -qE "^ +bpfbench $s( |$)" <<<"$OUT" || missing+=" $s"; done
[ -n "$subs" ] && [ -z "$missing" ]
ok $? "--help's usage names every subcommand ($subs)" || diag "missing:$missing"
# each subcommand's --help prints its option table (under the sanitizers too: docs.t, which
# reads them all against the docs, runs in the plain pass only)
bad=
for s in $subs; do
	run "$s" --help
	[ "$RC" -eq 0 ] && [ -z "$ERR" ] && grep -qE '^  (-h, )?--help ' <<<"$OUT" || bad+=" $s"
done
[ -z "$bad" ]
ok $? "every subcommand's --help: its options' table, --help's line among them, exit 0" || diag "wrong:$bad"
# both completions print whole (under the sanitizers too: install.t, which
# checks what they offer, runs in the plain pass only)
for sh in bash zsh; do
	run completion $sh
	[ "$RC" -eq 0 ] && [ -z "$ERR" ] && [ "$(grep -c . <<<"$OUT")" -gt 50 ]
	ok $? "completion $sh: a script, nothing on stderr" || diag "rc=$RC $ERR"
done
# testing-only options: accepted, but not in --help, the man page or completion's offers
run rb-libbpf --help
[ "$RC" -eq 0 ] && grep -q -- --rb-batch-cnt <<<"$OUT" && ! grep -qE -- '--rb-(total|corrupt-seq)' <<<"$OUT"
ok $? "rb-libbpf --help: its options, not the testing-only --rb-total/--rb-corrupt-seq"
run bloom-lookup --help
[ "$RC" -eq 0 ] && ! grep -q -- '--count' <<<"$OUT"
ok $? "bloom-lookup --help: not the testing-only --count"
"$BPFBENCH" completion bash | grep -oE "'--(rb-total|rb-corrupt-seq|count):" >"$TMPD/hidden" || true
man="$(dirname "$BPFBENCH")/doc/bpfbench.1"
[ ! -s "$TMPD/hidden" ] && [ -s "$man" ] && grep -qE -- '--rb-batch-cnt\\fR' "$man" &&
	! grep -qE -- '--(rb-total|rb-corrupt-seq|count)\\fR' "$man"
ok $? "completion and the man page offer no testing-only option" || diag "$(cat "$TMPD/hidden")"
run -w0 -d0.1 --period-ms 100 --json - rb-custom --rb-total 1000
[ "$RC" -eq 0 ] && python3 -c "
import json, sys
r = json.load(sys.stdin)['runs'][0]
o = r['options']
assert o['rb_total'] == 1000 and o['consumers'] == 1, o" <<<"$OUT"
ok $? "a hidden option is still accepted; rb-* get one consumer without -c (rc=$RC)" || diag "$ERR"
run bpf-loop --help
[ "$RC" -eq 0 ] && grep -q -- '--nr_loops' <<<"$OUT" && grep -q '1..8388608' <<<"$OUT"
ok $? "bpf-loop --help shows its option, range and default"
run --list
[ "$RC" -eq 0 ] && grep -q '^bpf-loop ' <<<"$OUT" && grep -q '^noop ' <<<"$OUT"
ok $? "--list names the benchmarks"
run -l
[ "$RC" -eq 0 ] && grep -q '^bpf-loop ' <<<"$OUT"
ok $? "-l is --list"

# Good input: what was typed is what ran.  Options before and after the name,
# short forms glued and apart, = and space, '-' and '_' alike.
if [ "$(id -u)" -eq 0 ]; then
	run -w0 -d 1 -q --nr-loops=7 bpf-loop -p1 --prod-affinity 0 --json "$TMPD/g.json"
	[ "$RC" -eq 0 ] && json_check "$TMPD/g.json" '
o = d["runs"][0]["options"]
o["warmup"] == 0 and o["duration"] == 1 and o["nr_loops"] == 7 and o["producers"] == 1 and o["prod_affinity"] == "0" and o["quiet"] is True and d["runs"][0]["bench"] == "bpf-loop"'
	ok $? "options in any position parse to their values" || diag "$ERR"
	run bpf-loop -qw0 -d1 --prod-affinity 1,0 --json "$TMPD/h.json"
	[ "$RC" -eq 0 ] && json_check "$TMPD/h.json" '
o = d["runs"][0]["options"]
o["warmup"] == 0 and o["prod_affinity"] == "1,0"'
	ok $? "grouped short flags and a value (-qw0); CPU list order kept"
else
	skip "parse check needs root to run"
	skip "parse check needs root to run"
fi
# --- options a benchmark has no use for: refused, as lpm-trie-free refuses -p2 ---
for b in map-batch bloom-false-positive lpm-trie-free; do
	bad "$b" -a -- -a
	bad "$b" --trigger raw-tp -- --trigger
	bad "$b" --test-run-repeat 10 -- --test-run-repeat
	bad "$b" --kernel-stats -- --kernel-stats
	bad "$b" --prod-affinity 0 -- --prod-affinity
done
bad map-batch -p 8 -- -p
bad bloom-false-positive -p 2 -- -p

# --- suites: a global option's value checked once, before any step runs ---
bad suite quick --precision nan -- precision
bad suite quick --precision 0 -- precision
bad suite --list extra -- extra
bad suite --help extra -- extra
# a benchmark option's value: checked against the benchmarks that have it
run suite maps --map_type queue --help
[ "$RC" -eq 0 ] && grep -q 'map-ops .*--map_type queue' <<<"$OUT" && [ -z "$ERR" ]
ok $? "suite maps --map_type queue: valid for the maps family (map-batch's --map-type has no queue)" ||
	diag "rc $RC: $ERR"
bad suite maps --map_type nosuch -- nosuch
run suite quick -p 8 -w0 -d1
[ "$RC" -eq 2 ] && [ "$(sort <<<"$ERR" | uniq -d | wc -l)" -eq 0 ] &&
	grep -q 'lpm-trie-free runs one producer' <<<"$ERR" && [ -z "$OUT" ]
ok $? "suite quick -p 8: each refusal once, exit 2, before any step runs" ||
	diag "rc $RC: $ERR"

# --- messages: every usage error is one prefixed line; echoed input shown, not obeyed ---
run -d1
[ "$RC" -eq 2 ] && [ "$(grep -c . <<<"$ERR")" -eq 1 ] && grep -q '^bpfbench: error: no benchmark' <<<"$ERR"
ok $? "options and no benchmark: one error line, exit 2 (rc $RC)" || diag "$ERR"
bad probe --bogus -- --bogus
run probe --bogus
grep -q '^bpfbench: error: ' <<<"$ERR"
ok $? "probe's errors carry the bpfbench: error: prefix" || diag "$ERR"
run $'no\e[31mop\n'
[ "$RC" -eq 2 ] && ! grep -q $'\e' <<<"$ERR" && [ "$(grep -c . <<<"$ERR")" -eq 1 ]
ok $? "an escape sequence and a line break in a name are not echoed raw" || diag "$(cat -v <<<"$ERR")"
long=$(head -c 131000 /dev/zero | tr '\0' x)
for args in "$long" "--$long" "noop --batch=$long" "suite $long"; do
	# shellcheck disable=SC2086
	run $args
	[ "$RC" -eq 2 ] && [ "${#ERR}" -lt 400 ] && [ "$(grep -c . <<<"$ERR")" -eq 1 ]
	ok $? "a 128 KB argument (${args:0:12}...): one line under 400 bytes (${#ERR})"
done
# --max-duration bounds --precision alone: without it, it was silently ignored
bad bpf-loop -d1 --max-duration 5 -- --precision
bad bpf-loop --max-duration=5 -- --precision
bad suite bpf-loop -d1 --max-duration 5 -- --precision
bad ab noop noop --max-duration 5 -- --precision
bad ab "noop --max-duration 5" noop -- --precision
# an ab side that runs nothing was labelled and ignored; names are labels
bad ab "noop --help" noop -- --help
bad ab noop "noop --list" -- --list
bad ab noop noop --name "" --name B -- "empty name"
bad ab noop noop --name "$(printf 'a\nb')" --name B -- "control character"
bad ab noop noop --name "$(printf 'x\033[31my')" --name B -- "control character"
bad ab noop noop --name "$(printf '%0100d' 0)" --name B -- "longer than 64"
# global options before a subcommand that takes none: not "name a shell"
bad -q completion bash -- "completion takes no options (got '-q')"
bad completion -v zsh -- "completion takes no options (got '-v')"
"$BPFBENCH" completion bash >/dev/null
ok $? "completion bash still prints its script"

# a second --sweep silently replaced the first (issue 50.9): bad usage, said in --help
bad -w0 -d1 noop --sweep batch=1,10 --sweep producers=1,2 -- "--sweep given twice: give it once"
bad -w0 -d1 --sweep batch=1,10 noop --sweep=batch=2,3 -- "--sweep given twice"
"$BPFBENCH" --help | grep -A1 -- '--sweep PARAM' | tr -s ' \n' ' ' | grep -q 'one --sweep, one option swept (a second is bad usage)'
ok $? "--help says one --sweep"

if [ "$(id -u)" -eq 0 ]; then
	run map-ops --map_type_nr 27 -w0 -d1
	[ "$RC" -eq 2 ] && grep -q 'ringbuf) is not a hash-like map' <<<"$ERR" && ! grep -q lacks <<<"$ERR"
	ok $? "map-ops --map_type_nr 27: ringbuf is not a hash-like map, not a type the kernel lacks" ||
		diag "rc $RC: $ERR"
else
	skip "map-ops --map_type_nr needs root"
fi
done_testing
