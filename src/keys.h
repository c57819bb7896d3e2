/*-------------------------------------------------------------------------
 *
 * keys.h
 *	  Named secret keys (keys.c) for the masks (masks.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_KEYS_H
#define ULID_KEYS_H

#include "ulid.h"

#include "lib/stringinfo.h"
#include "mask.h"

/*
 * What a call site of a mask function keeps in fn_extra: the key it found
 * last (valid while the key cache's generation is unchanged) and, for the
 * Snowflake masks, sf_layout_arg_in()'s slot.
 */
typedef struct ulid_key_site
{
	uint64		generation;		/* 0: nothing found yet */
	const ulid_mask_key *key;
	int			namelen;
	char		name[NAMEDATALEN];
	void	   *layout_slot;
} ulid_key_site;

/* fn_extra's site, allocated on the first call */
static inline ulid_key_site *
ulid_key_site_of(FunctionCallInfo fcinfo)
{
	if (unlikely(fcinfo->flinfo->fn_extra == NULL))
		fcinfo->flinfo->fn_extra = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt,
														  sizeof(ulid_key_site));
	return (ulid_key_site *) fcinfo->flinfo->fn_extra;
}

/* the key cache's generation: changes whenever the key table changes */
extern ULID_HIDDEN uint64 ulid_key_generation;

/* the slow path of ulid_key_arg: find the key in the cache, loading it */
extern const ulid_mask_key *ulid_key_find(ulid_key_site *site, text *name);

/*
 * The key named by text argument argno (42704 when there is none): on the
 * second call at a site with the same name, a comparison and no lookup.
 * The key is valid until invalidation messages are next processed (a lock
 * taken, a command's end): read every other argument before it.
 */
static inline const ulid_mask_key *
ulid_key_arg(FunctionCallInfo fcinfo, int argno)
{
	ulid_key_site *site = ulid_key_site_of(fcinfo);
	text	   *name = PG_GETARG_TEXT_PP(argno);
	int			len = VARSIZE_ANY_EXHDR(name);

	if (likely(site->generation == ulid_key_generation && site->namelen == len &&
			   memcmp(site->name, VARDATA_ANY(name), len) == 0))
		return site->key;
	return ulid_key_find(site, name);
}

/* defines ulid.keyring_command (from _PG_init) */
extern void ulid_keys_init(void);

/*
 * For ulid_health(): whether the current database has keys that cannot be
 * used because the keyring root is missing or damaged (or its command
 * fails), or that another root made.  true with problem (what is wrong,
 * naming the file or setting) and fix (what to do) appended; false when
 * the database has no keys or the root verifies every one.  Raises no
 * error of its own (it reads the key table and may run
 * ulid.keyring_command).
 */
extern bool ulid_keyring_root_problem(StringInfo problem, StringInfo fix);

#endif							/* ULID_KEYS_H */
