/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFBENCH_COMPARE_H
#define BPFBENCH_COMPARE_H

/* bpfbench compare OLD.json NEW.json [--alpha A] [--fail-on-regression PCT] */
int compare_cmd(int argc, char **argv);

#endif
