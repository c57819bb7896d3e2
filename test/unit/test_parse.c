/*
 * Unit tests of the any-form parser and the UUID grammar (src/core/parse.c).
 */
#include <stdint.h>
#include <stdlib.h>

#include "base32.h"
#include "base62.h"
#include "gsid.h"
#include "parse.h"
#include "rng.h"
#include "typeid.h"
#include "unit.h"

static int
parse(const char *s, uint8_t out[16], ulid_text_form *form, ulid_codec_error *e)
{
	return ulid_parse_text(s, strlen(s), out, form, e);
}

/* hex text of 16 bytes, lowercase, with hyphens in the usual places */
static void
uuid_text(const uint8_t in[16], char *out)
{
	static const char hx[] = "0123456789abcdef";
	char	   *p = out;

	for (int i = 0; i < 16; i++)
	{
		if (i == 4 || i == 6 || i == 8 || i == 10)
			*p++ = '-';
		*p++ = hx[in[i] >> 4];
		*p++ = hx[in[i] & 15];
	}
	*p = '\0';
}

int
main(void)
{
	uint8_t		want[16],
				out[16];
	ulid_text_form form = ULID_FORM_NONE;
	ulid_codec_error e = {0, 0};

	/* the seed's ULID in every form */
	{
		static const struct
		{
			const char *text;
			ulid_text_form form;
		}			forms[] = {
			{"01JPHM2B0RF0YRM2H2C0VAG3WE", ULID_FORM_ULID},
			{"01jphm2b0rf0yrm2h2c0vag3we", ULID_FORM_ULID},
			{"0195a341-2c18-783d-8a0a-226036a80f8e", ULID_FORM_UUID},
			{"0195A3412C18783D8A0A226036A80F8E", ULID_FORM_UUID},
			{"{0195a341-2c18-783d-8a0a-226036a80f8e}", ULID_FORM_UUID},
			{"0195-a341-2c18-783d-8a0a-2260-36a8-0f8e", ULID_FORM_UUID},
			{"{0195a341-2c18783d-8a0a2260-36a80f8e}", ULID_FORM_UUID},
			{"02zNN0Sv7pLkZf079ZARhu", ULID_FORM_BASE62},
			{"user_01jphm2b0rf0yrm2h2c0vag3we", ULID_FORM_TYPEID},
			{"a_b_01jphm2b0rf0yrm2h2c0vag3we", ULID_FORM_TYPEID},
			{"usr_0UfgmdjM46GLys2pzvVCof2nyJ8Y", ULID_FORM_GSID},
			{"org_0UfgmdjM000000pzvVCof2nyJ8Y", ULID_FORM_NONE},	/* 27: no form */
		};

		ulid_b32_decode("01JPHM2B0RF0YRM2H2C0VAG3WE", 26, want, NULL);
		for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++)
		{
			int			st = parse(forms[i].text, out, &form, &e);

			if (forms[i].form == ULID_FORM_NONE)
				CHECK(st == ULID_CODEC_NO_FORM && form == ULID_FORM_NONE,
					  "%s fits no form", forms[i].text);
			else
				CHECK(st == ULID_CODEC_OK && form == forms[i].form && memcmp(out, want, 16) == 0,
					  "%s parses as form %d to the same ULID", forms[i].text, forms[i].form);
		}
	}

	/* UUID text: exactly uuid_in's grammar */
	{
		static const char *const bad_uuids[] = {
			"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1",	/* 31 digits */
			"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11-",	/* hyphen after the last group */
			"-a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",	/* leading hyphen */
			"{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",	/* unclosed brace */
			"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}",	/* unopened brace */
			"{{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}}",
			"a0eeb-c999c0b4ef8bb6d6bb9bd380a11",	/* hyphen after 5 digits */
			"a0eebc99--9c0b-4ef8-bb6d-6bb9bd380a11",	/* two hyphens */
			"g0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",	/* not hex */
			"a0eebc99 9c0b 4ef8 bb6d 6bb9bd380a11",	/* spaces */
			"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11 ",	/* trailing space */
			"a0eebc999c0b4ef8bb6d6bb9bd380a11a0",	/* 34 digits */
			"(a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11)",
			"{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}}x",
			"a0eebc99-9c0b-4ef8-bb6d-6bb9bd3-80a11",	/* hyphen after 3 of a group */
		};

		for (size_t i = 0; i < sizeof(bad_uuids) / sizeof(bad_uuids[0]); i++)
		{
			int			st = parse(bad_uuids[i], out, &form, &e);

			CHECK(st != ULID_CODEC_OK && (form == ULID_FORM_UUID || st == ULID_CODEC_NO_FORM),
				  "UUID grammar rejects \"%s\" (status %d)", bad_uuids[i], st);
		}
		CHECK(ulid_uuid_decode("{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", 37, out, &e) == ULID_CODEC_BAD_LENGTH,
			  "unclosed brace: the text ends early");
		CHECK(ulid_uuid_decode("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}", 37, out, &e) == ULID_CODEC_BAD_CHAR &&
			  e.pos == 36, "unopened brace: the brace is unexpected");
		CHECK(ulid_uuid_decode("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1x", 36, out, &e) == ULID_CODEC_BAD_CHAR &&
			  e.pos == 35, "a bad second digit of a pair is located");
		CHECK(ulid_uuid_decode("", 0, out, &e) == ULID_CODEC_BAD_LENGTH, "empty UUID text ends early");
	}

	/* shapes that fit no form */
	{
		static const char *const none[] = {
			"", "0", "01JPHM2B0RF0YRM2H2C0VAG3W", "01JPHM2B0RF0YRM2H2C0VAG3WEE",
			"02zNN0Sv7pLkZf079ZARh", "01956e412c18783d8a0a226036a80f8",
			"{0195a341-2c18-783d-8a0a-226036a80f8e}-xxxx", "_", "usr_", "user_01jphm2b0rf0yrm2h2c0vag3w",
			"usr_0UfgmdjM46GLys2pzvVCof2nyJ8YYY",
		};

		for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++)
			CHECK(parse(none[i], out, &form, &e) == ULID_CODEC_NO_FORM && form == ULID_FORM_NONE,
				  "\"%s\" fits no form", none[i]);
	}
	CHECK(parse("01JPHM2B0RF0YRM2H2C0VAG3W\xC3\xA9", out, &form, &e) == ULID_CODEC_BAD_CHAR &&
		  e.pos == 25 && form == ULID_FORM_NONE, "a non-ASCII character is reported first, at its offset");
	CHECK(parse("81JPHM2B0RF0YRM2H2C0VAG3WE", out, &form, &e) == ULID_CODEC_OVERFLOW && form == ULID_FORM_ULID,
		  "ULID overflow");
	CHECK(parse("01JPHM2B0RF0YRM2H2C0VAG3WU", out, &form, &e) == ULID_CODEC_BAD_CHAR && e.pos == 25,
		  "ULID bad character located");
	CHECK(parse("zzzzzzzzzzzzzzzzzzzzzz", out, &form, &e) == ULID_CODEC_OVERFLOW && form == ULID_FORM_BASE62,
		  "Base62 overflow");
	CHECK(parse("user_01JPHM2B0RF0YRM2H2C0VAG3WE", out, &form, &e) == ULID_CODEC_BAD_CHAR &&
		  form == ULID_FORM_TYPEID, "uppercase TypeID suffix is rejected");
	CHECK(parse("usr_0UfgmdjMzzzzzz2pzvVCof2nyJ8Y", out, &form, &e) == ULID_CODEC_NAMESPACE_OVERFLOW &&
		  form == ULID_FORM_GSID, "GSID namespace overflow");

	/* random values through every form */
	{
		int			bad = 0;

		for (int n = 0; n < 100000; n++)
		{
			char		txt[6][80];
			size_t		len;

			for (int i = 0; i < 16; i++)
				want[i] = (uint8_t) test_rng();
			want[0] &= 0x7F;	/* keep the time below 62^8 ms for the GSID */
			ulid_b32_encode(want, txt[0]);
			txt[0][26] = '\0';
			uuid_text(want, txt[1]);
			ulid_base62_encode(want, txt[2]);
			txt[2][22] = '\0';
			len = ulid_typeid_encode(want, "user", 4, txt[3]);
			txt[3][len] = '\0';
			ulid_gsid_encode(want, "usr", 3, (uint32_t) test_rng(), txt[4]);
			txt[4][32] = '\0';
			len = ulid_typeid_encode(want, "", 0, txt[5]);
			txt[5][len] = '\0';
			for (int f = 0; f < 6; f++)
				if (parse(txt[f], out, &form, &e) != ULID_CODEC_OK || memcmp(out, want, 16) != 0)
					bad++;
		}
		CHECK(bad == 0, "100000 random ULIDs parse back from all six texts (%d bad)", bad);
	}
	return unit_done();
}
