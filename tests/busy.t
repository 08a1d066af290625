#!/usr/bin/env bash
# The kernel-object checks count only bpfbench's own objects (tests/lib.sh,
# kernel_objects): a leak of ours is seen, held or pinned, while other
# processes loading and unloading BPF maps and programs, some even named
# like ours, are not; and other tests' clean-kernel checks pass beside them.
source "$(dirname "$0")/lib.sh"
need_bpf
command -v bpftool >/dev/null && command -v jq >/dev/null || skip_all "needs bpftool and jq"
command -v setsid >/dev/null || skip_all "needs setsid"

# bpf() from python: maps and programs named as we like, with no bpffs.
BPFPY='
import ctypes, os, random, struct, sys, time
libc = ctypes.CDLL(None, use_errno=True)
NR = {"x86_64": 321, "aarch64": 280}[os.uname().machine]
def bpf(cmd, attr):
    buf = ctypes.create_string_buffer(attr, 128)
    fd = libc.syscall(NR, cmd, buf, 128)
    if fd < 0:
        raise OSError(ctypes.get_errno(), "bpf")
    return fd
def map_create(name):	# an array of one u64
    return bpf(0, struct.pack("=7I16s", 2, 4, 8, 1, 0, 0, 0, name.encode()))
def prog_load(name, map_fd=None):	# a socket filter "r0 = 0; exit", holding a map if given
    ins = b""
    if map_fd is not None:	# ld_imm64 r1 = map
        ins += struct.pack("=BBhi", 0x18, 0x11, 0, map_fd) + struct.pack("=BBhi", 0, 0, 0, 0)
    ins += struct.pack("=BBhi", 0xb7, 0, 0, 0) + struct.pack("=BBhi", 0x95, 0, 0, 0)
    ib, lic = ctypes.create_string_buffer(ins), ctypes.create_string_buffer(b"GPL")
    return bpf(5, struct.pack("=IIQQIIQII16s", 1, len(ins) // 8, ctypes.addressof(ib),
                              ctypes.addressof(lic), 0, 0, 0, 0, 0, name.encode()))
mode, arg = sys.argv[1], sys.argv[2:]
open(arg[0], "w").write(str(os.getpid()))
owner = int(os.environ.get("BUSY_OWNER", "0"))
def owner_gone():	# outside the test'"'"'s tree, it ends with the test, even a SIGKILLed one
    try:
        os.kill(owner, 0)
        return False
    except ProcessLookupError:
        return owner > 0
    except PermissionError:
        return False
if mode == "hold":	# hold PIDFILE NAME...: maps named so, held until killed
    fds = [map_create(n) for n in arg[1:]]
    open(arg[0] + ".ready", "w").close()
    for _ in range(3600):
        if owner_gone():
            sys.exit(0)
        time.sleep(1)
    sys.exit(0)
ours = ["bpf_loop.bss", "htab_mem_map", "trie", "noop_bpf.rodata", "lf0123456789abc"]
while not owner_gone():	# churn PIDFILE: objects named like ours and not, loaded and closed
    maps = [map_create(random.choice(ours + ["", "churn"])) for _ in range(random.randint(1, 3))]
    prog = prog_load(random.choice(["noop_test_run", "bpf_loop_test_r", "churn"]), maps[0])
    time.sleep(random.random() * 0.02)
    for fd in maps + [prog]:
        os.close(fd)
'
bpfpy() { python3 -c "$BPFPY" "$@"; }
# detached MODE PIDFILE ARGS...: bpfpy in a process outside this test's process tree (setsid -f)
detached() { BUSY_OWNER=$$ setsid -f python3 -c "$BPFPY" "$@" >/dev/null 2>"$TMPD/detached.err"; }
wait_file() { local i; for i in $(seq 1 100); do [ -e "$1" ] && return 0; sleep 0.05; done; return 1; }

base=$(kernel_objects_settle "0 0 0")
ok $? "at the start nothing of ours is in the kernel ($base)"

