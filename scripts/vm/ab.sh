#!/usr/bin/env bash
# bpfbench ab --kernel A --kernel B "ARGS": one command line of a benchmark
# run on two kernels, each run in a fresh VM (scripts/vm/run.sh), the pairs
# in random order (A B or B A), then compare's verdicts of B against A.
#
#   ab.sh --kernel A --kernel B [-r N] [--seed S] [--json FILE] [-q|-v]
#         [--noise PCT] [--alpha A] [--fail-on-regression PCT [--gate-unjudged pass|fail]]
#         [--normalized] [--FORMAT FILE...]
#         "ARGS" [OPTIONS]
#
# A kernel is a name of scripts/vm/kernels (7.3, 6.12, 6.1), a Debian package
# name, a vmlinuz path or a built kernel tree (./FILE, /DIR: run.sh).
# Without KVM both sides run on an emulated CPU: the verdicts then compare
# emulations, and the run says so.  -q and -v are compare's (anywhere);
# progress on stderr: on a terminal a line rewritten in place, else under -v
# a line per pair.  A kernel named (not a path) is fetched first, its
# download said (kernel.sh).  --json FILE must be a new name: bpfbench gives one in a private
# directory of its own and writes the user's file itself, on the host,
# through the checks every output of it has (src/orchestrate/vm.c).  Exit
# status as compare's; 2 bad usage; 125 no work directory; a failed run's
# own status.  --FORMAT FILE: a format of compare's verdicts, one of
# $BPFBENCH_VERDICT_FORMATS; $BPFBENCH_RUN_FORMATS are a run's, which a
# side may not have (bpfbench sets both from its list of formats).
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/vm/lib.sh
. "$HERE/lib.sh"
BIN=${BPFBENCH_BIN:-$HERE/../../build/bpfbench}
KERNELS=()
PAIRS=3
SEED=$(( $(date +%s) ^ $$ ))
JSON=
CMP=()
PROGRESS_LINES=
ARGS=
EXTRA=()	# options after the command line, for both sides (-w0 -d1 ...)

die() { echo "bpfbench: error: ab: $1" >&2; exit "${2:-1}"; }
usage() { sed -n '6,9s/^# \{0,3\}//p' "$0" | sed 's/^ab.sh/Usage: bpfbench ab/'; exit 0; }
val() { [ "$2" -ge 2 ] || die "$1 needs a value" 2; }
# whether --NAME is one of the formats listed in $2
is_format() { [[ " $2 " == *" ${1#--} "* ]]; }

while [ $# -gt 0 ]; do
	case $1 in
	-h|--help)	usage ;;
	--kernel)	val "$1" $#; KERNELS+=("$2"); shift 2 ;;
	--kernel=*)	KERNELS+=("${1#--kernel=}"); shift ;;
	-r|--runs)	val "$1" $#; [[ $2 =~ ^[1-9][0-9]*$ ]] && [ "$2" -le 100 ] ||
				die "-r: '$2' is not an integer in [1, 100]" 2
			PAIRS=$2; shift 2 ;;
	--seed)		val "$1" $#; [[ $2 =~ ^[0-9]+$ ]] || die "--seed: '$2' is not an integer" 2
			SEED=$2; shift 2 ;;
	--json)		val "$1" $#; JSON=$2; shift 2 ;;
	--noise|--alpha|--fail-on-regression|--gate-unjudged)
			val "$1" $#; CMP+=("$1" "$2"); shift 2 ;;
	--normalized)	CMP+=("$1"); EXTRA+=(--normalize); shift ;;	# both sides; compare judges on it
	-q|--quiet)	CMP+=("$1"); PROGRESS_LINES=; shift ;;
	-v|--verbose)	CMP+=("$1"); PROGRESS_LINES=1; shift ;;
	-*)		if is_format "$1" "${BPFBENCH_VERDICT_FORMATS:-}"; then	# compare writes it
				val "$1" $#; CMP+=("$1" "$2"); shift 2; continue
			fi
			# after the command line, as plain ab: options for both sides
			[ -n "$ARGS" ] || die "unknown argument '$1' (see 'bpfbench ab --help'; options for both sides go after \"ARGS\")" 2
			EXTRA+=("$1"); shift ;;
	*)		if [ -z "$ARGS" ]; then ARGS=$1; else EXTRA+=("$1"); fi	# else an option's value
			shift ;;
	esac
