/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFBENCH_DELIVER_H
#define BPFBENCH_DELIVER_H

#include "result.h"

/*
 * The one road of a run's result: the human summary, then every export
 * its options ask for; an interrupted run's kept figures marked so; a
 * failed run's notes and its error.  Returns the run's exit status.
 */
int deliver_run(struct run_result *res, int status);

#endif
