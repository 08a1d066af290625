/* SPDX-License-Identifier: GPL-2.0 */
/* Between probe.c (the cache, the table, the command) and probe_bpf.c (the BPF probes). */
#ifndef BPFBENCH_PROBE_INT_H
#define BPFBENCH_PROBE_INT_H

#include <stddef.h>

#define DETAIL_MAX	256

/* A probe: fills the detail d (len bytes), returns 1, 0 or -errno (probe.h). */
typedef int (*probe_fn)(char *d, size_t len);

__attribute__((format(printf, 3, 4)))
void probe_detail(char *d, size_t len, const char *fmt, ...);

int probe_bpf_syscall(char *d, size_t len);
int probe_prog_xdp(char *d, size_t len);
int probe_prog_raw_tp(char *d, size_t len);
int probe_prog_syscall(char *d, size_t len);
int probe_prog_tracing(char *d, size_t len);
int probe_trig_test_run(char *d, size_t len);
int probe_trig_test_run_on_cpu(char *d, size_t len);
int probe_trig_raw_tp(char *d, size_t len);
int probe_trig_tp_btf(char *d, size_t len);
int probe_trig_fentry(char *d, size_t len);
int probe_helper_bpf_loop(char *d, size_t len);
int probe_map_batch_ops(char *d, size_t len);
int probe_rb_overwrite(char *d, size_t len);
int probe_map_hash(char *d, size_t len);
int probe_map_percpu_hash(char *d, size_t len);
int probe_map_lru_hash(char *d, size_t len);
int probe_map_array(char *d, size_t len);
int probe_map_percpu_array(char *d, size_t len);
int probe_map_ringbuf(char *d, size_t len);
int probe_map_perf_event_array(char *d, size_t len);
int probe_map_bloom_filter(char *d, size_t len);
int probe_map_lpm_trie(char *d, size_t len);

#endif
