# What a step of bpfbench bisect (git bisect run) and the bisection share:
# a commit built, a side run, the runs judged (bisect.sh; sourced, not run).
# shellcheck shell=bash
# shellcheck disable=SC2034	# what the functions set (IMG, B_*, J_*, M_*) is bisect.sh's to read

# run_bg CMD...: CMD in the background, waited for: a signal to us is
# handled at once.  In the bisection, in a process group of its own
# (setsid), which our trap ends whole (a build's make and compilers, a
# run's QEMU, git bisect run and its step); a step's are in git bisect
# run's group already.
CHILD=
run_bg() {
	local st
	if [ -n "${IN_STEP:-}" ]; then
		"$@" &
	else
		setsid "$@" &
	fi
	CHILD=$!
	wait "$CHILD"
	st=$?
	CHILD=
	return $st
}
# shellcheck disable=SC2317	# called from the traps
kill_group() {	# kill_group PID: its session (run_bg's setsid), gone before we go on
	local g=$1 i
	[ -n "$g" ] || return 0
	kill -TERM -- -"$g" 2>/dev/null || return 0
	for i in $(seq 50); do
		# what is left but the leader's zombie, which is ours to reap
		[ -n "$(ps -o stat= -s "$g" 2>/dev/null | grep -v '^Z')" ] || break
		[ "$i" -lt 50 ] || kill -KILL -- -"$g" 2>/dev/null
		sleep 0.1
	done
	wait "$g" 2>/dev/null
}

# build_commit HASH WHAT: the commit's image in images/HASH, built once:
# IMG, B_SECS and B_REUSED set; 1 if the build failed (its output in LOG).
build_commit() {
	local h=$1 what=$2 t0=$SECONDS img
	IMG=$WORK/images/$h
	B_SECS=0
	B_REUSED=
	if [ -f "$IMG" ]; then
		B_REUSED=1
		return 0
	fi
	if [ "$(git -C "$SRC" rev-parse -q --verify HEAD 2>/dev/null)" != "$h" ]; then
		git -C "$SRC" checkout -q -f --detach "$h" >>"$LOG" 2>&1 ||
			{ echo "bisect: cannot check out $h" >>"$LOG"; return 1; }
	fi
	mkdir -p "$BUILDDIR"
	TZ=UTC printf '\n==== %(%Y-%m-%dT%H:%M:%SZ)T: build of %s %s: %s\n' -1 "$what" "$h" "$BUILD_CMD" >>"$LOG"
	if [ -n "$DEFAULT_BUILD" ] && [ ! -f "$BUILDDIR/.config" ]; then
		say "bisect: configuring $BUILDDIR/.config (${CONFIG:-x86_64_defconfig kvm_guest.config} + bpfbench.config)"
		# shellcheck disable=SC2016	# for sh -c to expand
		if ! BPFBENCH_SRC=$SRC BPFBENCH_BUILD=$BUILDDIR BPFBENCH_CONFIG=$CONFIG \
			BPFBENCH_FRAGMENT=$HERE/bpfbench.config run_bg env -C "$SRC" sh -c '
			set -e
			if [ -n "$BPFBENCH_CONFIG" ]; then
				cp "$BPFBENCH_CONFIG" "$BPFBENCH_BUILD/.config"
			else
				make -C "$BPFBENCH_SRC" O="$BPFBENCH_BUILD" x86_64_defconfig kvm_guest.config
			fi
			"$BPFBENCH_SRC/scripts/kconfig/merge_config.sh" -m -O "$BPFBENCH_BUILD" \
				"$BPFBENCH_BUILD/.config" "$BPFBENCH_FRAGMENT"
			make -C "$BPFBENCH_SRC" O="$BPFBENCH_BUILD" olddefconfig' </dev/null >>"$LOG" 2>&1; then
			rm -f "$BUILDDIR/.config"
			B_SECS=$((SECONDS - t0))
			return 1
		fi
	fi
	# (a command that makes no image must not pass off the last commit's as this one's)
	rm -f "$BUILDDIR/arch/x86/boot/bzImage"
	BPFBENCH_SRC=$SRC BPFBENCH_BUILD=$BUILDDIR run_bg env -C "$SRC" sh -c "$BUILD_CMD" \
		</dev/null >>"$LOG" 2>&1
	local st=$?
	B_SECS=$((SECONDS - t0))
	img=$BUILDDIR/arch/x86/boot/bzImage
	if [ $st -ne 0 ]; then
		echo "==== build of $h failed (exit $st)" >>"$LOG"
		return 1
	fi
	if [ ! -f "$img" ]; then
		echo "==== build of $h made no $img" >>"$LOG"
		return 1
	fi
	cp -- "$img" "$IMG.tmp.$$" && mv -f -- "$IMG.tmp.$$" "$IMG" || { rm -f "$IMG.tmp.$$"; return 1; }
}

