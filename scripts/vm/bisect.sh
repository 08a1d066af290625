#!/usr/bin/env bash
# bpfbench bisect: the commit between a good and a bad kernel commit that
# moved a benchmark's figure, each commit built and measured against good.
#
#   bisect.sh --good REV --bad REV [--tree DIR] [--work DIR] [--build CMD]
#             [--config FILE] [--pairs N] [--max-pairs M] [--threshold PCT]
#             [--metric NAME] [--seed S] [--json FILE] [--record [--db DB]]
#             [-q|-v] -- BENCH [ARGS...]          (or "BENCH ARGS", one word)
#
# The user's tree (--tree, default the current directory: a clean git work
# tree of a kernel) is only read: git bisect runs in a clone of it in the
# work directory (--work, default $XDG_CACHE_HOME/bpfbench/bisect/NAME-HASH,
# else ~/.cache/...: a new or empty directory, which bisect marks as its own
# with a file .bpfbench-bisect; one that holds anything else, / and a home
# are refused, exit 2), which keeps src/ (git clone --local --no-checkout of
# the tree, fetched again on the next run), build/ (the O= directory, kept:
# builds are incremental), images/HASH (each commit's image, built once),
# log (every build's and git's output) and the last report (report,
# report.json).  Each run of a side is scripts/vm/run.sh --kernel IMAGE --
# bpfbench -q ARGS --json -, as ab.sh runs it; a side's runs are merged by
# merge_runs.py and compared by bpfbench compare --paired.
#
# First good and bad are built and measured in pairs (each pair's order
# drawn at random, --seed), --pairs (3) and then one more at a time up to
# --max-pairs (8), until compare's verdict on bad/good in the metric
# (--metric, default the run's first) is a change beyond its noise band
# (judge(), bisect-lib.sh); else there is nothing to bisect (exit 1).
# A step's commit is then bad when the CI of step/good lies wholly beyond
# --threshold PCT (50) of that change, good when it lies wholly short of
# it, and skipped when it still straddles it after --max-pairs, or when
# its build fails.  The report goes to stdout (lines of at most 120
# columns); progress to stderr: a line per step, under -v a line per pair,
# on a terminal the pair in a line rewritten in place; -q: the answer
# line alone.  --record records the first bad commit's and its parent's
# merged results into the history (bpfbench db record [--db DB]), whose
# database is opened (db record --check) before anything is built.
#
# --build CMD runs through sh -c in src/ with BPFBENCH_SRC (src/) and
# BPFBENCH_BUILD (build/) set, and must leave the image at
# $BPFBENCH_BUILD/arch/x86/boot/bzImage; without it the first build merges
# the runner's fragment (bpfbench.config) into --config FILE or else
# x86_64_defconfig + kvm_guest.config, once, and each build is
# make olddefconfig && nice make -j$(nproc) bzImage.
# Test hook: with BPFBENCH_BISECT_RUN set, a run is instead
# "$BPFBENCH_BISECT_RUN" IMAGE ARGS..., which prints the run's result JSON
# on stdout (tests/bisect.t; no VM is booted).
# Exit status: 0 the first bad commit found, 1 an error (a build of good or
# bad failed, a run failed) or nothing to bisect, 2 bad usage, a tree, a
# work directory or --record's database refused, 3 the bisection ended
# among skipped commits, or the commit it ended on is unconfirmed (its CI
# against its parent includes no change): the candidates listed, none
# named, nothing recorded; 125 the work directory or the VM runner failed;
# 130, 143 and 129
# after SIGINT, SIGTERM and SIGHUP (the builds and runs under way killed,
# the clone's bisection reset).
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/vm/lib.sh
. "$HERE/lib.sh"
# git must act on the repositories named, whatever the caller's environment says
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY GIT_ALTERNATE_OBJECT_DIRECTORIES \
	GIT_CEILING_DIRECTORIES
export LC_ALL=C

