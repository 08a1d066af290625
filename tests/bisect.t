#!/usr/bin/env bash
# bpfbench bisect (scripts/vm/bisect.sh) on stand-ins: a kernel tree that is
# a small git repository (a top Makefile with VERSION, kernel/bpf/, a file
# FIGURE holding each commit's figure), a --build that copies the figure
# into the image, and runs (BPFBENCH_BISECT_RUN, the script's test hook)
# that print a result document around the image's figure with a small,
# seeded noise.  No VM, no BPF: compare judges the runs as it judges real
# ones.  The regression is found at the one place among 1 commit, the last
# of 2, the middle of 7 and the last of 64, in at most ceil(log2 n)
# steps; a noisy commit is skipped, a broken build too; a signal leaves
# the user's tree (and their own bisection) as it was and none of our
# processes; trees it must not touch are refused before anything is made.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
command -v git >/dev/null && command -v setsid >/dev/null && command -v flock >/dev/null ||
	skip_all "needs git, setsid and flock"
export GIT_AUTHOR_NAME="Dev One" GIT_AUTHOR_EMAIL=dev@example.org GIT_COMMITTER_NAME="Dev One" \
	GIT_COMMITTER_EMAIL=dev@example.org GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1

# A run's result document, from the schema's required fields and what
# compare reads (throughput, and latency its inverse); fake-run fills in
# the benchmark, the kernel and the samples.
python3 - "$ROOT/schema/bpfbench-result.schema.json" "$TMPD/template.json" <<'PY'
import json, sys
schema = json.load(open(sys.argv[1]))
env = {"bpfbench_version": "0.1", "git_commit": "0000000", "kernel": "@KERNEL@", "machine": "x86_64",
       "cpu_model": "stand-in", "online_cpus": 2, "libbpf_version": "1.1",
       "date": "2026-12-01T00:00:00Z", "hostname": "standin"}
summary = dict(n=5, mean=1.0, stddev=0.0, median=1.0, min=1.0, max=1.0, cv=0.0, ci95_low=1.0, ci95_high=1.0)
run = {"bench": "@BENCH@", "family": "lpm-trie", "status": 0, "trigger": "test-run",
       "options": {"warmup": 0, "duration": 1, "period_ms": 200}, "warmup_samples": 0,
       "measured_s": 1.0, "runs": 1,
       "metrics": {"throughput": dict(summary, unit="M ops/s", kind="rate", better="higher"),
                   "latency": dict(summary, unit="ns/op", kind="inverse", better="lower",
                                   of="throughput", of_mean_inverse=1000.0)},
       "samples": "@SAMPLES@"}
for part, fields in (("env", env), ("run", run)):
    missing = set(schema["$defs"][part]["required"]) - set(fields)
    assert not missing, (part, missing)
assert set(schema["$defs"]["metric"]["required"]) <= set(run["metrics"]["throughput"])
print(json.dumps({"schema": "bpfbench-result/1", "env": env, "runs": [run]}), file=open(sys.argv[2], "w"))
PY
# fake-run IMAGE ARGS...: the image holds "FIGURE FLAG COMMIT"; five
# samples of FIGURE with 1% noise, drawn from a seed that is the run's
# number (FAKE_COUNTER) and the figure; FLAG noisy: each run's level
# drawn from 0.2x to 5x; slow: the run waits (for a signal) after saying
# its pid in FAKE_SLOW; fail, vmfail: the run fails as a benchmark (1) or
# as the VM runner (125) does.  The kernel release carries the commit, as
# CONFIG_LOCALVERSION_AUTO makes it.
cat >"$TMPD/fake-run" <<'SH'
#!/usr/bin/env bash
read -r fig flag hash <"$1" || exit 1
n=0
[ -f "$FAKE_COUNTER" ] && n=$(<"$FAKE_COUNTER")
echo $((n + 1)) >"$FAKE_COUNTER"
case $flag in
fail)	echo "bpfbench: error: stand-in: the run failed" >&2; exit 1 ;;
vmfail)	echo "bpfbench-vm: error: stand-in: the VM stopped without the command's exit status" >&2; exit 125 ;;
esac
if [ "$flag" = slow ]; then
	echo $$ >>"$FAKE_SLOW"
	sleep 300 &
	wait
fi
exec awk -v fig="$fig" -v flag="$flag" -v seed=$((n * 7919 + ${fig%%.*})) -v bench="$2" \
	-v kernel="6.13.0-00001-g${hash:0:12}" '
BEGIN {
	srand(seed)
	for (i = 0; i < 10; i++)
		rand()	# (the first draws of near seeds are near)
	level = flag == "noisy" ? fig * exp(log(5) * (2 * rand() - 1)) : fig
	for (i = 0; i < 5; i++) {
		g = 0
		for (k = 0; k < 12; k++)
			g += rand()
		t = level * (1 + 0.01 * (g - 6))
		s = s (i ? ", " : "") sprintf("{\"elapsed_ns\": 200000000, \"throughput\": %.9g, \"latency\": %.9g}", t, 1000 / t)
	}
}
{ gsub(/"@SAMPLES@"/, "[" s "]"); gsub(/@BENCH@/, bench); gsub(/@KERNEL@/, kernel); print }' "$FAKE_TEMPLATE"
SH
chmod +x "$TMPD/fake-run"
export FAKE_TEMPLATE=$TMPD/template.json BPFBENCH_BISECT_RUN=$TMPD/fake-run
# shellcheck disable=SC2016	# for the build's sh -c
BUILD='mkdir -p "$BPFBENCH_BUILD/arch/x86/boot" && ! test -e BROKEN &&
	echo "$(cat FIGURE) $(git rev-parse HEAD)" >"$BPFBENCH_BUILD/arch/x86/boot/bzImage"'

