#!/usr/bin/env bash
# Packaging: --version, the shell completions and the man page (both made
# from the parser's tables, so they are checked against what the binary
# itself says: --list, --help, suite --list), make install / uninstall.
source "$(dirname "$0")/lib.sh"

ROOT=$(cd "$(dirname "$0")/.." && pwd)
DOCS="$ROOT/$BUILD_DIR/doc"

# ---- --version ----

run --version
re='^bpfbench [0-9][^ ]* \(git [^ ,]+, libbpf [0-9]+\.[0-9]+\)$'
[ "$RC" -eq 0 ] && [ -z "$ERR" ] && [[ $OUT =~ $re ]]
ok $? "--version: one line 'bpfbench V (git C, libbpf X.Y)', exit 0" ||
	diag "rc=$RC out=$OUT err=$ERR"
version=$OUT

want=$(sed -n 's/^VERSION[[:space:]]*:=[[:space:]]*//p' "$ROOT/Makefile")
[[ $version == "bpfbench $want "* ]]
ok $? "--version names the Makefile's VERSION ($want)" || diag "$version"

lib=$(dpkg-query -W -f='${Version}' libbpf1 2>/dev/null |
      sed -E 's/^[0-9]+://; s/^([0-9]+\.[0-9]+).*/\1/')
if [ -n "$lib" ]; then
	[[ $version == *"libbpf $lib)" ]]
	ok $? "--version gives the libbpf it runs with ($lib, from dpkg)" || diag "$version"
else
	skip "libbpf1 is not a Debian package here"
fi

run -V
[ "$RC" -eq 0 ] && [ "$OUT" = "$version" ]
ok $? "-V prints the same line" || diag "rc=$RC out=$OUT"

run --version extra
[ "$RC" -eq 2 ] && [ -z "$OUT" ] && [ "$(grep -c . <<<"$ERR")" -eq 1 ] && grep -q extra <<<"$ERR"
ok $? "--version with an argument: exit 2, one line naming it" || diag "rc=$RC err=$ERR"

# ---- bash completion ----

run completion bash
cmp -s <(printf '%s\n' "$OUT") "$DOCS/bpfbench.bash"
ok $? "the build's bash completion is what 'completion bash' prints now"

run completion fish
[ "$RC" -eq 2 ] && [ "$(grep -c . <<<"$ERR")" -eq 1 ]
ok $? "completion of an unknown shell: exit 2, one line" || diag "rc=$RC err=$ERR"

# comp WORD... : what the bash completion offers for the last word, sorted, one a line
comp() {
	bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		 _bpfbench; printf "%s\n" "${COMPREPLY[@]}" | sort' \
		comp "$DOCS/bpfbench.bash" bpfbench "$@"
}
# Option names from a --help text, sorted.
help_opts() { grep -oE '^ +(-[a-zA-Z], )?--[a-zA-Z0-9_-]+' | sed 's/.*--/--/' | sort; }
same() {	# same DESCRIPTION WANT GOT
	[ "$2" = "$3" ]
	ok $? "$1" || diag "want: $(echo $2)" "got:  $(echo $3)"
}

benchs=$("$BPFBENCH" --list | awk '{ print $1 }' | sort)
# bhelp BENCH: its --help, read once (every check below reads it; under ASan
# each start of the binary costs a moment)
bhelp() {
	[ -f "$TMPD/help.$1" ] || "$BPFBENCH" "$1" --help >"$TMPD/help.$1" 2>/dev/null
	cat "$TMPD/help.$1"
}
suites=$("$BPFBENCH" suite --list | awk '{ print $1 }' | sort)
globals=$( ("$BPFBENCH" --help | help_opts; echo --version) | sort)
# The subcommands are what main() dispatches, as the script has them.
subcmds=$(comm -13 <(echo "$benchs") <(comp ""))

same "bash: a first word offers every benchmark of --list, and only subcommands besides" \
	"$benchs" "$(comm -12 <(echo "$benchs") <(comp ""))"
