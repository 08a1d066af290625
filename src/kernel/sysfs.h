/* SPDX-License-Identifier: GPL-2.0 */
/*
 * procfs, sysfs and cgroup files, the mount table, and a cgroup of our
 * own: what memcg.c, probe.c and lpm-trie-free read and write, in one
 * place.  Every function returns 0 (or a count) or -errno, never exits.
 *
 * A memory cgroup of one's own, on cgroup v1 or v2 alike:
 *
 *	struct cg_mount m;
 *	char home[PATH_MAX], mine[PATH_MAX];
 *	uint64_t bytes;
 *
 *	if (cgroup_memory_mount(&m) != 1)			// none: another method
 *		...;
 *	cgroup_own_dir(&m, home, sizeof(home));
 *	cgroup_create(home, "bpfbench-NAME.<pid>", mine, sizeof(mine));
 *	cgroup_enter(mine);					// the whole process
 *	sysfs_read_u64(mine, cgroup_memory_usage_file(&m), &bytes);
 *	...
 *	cgroup_enter(home);
 *	cgroup_remove(mine);
 *
 * Name it bpfbench-<what>.<pid> (or bpfbench-<pid>): memcg.c's sweep then
 * removes it should the process die without cleaning up.  On v2 a process
 * may not live in a cgroup whose children have controllers, so a child of
 * home may not get the memory controller: memcg_enter() (memcg.h) finds
 * the right parent and is the simpler way when one cgroup per process
 * will do.  v1 could move a single thread (its "tasks" file); v2 cannot
 * move one into a domain cgroup, so this layer always moves the process.
 */
#ifndef BPFBENCH_SYSFS_H
#define BPFBENCH_SYSFS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A small file, whole (up to len - 1 bytes, NUL-terminated); name may be NULL (dir is the path). */
int sysfs_read(const char *dir, const char *name, char *buf, size_t len);
/*
 * Field `field` of a /proc/.../stat file (numbered as proc(5): 4 the
 * parent, 39 the CPU last run on) as a number: 0, or -errno (-EINVAL: no
 * such field).  The name, field 2, may hold anything: fields count from
 * its last ')'.
 */
int proc_stat_field(const char *path, int field, long long *val);
/* A decimal number, as the kernel writes one per file ("max" is -ERANGE). */
int sysfs_read_u64(const char *dir, const char *name, uint64_t *val);
/* text written in one write(); a short write is -EIO. */
int sysfs_write(const char *dir, const char *name, const char *text);
/* A space-separated word list (cgroup.controllers) holds word. */
bool sysfs_has_word(const char *dir, const char *name, const char *word);
/* word is one of the sep-separated items of list ("rw,cpu,memory"). */
bool list_has_word(const char *list, const char *word, const char *sep);

struct mount_ent {
	char dir[PATH_MAX];
	char fstype[64];
	char opts[1024];	/* super options: where v1 cgroups name controllers */
};

/*
 * Calls fn for each mount (/proc/self/mountinfo, else /proc/mounts) until
 * it returns true: 1 if it did, 0 if not, -errno without a mount table.
 */
int mount_each(bool (*fn)(const struct mount_ent *m, void *arg), void *arg);
/* The first mount of fstype into dir: 1, 0 if none, -errno. */
int mount_find(const char *fstype, char *dir, size_t len);

enum cg_version {
	CG_V1 = 1,
	CG_V2 = 2,
};

struct cg_mount {
	enum cg_version version;
	char dir[PATH_MAX];
};

/*
 * The hierarchy that holds the memory controller: a cgroup2 mount that
 * offers it wins, else the v1 hierarchy with "memory" among its options.
 * 1, 0 if none, -errno without a mount table.
 */
int cgroup_memory_mount(struct cg_mount *m);
/* "memory.current" (v2) or "memory.usage_in_bytes" (v1); the peak: "memory.peak", "memory.max_usage_in_bytes". */
const char *cgroup_memory_usage_file(const struct cg_mount *m);
const char *cgroup_memory_peak_file(const struct cg_mount *m);
/* The directory of the cgroup this process is in, in m's hierarchy (/proc/self/cgroup). */
int cgroup_own_dir(const struct cg_mount *m, char *dir, size_t len);
/* Makes parent/name (mode 0755) and gives its path in dir; -EEXIST if it exists. */
int cgroup_create(const char *parent, const char *name, char *dir, size_t len);
/* Moves the whole process into dir (cgroup.procs). */
int cgroup_enter(const char *dir);
/* rmdir, retrying for up to 1 s while the kernel still counts tasks that just left (EBUSY); ENOENT is success. */
int cgroup_remove(const char *dir);

#endif