# die MSG [STATUS]: one line, exit STATUS (1); in a step, MSG and STATUS go to
# the bisection (RUNDIR/fatal) and git bisect run is stopped (exit 200)
die() {
	progress_end
	if [ -n "${IN_STEP:-}" ]; then
		printf '%s\n%s\n' "${2:-1}" "$1" >"$RUNDIR/fatal"
		exit 200
	fi
	echo "bpfbench: error: bisect: $1" >&2
	exit "${2:-1}"
}
usage() { sed -n '5,8s/^# \{0,3\}//p' "$0" | sed 's/^bisect.sh/Usage: bpfbench bisect/'; exit 0; }
val() { [ "$2" -ge 2 ] || die "$1 needs a value" 2; }
# say TEXT: a progress line on stderr (not under -q)
say() { [ -n "${QUIET:-}" ] || { progress_end; printf '%s\n' "$1" >&2; }; }
num_in() {	# num_in OPT VALUE LO HI: an integer in [LO, HI]
	[[ $2 =~ ^[0-9]+$ ]] && [ "$2" -ge "$3" ] && [ "$2" -le "$4" ] ||
		die "$1: '$2' is not an integer in [$3, $4]" 2
}

# ---- what a step (git bisect run) and the bisection share ----
# shellcheck source=scripts/vm/bisect-lib.sh
. "$HERE/bisect-lib.sh"

# ---- a step: run by git bisect run in src/, the commit checked out ----
step_main() {
	local state=$1 h n ans code taken
	# shellcheck source=/dev/null
	. "$state" || exit 200
	IN_STEP=1
	exec 2>&3	# our lines to the user's stderr (git's own go to the log)
	h=$(git rev-parse HEAD) || exit 200
	mapfile -t taken <"$RUNDIR/steps"
	n=$((${#taken[@]} + 1))
	RANDOM=$((SEED + n))
	say "bisect: step $n: $(short "$h") \"$(subject "$h")\": building"
	if ! build_commit "$h" "step $n"; then
		printf '%s\t%s\t0\t0\tskip-build\tnan\tnan\tnan\t-\n' "$h" "$B_SECS" >>"$RUNDIR/steps"
		say "bisect: step $n: $(short "$h"): the build failed after $B_SECS s: skipped (log: $LOG)"
		exit 125
	fi
	if ! measure "$RUNDIR/m$n" "$GOOD_IMG" "$(short "$GOOD")" "$IMG" "$(short "$h")" step "step $n"; then
		code=125
		case $M_STATUS in 124|125) ;; *) code=1 ;; esac
		printf '%s\n%s\n' "$code" "step $n ($(short "$h")): $M_FAIL" >"$RUNDIR/fatal"
		exit 200
	fi
	case $J_ANSWER in
	bad)	ans=bad; code=1 ;;
	good)	ans=good; code=0 ;;
	*)	ans=skip-noise; code=125 ;;
	esac
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\tm%s\n' "$h" "$B_SECS" "$M_SECS" "$M_PAIRS" "$ans" \
		"$J_RATIO" "$J_LO" "$J_HI" "$n" >>"$RUNDIR/steps"
	say "bisect: step $n: $(short "$h"): $ans ($(fmt_ratio "$J_RATIO" "$J_LO" "$J_HI") of good in $M_PAIRS pairs; build $B_SECS s${B_REUSED:+ (image reused)}, runs $M_SECS s)"
	exit $code
}

