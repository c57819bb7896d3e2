/*-------------------------------------------------------------------------
 *
 * parse.h
 *	  One parser for every text form of a ULID (pure C, no PostgreSQL).
 *
 * The forms are told apart by shape alone, so no text means two things:
 *   - with a '_': split at the last one; 26 characters after it make a
 *     TypeID, 28 a GSID;
 *   - without: 26 characters are canonical ULID text (any case), 22 are
 *     Base62, 32 to 41 are UUID hex exactly as PostgreSQL's uuid_in reads it
 *     (32 hex digits, a '-' allowed after any group of four but the last,
 *     the whole optionally in braces).
 * Every form is ASCII, so a non-ASCII byte is reported first.
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_PARSE_H
#define ULID_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "codec.h"

typedef enum ulid_text_form
{
	ULID_FORM_NONE = 0,			/* the shape fits no form */
	ULID_FORM_ULID,
	ULID_FORM_UUID,
	ULID_FORM_BASE62,
	ULID_FORM_TYPEID,
	ULID_FORM_GSID
} ulid_text_form;

#define ULID_UUID_MIN_LEN	32	/* bare hex digits */
#define ULID_UUID_MAX_LEN	41	/* braces and seven hyphens */

/* UUID hex, accepting exactly what PostgreSQL's uuid_in accepts. */
extern ulid_codec_status ulid_uuid_decode(const char *s, size_t len,
										  uint8_t out[16],
										  ulid_codec_error *err);

/*
 * Decode any form into out.  *form is the form the shape selected (even on
 * failure; ULID_FORM_NONE when none fits or a byte is non-ASCII).
 */
extern ulid_codec_status ulid_parse_text(const char *s, size_t len,
										 uint8_t out[16], ulid_text_form *form,
										 ulid_codec_error *err);

#endif							/* ULID_PARSE_H */
