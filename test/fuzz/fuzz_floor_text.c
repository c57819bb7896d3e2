/*
 * libFuzzer target for the floor file's parser (src/core/floor_text.c):
 * never crashes, and whatever it accepts formats back to the same bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "floor_text.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t	ms;
	char		out[ULID_FLOOR_TEXT_MAX];
	size_t		n;

	if (ulid_floor_parse((const char *) data, size, &ms) != ULID_FLOOR_TEXT_OK)
		return 0;
	if (ms > INT64_MAX)
		abort();
	n = ulid_floor_format(ms, out);
	if (n != size || memcmp(out, data, size) != 0)
		abort();
	return 0;
}
