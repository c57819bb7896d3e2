/*
 * Unit tests of the TypeID core (src/core/typeid.c), with the published
 * cases of the TypeID spec v0.3 (jetify-com/typeid spec/valid.yml and
 * spec/invalid.yml).
 */
#include <stdint.h>
#include <stdlib.h>

#include "rng.h"
#include "typeid.h"
#include "unit.h"

/* hex UUID (with hyphens) to 16 bytes */
static void
uuid_bytes(const char *hex, uint8_t out[16])
{
	int			b = 0;

	for (const char *p = hex; *p && b < 16; p++)
	{
		unsigned int v;

		if (*p == '-')
			continue;
		sscanf(p, "%2x", &v);
		out[b++] = (uint8_t) v;
		p++;
	}
}

static int
dec(const char *s, uint8_t id[16], size_t *plen, ulid_codec_error *e)
{
	return ulid_typeid_decode(s, strlen(s), id, plen, e);
}

int
main(void)
{
	static const struct
	{
		const char *typeid;
		const char *prefix;
		const char *uuid;
	}			valid[] = {
		{"00000000000000000000000000", "", "00000000-0000-0000-0000-000000000000"},
		{"00000000000000000000000001", "", "00000000-0000-0000-0000-000000000001"},
		{"0000000000000000000000000a", "", "00000000-0000-0000-0000-00000000000a"},
		{"0000000000000000000000000g", "", "00000000-0000-0000-0000-000000000010"},
		{"00000000000000000000000010", "", "00000000-0000-0000-0000-000000000020"},
		{"7zzzzzzzzzzzzzzzzzzzzzzzzz", "", "ffffffff-ffff-ffff-ffff-ffffffffffff"},
		{"prefix_0123456789abcdefghjkmnpqrs", "prefix", "0110c853-1d09-52d8-d73e-1194e95b5f19"},
		{"prefix_01h455vb4pex5vsknk084sn02q", "prefix", "01890a5d-ac96-774b-bcce-b302099a8057"},
		{"pre_fix_00000000000000000000000000", "pre_fix", "00000000-0000-0000-0000-000000000000"},
	};
	static const struct
	{
		const char *typeid;
		ulid_codec_status st;
	}			invalid[] = {
		{"PREFIX_00000000000000000000000000", ULID_CODEC_PREFIX_BAD_CHAR},
		{"12345_00000000000000000000000000", ULID_CODEC_PREFIX_BAD_CHAR},
		{"pre.fix_00000000000000000000000000", ULID_CODEC_PREFIX_BAD_CHAR},
		{"pr\xC3\xA9" "fix_00000000000000000000000000", ULID_CODEC_PREFIX_BAD_CHAR},
		{"  prefix_00000000000000000000000000", ULID_CODEC_PREFIX_BAD_CHAR},
		{"abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl_00000000000000000000000000", ULID_CODEC_PREFIX_TOO_LONG},
		{"_00000000000000000000000000", ULID_CODEC_EMPTY_PREFIX},
		{"_", ULID_CODEC_EMPTY_PREFIX},
		{"prefix_1234567890123456789012345", ULID_CODEC_BAD_LENGTH},
		{"prefix_123456789012345678901234567", ULID_CODEC_BAD_LENGTH},
		{"prefix_1234567890123456789012345 ", ULID_CODEC_BAD_CHAR},
		{"prefix_0123456789ABCDEFGHJKMNPQRS", ULID_CODEC_BAD_CHAR},
		{"prefix_123456789-123456789-123456", ULID_CODEC_BAD_CHAR},
		{"prefix_ooooooiiiiiiuuuuuuulllllll", ULID_CODEC_BAD_CHAR},
		{"prefix_i23456789ol23456789oi23456", ULID_CODEC_BAD_CHAR},
		{"prefix_123456789-0123456789-0123456", ULID_CODEC_BAD_CHAR},
		{"prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz", ULID_CODEC_OVERFLOW},
		{"_prefix_00000000000000000000000000", ULID_CODEC_PREFIX_UNDERSCORE},
		{"prefix__00000000000000000000000000", ULID_CODEC_PREFIX_UNDERSCORE},
		/* beyond the spec's list */
		{"", ULID_CODEC_BAD_LENGTH},
		{"prefix_", ULID_CODEC_BAD_LENGTH},
		{"0000000000000000000000000", ULID_CODEC_BAD_LENGTH},
	};
	uint8_t		id[16],
				want[16];
	char		txt[128];
	size_t		plen = 0;
	ulid_codec_error e = {0, 0};

	for (size_t i = 0; i < sizeof(valid) / sizeof(valid[0]); i++)
	{
		size_t		n;

		uuid_bytes(valid[i].uuid, want);
		CHECK(dec(valid[i].typeid, id, &plen, &e) == ULID_CODEC_OK && memcmp(id, want, 16) == 0 &&
			  plen == strlen(valid[i].prefix) && memcmp(valid[i].typeid, valid[i].prefix, plen) == 0,
			  "spec valid: %s decodes to %s", valid[i].typeid, valid[i].uuid);
		n = ulid_typeid_encode(want, valid[i].prefix, strlen(valid[i].prefix), txt);
		txt[n] = '\0';
		CHECK(strcmp(txt, valid[i].typeid) == 0, "spec valid: %s encodes back (%s)", valid[i].typeid, txt);
	}
	for (size_t i = 0; i < sizeof(invalid) / sizeof(invalid[0]); i++)
	{
		int			st = dec(invalid[i].typeid, id, &plen, &e);

		CHECK(st == (int) invalid[i].st, "invalid: \"%s\" is rejected with status %d (got %d)",
			  invalid[i].typeid, invalid[i].st, st);
	}
	CHECK(dec("prefix_0123456789ABCDEFGHJKMNPQRS", id, &plen, &e) == ULID_CODEC_BAD_CHAR && e.pos == 17,
		  "the first uppercase character is located (%zu)", e.pos);
	CHECK(dec("pre.fix_00000000000000000000000000", id, &plen, &e) == ULID_CODEC_PREFIX_BAD_CHAR && e.pos == 3,
		  "the bad prefix character is located");

	CHECK(ulid_typeid_check_prefix("", 0, &e) == ULID_CODEC_OK, "empty prefix is valid for encoding");
	CHECK(ulid_typeid_check_prefix("a_b", 3, &e) == ULID_CODEC_OK, "a_b is valid");
	CHECK(ulid_typeid_check_prefix("a__b", 4, &e) == ULID_CODEC_OK, "a__b is valid (inner underscores)");
	CHECK(ulid_typeid_check_prefix("_", 1, &e) == ULID_CODEC_PREFIX_UNDERSCORE, "_ alone is not");

	/* random round trips with random prefixes (inner underscores included) */
	{
		int			bad = 0;

		for (int n = 0; n < 100000; n++)
		{
			char		prefix[64];
			int			pl = (int) (test_rng() % 64);
			size_t		len;

			for (int i = 0; i < pl; i++)
				prefix[i] = (i > 0 && i < pl - 1 && test_rng() % 5 == 0) ? '_' : (char) ('a' + test_rng() % 26);
			for (int i = 0; i < 16; i++)
				want[i] = (uint8_t) test_rng();
			if (ulid_typeid_check_prefix(prefix, (size_t) pl, &e) != ULID_CODEC_OK)
			{
				bad++;
				continue;
			}
			len = ulid_typeid_encode(want, prefix, (size_t) pl, txt);
			if (len != (size_t) pl + (pl ? 1 : 0) + 26 ||
				ulid_typeid_decode(txt, len, id, &plen, &e) != ULID_CODEC_OK ||
				memcmp(id, want, 16) != 0 || plen != (size_t) pl)
				bad++;
			for (size_t i = len - 26; i < len; i++)
				if (txt[i] >= 'A' && txt[i] <= 'Z')
					bad++;
		}
		CHECK(bad == 0, "100000 random TypeIDs round-trip, lowercase suffix (%d bad)", bad);
	}
	return unit_done();
}
