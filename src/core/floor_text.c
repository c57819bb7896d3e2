/*-------------------------------------------------------------------------
 *
 * floor_text.c
 *	  Formatting and parsing the persisted floor file's text.
 *
 *-------------------------------------------------------------------------
 */
#include "floor_text.h"

#include <string.h>

#define HEADER_LEN	(sizeof(ULID_FLOOR_HEADER) - 1)

size_t
ulid_floor_format(uint64_t ms, char *out)
{
	char		digits[20];
	size_t		n = 0;

	if (ms > INT64_MAX)
		ms = INT64_MAX;
	do
	{
		digits[n++] = (char) ('0' + ms % 10);
		ms /= 10;
	} while (ms != 0);

	memcpy(out, ULID_FLOOR_HEADER, HEADER_LEN);
	for (size_t i = 0; i < n; i++)
		out[HEADER_LEN + i] = digits[n - 1 - i];
	out[HEADER_LEN + n] = '\n';
	return HEADER_LEN + n + 1;
}

ulid_floor_text_status
ulid_floor_parse(const char *in, size_t len, uint64_t *ms)
{
	const char *p = in + HEADER_LEN;
	const char *end = in + len;
	uint64_t	v = 0;

	if (len < HEADER_LEN || memcmp(in, ULID_FLOOR_HEADER, HEADER_LEN) != 0)
		return ULID_FLOOR_TEXT_BAD_HEADER;
	/* digits, then exactly one newline, the last byte */
	if (end - p < 2 || end[-1] != '\n' || (*p == '0' && end - p != 2))
		return ULID_FLOOR_TEXT_BAD_NUMBER;
	for (; p < end - 1; p++)
	{
		if (*p < '0' || *p > '9')
			return ULID_FLOOR_TEXT_BAD_NUMBER;
		if (v > (INT64_MAX - (uint64_t) (*p - '0')) / 10)
			return ULID_FLOOR_TEXT_OVERFLOW;
		v = v * 10 + (uint64_t) (*p - '0');
	}
	*ms = v;
	return ULID_FLOOR_TEXT_OK;
}
