// SPDX-License-Identifier: GPL-2.0
/*
 * Runs a libFuzzer target's entry point on files, without libFuzzer: the
 * seed corpus and every input that once crashed are replayed this way by
 * the test suite (and under its sanitizer pass), built with the normal
 * compiler.  Exit 0 when every input ran.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INPUT	(1u << 20)	/* the fuzzers run with -max_len well below */

static int replay(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf, *data;
	size_t n;

	if (!f) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return 1;
	}
	buf = malloc(MAX_INPUT);
	n = buf ? fread(buf, 1, MAX_INPUT, f) : 0;
	fclose(f);
	/* exactly n bytes, so AddressSanitizer sees a read one past the input */
	data = buf ? realloc(buf, n ? n : 1) : NULL;
	if (!data) {
		free(buf);
		fprintf(stderr, "replay: %s: out of memory\n", path);
		return 1;
	}
	LLVMFuzzerTestOneInput(data, n);
	free(data);
	return 0;
}

int main(int argc, char **argv)
{
	int i, bad = 0;

	for (i = 1; i < argc; i++)
		bad |= replay(argv[i]);
	return bad;
}