bad=
for s in compare completion plot probe suite; do
	grep -qx "$s" <<<"$subcmds" || bad+=" $s"
done
for s in $subcmds; do
	"$BPFBENCH" "$s" --help >/dev/null 2>&1 || bad+=" $s"
done
[ -z "$bad" ]
ok $? "bash: the subcommands include probe suite compare plot completion, all with --help" ||
	diag "missing or without --help:$bad"
same "bash: 'lpm-trie-' offers the lpm-trie benchmarks" \
	"$(grep '^lpm-trie-' <<<"$benchs")" "$(comp lpm-trie-)"
same "bash: '--' offers the global options of --help, and --version" "$globals" "$(comp --)"

bad=
for b in $benchs; do
	want=$( (printf '%s\n' "$globals"; bhelp "$b" | help_opts) | sort)
	[ "$(comp "$b" --)" = "$want" ] || bad+=" $b"
	# every option with choices {a|b} completes to exactly those
	while read -r opt choices; do
		[ "$(comp "$b" "$opt" "")" = "$(tr '|' '\n' <<<"$choices" | sort)" ] ||
			bad+=" $b:$opt"
	done < <(bhelp "$b" | sed -nE 's/^ +(--[a-z0-9_-]+) .*\{([^}]*)\}.*/\1 \2/p')
done
[ -z "$bad" ]
ok $? "bash: after each benchmark: its --help options, the global ones, each one's choices" ||
	diag "wrong for:$bad"

same "bash: --trigger's values" "$(printf '%s\n' auto fentry raw-tp test-run)" \
	"$(comp --trigger "")"
same "bash: --trigger=te (bash splits at '=')" "test-run" "$(comp --trigger = te)"
same "bash: a value is not taken for the benchmark (-d 5 bpf-loop --nr)" "--nr_loops" \
	"$(comp -d 5 bpf-loop --nr)"
same "bash: nor an attached one, after flags (-ap8 bpf-loop --nr)" "--nr_loops" \
	"$(comp -ap8 bpf-loop --nr)"
same "bash: a benchmark option before the benchmark (--map-type per)" \
	"$(printf '%s\n' percpu_array percpu_hash)" "$(comp --map-type per)"
same "bash: 'suite' offers every suite of 'suite --list'" "$suites" "$(comp suite "")"
same "bash: options after a suite name are the global ones (--tri)" "--trigger" \
	"$(comp suite quick --tri)"
same "bash: 'completion' offers the shells" "$(printf '%s\n' bash zsh)" "$(comp completion "")"
same "bash: probe's --json is a flag: options follow it" "$(printf '%s\n' --help --json)" \
	"$(comp probe --json --)"
grep -qx -- nr_loops <(comp plot x.json --x nr) && grep -qx -- producers <(comp plot x.json --x pro)
ok $? "bash: plot --x offers option names"
ls "$ROOT/tests/"*.t >/dev/null && [ "$(cd "$ROOT" && comp compare tests/ins)" = "tests/install.t" ]
ok $? "bash: compare takes files"

bad=
for s in $subcmds; do
	h=$("$BPFBENCH" "$s" --help 2>&1)
	for o in $(comp "$s" -); do
		[ "$o" = --help ] || { [ "$s" = suite ] && grep -qx -- "$o" <<<"$globals"; } && continue
		grep -q -- "$o" <<<"$h" || bad+=" $s:$o"
	done
done
[ -z "$bad" ]
ok $? "bash: every option offered for a subcommand is in its --help" || diag "not in --help:$bad"

# ---- zsh completion ----

