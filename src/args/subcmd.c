// SPDX-License-Identifier: GPL-2.0
/* Looking a subcommand up in the table main() passes (src/cli/subcmds.c). */
#include <string.h>
#include "subcmd.h"

const struct subcommand *subcmd_find(const struct subcommand *t, const char *name)
{
	for (; t && t->name; t++)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}
