/* SPDX-License-Identifier: GPL-2.0 */
/* bpf-loop: what the program counts beside its iterations (hits), shared by both sides. */
#ifndef BPFBENCH_BPF_LOOP_H
#define BPFBENCH_BPF_LOOP_H

#define BPF_LOOP_SLOT_RUNS	0	/* extra[] word: program runs, counted as each starts */

#endif
