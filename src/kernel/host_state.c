// SPDX-License-Identifier: GPL-2.0
/*
 * What `host tune` changed and `host reset` turns back: the state file
 * (BPFBENCH_HOST_STATE, default /run/bpfbench-host-tune), a line
 * "path<TAB>old value" per knob.  Root writes whatever it lists, and the
 * variable may name a file in a directory others share: so the file is
 * trusted only as an output file is (src/output/outfile.c): never
 * through a link, ours, writable by nobody else; and reset writes only
 * the knobs tune turns, under the sysfs root, values of their kind.
 */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "host.h"
#include "sysfs.h"

#define HOST_MAX_KNOBS	(HOST_MAX_CPUS + 2)
#define SEEN_LEN	512

static char refused[128];

const char *host_state_path(void)
{
	const char *p = getenv("BPFBENCH_HOST_STATE");

	return p && *p ? p : "/run/bpfbench-host-tune";
}

const char *host_state_refused(void)
{
	return refused[0] ? refused : NULL;
}

static const char *sysfs_root(void)
{
	const char *r = getenv("BPFBENCH_SYSFS_ROOT");

	return r ? r : "";
}

static int refuse(int fd, const char *what, const struct stat *st)
{
	snprintf(refused, sizeof(refused), "%s (owner uid %u, mode %04o): refused", what,
		 (unsigned int)st->st_uid, (unsigned int)(st->st_mode & 07777));
	close(fd);
	return -EPERM;
}

/* The state file with flags: an fd, or -errno (-EPERM, -ELOOP: refused, host_state_refused()). */
static int state_open(int flags)
{
	struct stat st;
	int fd;

	refused[0] = 0;
	/* O_NONBLOCK: a fifo planted in its place must not hang root's reset */
	fd = open(host_state_path(), flags | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK | O_CLOEXEC, 0600);
	if (fd < 0) {
		if (errno == ELOOP)
			snprintf(refused, sizeof(refused), "a symbolic link: refused");
		return -errno;
	}
	if (fstat(fd, &st)) {
		int err = -errno;

		close(fd);
		return err;
	}
	if (!S_ISREG(st.st_mode))
		return refuse(fd, "not a regular file", &st);
	if (st.st_uid != geteuid())
		return refuse(fd, "another user's", &st);
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		return refuse(fd, "writable by others", &st);
	return fd;
}

/* Appends "path<TAB>old value" to the state file. */
static int save_old(int fd, const char *path)
{
	char old[64];
	int err = sysfs_read(path, NULL, old, sizeof(old));

	if (err)
		return err;
	old[strcspn(old, "\n")] = 0;
	return dprintf(fd, "%s\t%s\n", path, old) < 0 ? -EIO : 0;
}

int host_tune(const struct host_knob *k, int n, int *changed)
{
	int fd, i, err = 0;

	*changed = 0;
	if (!n)
		return 0;
	/* a second tune keeps the first one's old values: reset goes back to before both */
	fd = state_open(O_WRONLY | O_CREAT | O_APPEND);
	if (fd < 0)
		return fd;
	for (i = 0; i < n && !err; i++) {
		err = save_old(fd, k[i].path);
		if (!err)
			err = sysfs_write(k[i].path, NULL, k[i].value);
		*changed += !err;
	}
	close(fd);
	return err;
}

/* A governor's name as the kernel spells one: "performance", "schedutil". */
static bool governor_ok(const char *v)
{
	size_t n = strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789_-");

	return n > 0 && n < 32 && !v[n];
}

/* What is wrong with writing value to path in a reset, or NULL: only tune's knobs, their values. */
static const char *knob_wrong(const char *path, const char *value)
{
	static const char not_knob[] = "not a knob host tune turns (under the sysfs root): not written";
	const char *root = sysfs_root(), *p;
	char canon[128];
	int cpu, end = -1;

	if (strncmp(path, root, strlen(root)))
		return not_knob;
	p = path + strlen(root);
	if (!strcmp(p, HOST_KNOB_BOOST) || !strcmp(p, HOST_KNOB_NO_TURBO))
		return !strcmp(value, "0") || !strcmp(value, "1") ? NULL :
		       "not a value host tune saves (0 or 1): not written";
	/* the one spelling tune writes: no "cpu+1", no "..", nothing after */
	if (sscanf(p, HOST_KNOB_GOVERNOR "%n", &cpu, &end) != 1 || end < 0 || cpu < 0 ||
	    cpu >= HOST_MAX_CPUS)
		return not_knob;
	snprintf(canon, sizeof(canon), HOST_KNOB_GOVERNOR, cpu);
	if (strcmp(p, canon))
		return not_knob;
	return governor_ok(value) ? NULL : "not a value host tune saves (a governor's name): not written";
}

struct reset_ctx {
	char (*seen)[SEEN_LEN];	/* the paths written back (or tried): the first value wins */
	int nseen;
	host_reset_fail_fn fail;
	void *arg;
};

/* 1 if path was seen before, 0 if not (now it is), -1 if it cannot be one of tune's */
static int seen_before(struct reset_ctx *c, const char *path)
{
	int i;

	for (i = 0; i < c->nseen; i++)
		if (!strcmp(c->seen[i], path))
			return 1;
	if (c->nseen == HOST_MAX_KNOBS || strlen(path) >= SEEN_LEN)
		return -1;
	strcpy(c->seen[c->nseen++], path);
	return 0;
}

/* One line of the state file written back: 0, -1 a repeat (skipped), 1 after saying why not. */
static int reset_line(struct reset_ctx *c, char *line, int lineno)
{
	char *tab = strchr(line, '\t'), where[PATH_MAX + 32];
	const char *why;
	int e;

	if (!tab) {
		snprintf(where, sizeof(where), "%s line %d", host_state_path(), lineno);
		c->fail(where, "not path<TAB>value", c->arg);
		return 1;
	}
	*tab = 0;
	e = seen_before(c, line);
	if (e > 0)
		return -1;
	why = e < 0 ? "more knobs than host tune turns: not written" : knob_wrong(line, tab + 1);
	if (why) {
		c->fail(line, why, c->arg);
		return 1;
	}
	e = sysfs_write(line, NULL, tab + 1);
	if (e)
		c->fail(line, strerror(-e), c->arg);
	return e ? 1 : 0;
}

int host_reset(int *restored, host_reset_fail_fn fail, void *arg)
{
	struct reset_ctx c = { .seen = calloc(HOST_MAX_KNOBS, SEEN_LEN), .fail = fail, .arg = arg };
	int fd, nfail = 0, lineno = 0, e;
	char *line = NULL;
	size_t cap = 0;
	FILE *f;

	*restored = 0;
	if (!c.seen)
		return -ENOMEM;
	fd = state_open(O_RDONLY);
	f = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (!f) {
		e = fd >= 0 ? -errno : fd;
		if (fd >= 0)
			close(fd);
		if (e != -ENOENT)
			fail(host_state_path(), refused[0] ? refused : strerror(-e), arg);
		free(c.seen);
		return e;
	}
	while (getline(&line, &cap, f) >= 0) {
		lineno++;
		line[strcspn(line, "\n")] = 0;
		if (!line[0])
			continue;
		e = reset_line(&c, line, lineno);
		nfail += e > 0;
		*restored += !e;
	}
	free(line);
	fclose(f);
	free(c.seen);
	if (!nfail)
		unlink(host_state_path());
	return nfail;
}
