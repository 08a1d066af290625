/* SPDX-License-Identifier: GPL-2.0 */
/* The attach family's user-side targets (targets.c) and its probes (probes.c). */
#ifndef BPFBENCH_ATTACH_H
#define BPFBENCH_ATTACH_H

#include <stddef.h>

void attach_target_nop(void);
int attach_target_push(void);
void attach_target_ret(void);
void attach_target_nop5(void);
void attach_target_nop10(void);
void attach_target_usdt(void);
void attach_target_usdt10(void);
void attach_opaque_noop(void);

/* This family's probes of the attach types (bpfbench probe lists them): 1 yes, 0 no, -errno. */
int attach_probe_kprobe(char *detail, size_t len);
int attach_probe_kprobe_multi(char *detail, size_t len);
int attach_probe_uprobe(char *detail, size_t len);
int attach_probe_uprobe_multi(char *detail, size_t len);
int attach_probe_test_kfunc(char *detail, size_t len);

/* BPF_LINK_CREATE of a uprobe.multi link (libbpf 1.1 has none): a link fd or -errno. */
int attach_uprobe_multi_link(int prog_fd, const char *path, unsigned long offset, int retprobe);
/* The file offset in /proc/self/exe of a function of ours: 0 and *off, or -errno. */
int attach_file_offset(const void *fn, unsigned long *off);

#endif
