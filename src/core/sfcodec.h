/*-------------------------------------------------------------------------
 *
 * sfcodec.h
 *	  Text forms of Snowflake ids (pure C, no PostgreSQL calls): CosId's
 *	  friendly form and SCRU64's Base36.
 *
 * Friendly form: yyyyMMddHHmmssSSS-node-seq, the time in some time zone's
 * local time (the caller converts), node (all node fields together) and
 * sequence in decimal, zero-padded to the width of their largest value.
 *
 * SCRU64 text: 12 Base36 digits (0-9a-z), lowercase on output, any case on
 * input; 12 digits hold exactly the values below 36^12.
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_SFCODEC_H
#define ULID_SFCODEC_H

#include "layout.h"

#define SFL_FRIENDLY_MAX	48	/* 17 + 1 + 16 + 1 + 10 digits, with NUL */
#define SFL_SCRU64_LEN		12

/* Decimal digits of v (at least 1). */
extern int	sfl_decimal_width(uint64_t v);

/*
 * Write the friendly form of (local_ms, node, seq) to buf: false when the
 * local time is outside years 0000..9999.
 */
extern bool sfl_friendly_format(const sfl_layout *l, int64_t local_ms,
								uint64_t node, uint64_t seq, char *buf);

/*
 * Parse the friendly form: SFL_ERR_SYNTAX for a malformed text or a time
 * that is not on the calendar, SFL_ERR_RANGE for a node or sequence too
 * large for the layout.  local_ms is the local time as if it were UTC.
 */
extern sfl_status sfl_friendly_parse(const sfl_layout *l, const char *s,
									 size_t len, int64_t *local_ms,
									 uint64_t *node, uint64_t *seq,
									 char *msg, size_t msglen);

/* Value of a Base36 digit (0-9, a-z, A-Z), or -1. */
extern int	sfl_base36_digit(unsigned char c);

/* 12 lowercase characters and a NUL; false when v >= 36^12. */
extern bool sfl_scru64_encode(uint64_t v, char *out);

/*
 * Decode exactly 12 Base36 characters, any case.  SFL_ERR_SYNTAX when the
 * length is wrong (*bad_offset = -1) or at the first character that is not
 * a Base36 digit (its byte offset in *bad_offset).
 */
extern sfl_status sfl_scru64_decode(const char *s, size_t len, uint64_t *v,
									long *bad_offset);

#endif							/* ULID_SFCODEC_H */
