/*
 * libFuzzer target for the floor file's parser (src/core/floor_text.c):
 * never crashes, and whatever it accepts formats back to the same bytes
 * (version 2 by the formatter; version 1 by its two-line form).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "floor_text.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAXE 8

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t	ms;
	ulid_floor_entry entries[MAXE];
	size_t		nentries;
	int			version;
	int			line;
	char		out[ULID_FLOOR_HEAD_MAX + MAXE * ULID_FLOOR_ENTRY_MAX];
	size_t		n;

	if (ulid_floor_parse((const char *) data, size, &version, &ms, entries, MAXE,
						 &nentries, &line) != ULID_FLOOR_TEXT_OK)
		return 0;
	if (ms > INT64_MAX || nentries > MAXE || (version != 1 && version != 2))
		abort();
	if (version == 1)
	{
		if (nentries != 0)
			abort();
		n = (size_t) snprintf(out, sizeof(out), "ulid floor 1\n%llu\n", (unsigned long long) ms);
	}
	else
	{
		n = ulid_floor_format_head(ms, out);
		for (size_t i = 0; i < nentries; i++)
		{
			if (entries[i].ms > INT64_MAX)
				abort();
			n += ulid_floor_format_entry(&entries[i], out + n);
		}
	}
	if (n != size || memcmp(out, data, size) != 0)
		abort();
	return 0;
}
