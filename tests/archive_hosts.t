#!/usr/bin/env bash
# No package archive's host name anywhere in the tree (code, tests, docs,
# comments): a tool takes its package sources from the machine it runs on
# (scripts/vm/kernel.sh: BPFBENCH_VM_MIRROR or the machine's apt sources),
# never from a host written into it, which a machine behind a private
# mirror, or with none reachable, would be sent to.  The pattern is built
# from pieces, so that this file names no host either.  No build.
source "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/.." && pwd)

d='\.'	# a dot in a host name
sub="([a-z0-9-]+$d)"	# one label and its dot
# the distributions' archives and mirror networks: any host of their
# domains (every archive, security, snapshot and mirror host is one)
hosts=(
	"${sub}+debi""an$d(org|net)"
	"${sub}+ubun""tu$d(com|net)"
	"${sub}*launchpad(content)?${d}net"
	"${sub}+fedora""project${d}org"
	"${sub}+cen""tos${d}org"
	"${sub}+open""suse${d}org"
	"${sub}*alpine""linux${d}org"
	"${sub}*arch""linux${d}org"
	"${sub}*pkg""build${d}com"
	# the language registries' downloads
	"${sub}*py""pi${d}org"
	"${sub}*python""hosted${d}org"
	"${sub}*npm""js${d}(org|com)"
	"${sub}*crates${d}io"
	"proxy${d}go""lang${d}org"
)
PAT="(^|[^a-z0-9.-])($(IFS='|'; echo "${hosts[*]}"))([^a-z0-9-]|$)"

# the pattern itself, on hosts made here (never written whole in this file)
host() { local IFS=.; echo "$*"; }
caught=0 missed=
for h in "$(host deb debian org)" "$(host ftp de debian org)" "$(host security debian org)" \
	"$(host snapshot debian org)" "$(host archive ubuntu com)" "$(host de archive ubuntu com)" \
	"$(host ppa launchpadcontent net)" "$(host dl fedoraproject org)" "$(host pypi org)"; do
	if grep -qiE "$PAT" <<<"deb http://$h/x bookworm main"; then
		caught=$((caught + 1))
	else
		missed+=" $h"
	fi
done
[ -z "$missed" ]
ok $? "the pattern catches each archive host made here ($caught)" || diag "missed:$missed"
! grep -qiE "$PAT" <<<"http://mirror.example/debian /usr/share/keyrings/debian-archive-keyring.gpg debian.sources linux-image-6.1.0-50-cloud-amd64"
ok $? "... and none of the words around them (an example host, the keyring, a file or package name)"

# the tree: its files, tracked and not yet (git grep: what a commit would hold)
if git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	found=$(git -C "$ROOT" grep --untracked -nIiE "$PAT" -- . 2>&1 | head -20)
else
	found=$(grep -rnIiE --exclude-dir='.git' --exclude-dir='build*' "$PAT" "$ROOT" 2>&1 | head -20)
fi
[ -z "$found" ]
ok $? "no package archive's host name in the tree (set BPFBENCH_VM_MIRROR, or the machine's apt sources, instead)" ||
	diag "$found"

done_testing
