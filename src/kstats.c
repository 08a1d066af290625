// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
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