done
[ ${#KERNELS[@]} -eq 2 ] || die "give two kernels: --kernel A --kernel B" 2
[ -n "$ARGS" ] || die "give the command line to run on both: \"ARGS\"" 2
[ -x "$BIN" ] || die "no bpfbench at $BIN (BPFBENCH_BIN)"
read -ra WORDS <<<"$ARGS"
WORDS+=("${EXTRA[@]}")
for w in "${WORDS[@]}"; do
	if [[ $w == -r || $w == --runs* || $w == --sweep* ]] ||
	   is_format "${w%%=*}" "${BPFBENCH_RUN_FORMATS:-}"; then
		die "-r, --sweep and outputs go after the command line, not in '$ARGS'" 2
	fi
done
# Every file of ours, even the check's messages, in a private directory:
# a predictable name in /tmp would be one another user can plant a link or
# a FIFO at.
private_dir bpfbench-ab. || die "cannot make a work directory in ${TMPDIR:-/tmp}" 125
DIR=$PRIVATE_DIR
CHILD=
# A signal to us alone (bpfbench hands its own on) ends the VM of the run
# under way too: run.sh runs in the background so that the trap runs at once.
cleanup() {
	progress_end
	[ -n "$CHILD" ] && kill "$CHILD" 2>/dev/null && wait "$CHILD" 2>/dev/null
	rm -rf "$DIR"
}
trap cleanup EXIT
for s in INT TERM HUP; do
	trap "trap '' INT TERM HUP; trap - EXIT; cleanup; trap - $s; kill -$s \$\$" "$s"
done
# the command line must parse here before any VM boots
"$BIN" "${WORDS[@]}" --help >/dev/null 2>"$DIR/check" || { cat "$DIR/check" >&2; exit 2; }
EMULATED=
vm_accel "${BPFBENCH_QEMU:-qemu-system-x86_64}"
[ "$ACCEL_KIND" = kvm ] || EMULATED=1
[ -n "$EMULATED" ] && cat >&2 <<'WARN'
bpfbench: WARNING: no KVM here: both kernels run on an emulated CPU (QEMU TCG).
bpfbench: WARNING: the figures and verdicts compare emulations, not the kernels' real speed.
WARN

# The kernels named (not paths) fetched before the first boot: a download
# is said as it goes (run.sh's stderr is kept apart, below).  KDIRS: each
# side's kernel directory, "" for a path.
KDIRS=()
for k in "${KERNELS[@]}"; do
	case $k in
	*/*)	KDIRS+=("") ;;
	*)	bash "$HERE/kernel.sh" fetch "$k" >"$DIR/kdir" &
		CHILD=$!
		wait "$CHILD" || exit $?
		CHILD=
		KDIRS+=("$(cat "$DIR/kdir")") ;;
	esac
done

START=$SECONDS
# run_side K SIDE N: one run in a fresh VM; its JSON in $DIR/SIDE-N.json
run_side() {
	local k=$1 side=$2 n=$3 st
	# on a terminal: the pair, the time, the side under way
	[ "${BPFBENCH_STDERR_TTY:-0}" != 1 ] || progress "[pair $n/$PAIRS, $((SECONDS - START)) s] $side: kernel $k"
	bash "$HERE/run.sh" --kernel "$k" --timeout "${BPFBENCH_VM_TIMEOUT:-1800}" -- \
		"$BIN" -q "${WORDS[@]}" --json - >"$DIR/$side-$n.json" 2>"$DIR/$side-$n.err" &
	CHILD=$!
	wait "$CHILD"
	st=$?
	CHILD=
	if [ $st -ne 0 ]; then
		progress_end
		grep -v 'no KVM here' "$DIR/$side-$n.err" >&2
		echo "bpfbench: error: ab: run $n of $side (kernel $k) failed (exit $st)" >&2
		exit $st
	fi
}

RANDOM=$SEED
for n in $(seq "$PAIRS"); do
	if [ $((RANDOM & 1)) -eq 0 ]; then order="A B"; else order="B A"; fi
	for side in $order; do
		if [ $side = A ]; then run_side "${KERNELS[0]}" A "$n"; else run_side "${KERNELS[1]}" B "$n"; fi
	done
	# without a terminal, under -v: the pair done
	[ "${BPFBENCH_STDERR_TTY:-0}" = 1 ] || progress "[pair $n/$PAIRS, $((SECONDS - START)) s]"
done
progress_end

# Each side's runs as one run of N repetitions (each sample tagged with its
# run), the env of its kernel (merge_runs.py, shared with bisect.sh);
# compare matches the two by label.
if [ -n "$EMULATED" ]; then accel=tcg; else accel=kvm; fi
A_RUNS=() B_RUNS=()
for n in $(seq "$PAIRS"); do A_RUNS+=("$DIR/A-$n.json"); B_RUNS+=("$DIR/B-$n.json"); done
python3 "$HERE/merge_runs.py" --accel "$accel" \
	--out "$DIR/a.json" --spec "${KERNELS[0]}" "${A_RUNS[@]}" \
	--out "$DIR/b.json" --spec "${KERNELS[1]}" "${B_RUNS[@]}" || die "cannot merge the runs' JSON"
# --json: both sides in one document, each run labelled A or B with its env
[ -z "$JSON" ] || python3 - "$DIR" "$JSON" <<'PY' || die "cannot write the runs' JSON"
import json, os, sys
d, out = sys.argv[1], sys.argv[2]
sides = {}
for side in ("A", "B"):
    doc = json.load(open(f"{d}/{side.lower()}.json"))
    sides[side] = (doc["env"], doc["runs"][0], doc["schema"])
env = dict(sides["A"][0], kernels={s: {"spec": e["vm"]["kernel_spec"], "release": e["kernel"]}
                                  for s, (e, _, _) in sides.items()})
runs = [dict(r, label=s, env=e) for s, (e, r, _) in sides.items()]
# a new file only (O_EXCL, no link followed): never an existing one of someone else's
fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
with os.fdopen(fd, "w") as f:
    json.dump({"schema": sides["A"][2], "env": env, "runs": runs}, f, indent=2)
PY
ra=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["env"]["kernel"])' "$DIR/a.json")
rb=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["env"]["kernel"])' "$DIR/b.json")
echo "ab: ${WORDS[*]}, $PAIRS pairs in random order (seed $SEED), a fresh VM each run"
echo "VM: $ACCEL_TEXT ($(nproc 2>/dev/null || echo 2) vCPUs, 2048 MB)"
echo "  A: kernel ${KERNELS[0]}: $ra ($(kernel_desc "${KERNELS[0]}" "${KDIRS[0]}"))"
echo "  B: kernel ${KERNELS[1]}: $rb ($(kernel_desc "${KERNELS[1]}" "${KDIRS[1]}"))"
"$BIN" compare "$DIR/a.json" "$DIR/b.json" --match label --names A,B "${CMP[@]}"