# mktree DIR N POS [FLAGS]: a stand-in kernel tree: a first commit (good)
# and N more; the figure 100 halves from commit POS on (0: never).  FLAGS,
# "K:WORD ...": commit K's FIGURE flag (noisy, slow) or, for broken, a
# file BROKEN that fails its build.  TREE_FIGS, "K:FIG ...": commit K's
# figure instead.  The first commit's files: a Makefile
# with VERSION (TREE_MAKEFILE's text if set) and kernel/bpf/, and
# TREE_FILES' (a directory's) if set.  The N commits are made by one git
# fast-import (a git add and a git commit each cost seconds a tree).
mktree() {
	local d=$1 n=$2 pos=$3 flags=${4:-} i fig flag now head base
	mkdir -p "$d/kernel/bpf"
	git -C "$d" init -q
	printf '%s\n' "${TREE_MAKEFILE:-VERSION = 6}" >"$d/Makefile"
	[ -z "${TREE_FILES:-}" ] || cp -a "$TREE_FILES/." "$d/"
	echo 0 >"$d/kernel/bpf/core.c"
	echo "100 -" >"$d/FIGURE"
	git -C "$d" add -A && git -C "$d" commit -qm "base"
	now=$(date +%s) head=$(git -C "$d" symbolic-ref HEAD) base=$(git -C "$d" rev-parse HEAD)
	for i in $(seq "$n"); do
		fig=100
		[ "$pos" -eq 0 ] || [ "$i" -lt "$pos" ] || fig=50
		for f in ${TREE_FIGS:-}; do [ "${f%%:*}" != "$i" ] || fig=${f#*:}; done
		flag=-
		case " $flags " in *" $i:noisy "*) flag=noisy ;; *" $i:slow "*) flag=slow ;;
		*" $i:fail "*) flag=fail ;; *" $i:vmfail "*) flag=vmfail ;; esac
		printf 'commit %s\ncommitter %s <%s> %s +0000\n' "$head" "$GIT_COMMITTER_NAME" "$GIT_COMMITTER_EMAIL" "$now"
		printf 'data <<EOM\nbpf: change %s\nEOM\n' "$i"
		[ "$i" -gt 1 ] || echo "from $base"
		printf 'M 100644 inline FIGURE\ndata <<EOF\n%s %s\nEOF\n' "$fig" "$flag"
		printf 'M 100644 inline kernel/bpf/core.c\ndata <<EOF\n%s\nEOF\n' "$i"
		case " $flags " in
		*" $i:broken "*) printf 'M 100644 inline BROKEN\ndata <<EOF\n\nEOF\n' ;;
		*) echo "D BROKEN" ;;
		esac
		echo
	done | git -C "$d" fast-import --quiet
	git -C "$d" reset -q --hard
}
# bis CASE ARGS...: bpfbench bisect on CASE's tree and work directory
# (ARGS may name others: the last --tree, --work wins); its stdout, stderr
# and status in CASE/ (each case its own run counter)
bis() {
	local c=$1
	shift
	mkdir -p "$c"
	FAKE_COUNTER=$c/counter "$BPFBENCH" bisect --tree "$c/tree" --work "$c/work" "$@" \
		>"$c/out" 2>"$c/err"
	echo $? >"$c/rc"
}
# start CASE ARGS...: bis in the background, three at a time (a bisection
# runs a process at a time, and the stand-ins' are short)
start() {
	while [ "$(jobs -rp | wc -l)" -ge 3 ]; do wait -n; done
	bis "$@" &
}
rc() { cat "$1/rc"; }
hash_at() { git -C "$1/tree" rev-parse "HEAD~$(($2 - $3))"; }	# hash_at CASE N K: commit K
jget() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2" 2>/dev/null; }
maxwidth() { python3 -c 'import sys; print(max([len(l.rstrip("\n")) for l in open(sys.argv[1], encoding="utf-8")] + [0]))' "$1"; }

# ---- the trees, then every bisection that needs no other first ----
# the place of the regression among 1, 2, 7 and 64 commits
CASES=()
for np in 1:1 2:2 7:4 64:64; do
	c=$TMPD/pos-${np/:/-}
	mktree "$c/tree" "${np%:*}" "${np#*:}"
	CASES+=("$c")