if [ "${1:-}" = --step ]; then
	[ $# -eq 2 ] || exit 200
	step_main "$2"
fi

# ---- the bisection ----
GOOD_REV='' BAD_REV='' TREE=. WORK='' BUILD_CMD='' CONFIG='' PAIRS=3 MAX_PAIRS=8 THRESHOLD=50
METRIC='' JSON='' RECORD='' DB='' QUIET='' VERBOSE='' ARGS=''
SEED=$(( $(date +%s) ^ $$ ))
WORDS=()
EXTRA=()
BIN=${BPFBENCH_BIN:-$HERE/../../build/bpfbench}
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help)	usage ;;
	--good)		val "$1" $#; GOOD_REV=$2; shift 2 ;;
	--bad)		val "$1" $#; BAD_REV=$2; shift 2 ;;
	--tree)		val "$1" $#; TREE=$2; shift 2 ;;
	--work)		val "$1" $#; WORK=$2; shift 2 ;;
	--build)	val "$1" $#; BUILD_CMD=$2; shift 2 ;;
	--config)	val "$1" $#; CONFIG=$2; shift 2 ;;
	--pairs)	val "$1" $#; num_in "$1" "$2" 2 100; PAIRS=$2; shift 2 ;;
	--max-pairs)	val "$1" $#; num_in "$1" "$2" 2 100; MAX_PAIRS=$2; shift 2 ;;
	--threshold)	val "$1" $#
			[[ $2 =~ ^[0-9]+(\.[0-9]+)?$ ]] && awk -v t="$2" 'BEGIN { exit !(t > 0 && t < 100) }' ||
				die "--threshold: '$2' is not a percentage in (0, 100)" 2
			THRESHOLD=$2; shift 2 ;;
	--metric)	val "$1" $#; METRIC=$2; shift 2 ;;
	--seed)		val "$1" $#; [[ $2 =~ ^[0-9]+$ ]] || die "--seed: '$2' is not an integer" 2
			SEED=$2; shift 2 ;;
	--json)		val "$1" $#; JSON=$2; shift 2 ;;
	--record)	RECORD=1; shift ;;
	--db)		val "$1" $#; DB=$2; shift 2 ;;
	-q|--quiet)	QUIET=1; shift ;;
	-v|--verbose)	VERBOSE=1; shift ;;
	--)		shift; WORDS=("$@"); break ;;
	-*)		# after "ARGS", as ab's: options of the benchmark
			[ -n "$ARGS" ] || die "unknown option '$1' (see 'bpfbench bisect --help'; the benchmark's go after --)" 2
			EXTRA+=("$1"); shift ;;
	*)		if [ -z "$ARGS" ]; then ARGS=$1; else EXTRA+=("$1"); fi
			shift ;;
	esac
done
if [ -n "$ARGS" ]; then
	[ ${#WORDS[@]} -eq 0 ] || die "give the benchmark either after -- or as one \"ARGS\", not both" 2
	read -ra WORDS <<<"$ARGS"
	WORDS+=("${EXTRA[@]}")
fi
[ -n "$GOOD_REV" ] && [ -n "$BAD_REV" ] || die "give both ends: --good REV --bad REV" 2
# --work DIR: bisect writes and removes in it, so never / nor a home
if [ -n "$WORK" ]; then
	w=$(realpath -m -- "$WORK")
	[ "$w" != / ] || die "--work $WORK: the root directory is never a work directory" 2
	for h in "${HOME:-}" "$(getent passwd "$(id -u)" | cut -d: -f6)" \
		"$([ -z "${SUDO_USER:-}" ] || getent passwd "$SUDO_USER" | cut -d: -f6)"; do
		[ -z "$h" ] || [ "$w" != "$(realpath -m -- "$h")" ] ||
			die "--work $WORK: a home directory ($h) is never a work directory" 2
	done
fi
[ ${#WORDS[@]} -gt 0 ] || die "give the benchmark to measure: -- BENCH [ARGS...]" 2
[ "$MAX_PAIRS" -ge "$PAIRS" ] || die "--max-pairs $MAX_PAIRS is below --pairs $PAIRS" 2
[ -z "$DB" ] || [ -n "$RECORD" ] || die "--db is where --record records: give --record" 2
for w in "${WORDS[@]}"; do
	case $w in --json*|--csv*|--md*|-r|--runs*|--sweep*|--record|--kernel*)
		die "-r, --sweep, --kernel, --record and outputs are not the benchmark's here ('$w')" 2 ;;
	esac
done
[ -x "$BIN" ] || die "no bpfbench at $BIN (BPFBENCH_BIN)"
if [ -n "$CONFIG" ]; then
	[ -f "$CONFIG" ] && [ -r "$CONFIG" ] || die "--config $CONFIG: no readable file" 2
	CONFIG=$(realpath -- "$CONFIG")
fi
[ -z "$CONFIG" ] || [ -z "$BUILD_CMD" ] || die "--config is for the default build: a --build CMD configures its own" 2
# (bpfbench bisect checks the user's --json before this script runs: FILE here is its own)
if [ -n "$JSON" ] && { [ -e "$JSON" ] || [ -L "$JSON" ]; }; then
	die "--json $JSON exists: give a new name" 2
fi

# The tree: a clean git work tree of a kernel, only read (no lock taken:
# git status without its optional index refresh)
[ -d "$TREE" ] || die "--tree $TREE: no such directory" 2
TOP=$(git -C "$TREE" rev-parse --show-toplevel 2>&1) || {
	# (git's own word where it is not "not a git repository": another user's tree, say)
	case $TOP in
	*"not a git repository"*) die "$TREE is not in a git work tree: bisect needs the kernel's git tree (--tree DIR)" 2 ;;
	*"dubious ownership"*)
		die "git refuses $TREE, another user's (its safe.directory): trust it with git config --global --add safe.directory DIR, or run bisect as its owner" 2 ;;
	*) die "git refuses $TREE: $(head -1 <<<"$TOP" | sed 's/^fatal: //')" 2 ;;
	esac
}
TOP=$(realpath -- "$TOP")
grep -qE '^VERSION *= *[0-9]+' "$TOP/Makefile" 2>/dev/null && [ -d "$TOP/kernel/bpf" ] ||
	die "$TOP is no kernel tree (no top Makefile with VERSION = or no kernel/bpf/): give the kernel's with --tree DIR" 2
