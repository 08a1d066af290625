// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "kstats.h"

static int prog_info(int fd, struct bpf_prog_info *info)
{
	__u32 len = sizeof(*info);

	memset(info, 0, sizeof(*info));
	return bpf_obj_get_info_by_fd(fd, info, &len) ? -errno : 0;
}

int kstats_begin(struct kstats_probe *p, int prog_fd, struct kstats *k)
{
	struct bpf_prog_info info;
	int err;

	p->stats_fd = -1;
	p->prog_fd = prog_fd;
	if (prog_fd < 0) {
		snprintf(k->why, sizeof(k->why), "the benchmark runs no program through a trigger");
		return -ENOENT;
	}
	p->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (p->stats_fd < 0) {
		err = -errno;
		snprintf(k->why, sizeof(k->why), "BPF_ENABLE_STATS refused: %s", strerror(-err));
		return err;
	}
	err = prog_info(prog_fd, &info);
	if (err) {
		snprintf(k->why, sizeof(k->why), "cannot read the program's info: %s", strerror(-err));
		close(p->stats_fd);
		p->stats_fd = -1;
		return err;
	}
	snprintf(k->prog, sizeof(k->prog), "%s", info.name);
	p->cnt0 = info.run_cnt;
	p->time0 = info.run_time_ns;
	return 0;
}

void kstats_end(struct kstats_probe *p, struct kstats *k)
{
	struct bpf_prog_info info;

	if (p->stats_fd < 0)
		return;
	if (!prog_info(p->prog_fd, &info)) {
		k->run_cnt += info.run_cnt - p->cnt0;
		k->run_time_ns += info.run_time_ns - p->time0;
		k->valid = true;
	}
	close(p->stats_fd);
	p->stats_fd = -1;
}

/*
 * --verifier-stats: every BPF program this process holds, found through
 * its own file descriptors (the core knows no skeleton), with the
 * instructions the verifier processed to accept it (prog info's
 * verified_insns, the figure of its "processed N insns" log line).
 */
static bool is_prog_fd(int fd)
{
	char path[64], target[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return false;
	target[n] = '\0';
	return !strcmp(target, "anon_inode:bpf-prog");
}

static bool seen_id(const __u32 *ids, int n, __u32 id)
{
	int i;

	for (i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

int kstats_verifier_report(FILE *out, const char *bench)
{
	struct bpf_prog_info info;
	__u32 ids[256];
	int n = 0, fd;
	DIR *dir = opendir("/proc/self/fd");
	struct dirent *de;

	if (!dir)
		return -errno;
	while ((de = readdir(dir)) && n < (int)(sizeof(ids) / sizeof(ids[0]))) {
		fd = atoi(de->d_name);
		if (de->d_name[0] == '.' || fd == dirfd(dir) || !is_prog_fd(fd))
			continue;
		if (prog_info(fd, &info) || seen_id(ids, n, info.id))
			continue;
		ids[n++] = info.id;
		fprintf(out, "verifier: %s %s processed %u insns (%.1f%% of %u)\n", bench,
			info.name, info.verified_insns,
			100.0 * info.verified_insns / VERIFIER_INSN_LIMIT, VERIFIER_INSN_LIMIT);
	}
	closedir(dir);
	return n ? 0 : -ENOENT;
}
