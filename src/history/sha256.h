/* SPDX-License-Identifier: GPL-2.0 */
/* SHA-256 (FIPS 180-4): a result file's content identity in the history. */
#ifndef BPFBENCH_SHA256_H
#define BPFBENCH_SHA256_H

#include <stddef.h>

#define SHA256_HEX	65	/* 64 hex digits and the NUL */

void sha256_hex(const void *data, size_t len, char out[SHA256_HEX]);

#endif