dirty=$(git --no-optional-locks -C "$TOP" status --porcelain=v1 -z 2>/dev/null | tr '\0' '\n' | head -1) ||
	die "git status failed in $TOP" 2
[ -z "$dirty" ] ||
	die "the tree $TOP is not clean ('${dirty:3}' and maybe more): commit or stash first (git status)" 2
resolve() {	# resolve WHAT REV: the commit's full hash in the user's tree
	git -C "$TOP" rev-parse -q --verify "$2^{commit}" 2>/dev/null ||
		die "--$1 $2 is no commit of $TOP" 2
}
GOOD=$(resolve good "$GOOD_REV") || exit
BAD=$(resolve bad "$BAD_REV") || exit
[ "$GOOD" != "$BAD" ] || die "--good and --bad are the same commit ($(short "$GOOD")): nothing to bisect" 2
git -C "$TOP" merge-base --is-ancestor "$GOOD" "$BAD" ||
	die "--good $GOOD_REV ($(short "$GOOD")) is not an ancestor of --bad $BAD_REV ($(short "$BAD")): bisect needs good before bad" 2
NCOMMITS=$(git -C "$TOP" rev-list --count "$GOOD..$BAD")
# the benchmark's command line parses here, before anything is built
err=$("$BIN" "${WORDS[@]}" --help 2>&1 >/dev/null) || { printf '%s\n' "$err" >&2; exit 2; }
# --record's database opened as db record opens it (made if new): a history that
# cannot take the answer is said now, not after hours of bisection
if [ -n "$RECORD" ]; then
	err=$("$BIN" db record --check ${DB:+--db "$DB"} 2>&1 >/dev/null) ||
		die "--record${DB:+ --db $DB}: $(head -1 <<<"$err" | sed 's/^bpfbench: error: //')" 2
fi

# The work directory: ours alone, its src/ a clone of this tree
if [ -z "$WORK" ]; then
	WORK=${XDG_CACHE_HOME:-$HOME/.cache}/bpfbench/bisect/$(basename "$TOP")-$(printf '%s' "$TOP" | sha256sum | cut -c1-8)
