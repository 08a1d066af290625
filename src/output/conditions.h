/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The conditions a figure was taken under (conditions.c): the tool, the
 * date, the kernel, the CPU, a VM, and a run's sampling and trigger;
 * what every table header and export says before its figures.
 */
#ifndef BPFBENCH_CONDITIONS_H
#define BPFBENCH_CONDITIONS_H

#include <stddef.h>
#include "result.h"

struct conditions {
	char version[32], git[48];
	char date[32];			/* UTC, ISO 8601 */
	char kernel[128], machine[72];
	char cpu[160];
	int cpus;
	char vm[240];			/* BPFBENCH_VM_INFO: the VM the run is in, "" on the host */
};

void conditions_read(struct conditions *c);
/* "-w 0 -d 1 --period-ms 1000 -r 1, trigger raw-tp" of one run. */
void conditions_of_run(const struct run_result *r, char *buf, size_t len);
/* What of r's conditions differ from base's: "-d 0.1, trigger raw-tp"; "" where none does. */
void conditions_diff(const struct run_result *r, const struct run_result *base, char *buf,
		     size_t len);

#endif