done
mktree "$TMPD/noisy/tree" 7 4 "4:noisy"
# (commit 3 of 7: the first that git bisect tries)
mktree "$TMPD/broken/tree" 7 6 "3:broken"
mktree "$TMPD/broken-good/tree" 3 2 "1:broken"
mktree "$TMPD/same/tree" 3 0
# good and bad 1% apart: a CI that excludes 1, a change inside compare's ±2% band
TREE_FIGS="2:101 3:101" mktree "$TMPD/band/tree" 3 0
# the figure steps across the threshold (half the change) between commits 3 and 4, by a
# little: each step's answer is sure against good, the two side by side show no change
TREE_FIGS="3:77 4:73" mktree "$TMPD/spread/tree" 7 5
# every commit between good and bad fails its runs: the first step stops it all
mktree "$TMPD/fail/tree" 7 4 "1:fail 2:fail 3:fail 4:fail 5:fail 6:fail"
mktree "$TMPD/vmfail/tree" 7 4 "1:vmfail 2:vmfail 3:vmfail 4:vmfail 5:vmfail 6:vmfail"
mktree "$TMPD/record/tree" 2 2
# the default build: the stand-in's Makefile logs each target it makes
# into $(O)/calls, merge_config.sh its call
c=$TMPD/default
TREE_MAKEFILE=$(cat <<'MK'
VERSION = 6
PATCHLEVEL = 13
O ?= .
x86_64_defconfig kvm_guest.config:
	@mkdir -p $(O) && echo $@ >>$(O)/calls && echo CONFIG_$@=y | tr . _ >>$(O)/.config
olddefconfig:
	@echo $@ >>$(O)/calls
bzImage:
	@echo $@ >>$(O)/calls && mkdir -p $(O)/arch/x86/boot && \
		echo "$$(cat FIGURE) $$(git rev-parse HEAD)" >$(O)/arch/x86/boot/bzImage
MK
)
mkdir -p "$c/files/scripts/kconfig"
# shellcheck disable=SC2016	# the stand-in's own $3, $4, $5
printf '#!/bin/sh\n# stand-in: -m -O DIR BASE FRAGMENT\necho merge >>"$3/calls"; cat "$5" >>"$4"\n' \
	>"$c/files/scripts/kconfig/merge_config.sh"
chmod +x "$c/files/scripts/kconfig/merge_config.sh"
TREE_MAKEFILE=$TREE_MAKEFILE TREE_FILES=$c/files mktree "$c/tree" 3 2
echo "CONFIG_FROM_FILE=y" >"$TMPD/my.config"