# run_side IMAGE SPEC OUT: one run of the benchmark on the kernel IMAGE, its
# result JSON in OUT (its stderr in OUT.err); the run's status.
run_side() {
	local img=$1 spec=$2 out=$3
	if [ -n "${BPFBENCH_BISECT_RUN:-}" ]; then
		run_bg "$BPFBENCH_BISECT_RUN" "$img" "${WORDS[@]}" >"$out" 2>"$out.err"
	else
		run_bg bash "$HERE/run.sh" --kernel "$img" --timeout "${BPFBENCH_VM_TIMEOUT:-1800}" -- \
			"$BIN" -q "${WORDS[@]}" --json - >"$out" 2>"$out.err"
	fi
}

# judge DIR MODE SPEC_A SPEC_B K: the K runs of each side in DIR merged
# (merge_runs.py) into DIR/a.json and DIR/b.json, compare's answer on them
# in the metric: J_ANSWER (differ|same|bad|good|open), J_RATIO, J_LO, J_HI
# (b/a and its 95% CI), J_METRIC and J_UNIT (the metric, the run's first if
# none was given), J_VERDICT (compare's word), J_NOISE (compare's --noise
# band, %).  MODE differ takes compare's verdict: a change (faster/slower;
# better/worse, higher/lower for a metric that is no speed) beyond its
# noise band differs, "equal" (the CI inside the band) is "same", anything
# else open: bisect names no culprit for a change compare would not call
# one, nor for one too small for a commit's own to be told from noise.
# One python: a pair's verdict costs one start of it.
judge() {
	local d=$1 mode=$2 out
	out=$(python3 - "$HERE" "$BIN" "$ACCEL_NAME" "$d" "$mode" "$METRIC" "${SIGN:-0}" "${THR_RATIO:-1}" \
		"$3" "$4" "$5" "$(short "$GOOD")" 2>>"$LOG" <<'PY'
import json, math, subprocess, sys
here, bin_, accel, d, mode, metric, sign, thr, sa, sb, k, good = sys.argv[1:13]
sign, thr, k = int(sign), float(thr), int(k)
sys.dont_write_bytecode = True
sys.path.insert(0, here)
import merge_runs
for side, spec in (("a", sa), ("b", sb)):
    try:
        doc = merge_runs.merge([f"{d}/{side}-{i}.json" for i in range(1, k + 1)], spec, accel)
    except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
        print("norun", side, str(e).replace(" ", "_"))
        sys.exit()
    with open(f"{d}/{side}.json", "w") as f:
        json.dump(doc, f)
# (the names in DIR/cmp.json, for whoever reads it: good's side is good)
names = ("good" if sa == good else sa) + "," + sb
subprocess.run([bin_, "compare", f"{d}/a.json", f"{d}/b.json", "--match", "label", "--names", names,
                "--paired", "--json", f"{d}/cmp.json", "-q"], stdout=subprocess.DEVNULL,
               stderr=open(f"{d}/cmp.err", "w"))
run = json.load(open(f"{d}/a.json"))["runs"][0]
metric = metric or next(iter(run["metrics"]))
try:
    cmp = json.load(open(f"{d}/cmp.json"))
    noise = float(cmp.get("noise_pct") or 0)
    rows = [r for r in cmp["rows"] if r["metric"] == metric]
except (OSError, ValueError, KeyError, TypeError):
    print("nocompare - -")
    sys.exit()
if not rows:
    print("nometric", metric, ",".join(sorted(run["metrics"])))
    sys.exit()
r = rows[0]
ratio, lo, hi = r.get("ratio"), r.get("ci95_low"), r.get("ci95_high")
unit = (run["metrics"].get(metric) or {}).get("unit") or r.get("unit") or "-"
ok = all(isinstance(x, (int, float)) and math.isfinite(x) and x > 0 for x in (ratio, lo, hi))
verdict = str(r.get("verdict") or "-")
ans = "open"
if mode == "differ" and verdict == "equal":
    ans = "same"
elif ok and mode == "differ" and verdict in ("faster", "slower", "better", "worse", "higher", "lower") \
        and abs(ratio - 1) * 100 > noise:
    ans = "differ"
elif ok and mode == "step":
    if (sign < 0 and hi < thr) or (sign > 0 and lo > thr):
        ans = "bad"
    elif (sign < 0 and lo > thr) or (sign > 0 and hi < thr):
        ans = "good"
f = lambda x: repr(float(x)) if ok else "nan"
print(ans, f(ratio), f(lo), f(hi), metric, unit.replace(" ", "_"), verdict.replace(" ", "_"), "%g" % noise)
PY
) || die "cannot merge or compare the runs in $d (see $LOG)"
	read -r J_ANSWER J_RATIO J_LO J_HI J_METRIC J_UNIT J_VERDICT J_NOISE <<<"$out"
	J_UNIT=${J_UNIT//_/ }
	J_VERDICT=${J_VERDICT//_/ }
	case $J_ANSWER in
	nometric)	die "${WORDS[0]}'s results have no metric '$J_RATIO' (they have: ${J_LO//,/, })" 2 ;;
	norun)		die "the runs in $d are no result documents (${J_LO//_/ }): see $LOG" ;;
	nocompare)	die "compare failed on the runs in $d: $(head -2 "$d/cmp.err")" ;;
	esac
}