if command -v zsh >/dev/null; then
	run completion zsh
	cmp -s <(printf '%s\n' "$OUT") "$DOCS/_bpfbench"
	ok $? "the build's zsh completion is what 'completion zsh' prints now"
	zsh -n "$DOCS/_bpfbench"
	ok $? "zsh: the script parses"
	# zcomp WORD...: the words the zsh completion hands to _describe (its
	# completion builtins stubbed: they only run inside a completion widget)
	zcomp() {
		zsh -f -c '_describe() { print -rl -- "${(@P)4%%:*}"; }
			   _files() { print -r -- "(files)"; }
			   compset() { :; }
			   f=$1; shift; words=("$@"); CURRENT=$#; source "$f"' \
			zcomp "$DOCS/_bpfbench" bpfbench "$@" | sort
	}
	same "zsh: a first word offers every benchmark and the subcommands" \
		"$(printf '%s\n' $benchs $subcmds | sort)" "$(zcomp "")"
	same "zsh: map-batch's options with the global ones" \
		"$( (printf '%s\n' "$globals"; "$BPFBENCH" map-batch --help | help_opts) | sort)" \
		"$(zcomp -p1 map-batch -)"
	same "zsh: --map-type=pe (zsh keeps '=' in the word)" \
		"$(printf '%s\n' array hash lru_hash percpu_array percpu_hash)" "$(zcomp map-batch --map-type=pe)"
	same "zsh: --json takes a file" "(files)" "$(zcomp bpf-loop --json "")"
else
	skip "no zsh (scripts/deps.sh installs it)"
fi

# ---- man page ----

man_text() { MANWIDTH=80 man --warnings -l "$1" 2>"$TMPD/man.err" | col -b; }

page=$(man_text "$DOCS/bpfbench.1")
[ -n "$page" ] && [ ! -s "$TMPD/man.err" ]
ok $? "man -l renders bpfbench.1 without a warning" || diag "$(cat "$TMPD/man.err")"

sections=$(grep -E '^[A-Z][A-Z ]+$' <<<"$page" | tr '\n' ,)
same "man: the sections, in order" \
	"NAME,SYNOPSIS,DESCRIPTION,SUBCOMMANDS,GLOBAL OPTIONS,BENCHMARKS,SUITES,OUTPUT,"`
	`"EXIT STATUS,ENVIRONMENT,FILES,EXAMPLES,SEE ALSO," \
	"$sections"

# section NAME: the rendered text of one section
section() { awk -v s="$1" '/^[A-Z][A-Z ]+$/ { on = ($0 == s); next } on' <<<"$page"; }
# entries NAME: what the section's indented lines hold, read once into LINE
# (a line of one word: "^ +WORD$") and HEAD (the word a line starts with,
# and the one after a short option, "-d, --duration": "^ +(-., )?WORD( |$)")
entries() {
	local kind w
	LINE=() HEAD=()
	while read -r kind w; do
		if [ "$kind" = L ]; then LINE[$w]=1; else HEAD[$w]=1; fi
	done < <(section "$1" | awk '/^ +[^ ]/ {
		sub(/^ +/, "")
		if ($0 !~ / /) print "L", $0
		match($0, /^[^ ]+/); print "H", substr($0, 1, RLENGTH)
		if (match($0, /^-., [^ ]+/)) print "H", substr($0, 5, RLENGTH - 4) }')
}
declare -A LINE HEAD
missing=
entries BENCHMARKS
for b in $benchs; do
	[ -n "${LINE[$b]:-}" ] || missing+=" $b"
	for o in $(bhelp "$b" | help_opts); do
		[ -n "${HEAD[$o]:-}" ] || missing+=" $b:$o"
	done
done
[ -z "$missing" ]
ok $? "man: every benchmark of --list and every option of its --help under BENCHMARKS" ||
	diag "missing:$missing"
missing=
entries "GLOBAL OPTIONS"
for o in $globals; do
	[ -n "${HEAD[$o]:-}" ] || missing+=" $o"
done
entries SUITES
for s in $suites; do
	[ -n "${LINE[$s]:-}" ] || missing+=" suite:$s"
done
entries SUBCOMMANDS
subtext=$(section SUBCOMMANDS)
for s in $subcmds; do
	[ -n "${HEAD[$s]:-}" ] || missing+=" $s"
	for o in $(comp "$s" -); do
		[ "$o" = --help ] || { [ "$s" = suite ] && grep -qx -- "$o" <<<"$globals"; } && continue
		[[ $subtext == *"$o"* ]] || missing+=" $s:$o"
	done
