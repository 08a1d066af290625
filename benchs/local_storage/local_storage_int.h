/* SPDX-License-Identifier: GPL-2.0 */
/* local-storage: the benchmarks of create.c and tasks_trace.c, listed by local_storage.c's family. */
#ifndef BPFBENCH_LOCAL_STORAGE_INT_H
#define BPFBENCH_LOCAL_STORAGE_INT_H

#include "bench.h"

extern const struct bench bench_local_storage_create;
extern const struct bench bench_local_storage_tasks_trace;

#endif