# measure DIR IMG_A SPEC_A IMG_B SPEC_B MODE WHAT: pairs of runs of A and
# B, each pair's order drawn, --pairs first, then one more at a time up to
# --max-pairs, until judge's answer in MODE is no longer open: M_PAIRS,
# M_SECS and judge's J_* set.  A run that fails: M_FAIL (its message) and
# M_STATUS, return 1.
measure() {
	local d=$1 ia=$2 sa=$3 ib=$4 sb=$5 mode=$6 what=$7 k side t0=$SECONDS st order
	M_FAIL=
	M_STATUS=0
	mkdir -p "$d"
	J_ANSWER=open
	for k in $(seq "$MAX_PAIRS"); do
		if [ $((RANDOM & 1)) -eq 0 ]; then order="a b"; else order="b a"; fi
		for side in $order; do
			[ "${BPFBENCH_STDERR_TTY:-0}" != 1 ] || [ -n "$QUIET" ] ||
				progress "[$what, pair $k/$MAX_PAIRS, $((SECONDS - t0)) s] run of $([ "$side" = a ] && echo "$sa" || echo "$sb")"
			if [ "$side" = a ]; then
				run_side "$ia" "$sa" "$d/a-$k.json"
			else
				run_side "$ib" "$sb" "$d/b-$k.json"
			fi
			st=$?
			if [ $st -ne 0 ]; then
				progress_end
				{ echo "==== run $k of $side ($what) failed (exit $st):"; cat "$d/$side-$k.json.err"; } >>"$LOG"
				M_FAIL="run $k of $([ "$side" = a ] && echo "$sa" || echo "$sb") ($what) failed (exit $st): $(grep -v 'no KVM here' "$d/$side-$k.json.err" | tail -1)"
				M_STATUS=$st
				M_SECS=$((SECONDS - t0))
				return 1
			fi
		done
		M_PAIRS=$k
		# --metric NAME: one the runs have, said after the first pair, not the third
		if [ "$k" -eq 1 ] && [ -n "$METRIC" ] && [ -n "${CHECK_METRIC:-}" ]; then
			python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))["runs"][0]["metrics"]
if sys.argv[2] not in m:
    sys.exit(", ".join(m))' "$d/a-1.json" "$METRIC" 2>"$d/metrics" ||
				die "${WORDS[0]}'s results have no metric '$METRIC' (they have: $(cat "$d/metrics"))" 2
		fi
		[ "$k" -ge "$PAIRS" ] || continue
		judge "$d" "$mode" "$sa" "$sb" "$k"
		if [ -n "$VERBOSE" ] && [ -z "$QUIET" ]; then
			progress_end
			printf '[%s, pair %d/%d, %d s] %s/%s %s: %s\n' "$what" "$k" "$MAX_PAIRS" $((SECONDS - t0)) \
				"$sb" "$sa" "$(fmt_ratio "$J_RATIO" "$J_LO" "$J_HI")" "$J_ANSWER" >&2
		fi
		[ "$J_ANSWER" = open ] || break
	done
	progress_end
	M_SECS=$((SECONDS - t0))
	return 0
}

# short HASH: the 12-character form the report uses
short() { printf '%s' "${1:0:12}"; }
subject() { git -C "$SRC" log -1 --format=%s "$1" 2>/dev/null | cut -c1-60; }
# fmt_ratio R LO HI: "−47.3% [−52.1, −41.9]" (the change in percent, its CI)
fmt_ratio() {
	awk -v r="$1" -v lo="$2" -v hi="$3" -v m="−" '
	function p(x) { x = (x - 1) * 100; return (x < 0 ? m : "+") sprintf("%.1f", x < 0 ? -x : x) }
	BEGIN { if (r == "nan" || r == "") print "no ratio"; else printf "%s%% [%s, %s]\n", p(r), p(lo), p(hi) }'
}