# --- a leak of ours is seen: a map named as ours, held by a process of this test ---
bpfpy hold "$TMPD/held.pid" bpf_loop.bss htab_mem_map 2>"$TMPD/held.err" &
holder=$!
disown $holder	# still ours (a child), but no job notice when it is killed
wait_file "$TMPD/held.pid.ready"
now=$(kernel_objects)
[ -e "$TMPD/held.pid.ready" ] && [ "$now" = "0 2 0" ]
ok $? "two maps named as ours, held by a process of this test: counted ($now)"
kill "$(cat "$TMPD/held.pid")"	# python itself: $holder is the subshell around it
for i in $(seq 1 100); do kill -0 $holder 2>/dev/null || break; sleep 0.05; done
now=$(kernel_objects_settle "0 0 0")
ok $? "closed: gone from the count ($now)"

# --- ... and pinned, held by no process at all ---
mkdir "$TMPD/bpffs"
if mount -t bpf bpf "$TMPD/bpffs" 2>/dev/null; then
	bpftool map create "$TMPD/bpffs/leak" type array key 4 value 8 entries 1 name htab_mem_map &&
		bpftool map create "$TMPD/bpffs/other" type array key 4 value 8 entries 1 name not_ours
	now=$(kernel_objects)
	[ "$now" = "0 1 0" ]
	ok $? "a pinned map named as ours, held by nobody, is a leak: counted; one named otherwise is not ($now)"
	rm -f "$TMPD/bpffs/leak" "$TMPD/bpffs/other"
	now=$(kernel_objects_settle "0 0 0")
	ok $? "unpinned: gone from the count ($now)"
	umount "$TMPD/bpffs"
else
	skip "cannot mount a private bpffs"
	skip "cannot mount a private bpffs"
fi

# --- another process's objects, even named as ours, are not ours ---
detached hold "$TMPD/foreign.pid" bpf_loop.bss lf0123456789abc
wait_file "$TMPD/foreign.pid.ready"
now=$(kernel_objects)
[ -e "$TMPD/foreign.pid.ready" ] && [ "$now" = "0 0 0" ]
ok $? "maps named as ours, held by a process outside this test: not counted ($now)"
kill "$(cat "$TMPD/foreign.pid")"

# --- churn: two processes loading and closing maps and programs all along ---
detached churn "$TMPD/churn1.pid"
detached churn "$TMPD/churn2.pid"
wait_file "$TMPD/churn1.pid" && wait_file "$TMPD/churn2.pid"
seen="" counts=""
for i in $(seq 1 10); do
	seen="$seen $(kernel_objects)"
	counts="$counts $(bpftool map show -j 2>/dev/null | jq length)"
done
[ "$(echo $seen | tr ' ' '\n' | paste - - - | sort -u)" = "$(printf '0\t0\t0')" ]
ok $? "ten looks while they churn: always 0 0 0"
kill -0 "$(cat "$TMPD/churn1.pid")" && kill -0 "$(cat "$TMPD/churn2.pid")"
ok $? "both churners still running (no bpf() error stopped them)" || diag "$(cat "$TMPD/detached.err")"
[ "$(tr ' ' '\n' <<<"$counts" | grep . | sort -u | wc -l)" -gt 1 ]
ok $? "meanwhile the system-wide map count moved:$counts"

# Other tests' clean-kernel checks, run beside the churn: they must all pass.
for t in state.t faults.t; do
	out=$(BPFBENCH_BUILD="$BUILD_DIR" bash "$(dirname "$0")/$t" 2>&1)
	nok=$(grep -c '^ok' <<<"$out") nfail=$(grep -c '^not ok' <<<"$out")
	[ "$nfail" -eq 0 ] && [ "$nok" -gt 0 ]
	ok $? "$t beside the churn: $nok passed, $nfail failed" || diag "$(grep '^not ok' <<<"$out")"
done
kill "$(cat "$TMPD/churn1.pid")" "$(cat "$TMPD/churn2.pid")"
done_testing
