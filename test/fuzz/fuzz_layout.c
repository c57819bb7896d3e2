/*
 * libFuzzer target for the Snowflake layout text parser (src/core).
 *
 * Property: any text that parses prints a canonical text that parses back
 * to the same layout and prints identically, and whose serialized form reads
 * back to the same layout; no input crashes the parser, the JSON fields
 * parser or the id codecs.  A violation aborts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "sfcodec.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char text[SFL_TEXT_MAX],
				text2[SFL_TEXT_MAX],
				diagram[SFL_TEXT_MAX];
	char		msg[SFL_MSG_MAX];
	uint8_t		ser[SFL_SERIAL_MAX];
	sfl_layout	l,
				l2,
				l3;
	sfl_spec	spec;
	const char *s = (const char *) data;

	/* other decoders must survive any bytes */
	sfl_spec_init(&spec);
	(void) sfl_parse_fields_json(s, size, &spec, msg, sizeof(msg));
	(void) sfl_deserialize(data, size, &l3, msg, sizeof(msg));

	if (sfl_parse(s, size, &l, msg, sizeof(msg)) != SFL_OK)
		return 0;

	sfl_format(&l, text);
	if (sfl_parse(text, strlen(text), &l2, msg, sizeof(msg)) != SFL_OK)
		abort();				/* canonical text must parse */
	if (!sfl_equal(&l, &l2) || l.preset != l2.preset)
		abort();				/* ... to the same layout */
	sfl_format(&l2, text2);
	if (strcmp(text, text2) != 0)
		abort();				/* ... which prints the same */
	if (sfl_deserialize(ser, sfl_serialize(&l, ser), &l3, msg, sizeof(msg)) != SFL_OK ||
		!sfl_equal(&l, &l3))
		abort();				/* stored bytes read back the same */
	sfl_diagram(&l, diagram);

	/* ids of the layout: pack(unpack(x)) == x for in-range ids */
	{
		uint64_t	id = 0;
		sfl_parts	p;
		char		f[SFL_FRIENDLY_MAX];
		int64_t		ms;
		uint64_t	node,
					seq;

		for (size_t i = 0; i < size && i < 8; i++)
			id = id << 8 | data[i];
		if (sfl_unpack(&l, id, &p) == SFL_OK)
		{
			if (sfl_pack(&l, p.tick, p.node, p.seq) != id)
				abort();
			if (sfl_friendly_format(&l, sfl_tick_unix_ms(&l, p.tick), p.node, p.seq, f) &&
				(sfl_friendly_parse(&l, f, strlen(f), &ms, &node, &seq, msg, sizeof(msg)) != SFL_OK ||
				 ms != sfl_tick_unix_ms(&l, p.tick) || node != p.node || seq != p.seq))
				abort();
		}
		(void) sfl_friendly_parse(&l, s, size, &ms, &node, &seq, msg, sizeof(msg));
	}
	return 0;
}