for c in "${CASES[@]}"; do
	n=${c##*/pos-}
	start "$c" --good HEAD~"${n%-*}" --bad HEAD --build "$BUILD" --seed 7 --json "$c/r.json" \
		-- lpm-trie-lookup -w0 -d1
done
start "$TMPD/noisy" --good HEAD~7 --bad HEAD --build "$BUILD" --seed 3 --max-pairs 4 \
	--json "$TMPD/noisy/r.json" -- lpm-trie-lookup
start "$TMPD/broken" --good HEAD~7 --bad HEAD --build "$BUILD" --seed 3 -- lpm-trie-lookup
start "$TMPD/broken-good" --good HEAD~2 --bad HEAD --build "$BUILD" -- lpm-trie-lookup
start "$TMPD/broken-bad" --tree "$TMPD/broken-good/tree" --good HEAD~3 --bad HEAD~2 --build "$BUILD" \
	-- lpm-trie-lookup
start "$TMPD/fail" --good HEAD~7 --bad HEAD --build "$BUILD" --seed 3 -- lpm-trie-lookup
start "$TMPD/vmfail" --good HEAD~7 --bad HEAD --build "$BUILD" --seed 3 -- lpm-trie-lookup
start "$TMPD/same" --good HEAD~3 --bad HEAD --build "$BUILD" --max-pairs 3 -- lpm-trie-lookup
start "$TMPD/band" --good HEAD~3 --bad HEAD --build "$BUILD" --seed 7 -- lpm-trie-lookup
start "$TMPD/spread" --good HEAD~7 --bad HEAD --build "$BUILD" --seed 7 --json "$TMPD/spread/r.json" \
	--record --db "$TMPD/spread/hist.db" -- lpm-trie-lookup
mkdir -p "$TMPD/record/work"	# (empty: adopted)
start "$TMPD/record" --good HEAD~2 --bad HEAD --build "$BUILD" --seed 7 --record --db "$TMPD/hist.db" -q \
	-- lpm-trie-lookup
# the default build thrice: made, made again in the same work directory, with --config
c=$TMPD/default
while [ "$(jobs -rp | wc -l)" -ge 3 ]; do wait -n; done
{
	bis "$c" --good HEAD~3 --bad HEAD --seed 5 -- lpm-trie-lookup
	cp "$c/work/build/calls" "$c/calls.first"
	bis "$c/again" --tree "$c/tree" --work "$c/work" --good HEAD~3 --bad HEAD --seed 5 -- lpm-trie-lookup
	bis "$c/config" --tree "$c/tree" --work "$c/work2" --good HEAD~3 --bad HEAD --seed 5 \
		--config "$TMPD/my.config" -- lpm-trie-lookup
} &
wait

# ---- the place of the regression among 1, 2, 7 and 64 commits ----
for c in "${CASES[@]}"; do
	np=${c##*/pos-}
	n=${np%-*} pos=${np#*-}
	want=$(hash_at "$c" "$n" "$pos")
	most=$(python3 -c "import math, sys; print(math.ceil(math.log2($n)) if $n > 1 else 0)")
	[ "$(rc "$c")" -eq 0 ] && grep -qx "commit ${want:0:12}: lpm-trie-lookup throughput −[0-9.]*% \[−[0-9.]*, −[0-9.]*\]" "$c/out" &&
		json_check "$c/r.json" "
s = d['steps']
ok = d['result'] == 'found' and d['first_bad']['commit'] == '$want' and d['commits'] == $n
ok = ok and len(s) <= $most and all(x['answer'] in ('good', 'bad') for x in s)
ok"
	ok $? "regression at commit $pos of $n: found ($(jget "$c/r.json" 'len(d["steps"])') steps, at most $most)" ||
		diag "exit $(rc "$c")" "$(cat "$c/err")" "$(cat "$c/out")"
done
c=$TMPD/pos-7-4
[ "$(maxwidth "$c/out")" -le 120 ] && head -1 "$c/out" | grep -q '^bisect: lpm-trie-lookup throughput −[0-9.]*% \[.*\] good→bad in [0-9]* pairs; a step is bad past −2[0-9.]*%$' &&
	grep -q '^  "bpf: change 4"$' "$c/out" && grep -q '^  Author: Dev One <dev@example.org>, ' "$c/out" &&
	grep -qE '^  before: [0-9a-f]{12} \(its parent\): [0-9.]+ M ops/s \[[0-9.]+, [0-9.]+\], [0-9]+ runs$' "$c/out" &&
	grep -qE '^  after:  [0-9a-f]{12} \(first bad\): [45][0-9.]+ M ops/s \[[0-9.]+, [0-9.]+\], [0-9]+ runs$' "$c/out" &&
	grep -qE '^Steps: 7 commits after good up to bad, [0-9] steps? ' "$c/out" &&
	grep -qE '^Time: [0-9]+ s \(builds [0-9]+ s, runs [0-9]+ s\)$' "$c/out" &&
	grep -q '^Conditions: no VM: runs by BPFBENCH_BISECT_RUN' "$c/out" && grep -q '^  bpfbench [0-9.]* (git ' "$c/out" &&
	! grep -q '/tmp/bpfbench-vmout' "$c/out"
ok $? "the report: the threshold first, the commit and its figures either side, steps, time, conditions, <= 120 columns" ||
	diag "$(cat "$c/out")"
json_check "$c/r.json" "
f, r = d['figures'], d['ratio']
ok = d['schema'] == 'bpfbench-bisect/1' and d['metric'] == 'throughput' and d['unit'] == 'M ops/s'
ok = ok and 95 < f['parent']['mean'] < 105 and 45 < f['first_bad']['mean'] < 55
ok = ok and f['parent']['ci95_low'] < f['parent']['mean'] < f['parent']['ci95_high'] and f['parent']['runs'] >= 3
ok = ok and r['ci95_low'] < r['ratio'] < r['ci95_high'] < 0.75 and 0.7 < d['threshold_ratio'] < 0.8
ok = ok and d['conditions']['vm'] == 'hook' and d['first_bad']['author'] == 'Dev One <dev@example.org>'
ok"
ok $? "--json: the report's figures, ratio, threshold and conditions (doc/json.md)"
[ -s "$c/work/report" ] && [ -s "$c/work/report.json" ] && [ -s "$c/work/log" ] &&
	[ -z "$(git -C "$c/work/src" for-each-ref refs/bisect)" ] && [ ! -e "$c/work/src/.git/BISECT_LOG" ] &&
	[ "$(find "$c/work/images" -type f | wc -l)" -ge 4 ]
ok $? "the work directory: report, report.json, log, an image a commit built; the clone's bisection reset" ||
	diag "$(ls -R "$c/work" | head -20)"

# ---- skips: a noisy commit, a broken build ----
c=$TMPD/noisy
want=$(hash_at "$c" 7 4)
[ "$(rc "$c")" -eq 3 ] && grep -q "^bisect: the first bad commit is one of [0-9]: .*${want:0:12}" "$c/out" &&
	grep -q "^  ${want:0:12}  skip: CI  *\"bpf: change 4\"$" "$c/out" &&
	json_check "$c/r.json" "
mine = [x for x in d['steps'] if x['commit'] == '$want']
ok = d['result'] == 'skipped' and d['first_bad'] is None and '$want' in [x['commit'] for x in d['candidates']]
ok and [(x['pairs'], x['answer']) for x in mine] == [(4, 'skip-noise')]"
ok $? "a noisy commit: skipped after --max-pairs 4 still straddling; the bisection ends, exit 3, the candidates listed" ||
	diag "exit $(rc "$c")" "$(cat "$c/out")" "$(tail -5 "$c/err")"

c=$TMPD/broken
want=$(hash_at "$c" 7 6) broke=$(hash_at "$c" 7 3)
[ "$(rc "$c")" -eq 0 ] && grep -q "^commit ${want:0:12}: " "$c/out" &&
	grep -qE "^ +[0-9]+  ${broke:0:12}  bpf: change 3 +[0-9]+ +0 +0  skip: build$" "$c/out" &&
	grep -q "step [0-9]: ${broke:0:12}: the build failed after [0-9]* s: skipped (log: $c/work/log)" "$c/err" &&
	[ ! -e "$c/work/images/$broke" ]
ok $? "a commit whose build fails: skipped (said, in the table), the first bad commit found all the same" ||
	diag "exit $(rc "$c")" "$(cat "$c/out")" "$(cat "$c/err")"
c=$TMPD/broken-good
[ "$(rc "$c")" -eq 1 ] && grep -q "^bpfbench: error: bisect: the build of good ([0-9a-f]\{12\}) failed after [0-9]* s: see $c/work/log$" "$c/err"
ok $? "good's build fails: exit 1, naming good and the log" || diag "exit $(rc "$c")" "$(cat "$c/err")"
c=$TMPD/broken-bad
[ "$(rc "$c")" -eq 1 ] && grep -q "^bpfbench: error: bisect: the build of bad ([0-9a-f]\{12\}) failed" "$c/err"
ok $? "bad's build fails: exit 1, naming bad" || diag "exit $(rc "$c")" "$(cat "$c/err")"

for c in "$TMPD/fail" "$TMPD/vmfail"; do
	if [ "$c" = "$TMPD/fail" ]; then want=1 msg="the run failed"; else want=125 msg="the VM stopped"; fi
	[ "$(rc "$c")" -eq "$want" ] && [ "$(grep -c . "$c/out")" -eq 1 ] && grep -q '^bisect: .* good→bad' "$c/out" &&
		[ "$(wc -l <"$c/work/run/steps")" -eq 0 ] &&
		grep -q "^bpfbench: error: bisect: step 1 ([0-9a-f]\{12\}): run 1 of [0-9a-f]\{12\} (step 1) failed (exit $want): .*$msg.*: the bisection stopped (see $c/work/log)$" "$c/err" &&
		[ -z "$(git -C "$c/work/src" for-each-ref refs/bisect)" ] && [ ! -e "$c/work/src/.git/BISECT_LOG" ]
	ok $? "a run that fails in a step ($msg): the whole bisection stops, exit $want, said; no report; the clone's bisection reset" ||
		diag "exit $(rc "$c")" "$(cat "$c/err")"
done

c=$TMPD/same
[ "$(rc "$c")" -eq 1 ] &&
	grep -q "^bpfbench: error: bisect: good and bad do not differ on throughput at 3 pairs (.*): nothing to bisect$" "$c/err" &&
	[ ! -s "$c/out" ]
ok $? "good and bad alike: exit 1, nothing to bisect, no guess" || diag "exit $(rc "$c")" "$(cat "$c/err")"
c=$TMPD/band
[ "$(rc "$c")" -eq 1 ] &&
	grep -q "^bpfbench: error: bisect: good and bad do not differ on throughput at [0-9] pairs (+[0-9.]*% \[+[0-9.]*, +[0-9.]*\] bad/good, compare: \(equal\|faster, within its ±2% noise\)): nothing to bisect$" "$c/err" &&
	[ ! -s "$c/out" ] && [ ! -s "$c/work/run/steps" ]
ok $? "good and bad 1% apart, the CI excluding 1, the change inside compare's ±2% band: 'do not differ', exit 1, no step" ||
	diag "exit $(rc "$c")" "$(cat "$c/err")" "$(cat "$c/out")"
c=$TMPD/spread
want=$(hash_at "$c" 7 4) par=$(hash_at "$c" 7 3)
[ "$(rc "$c")" -eq 3 ] && [ "$(maxwidth "$c/out")" -le 120 ] &&
	grep -q "^bisect: unconfirmed: commit ${want:0:12}: throughput −[0-9.]*% \[−[0-9.]*, +[0-9.]*\] against its parent (cannot tell)$" "$c/out" &&
	! grep -q "^commit ${want:0:12}:" "$c/out" && ! grep -q "first bad commit $want" "$c/out" &&
	grep -q "^  ${want:0:12}  bad  *\"bpf: change 4\"$" "$c/out" && grep -q "^  ${par:0:12}  good  *\"bpf: change 3\"$" "$c/out" &&
	json_check "$c/r.json" "
ok = d['result'] == 'unconfirmed' and d['first_bad'] is None and d['named']['commit'] == '$want'
ok and [x['commit'] for x in d['candidates']] == ['$want', '$par'] and d['ratio']['ci95_low'] < 1 < d['ratio']['ci95_high']" &&
	[ ! -e "$c/hist.db" ] || [ -z "$("$BPFBENCH" db show lpm-trie-lookup --db "$c/hist.db" --json 2>/dev/null | tr -d '[] \n')" ]
ok $? "a commit whose CI against its parent includes no change: unconfirmed, exit 3, it and its parent listed, nothing recorded" ||
	diag "exit $(rc "$c")" "$(cat "$c/out")" "$(tail -3 "$c/err")"

# ---- --record: the first bad commit's and its parent's results in the history ----
c=$TMPD/record
want=$(hash_at "$c" 2 2)
[ "$(rc "$c")" -eq 0 ] && [ "$(grep -c . "$c/out")" -eq 1 ] && grep -q "^commit ${want:0:12}: " "$c/out" &&
	"$BPFBENCH" db show lpm-trie-lookup --db "$TMPD/hist.db" --json >"$c/show.json" &&
	json_check "$c/show.json" "
k = sorted(p['kernel'] for p in d)
len(set(k)) == 2 and any(x.endswith('-g${want:0:12}') for x in k)"
ok $? "--record --db: the first bad commit's and its parent's merged runs recorded (-q: the answer line alone)" ||
	diag "exit $(rc "$c")" "$(cat "$c/out" "$c/err")" "$(head -c 600 "$c/show.json")"

# ---- the default build: configured once, each commit built once ----
c=$TMPD/default
calls=$(paste -sd' ' "$c/calls.first" 2>/dev/null)
[ "$(rc "$c")" -eq 0 ] && [[ $calls == "x86_64_defconfig kvm_guest.config merge olddefconfig olddefconfig bzImage "* ]] &&
	[ "$(grep -cx x86_64_defconfig "$c/work/build/calls")" -eq 1 ] &&
	grep -q '^CONFIG_BPF_SYSCALL=y' "$c/work/build/.config" &&
	grep -qE "^  .config: $c/work/build/.config \(sha256 [0-9a-f]{12}\)$" "$c/out"
ok $? "no --build: .config made once (defconfig, kvm_guest.config, the fragment merged, olddefconfig), then olddefconfig and bzImage" ||
	diag "exit $(rc "$c")" "$calls" "$(tail -3 "$c/err")"
[ "$(rc "$c/again")" -eq 0 ] && cmp -s "$c/calls.first" "$c/work/build/calls" && grep -q "^bisect: fetching" "$c/again/err"
ok $? "a second bisection in the same work directory: the clone fetched, no commit built again" ||
	diag "exit $(rc "$c/again")" "$(cat "$c/again/err")"
[ "$(rc "$c/config")" -eq 0 ] && grep -qx CONFIG_FROM_FILE=y "$c/work2/build/.config" &&
	grep -q '^CONFIG_BPF_SYSCALL=y' "$c/work2/build/.config" && ! grep -qx x86_64_defconfig "$c/work2/build/calls"
ok $? "--config FILE: the first .config, the fragment merged into it" ||
	diag "exit $(rc "$c/config")" "$(cat "$c/config/err")"

# ---- refusals, before anything is made ----
c=$TMPD/refuse
mktree "$c/tree" 3 2
export XDG_CACHE_HOME=$c/cache
refused() {	# refused DESC PATTERN ARGS...: exit 2, one line, no work directory made
	local desc=$1 pat=$2
	shift 2
	FAKE_COUNTER=$c/counter "$BPFBENCH" bisect "$@" >"$c/out" 2>"$c/err"
	local st=$?
	[ $st -eq 2 ] && [ "$(grep -c . "$c/err")" -eq 1 ] && grep -q "^bpfbench: error: $pat" "$c/err" &&
		[ ! -e "$c/cache" ]
	ok $? "$desc: refused, exit 2, nothing made" || diag "exit $st" "$(cat "$c/err")" "$(ls -a "$c")"
}
echo scratch >"$c/tree/notes.txt"
refused "a tree with an untracked file" "bisect: .*not clean ('notes.txt'" --tree "$c/tree" --good HEAD~3 --bad HEAD \
	--build "$BUILD" -- lpm-trie-lookup
rm "$c/tree/notes.txt"
echo 9 >>"$c/tree/kernel/bpf/core.c"
refused "a tree with a change" "bisect: .*not clean ('kernel/bpf/core.c'" --tree "$c/tree" --good HEAD~3 --bad HEAD \
	--build "$BUILD" -- lpm-trie-lookup
git -C "$c/tree" checkout -q -- kernel/bpf/core.c
mkdir -p "$c/foreign"
git -C "$c/foreign" init -q && echo x >"$c/foreign/x" && git -C "$c/foreign" add x && git -C "$c/foreign" commit -qm x &&
	git -C "$c/foreign" commit -q --allow-empty -m y
refused "a git tree that is no kernel's" "bisect: .*no kernel tree" --tree "$c/foreign" --good HEAD~1 --bad HEAD \
	--build "$BUILD" -- lpm-trie-lookup
mkdir -p "$c/plain"
refused "a directory that is no git tree" "bisect: .*not in a git work tree" --tree "$c/plain" --good HEAD~1 --bad HEAD \
	--build "$BUILD" -- lpm-trie-lookup
pushd "$c/tree" >/dev/null || exit 1
refused "good after bad (from the tree, the default --tree)" "bisect: .*is not an ancestor of --bad" \
	--good HEAD --bad HEAD~2 --build "$BUILD" -- lpm-trie-lookup
popd >/dev/null || exit 1
refused "a REV that is no commit" "bisect: --good nosuch is no commit" --tree "$c/tree" --good nosuch --bad HEAD \
	--build "$BUILD" -- lpm-trie-lookup
refused "an unknown benchmark" "unknown benchmark 'nosuch-bench'" --tree "$c/tree" --good HEAD~1 --bad HEAD \
	--build "$BUILD" -- nosuch-bench
refused "a work directory inside the tree" "bisect: the work directory .* is inside the tree" --tree "$c/tree" \
	--work "$c/tree/w" --good HEAD~1 --bad HEAD --build "$BUILD" -- lpm-trie-lookup
[ ! -e "$c/tree/w" ]
ok $? "... and not made there"
refused "--max-pairs below --pairs" "bisect: --max-pairs 2 is below --pairs 3" --tree "$c/tree" --good HEAD~1 --bad HEAD \
	--max-pairs 2 -- lpm-trie-lookup
# never / nor a home as the work directory (each with a --tree that an older bisect
# refuses first: these must never reach a bisect that would write there)
refused "--work /" "bisect: --work /tmp/..: the root directory is never a work directory" --tree "$c/plain" \
	--work /tmp/.. --good HEAD~1 --bad HEAD --build "$BUILD" -- lpm-trie-lookup
mkdir -p "$c/home"
HOME=$c/home refused "--work \$HOME" "bisect: --work $c/home/: a home directory ($c/home) is never a work directory" \
	--tree "$c/plain" --work "$c/home/" --good HEAD~1 --bad HEAD --build "$BUILD" -- lpm-trie-lookup
realhome=$(getent passwd "$(id -u)" | cut -d: -f6)
if [ -n "$realhome" ] && [ -d "$realhome" ]; then
	HOME=$c/home refused "--work the user's real home, \$HOME elsewhere" \
		"bisect: --work $realhome: a home directory ($realhome) is never a work directory" \
		--tree "$c/plain" --work "$realhome" --good HEAD~1 --bad HEAD --build "$BUILD" -- lpm-trie-lookup
fi
# every output and the database checked before the first build
echo "not a database" >"$c/notdb.txt"
refused "--record --db a file that is no database" \
	"bisect: --record --db $c/notdb.txt: db: cannot open $c/notdb.txt: file is not a database$" --tree "$c/tree" \
	--good HEAD~1 --bad HEAD --build "$BUILD" --record --db "$c/notdb.txt" -- lpm-trie-lookup
[ ! -e "$c/counter" ] && [ "$(cat "$c/notdb.txt")" = "not a database" ]
ok $? "... no run made, the file as it was"
refused "--json in no folder" "bisect: --json $c/nodir/r.json: No such file or directory$" --tree "$c/tree" \
	--good HEAD~1 --bad HEAD --build "$BUILD" --json "$c/nodir/r.json" -- lpm-trie-lookup
refused "--json naming --record's database" "bisect: --json $c/same.db is the database --record writes into" --tree "$c/tree" \
	--good HEAD~1 --bad HEAD --build "$BUILD" --json "$c/same.db" --record --db "$c/same.db" -- lpm-trie-lookup
unset XDG_CACHE_HOME
# a work directory that holds what bisect did not make: refused, nothing in it touched
mkdir -p "$c/mine/run"
echo precious >"$c/mine/notes.txt"
echo keep >"$c/mine/run/keep"
rm -f "$c/counter"
bis "$c" --good HEAD~3 --bad HEAD --build "$BUILD" --work "$c/mine" -- lpm-trie-lookup
[ "$(rc "$c")" -eq 2 ] && [ "$(grep -c . "$c/err")" -eq 1 ] &&
	grep -q "^bpfbench: error: bisect: the work directory $c/mine holds files bisect did not make (no .bpfbench-bisect in it): give a new or empty directory$" "$c/err" &&
	[ "$(ls -A "$c/mine" | paste -sd' ')" = "notes.txt run" ] && [ "$(cat "$c/mine/run/keep")" = keep ] &&
	[ ! -e "$c/counter" ]
ok $? "--work DIR that holds files bisect did not make: refused, exit 2, nothing in it removed or added" ||
	diag "exit $(rc "$c")" "$(cat "$c/err")" "$(ls -AR "$c/mine")"
[ "$(rc "$TMPD/record")" -eq 0 ] && [ -f "$TMPD/record/work/.bpfbench-bisect" ] && [ -f "$TMPD/pos-1-1/work/.bpfbench-bisect" ]
ok $? "an empty --work DIR is adopted, a new one made: each marked as bisect's (.bpfbench-bisect)"
bis "$c" --good HEAD~3 --bad HEAD --build "$BUILD" --work "$TMPD/pos-7-4/work" -- lpm-trie-lookup
[ "$(rc "$c")" -eq 2 ] && grep -q "holds a clone of $TMPD/pos-7-4/tree, not of $c/tree: give another --work" "$c/err"
ok $? "a work directory whose src/ is another tree's clone: refused, exit 2" || diag "$(cat "$c/err")"
touch "$TMPD/exists.json"
bis "$c" --good HEAD~3 --bad HEAD --build "$BUILD" --json "$TMPD/exists.json" -- lpm-trie-lookup
[ "$(rc "$c")" -eq 2 ] && grep -q "exists: give a new name" "$c/err" && [ ! -e "$c/work" ]
ok $? "--json naming an existing file: refused before anything runs" || diag "$(cat "$c/err")"

# ---- a signal: nothing of ours left, the user's tree as it was ----
c=$TMPD/signal
mktree "$c/tree" 7 4 "1:slow 2:slow 3:slow 4:slow 5:slow 6:slow"
# the user is bisecting in their own tree: their state must stay theirs
git -C "$c/tree" bisect start HEAD HEAD~5 >/dev/null 2>&1
git -C "$c/tree" bisect good HEAD >/dev/null 2>&1
snapshot() {	# (its own git status without refreshing the index, which it checks)
	local t=$c/tree
	stat -c '%n %.9Y %s' "$t/.git/index" "$t/.git/HEAD"
	git -C "$t" rev-parse HEAD
	git --no-optional-locks -C "$t" status --porcelain
	git -C "$t" for-each-ref
	sha256sum "$t"/.git/BISECT_* 2>/dev/null
}
snapshot >"$c/before"
FAKE_COUNTER=$c/counter FAKE_SLOW=$c/slow "$BPFBENCH" bisect --tree "$c/tree" --work "$c/work" --build "$BUILD" \
	--good HEAD~6 --bad HEAD -- lpm-trie-lookup >"$c/out" 2>"$c/err" &
pid=$!
for _ in $(seq 600); do [ -s "$c/slow" ] && break; sleep 0.1; done
slowpid=$(head -1 "$c/slow" 2>/dev/null)
kill -INT "$pid"
wait "$pid"
st=$?
ours() { pgrep -f "$c/" 2>/dev/null; }
for _ in $(seq 50); do [ -z "$(ours)" ] && break; sleep 0.1; done
[ -n "$slowpid" ] && [ "$st" -eq 130 ] && [ -z "$(ours)" ] && ! kill -0 "$slowpid" 2>/dev/null
ok $? "SIGINT during a step's run: exit 130, no process of ours left (the step, its run, git bisect run)" ||
	diag "exit $st, slow run $slowpid" "$(ps -o pid,pgid,args -p "$(ours | paste -sd,)" 2>/dev/null)" "$(tail -3 "$c/err")"
for p in $(ours); do kill "$p" 2>/dev/null; done	# (only if the check above failed: ours)
snapshot >"$c/after"
cmp -s "$c/before" "$c/after" && [ -s "$c/tree/.git/BISECT_LOG" ]
ok $? "... the user's tree as it was: HEAD, status, refs, their own bisection's files, its index untouched" ||
	diag "$(diff "$c/before" "$c/after")"
[ -z "$(git -C "$c/work/src" for-each-ref refs/bisect)" ] && [ ! -e "$c/work/src/.git/BISECT_LOG" ] &&
	[ ! -e "$c/work/src/.git/index.lock" ]
ok $? "... our clone's bisection reset" || diag "$(git -C "$c/work/src" for-each-ref refs/bisect)"

# ---- db changes: a change point between two kernels that carry their commits ----
# mkhist DIR KERNEL_BEFORE KERNEL_AFTER [HOST]: 24 results a day apart from the
# template, throughput 100 then 80 from the 13th, with 1% noise; options
# nr_entries=1000, --random, a CPU list (a value with a comma)
mkhist() {
	python3 - "$TMPD/template.json" "$@" <<'PY'
import json, random, sys
tpl, out, before, after = sys.argv[1:5]
host = sys.argv[5] if len(sys.argv) > 5 else "standin"
rnd = random.Random(44)
for i in range(24):
    d = json.loads(open(tpl).read().replace("@BENCH@", "lpm-trie-lookup")
                   .replace("@KERNEL@", before if i < 12 else after))
    d["env"].update(date="2026-11-%02dT12:00:00Z" % (i + 1), hostname=host)
    run = d["runs"][0]
    run["options"].update(nr_entries=1000, random=True, prod_affinity="0,1")
    level = 100.0 if i < 12 else 80.0
    t = [level * (1 + 0.01 * rnd.gauss(0, 1)) for _ in range(5)]
    run["samples"] = [{"elapsed_ns": 200000000, "throughput": x, "latency": 1000 / x} for x in t]
    m = run["metrics"]
    m["throughput"].update(mean=sum(t) / 5, min=min(t), max=max(t), median=sorted(t)[2])
    m["latency"].update(mean=sum(1000 / x for x in t) / 5, of_mean_inverse=1000 / (sum(t) / 5))
    json.dump(d, open("%s/h%02d.json" % (out, i), "w"))
PY
}
mkdir -p "$TMPD/hist-g" "$TMPD/hist-deb"
mkhist "$TMPD/hist-g" 6.13.0-rc1-00012-g1a2b3c4d5e6f 6.13.0-rc2-00040-g9f8e7d6c5b4a0123
mkhist "$TMPD/hist-deb" 6.1.0-27-amd64 6.12.9-amd64 debhost
"$BPFBENCH" db record -q --db "$TMPD/changes.db" "$TMPD"/hist-g/*.json "$TMPD"/hist-deb/*.json &&
	run db changes lpm-trie-lookup --db "$TMPD/changes.db" --metric throughput
want="  bisect: bpfbench bisect --good 1a2b3c4d5e6f --bad 9f8e7d6c5b4a0123 --metric throughput -- lpm-trie-lookup --nr_entries 1000 --prod_affinity 0,1 --random"
[ "$RC" -eq 0 ] && [ "$(grep -c '^lpm-trie-lookup .* on standin: point 13 of 24$' <<<"$OUT")" -eq 1 ] &&
	grep -qxF -- "$want" <<<"$OUT" && [ "$(grep -c '^  bisect: ' <<<"$OUT")" -eq 1 ] &&
	grep -q "^bisect: each line's ARGS are its series' benchmark and measured options (the history keeps no command line)" <<<"$OUT"
ok $? "db changes: a change between kernels that carry their commits (-g<hex>) gets its bisect line; Debian's do not" ||
	diag "exit $RC" "$OUT" "$ERR"
run db changes lpm-trie-lookup --db "$TMPD/changes.db" --metric throughput --json
printf '%s\n' "$OUT" >"$TMPD/changes.json"
json_check "$TMPD/changes.json" "
b = {c['host']: c['bisect'] for c in d['changes']}
b == {'standin': '--good 1a2b3c4d5e6f --bad 9f8e7d6c5b4a0123 --metric throughput -- lpm-trie-lookup --nr_entries 1000 --prod_affinity 0,1 --random', 'debhost': None}"
ok $? "db changes --json: each change's bisect arguments, null where a kernel names no commit" || diag "$OUT"
# the line's words run: bisect takes them as they are (up to its check of the tree)
eval "set -- $(jget "$TMPD/changes.json" '[c["bisect"] for c in d["changes"] if c["bisect"]][0]')"
FAKE_COUNTER=$TMPD/counter "$BPFBENCH" bisect --tree "$TMPD/refuse/tree" "$@" >"$TMPD/out" 2>"$TMPD/err"
[ $? -eq 2 ] && grep -q "^bpfbench: error: bisect: --good 1a2b3c4d5e6f is no commit of " "$TMPD/err"
ok $? "... and bisect parses them (here stopped at its tree, which has no such commit)" || diag "$(cat "$TMPD/err")"

done_testing
