/*
 * libFuzzer target for ulid.node_ids's parser (src/core/nodeset.c): never
 * crashes or writes past the capacity nodeset_max_ranges() gives; what it
 * accepts is sorted, merged and within 0..NODESET_MAX; its canonical text
 * parses back to the same set; membership agrees with the ranges.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nodeset.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *) data;
	size_t		cap = nodeset_max_ranges(s, size);
	nodeset_range *r = malloc(cap * sizeof(nodeset_range));
	nodeset_range *r2 = malloc(cap * sizeof(nodeset_range));
	size_t		n,
				n2,
				pos,
				len;
	char		msg[NODESET_MSG_MAX];
	char	   *text;

	if (!nodeset_parse(s, size, r, cap, &n, &pos, msg, sizeof(msg)))
	{
		if (pos > size || strlen(msg) == 0)
			abort();
		free(r);
		free(r2);
		return 0;
	}
	for (size_t i = 0; i < n; i++)
	{
		if (r[i].lo < 0 || r[i].hi > NODESET_MAX || r[i].lo > r[i].hi)
			abort();
		if (i > 0 && r[i].lo <= r[i - 1].hi + 1)
			abort();			/* not sorted and merged */
		if (!nodeset_contains(r, n, r[i].lo) || !nodeset_contains(r, n, r[i].hi) ||
			(r[i].lo > 0 && nodeset_contains(r, n, r[i].lo - 1) && (i == 0 || r[i - 1].hi != r[i].lo - 1)))
			abort();
	}
	len = nodeset_format(r, n, NULL, 0);
	text = malloc(len + 1);
	if (nodeset_format(r, n, text, len + 1) != len || strlen(text) != len)
		abort();
	if (!nodeset_parse(text, len, r2, cap, &n2, &pos, msg, sizeof(msg)) || n2 != n ||
		memcmp(r, r2, n * sizeof(nodeset_range)) != 0)
		abort();
	free(text);
	free(r);
	free(r2);
	return 0;
}