done
entries "EXIT STATUS"
for st in 0 1 2 4 128+N; do
	[ -n "${LINE[$st]:-}" ] || missing+=" exit:$st"
done
[ -z "$missing" ]
ok $? "man: every global option, suite, subcommand (and its options) and exit status" ||
	diag "missing:$missing"

# ---- make install / uninstall ----

# Installs what is built, never rebuilds it (-o): a sanitizer build stays one.
mk() { env -u MAKEFLAGS -u MAKELEVEL make -s -C "$ROOT" -o "$BUILD_DIR/bpfbench" \
	BUILD="$BUILD_DIR" "$@"; }

dest="$TMPD/root"
mk install DESTDIR="$dest" PREFIX=/usr >"$TMPD/install.out" 2>&1
ok $? "make install DESTDIR PREFIX=/usr" || diag "$(cat "$TMPD/install.out")"

want="0755 usr/bin/bpfbench
0644 usr/share/bash-completion/completions/bpfbench
0644 usr/share/bpfbench/vm/ab.sh
0644 usr/share/bpfbench/vm/bisect-lib.sh
0644 usr/share/bpfbench/vm/bisect.sh
0644 usr/share/bpfbench/vm/bisect_report.py
0644 usr/share/bpfbench/vm/bpfbench.config
0644 usr/share/bpfbench/vm/guest.sh
0644 usr/share/bpfbench/vm/init.sh
0644 usr/share/bpfbench/vm/kernel.sh
0644 usr/share/bpfbench/vm/kernels
0644 usr/share/bpfbench/vm/lib.sh
0644 usr/share/bpfbench/vm/merge_runs.py
0644 usr/share/bpfbench/vm/run.sh
0644 usr/share/doc/bpfbench/LICENSE
0644 usr/share/doc/bpfbench/README.md
0644 usr/share/doc/bpfbench/bpfbench-result.schema.json
$(cd "$ROOT" && printf '0644 usr/share/doc/bpfbench/%s\n' doc/*.md doc/kernel-patch-example.diff)
0644 usr/share/man/man1/bpfbench.1
0644 usr/share/zsh/site-functions/_bpfbench"
same "install lays out bin, man1, bash and zsh completions, the docs and the VM runner, with their modes" \
	"$(sort -k2 <<<"$want")" "$(cd "$dest" && find . -type f -printf '%#m %P\n' | sort -k2)"

[ "$("$dest/usr/bin/bpfbench" --version)" = "$version" ]
ok $? "the installed binary runs"
inst=$(man_text "$dest/usr/share/man/man1/bpfbench.1")
[ -n "$inst" ] && [ ! -s "$TMPD/man.err" ] && [ "$inst" = "$page" ]
ok $? "man -l renders the installed page, without a warning" || diag "$(cat "$TMPD/man.err")"
cmp -s "$dest/usr/share/bash-completion/completions/bpfbench" "$DOCS/bpfbench.bash" &&
	cmp -s "$dest/usr/share/doc/bpfbench/LICENSE" "$ROOT/LICENSE" &&
	cmp -s "$dest/usr/share/doc/bpfbench/doc/json.md" "$ROOT/doc/json.md"
ok $? "installed files are the built ones"

mk uninstall DESTDIR="$dest" PREFIX=/usr >"$TMPD/install.out" 2>&1
ok $? "make uninstall" || diag "$(cat "$TMPD/install.out")"
left=$(find "$dest" -type f)
[ -z "$left" ] && [ ! -e "$dest/usr/share/doc/bpfbench" ] && [ ! -e "$dest/usr/share/bpfbench" ]
ok $? "uninstall removes every installed file and the doc directory" || diag "left: $left"

mk -n install DESTDIR="$dest" |
	grep -q -- "-m 0755 $BUILD_DIR/bpfbench $dest/usr/local/bin/bpfbench\$"
ok $? "PREFIX defaults to /usr/local"

done_testing
