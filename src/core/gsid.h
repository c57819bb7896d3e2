/*-------------------------------------------------------------------------
 *
 * gsid.h
 *	  GSID text of ULIDs (pure C, no PostgreSQL calls).
 *
 * A GSID is prefix "_" body: the prefix is 1-63 lowercase ASCII letters
 * (GSID's own convention is three), the body 28 Base62 characters: the
 * ULID's 48-bit time in 8 (so times from 62^8 ms, in the year 8888, do not
 * fit), a 32-bit namespace in 6 and the ULID's 80 random bits in 14.
 * Stripping prefix and namespace gives back exactly the ULID's bits.
 * The prefix is letters only (no "_"), as SPEC prescribes, while a TypeID
 * prefix may hold inner "_"; both split at the last "_", so a GSID with an
 * underscored prefix is rejected, never misread.
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_GSID_H
#define ULID_GSID_H

#include <stddef.h>
#include <stdint.h>

#include "codec.h"

#define ULID_GSID_TIME_CHARS	8
#define ULID_GSID_NS_CHARS		6
#define ULID_GSID_RANDOM_CHARS	14
#define ULID_GSID_BODY_LEN		28
#define ULID_GSID_PREFIX_MAX	63
/* 62^8 - 1: the last millisecond 8 Base62 characters hold */
#define ULID_GSID_MAX_UNIX_MS	INT64_C(218340105584895)

/* Check a prefix: 1-63 bytes, each a-z. */
extern ulid_codec_status ulid_gsid_check_prefix(const char *prefix, size_t len,
												ulid_codec_error *err);

/*
 * Write prefix (valid) "_" and the body of id with namespace ns to out,
 * which holds prefix_len + 1 + ULID_GSID_BODY_LEN bytes (no terminator).
 * ULID_CODEC_TIME_OVERFLOW when id's time is above ULID_GSID_MAX_UNIX_MS.
 */
extern ulid_codec_status ulid_gsid_encode(const uint8_t id[16],
										  const char *prefix, size_t prefix_len,
										  uint32_t ns, char *out);

/*
 * Split at the last '_' and decode.  On success id holds the ULID, the
 * prefix is s[0 .. *prefix_len) and *ns the namespace.  Checks in order:
 * the separator, the prefix, the body's characters, its length, then the
 * namespace (below 2^32) and the randomness (below 2^80).
 */
extern ulid_codec_status ulid_gsid_decode(const char *s, size_t len,
										  uint8_t id[16], size_t *prefix_len,
										  uint32_t *ns, ulid_codec_error *err);

#endif							/* ULID_GSID_H */
