/*-------------------------------------------------------------------------
 *
 * typeid.h
 *	  TypeID (spec v0.3) text of 128-bit values (pure C, no PostgreSQL).
 *
 * A TypeID is prefix "_" suffix, or just the suffix when the prefix is
 * empty.  The prefix is at most 63 bytes of [a-z_], neither starting nor
 * ending with '_'; the suffix is the 128 bits in 26 lowercase Crockford
 * Base32 characters (the ULID text form, lowercased), first one at most '7'.
 * The parser splits at the last '_'.
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_TYPEID_H
#define ULID_TYPEID_H

#include <stddef.h>
#include <stdint.h>

#include "codec.h"

#define ULID_TYPEID_SUFFIX_LEN	26
#define ULID_TYPEID_PREFIX_MAX	63

/* Check a prefix (empty is valid): bad bytes, then length, then '_' ends. */
extern ulid_codec_status ulid_typeid_check_prefix(const char *prefix, size_t len,
												  ulid_codec_error *err);

/*
 * Write the TypeID of id with prefix (valid) to out, which holds
 * prefix_len + 1 + ULID_TYPEID_SUFFIX_LEN bytes; returns the length written
 * (no terminator).
 */
extern size_t ulid_typeid_encode(const uint8_t id[16], const char *prefix,
								 size_t prefix_len, char *out);

/*
 * Decode: the prefix (s[0 .. *prefix_len) on success) first, then the
 * suffix's characters (lowercase only), its length, its first character.
 */
extern ulid_codec_status ulid_typeid_decode(const char *s, size_t len,
											uint8_t id[16], size_t *prefix_len,
											ulid_codec_error *err);

#endif							/* ULID_TYPEID_H */
