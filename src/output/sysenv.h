/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFBENCH_SYSENV_H
#define BPFBENCH_SYSENV_H

struct jsonw;

/* Notes the load and steal as the process starts (call once, first thing). */
void sysenv_capture(void);
/* The environment's fields, written into the open "env" object of a result. */
void sysenv_json(struct jsonw *w);

#endif
