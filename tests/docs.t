#!/usr/bin/env bash
# The docs against the binary (scripts/check-docs.py reads its --help, every
# subcommand's and every benchmark's): every option README.md, doc/*.md and
# the man page name is one a --help lists, on a command line the command's
# own; every --help option is in doc/usage.md or the man page; doc/usage.md
# is what the tables write; the examples' lines fit 120 columns; README's
# commands run at -w0 -d1 with the shapes it shows. And the checker fails on
# a stale option planted in a copy of a doc, on a line too wide and on an
# example whose output no longer has the shape shown.
source "$(dirname "$0")/lib.sh"

ROOT=$(cd "$(dirname "$0")/.." && pwd)
check() { python3 "$ROOT/scripts/check-docs.py" "$BPFBENCH" "$@" >"$TMPD/check.out" 2>"$TMPD/check.err"; }

check
ok $? "README.md, doc/*.md and the man page name only options of the binary, each --help option is documented, examples fit 120 columns" ||
	diag "$(cat "$TMPD/check.err")"

"$BPFBENCH" gen-usage "$ROOT/doc/usage.md.in" >"$TMPD/usage.md" && cmp -s "$TMPD/usage.md" "$ROOT/doc/usage.md"
ok $? "doc/usage.md is what the option and subcommand tables write (make usage-md)" ||
	diag "$(diff "$ROOT/doc/usage.md" "$TMPD/usage.md" | head -20)"
for o in db profile --record --counters --profile --profile-freq --folded --flame --verifier-stats \
	 --script --names --name; do
	grep -q -- "\`$o[ \`]\|^### $o\$" "$ROOT/doc/usage.md" || missing+=" $o"
done
[ -z "${missing:-}" ]
ok $? "doc/usage.md has db, profile and the options the issue found missing" || diag "missing:$missing"

# ---- planted: the checker must fail ----

cp "$ROOT/README.md" "$TMPD/README.md"
check --doc "$TMPD/README.md"
ok $? "a copy of README.md passes as it is" || diag "$(cat "$TMPD/check.err")"
printf '\nOr `bpfbench noop --no-such-option 3`, a stale option.\n' >>"$TMPD/README.md"
check --doc "$TMPD/README.md"
[ $? -eq 1 ] && grep -q -- "README.md:[0-9]*: --no-such-option is in no --help" "$TMPD/check.err"
ok $? "a stale option planted in prose: the checker fails, naming it and its line" ||
	diag "$(cat "$TMPD/check.err")"

cp "$ROOT/README.md" "$TMPD/README.md"
printf '\n```\n$ bpfbench compare old.json new.json --precision 2\n```\n' >>"$TMPD/README.md"
check --doc "$TMPD/README.md"
[ $? -eq 1 ] && grep -q -- "--precision is not an option of bpfbench compare" "$TMPD/check.err"
ok $? "a global option on compare's command line (its --help has none such): the checker fails" ||
	diag "$(cat "$TMPD/check.err")"

cp "$ROOT/README.md" "$TMPD/README.md"
printf '\n```\nSummary: %0130d\n```\n' 0 >>"$TMPD/README.md"
check --doc "$TMPD/README.md"
[ $? -eq 1 ] && grep -q "an example line of 139 columns" "$TMPD/check.err"
ok $? "an example line of 139 columns: the checker fails" || diag "$(cat "$TMPD/check.err")"

# ---- README's commands ----

need_bpf
check --examples
ok $? "README's commands run at -w0 -d1, and their output has the shapes shown" ||
	diag "$(cat "$TMPD/check.out" "$TMPD/check.err")"
grep -q "^# ran: bpfbench bpf-loop -w0 -d1 " "$TMPD/check.out" && grep -q "^# ran: bpfbench compare " "$TMPD/check.out" &&
	grep -q "^# ran: bpfbench db changes" "$TMPD/check.out"
ok $? "... a run, compare and db among them" || diag "$(cat "$TMPD/check.out")"

# an example whose shape the output lost: the Summary without its ±
mkdir -p "$TMPD/root"
printf '```\n$ bpfbench noop -w0 -d1\nSummary: throughput 1.000 M ops/s\n```\n' >"$TMPD/root/README.md"
check --examples --root "$TMPD/root"
[ $? -eq 1 ] && grep -q "no line has the shape of 'Summary: throughput 1.000 M ops/s'" "$TMPD/check.err"
ok $? "an example whose Summary shape is not the output's: the checker fails" || diag "$(cat "$TMPD/check.err")"

done_testing
