/*-------------------------------------------------------------------------
 *
 * modules.h
 *	  What _PG_init (ulid.c) sets up: each module's settings, hooks and
 *	  view kinds.  Included by ulid.c and by the module defining each
 *	  function (for its prototype); it includes nothing, so the entry
 *	  point depends on the modules and no module on the entry point.
 *
 *-------------------------------------------------------------------------
 */
#ifndef ULID_MODULES_H
#define ULID_MODULES_H

/* state_table.c: the capacity settings and the preload hooks (first) */
extern void ulid_state_table_init(void);

/* floor_wal.c: the floors' WAL resource manager (while preloading) */
extern void ulid_wal_init(void);

/* gen_monotonic.c: gen_monotonic_ulid()'s view kind */
extern void ulid_gen_monotonic_init(void);

/* gen_snowflake.c: snowflake_next()'s settings and view kind */
extern void ulid_gen_snowflake_init(void);

/* cosid80.c: cosid80_next()'s view kind */
extern void ulid_cosid80_init(void);

/* stable_bound.c: the transaction callback and the shared memory request */
extern void ulid_stable_bound_init(void);

#endif							/* ULID_MODULES_H */