fi
[[ $WORK == /* ]] || WORK=$PWD/$WORK
case $(realpath -m -- "$WORK")/ in
"$TOP"/*) die "the work directory $WORK is inside the tree $TOP, which bisect must leave as it is: give one outside" 2 ;;
esac
SRC=$WORK/src
# what bisect made or adopted empty: only there does it replace and remove
MARK=$WORK/.bpfbench-bisect
if [ -e "$WORK" ] || [ -L "$WORK" ]; then
	[ -d "$WORK" ] && [ ! -L "$WORK" ] && [ "$(stat -c %u "$WORK")" = "$(id -u)" ] &&
		(( (8#$(stat -c %a "$WORK") & 8#022) == 0 )) ||
		die "the work directory $WORK is not a directory of ours that only we can write: refused" 125
	{ [ -f "$MARK" ] && [ ! -L "$MARK" ]; } || [ -z "$(ls -A -- "$WORK" 2>/dev/null)" ] ||
		die "the work directory $WORK holds files bisect did not make (no .bpfbench-bisect in it): give a new or empty directory" 2
fi
if [ -e "$SRC" ] || [ -L "$SRC" ]; then
	origin=$(git --git-dir="$SRC/.git" config --get remote.origin.url 2>/dev/null)
	[ "$origin" = "$TOP" ] ||
		die "the work directory $WORK holds a clone of ${origin:-something else}, not of $TOP: give another --work" 2
fi
mkdir -p -- "$(dirname "$WORK")" 2>/dev/null && { [ -d "$WORK" ] || mkdir -m 0700 -- "$WORK"; } 2>/dev/null &&
	{ [ -f "$MARK" ] || echo "a work directory of bpfbench bisect: it replaces and removes what is here" >"$MARK"; } &&
	mkdir -p -- "$WORK/images" "$WORK/build" 2>/dev/null ||
	die "cannot make the work directory $WORK" 125
exec {LOCK}>>"$WORK/lock" && flock -n "$LOCK" ||
	die "another bisect is using $WORK (its lock is held)" 125
LOG=$WORK/log
BUILDDIR=$WORK/build
RUNDIR=$WORK/run
rm -rf -- "$RUNDIR" && mkdir -p -- "$RUNDIR" && : >"$RUNDIR/steps" ||
	die "cannot write in the work directory $WORK" 125
printf '\n==== %s: bpfbench bisect --good %s --bad %s in %s -- %s\n' "$(date -u +%FT%TZ)" "$GOOD" "$BAD" \
	"$TOP" "${WORDS[*]}" >>"$LOG" || die "cannot write $LOG" 125
DEFAULT_BUILD=
if [ -z "$BUILD_CMD" ]; then
	DEFAULT_BUILD=1
	# shellcheck disable=SC2016,SC2089	# for sh -c to expand
	BUILD_CMD='make -C "$BPFBENCH_SRC" O="$BPFBENCH_BUILD" olddefconfig && nice make -C "$BPFBENCH_SRC" O="$BPFBENCH_BUILD" -j$(nproc) bzImage'
	[ -z "$CONFIG" ] || [ ! -f "$WORK/build/.config" ] ||
		echo "bpfbench: warning: bisect: $WORK/build/.config exists, --config $CONFIG is not used (remove it, or give a new --work)" >&2
fi
# the images are a build command's: another command's are not this one's
if [ -f "$WORK/images/.build" ] && [ "$(cat "$WORK/images/.build")" != "$BUILD_CMD" ]; then
	say "bisect: the images in $WORK/images were built by another --build command: built again"
	find "$WORK/images" -mindepth 1 -maxdepth 1 -type f ! -name .build -delete
fi
printf '%s\n' "$BUILD_CMD" >"$WORK/images/.build" || die "cannot write in the work directory $WORK" 125

BISECTING=
# shellcheck disable=SC2317	# called from the traps
cleanup() {
	progress_end
	kill_group "$CHILD"
	CHILD=
	if [ -n "$BISECTING" ]; then
		# what a killed git left: nothing else uses our clone (the lock)
		rm -f "$SRC/.git/index.lock"
		git -C "$SRC" bisect reset >>"$LOG" 2>&1 || rm -f "$SRC"/.git/BISECT_* "$SRC/.git/refs/bisect"/*
		BISECTING=
	fi
}
trap cleanup EXIT
for s in INT TERM HUP; do
	# shellcheck disable=SC2064	# $s now, the rest when signalled
	trap "trap '' INT TERM HUP; trap - EXIT; cleanup; trap - $s; kill -$s \$\$" "$s"
done

# src/: our clone, fetched again if it is there (both ends by hash: a
# commit no branch holds is fetched too)
T0=$SECONDS
if [ -d "$SRC/.git" ]; then
	say "bisect: fetching $TOP into $SRC"
	run_bg git -C "$SRC" fetch -q origin >>"$LOG" 2>&1 ||
		die "cannot fetch $TOP into $SRC (see $LOG)" 125
else
	# (no src/ here: one that is no clone of this tree was refused above)
	say "bisect: cloning $TOP into $SRC"
	run_bg git clone -q --local --no-checkout -- "$TOP" "$SRC" >>"$LOG" 2>&1 ||
		die "cannot clone $TOP into $SRC (see $LOG)" 125
fi
for h in "$GOOD" "$BAD"; do
	git -C "$SRC" cat-file -e "$h^{commit}" 2>/dev/null ||
		run_bg git -C "$SRC" fetch -q origin "$h" >>"$LOG" 2>&1 ||
		die "cannot fetch $h from $TOP into $SRC (see $LOG)" 125
done
# a bisection a killed run of ours left behind
git -C "$SRC" bisect reset >>"$LOG" 2>&1

if [ -n "${BPFBENCH_BISECT_RUN:-}" ]; then
	ACCEL_NAME=hook
	ACCEL_TEXT="no VM: runs by BPFBENCH_BISECT_RUN ($BPFBENCH_BISECT_RUN), a test hook"
else
	vm_accel "${BPFBENCH_QEMU:-qemu-system-x86_64}"
	ACCEL_NAME=$ACCEL_KIND
	[ "$ACCEL_KIND" = kvm ] || cat >&2 <<'WARN'
bpfbench: WARNING: no KVM here: every kernel runs on an emulated CPU (QEMU TCG).
bpfbench: WARNING: a step's answer then rests on emulated figures (doc/kernel-dev.md).
WARN
fi
RANDOM=$SEED

# good and bad: built, then measured until they differ
for end in good bad; do
	if [ $end = good ]; then h=$GOOD; else h=$BAD; fi
	say "bisect: building $end $(short "$h") \"$(subject "$h")\""
	build_commit "$h" "$end" ||
		die "the build of $end ($(short "$h")) failed after $B_SECS s: see $LOG" 1
	if [ $end = good ]; then
		GOOD_IMG=$IMG GOOD_BUILD_S=$B_SECS
	else
		BAD_IMG=$IMG BAD_BUILD_S=$B_SECS
	fi
done
say "bisect: measuring bad against good"
CHECK_METRIC=1
measure "$RUNDIR/m0" "$GOOD_IMG" "$(short "$GOOD")" "$BAD_IMG" "$(short "$BAD")" differ "good and bad" || {
	case $M_STATUS in 124|125) die "$M_FAIL" 125 ;; *) die "$M_FAIL" 1 ;; esac
}
CHECK_METRIC=
METRIC=$J_METRIC
UNIT=$J_UNIT
INIT_PAIRS=$M_PAIRS INIT_RUNS_S=$M_SECS
CHANGE="$J_RATIO $J_LO $J_HI"
if [ "$J_ANSWER" != differ ]; then
	case $J_VERDICT in
	faster|slower|better|worse|higher|lower) why="compare: $J_VERDICT, within its ±${J_NOISE}% noise" ;;
	*) why="compare: ${J_VERDICT:--}" ;;
	esac
	die "good and bad do not differ on $METRIC at $M_PAIRS pairs ($(fmt_ratio "$J_RATIO" "$J_LO" "$J_HI") bad/good, $why): nothing to bisect" 1
fi
# the threshold: THRESHOLD% of the change good -> bad, on bad's side
read -r SIGN THR_RATIO <<<"$(awk -v r="$J_RATIO" -v t="$THRESHOLD" 'BEGIN {
	printf "%d %.10g\n", r < 1 ? -1 : 1, 1 + (r - 1) * t / 100 }')"
line="bisect: ${WORDS[0]} $METRIC $(fmt_ratio "$J_RATIO" "$J_LO" "$J_HI") good→bad in $M_PAIRS pairs; a step is bad past $(fmt_ratio "$THR_RATIO" "$THR_RATIO" "$THR_RATIO" | cut -d' ' -f1)"
[ -n "$QUIET" ] || echo "$line"
echo "$line" >>"$LOG"

# git bisect run in our clone, a step (this script, --step) per commit
: >"$RUNDIR/fatal"
if [ "$NCOMMITS" -gt 1 ]; then
	# shellcheck disable=SC2090	# the values as they are, for the step to source
	declare -p WORK SRC BUILDDIR RUNDIR LOG BIN WORDS BUILD_CMD DEFAULT_BUILD CONFIG GOOD BAD GOOD_IMG \
		METRIC SIGN THR_RATIO PAIRS MAX_PAIRS SEED QUIET VERBOSE ACCEL_NAME >"$RUNDIR/state"
	BISECTING=1
	git -C "$SRC" bisect start "$BAD" "$GOOD" >>"$LOG" 2>&1 || die "git bisect start failed in $SRC (see $LOG)"
	run_bg env -C "$SRC" git bisect run bash "$HERE/bisect.sh" --step "$RUNDIR/state" 3>&2 >>"$LOG" 2>&1
	if [ -s "$RUNDIR/fatal" ]; then
		{ read -r code; read -r msg; } <"$RUNDIR/fatal"
		die "$msg: the bisection stopped (see $LOG)" "$code"
	fi
	FINAL_BAD=$(git -C "$SRC" rev-parse -q --verify refs/bisect/bad) || die "git bisect run stopped with no bad commit (see $LOG)"
	mapfile -t GOODS < <(git -C "$SRC" for-each-ref --format='%(refname)' 'refs/bisect/good-*')
	mapfile -t CANDS < <(git -C "$SRC" rev-list "$FINAL_BAD" --not "${GOODS[@]}" "$GOOD")
	mapfile -t SKIPS < <(git -C "$SRC" for-each-ref --format='%(objectname)' 'refs/bisect/skip-*')
	git -C "$SRC" bisect log >"$RUNDIR/bisect-log" 2>/dev/null
	git -C "$SRC" bisect reset >>"$LOG" 2>&1
	BISECTING=
	if [ ${#CANDS[@]} -gt 1 ]; then
		for c in "${CANDS[@]}"; do
			[ "$c" = "$FINAL_BAD" ] || printf '%s\n' "${SKIPS[@]}" | grep -qx "$c" ||
				die "git bisect run stopped before the end: $(short "$c") untested (see $LOG)"
		done
	fi
else
	FINAL_BAD=$BAD
	CANDS=("$BAD")
fi

# The first bad commit and its parent, measured: the parent's figures from
# its own step (or good's, beside the first bad commit's, when it is good),
# else a measurement of the two side by side
session_of() {	# session_of HASH: the session that measured HASH against good, or ""
	[ "$1" = "$BAD" ] && { echo m0; return; }
	awk -F '\t' -v h="$1" '$1 == h && $9 != "-" { print $9 }' "$RUNDIR/steps" | tail -1
}
FIRST='' PARENT='' P_FILE='' X_FILE='' PAIR_CMP='' PAIR_NOTE=''
if [ ${#CANDS[@]} -eq 1 ]; then
	FIRST=$FINAL_BAD
	PARENT=$(git -C "$SRC" rev-parse "$FIRST^1")
	sx=$(session_of "$FIRST")
	sp=$(session_of "$PARENT")
	if [ "$PARENT" = "$GOOD" ]; then
		P_FILE=$RUNDIR/$sx/a.json X_FILE=$RUNDIR/$sx/b.json PAIR_CMP=$RUNDIR/$sx/cmp.json PAIR_NOTE=paired
	elif [ -n "$sp" ]; then
		# two sessions' runs: an unpaired comparison (compare's drift allowed for)
		mkdir -p "$RUNDIR/final"
		P_FILE=$RUNDIR/$sp/b.json X_FILE=$RUNDIR/$sx/b.json PAIR_CMP=$RUNDIR/final/cmp.json PAIR_NOTE=unpaired
		"$BIN" compare "$P_FILE" "$X_FILE" --match label --names a,b --json "$PAIR_CMP" -q \
			>/dev/null 2>>"$LOG" || [ -s "$PAIR_CMP" ] || die "compare failed on the first bad commit and its parent"
	else
		say "bisect: measuring the first bad commit $(short "$FIRST") against its parent $(short "$PARENT")"
		if build_commit "$PARENT" parent; then
			RANDOM=$((SEED + 1000))
			measure "$RUNDIR/final" "$IMG" "$(short "$PARENT")" "$WORK/images/$FIRST" "$(short "$FIRST")" \
				differ "parent and first bad" || {
				case $M_STATUS in 124|125) die "$M_FAIL" 125 ;; *) die "$M_FAIL" 1 ;; esac
			}
			P_FILE=$RUNDIR/final/a.json X_FILE=$RUNDIR/final/b.json PAIR_CMP=$RUNDIR/final/cmp.json PAIR_NOTE=paired
		else
			P_FILE=$RUNDIR/$sx/a.json X_FILE=$RUNDIR/$sx/b.json PAIR_CMP=$RUNDIR/$sx/cmp.json
			PAIR_NOTE="against good: the parent's build failed"
		fi
	fi
fi

# The report: text on stdout, JSON in the work directory (and --json)
CONFIG_FILE=$BUILDDIR/.config
VERSION=$("$BIN" --version 2>/dev/null | head -1)
export R_SRC=$SRC R_WORK=$WORK R_LOG=$LOG R_RUNDIR=$RUNDIR R_BENCH="${WORDS[*]}" R_METRIC=$METRIC \
	R_UNIT=$UNIT R_GOOD=$GOOD R_BAD=$BAD R_NCOMMITS=$NCOMMITS R_CHANGE=$CHANGE R_THRESHOLD=$THRESHOLD \
	R_THR_RATIO=$THR_RATIO R_INIT_PAIRS=$INIT_PAIRS R_INIT_RUNS_S=$INIT_RUNS_S \
	R_GOOD_BUILD_S=$GOOD_BUILD_S R_BAD_BUILD_S=$BAD_BUILD_S R_FIRST=$FIRST R_PARENT=$PARENT \
	R_P_FILE=$P_FILE R_X_FILE=$X_FILE R_PAIR_CMP=$PAIR_CMP R_PAIR_NOTE=$PAIR_NOTE \
	R_CANDS="${CANDS[*]}" R_TIME_S=$((SECONDS - T0)) R_ACCEL_NAME=$ACCEL_NAME R_ACCEL_TEXT=$ACCEL_TEXT \
	R_CONFIG=$CONFIG_FILE R_VERSION=$VERSION R_SEED=$SEED R_PAIRS=$PAIRS R_MAX_PAIRS=$MAX_PAIRS \
	R_QUIET=$QUIET R_TREE=$TOP R_BUILD_CMD=$BUILD_CMD
python3 "$HERE/bisect_report.py" "$WORK/report" "$WORK/report.json" ${JSON:+"$JSON"}
st=$?
# 3: the commit the steps named is unconfirmed against its parent (the report says so)
case $st in 0|3) ;; *) die "cannot write the report (see $WORK)" ;; esac
[ -n "$FIRST" ] || st=3
if [ -n "$RECORD" ] && [ "$st" -eq 0 ]; then
	"$BIN" db record ${DB:+--db "$DB"} ${QUIET:+-q} "$P_FILE" "$X_FILE" || st=$?
fi
exit $st
