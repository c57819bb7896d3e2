/*-------------------------------------------------------------------------
 *
 * advance_tables.c
 *	  ulid_advance_from_tables(): after a restore or a logical move, advance
 *	  every generator a column default calls above the column's largest id.
 *
 * WHAT IT READS
 * Every column of the current database whose default calls
 * gen_monotonic_ulid(), snowflake_next() or cosid80_next(), found in
 * pg_attrdef, or for a column without a default of its own, in its domain's
 * (get_typdefault(), the default PostgreSQL uses), and matched on the stored
 * expression tree (never on its text, never evaluated): the generator call
 * with constant arguments (a layout literal, a node literal or none), under
 * any of the built-in casts a column type change leaves around it (::uuid,
 * ::text, ::varchar and the like) and the coercion to a domain.  Columns of
 * ordinary and partitioned tables (with every partition and inheritance
 * child); other defaults that call a generator are named in a WARNING and
 * skipped.  Tables in exclude, or in a schema of exclude_schemas, are not
 * read (their rows say "excluded").  A default's text is deparsed only for
 * such a WARNING: deparsing costs as much as its table has columns, which
 * made 9,000 columns in 9 tables take 85 s.
 *
 * IT TRUSTS NO TENANT
 * gen_monotonic_ulid()'s state, and a Snowflake or COSID_80 state, is shared
 * by every role that mints on it, so a table's owner must not steer it: a
 * column whose largest id lies more than TRUST_AHEAD_MS (a minute) ahead of
 * the clock is reported (WARNING with table, owner and id; the row's note)
 * and left alone, unless its table is in trusted (or include_far_ahead).
 * An advance to an id at or below the clock takes no advanced state
 * (floors.c: the server-wide floor covers it), so it never counts towards
 * the advanced states' share of the table.
 *
 * NO OWNER CODE RUNS
 * The superuser who calls it must gain nothing for a table's owner, and
 * the owner's code (a partial index's predicate, an index expression, a row
 * security policy, an operator class, a trigger) must not run at all.  So
 * the largest id is read without the planner or the executor: through the
 * table's own btree index on the column when it has one that PostgreSQL or
 * this extension defined (the type's default operator class, no predicate,
 * no expression, for text the "C" collation), backwards from its end,
 * passing over entries that are not ids of the generator (a restored
 * sentinel: counted and named in a WARNING) up to INDEX_PASS_MAX of them;
 * else, or past that many, by scanning the table.  Either way it is C code of
 * PostgreSQL's access methods and this extension, and the read runs as the
 * table's owner in a security-restricted operation (SetUserIdAndSecContext,
 * as VACUUM and REINDEX do) all the same.  Row security does not apply: the
 * real maximum is read.  A foreign table or partition is skipped with a
 * WARNING (reading it would run its wrapper).
 *
 * ALL OR NOTHING
 * Every column is read and every advance worked out first; then one call
 * to ulid_advance_states() makes them all (one floor file write, one WAL
 * record per state), or none: an error before it, or its own refusal when
 * the advances would exceed the share of the table advanced states may take
 * (53400), leaves every generator as it was.
 *
 *-------------------------------------------------------------------------
 */
#include "snowflake.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/relation.h"
#include "access/table.h"
#include "access/tableam.h"
#include "catalog/indexing.h"
#include "catalog/namespace.h"
#include "catalog/pg_attrdef.h"
#include "catalog/pg_am.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_index.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_opclass.h"
#include "catalog/pg_type.h"
#include "utils/array.h"
#include "utils/ruleutils.h"
#include "commands/defrem.h"
#include "funcapi.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "parser/parse_func.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"

#include "advance.h"
#include "cosid.h"
#include "gen.h"
#include "node.h"
#include "parse.h"

/* the generator a default calls */
typedef enum GenKind
{
	GEN_NONE,
	GEN_MONOTONIC,				/* gen_monotonic_ulid() */
	GEN_SNOWFLAKE,				/* snowflake_next(layout[, node]) */
	GEN_COSID80					/* cosid80_next([node]) */
} GenKind;

/* how a stored value is read back as the generator's id */
typedef enum ReadKind
{
	READ_NONE,					/* a column type it cannot read */
	READ_BYTES16,				/* ulid, uuid: the 16 bytes */
	READ_INT8,					/* bigint */
	READ_TEXT_ULID,				/* text holding a ULID or UUID */
	READ_TEXT_INT8,				/* text holding a decimal id */
	READ_TEXT_COSID80			/* text holding COSID_80 */
} ReadKind;

/* the extension's objects, looked up in its schema */
typedef struct GenOids
{
	Oid			monotonic;
	Oid			snowflake1;		/* snowflake_next(layout) */
	Oid			snowflake2;		/* snowflake_next(layout, node) */
	Oid			cosid80;
	Oid			layout_type;
	Oid			ulid_type;
} GenOids;

/*
 * An id read back, comparable by key (memcmp): the 16 bytes of a ULID, a
 * Snowflake id in its layout's unsigned order (big-endian), COSID_80 text.
 */
typedef struct IdVal
{
	bool		have;
	uint8		key[16];
	int64		i;				/* Snowflake */
	char		text[COSID80_TEXT_LEN + 1];	/* COSID_80 */
} IdVal;

/* one column: what was found and what to do */
typedef struct Column
{
	Oid			relid;
	Oid			relnsp;
	char	   *nspname;
	char	   *relname;
	AttrNumber	attnum;
	char	   *attname;
	Oid			typid;
	GenKind		kind;			/* GEN_NONE: calls a generator otherwise */
	Node	   *expr;			/* the default's expression */
	bool		on_domain;		/* the default is the column type's (a domain) */
	Oid			domain;			/* that domain */
	char	   *note;			/* the row's note: why it was not advanced */
	sfl_layout	layout;			/* GEN_SNOWFLAKE */
	bool		node_given;
	int64		node;
	char	   *generator;		/* the row's generator text */
	char	   *advanced_to;	/* the row's value advanced to */
} Column;

/* values passed over as not ids of the column's generator */
typedef struct Passed
{
	int64		n;
	char	   *example;		/* the first one, for the WARNING */
} Passed;

/*
 * How far ahead of the clock a column's largest id may lie and still be
 * advanced to without the superuser naming its table: one minute, more
 * than the clocks of two servers disagree by, far less than a tenant could
 * gain by moving generators that every role shares.
 */
#define TRUST_AHEAD_MS	((int64) 60000)

/* index entries passed over before the table is scanned instead */
#define INDEX_PASS_MAX	10000

/* ---- finding the columns ---------------------------------------------- */

/* the tables or schemas named in an array argument */
typedef struct OidSet
{
	Oid		   *oids;
	int			n;
} OidSet;

static OidSet
oid_set(FunctionCallInfo fcinfo, int arg)
{
	OidSet		set = {NULL, 0};
	Datum	   *elems;
	bool	   *nulls;
	int			n;
	ArrayType  *a;

	if (PG_ARGISNULL(arg))
		return set;
	a = PG_GETARG_ARRAYTYPE_P(arg);
	deconstruct_array(a, ARR_ELEMTYPE(a), sizeof(Oid), true, TYPALIGN_INT,
					  &elems, &nulls, &n);
	set.oids = palloc(Max(n, 1) * sizeof(Oid));
	for (int i = 0; i < n; i++)
		if (!nulls[i])
			set.oids[set.n++] = DatumGetObjectId(elems[i]);
	return set;
}

static bool
in_set(const OidSet *set, Oid oid)
{
	for (int i = 0; i < set->n; i++)
		if (set->oids[i] == oid)
			return true;
	return false;
}

static Oid
ext_func(Oid nsp, const char *name, int nargs, Oid *argtypes)
{
	List	   *qname = list_make2(makeString(get_namespace_name(nsp)),
								   makeString(pstrdup(name)));

	return LookupFuncName(qname, nargs, argtypes, false);
}

static void
lookup_oids(Oid nsp, GenOids *o)
{
	Oid			args[2];

	o->layout_type = GetSysCacheOid2(TYPENAMENSP, Anum_pg_type_oid,
									 CStringGetDatum("snowflake_layout"),
									 ObjectIdGetDatum(nsp));
	o->ulid_type = GetSysCacheOid2(TYPENAMENSP, Anum_pg_type_oid,
								   CStringGetDatum("ulid"), ObjectIdGetDatum(nsp));
	if (!OidIsValid(o->layout_type) || !OidIsValid(o->ulid_type))
		elog(ERROR, "the ulid extension's types are missing from schema %s",
			 get_namespace_name(nsp));
	o->monotonic = ext_func(nsp, "gen_monotonic_ulid", 0, NULL);
	args[0] = o->layout_type;
	args[1] = INT8OID;
	o->snowflake1 = ext_func(nsp, "snowflake_next", 1, args);
	o->snowflake2 = ext_func(nsp, "snowflake_next", 2, args);
	args[0] = INT8OID;
	o->cosid80 = ext_func(nsp, "cosid80_next", 1, args);
}

static bool
is_generator(Oid f, const GenOids *o)
{
	return f == o->monotonic || f == o->snowflake1 || f == o->snowflake2 ||
		f == o->cosid80;
}

/* expression_tree_walker: does the expression call a generator anywhere? */
static bool
calls_generator(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (IsA(node, FuncExpr) && is_generator(((FuncExpr *) node)->funcid,
											(const GenOids *) context))
		return true;
	return expression_tree_walker(node, calls_generator, context);
}

/*
 * The expression inside the casts a column type change leaves: binary
 * relabelling, I/O conversion, a collation, the coercion to a column's
 * domain (its constraints are not evaluated: nothing is), and casts and length coercions
 * through functions of PostgreSQL's own (never a function a user wrote).
 */
static Node *
strip_casts(Node *n)
{
	for (;;)
	{
		if (IsA(n, RelabelType))
			n = (Node *) ((RelabelType *) n)->arg;
		else if (IsA(n, CoerceViaIO))
			n = (Node *) ((CoerceViaIO *) n)->arg;
		else if (IsA(n, CollateExpr))
			n = (Node *) ((CollateExpr *) n)->arg;
		else if (IsA(n, CoerceToDomain))
			n = (Node *) ((CoerceToDomain *) n)->arg;	/* a domain-typed column */
		else if (IsA(n, FuncExpr) &&
				 ((FuncExpr *) n)->funcformat != COERCE_EXPLICIT_CALL &&
				 ((FuncExpr *) n)->funcid < FirstGenbkiObjectId &&
				 ((FuncExpr *) n)->args != NIL)
			n = (Node *) linitial(((FuncExpr *) n)->args);
		else
			return n;
	}
}

/*
 * A node argument: a literal (of any integer type, through built-in casts)
 * or NULL (the server's node).  False when it is anything else.
 */
static bool
node_arg(Node *arg, Column *c)
{
	Const	   *k = (Const *) strip_casts(arg);

	if (!IsA(k, Const))
		return false;
	if (k->constisnull)
		return true;			/* the server's node */
	switch (k->consttype)
	{
		case INT8OID:
			c->node = DatumGetInt64(k->constvalue);
			break;
		case INT4OID:
			c->node = DatumGetInt32(k->constvalue);
			break;
		case INT2OID:
			c->node = DatumGetInt16(k->constvalue);
			break;
		default:
			return false;
	}
	c->node_given = true;
	return true;
}

/* Match a default's expression: the generator call, with its arguments. */
static void
match_default(Node *expr, const GenOids *o, Column *c)
{
	FuncExpr   *f = (FuncExpr *) strip_casts(expr);
	List	   *args;

	c->kind = GEN_NONE;
	if (!IsA(f, FuncExpr) || !is_generator(f->funcid, o))
		return;
	args = f->args;
	if (f->funcid == o->monotonic)
	{
		c->kind = GEN_MONOTONIC;
		return;
	}
	if (f->funcid == o->cosid80)
	{
		/* cosid80_next(): the default argument is added at planning */
		if (args == NIL || node_arg(linitial(args), c))
			c->kind = GEN_COSID80;
		return;
	}
	/* snowflake_next(layout[, node]): the layout a literal */
	{
		Const	   *lk = args != NIL ? (Const *) linitial(args) : NULL;
		char		msg[SFL_MSG_MAX];
		struct varlena *v;

		if (args == NIL || !IsA(lk, Const) || lk->constisnull ||
			lk->consttype != o->layout_type)
			return;
		if (list_length(args) == 2 && !node_arg(lsecond(args), c))
			return;
		v = PG_DETOAST_DATUM(lk->constvalue);
		if (sfl_deserialize((const uint8_t *) VARDATA_ANY(v), VARSIZE_ANY_EXHDR(v),
							&c->layout, msg, sizeof(msg)) != SFL_OK)
			elog(ERROR, "corrupt snowflake_layout value in a column default: %s", msg);
		c->kind = GEN_SNOWFLAKE;
	}
}

/* How the column's values read back as the generator's ids (or READ_NONE). */
static ReadKind
read_kind(const Column *c, const GenOids *o)
{
	bool		text = c->typid == TEXTOID || c->typid == VARCHAROID;

	switch (c->kind)
	{
		case GEN_MONOTONIC:
			if (c->typid == o->ulid_type || c->typid == UUIDOID)
				return READ_BYTES16;
			return text ? READ_TEXT_ULID : READ_NONE;
		case GEN_SNOWFLAKE:
			if (c->typid == INT8OID)
				return READ_INT8;
			return text ? READ_TEXT_INT8 : READ_NONE;
		case GEN_COSID80:
			return text ? READ_TEXT_COSID80 : READ_NONE;
		case GEN_NONE:
			break;
	}
	return READ_NONE;
}

/* ---- reading the largest id --------------------------------------------- */

/* Does a Snowflake layout use all 64 bits (ids >= 2^63 are negative bigints)? */
static bool
layout_unsigned64(const sfl_layout *l)
{
	return !l->sign && l->time_bits + l->node_bits + l->seq_bits == 64;
}

/* Count d, which is no id of the column's generator, as passed over. */
static bool
pass_over(Passed *passed, ReadKind rk, Datum d)
{
	if (passed->n++ == 0)
	{
		char	   *t = rk == READ_INT8 ? psprintf(INT64_FORMAT, DatumGetInt64(d)) :
			text_to_cstring(DatumGetTextPP(d));

		t[pg_mbcliplen(t, strlen(t), 40)] = '\0';	/* an example, not all of it */
		passed->example = t;
	}
	return false;
}

/*
 * Keep d as the largest id if it is one (an id of the generator at all:
 * returns whether it is; values that are not are counted in *passed).
 */
static bool
consider(IdVal *best, const Column *c, ReadKind rk, Datum d, Passed *passed)
{
	IdVal		v = {0};

	switch (rk)
	{
		case READ_BYTES16:
			memcpy(v.key, DatumGetPointer(d), 16);
			break;
		case READ_INT8:
		case READ_TEXT_INT8:
			if (rk == READ_INT8)
				v.i = DatumGetInt64(d);
			else
			{
				text	   *t = DatumGetTextPP(d);
				char	   *s = text_to_cstring(t);
				char	   *end;

				errno = 0;
				v.i = strtoll(s, &end, 10);
				if (errno != 0 || end == s || *end != '\0')
					return pass_over(passed, rk, d);
			}
			{
				sfl_parts	p;

				if (sfl_unpack(&c->layout, (uint64) v.i, &p) != SFL_OK)
					return pass_over(passed, rk, d);	/* outside the layout */
			}
			for (int k = 0; k < 8; k++)
				v.key[k] = (uint8) ((uint64) v.i >> (56 - 8 * k));
			break;
		case READ_TEXT_ULID:
			{
				text	   *t = DatumGetTextPP(d);
				ulid_text_form form;
				ulid_codec_error err;

				if (ulid_parse_text(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), v.key,
									&form, &err) != ULID_CODEC_OK ||
					(form != ULID_FORM_ULID && form != ULID_FORM_UUID))
					return pass_over(passed, rk, d);
				break;
			}
		case READ_TEXT_COSID80:
			{
				text	   *t = DatumGetTextPP(d);
				int64		ms;
				uint64		node,
							seq;
				cosid_error err;

				if (cosid80_parse(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), &ms, &node,
								  &seq, &err) != COSID_OK)
					return pass_over(passed, rk, d);
				memcpy(v.text, VARDATA_ANY(t), COSID80_TEXT_LEN);
				memcpy(v.key, v.text, COSID80_TEXT_LEN);
				break;
			}
		case READ_NONE:
			return false;
	}
	v.have = true;
	if (!best->have || memcmp(v.key, best->key, sizeof(v.key)) > 0)
		*best = v;
	return true;
}

/*
 * An index of rel on attnum that gives the column's largest value from its
 * end, running nothing of the owner's: a valid btree on the column alone as
 * its first key, without predicate or expressions, with the column type's
 * default operator class (PostgreSQL's or this extension's: a type has one
 * default per access method) and, for text, the "C" collation.  Returns it
 * opened, or NULL; *desc tells whether the column is stored descending.
 */
static Relation
usable_index(Relation rel, AttrNumber attnum, Oid typid, bool *desc)
{
	List	   *ids = RelationGetIndexList(rel);
	ListCell   *lc;
	Oid			opclass = GetDefaultOpClass(typid, BTREE_AM_OID);

	foreach(lc, ids)
	{
		Relation	idx = index_open(lfirst_oid(lc), AccessShareLock);
		Form_pg_index ix = idx->rd_index;
		bool		ok;

		ok = idx->rd_rel->relam == BTREE_AM_OID &&
			ix->indisvalid && ix->indisready && ix->indislive &&
			ix->indnkeyatts >= 1 && ix->indkey.values[0] == attnum &&
			heap_attisnull(idx->rd_indextuple, Anum_pg_index_indexprs, NULL) &&
			heap_attisnull(idx->rd_indextuple, Anum_pg_index_indpred, NULL) &&
			OidIsValid(opclass) && idx->rd_opcintype[0] == typid;
		if (ok)
		{
			/* the operator class of column 1, from pg_index */
			Datum		d;
			bool		isnull;
			oidvector  *classes;

			d = SysCacheGetAttr(INDEXRELID, idx->rd_indextuple,
								Anum_pg_index_indclass, &isnull);
			classes = (oidvector *) DatumGetPointer(d);
			ok = !isnull && classes->values[0] == opclass;
			if (ok && (typid == TEXTOID || typid == VARCHAROID))
				ok = idx->rd_indcollation[0] == C_COLLATION_OID;
		}
		if (ok)
		{
			*desc = (idx->rd_indoption[0] & INDOPTION_DESC) != 0;
			list_free(ids);
			return idx;
		}
		index_close(idx, AccessShareLock);
	}
	list_free(ids);
	return NULL;
}

/*
 * The largest id in the index, from its end in the direction of the
 * column's largest value, passing over entries that are not ids of the
 * generator (a restored sentinel, a value of another layout): true when it
 * found one, false when the index holds none; *gave_up when it passed over
 * INDEX_PASS_MAX entries first (the caller scans the table instead).  With
 * below_zero, only values below 0 (a bigint column of a layout using all
 * 64 bits: its largest id is the largest negative bigint, if any).  No
 * support function is called for the first (an IS NOT NULL key is the
 * access method's own), int8lt for the second.
 */
static bool
index_top(Relation rel, Relation idx, bool desc, bool below_zero,
		  Snapshot snap, AttrNumber attnum, TupleTableSlot *slot,
		  const Column *c, ReadKind rk, IdVal *best, Passed *passed,
		  bool *gave_up)
{
	ScanKeyData key;
	IndexScanDesc scan;
	bool		found = false;
	int64		passed_here = 0;

	if (below_zero)
		ScanKeyInit(&key, 1, BTLessStrategyNumber, F_INT8LT, Int64GetDatum(0));
	else
		ScanKeyEntryInitialize(&key, SK_ISNULL | SK_SEARCHNOTNULL, 1,
							   InvalidStrategy, InvalidOid, InvalidOid,
							   InvalidOid, (Datum) 0);
	scan = ulid_index_beginscan(rel, idx, snap, 1, 0);
	index_rescan(scan, &key, 1, NULL, 0);
	while (index_getnext_slot(scan, desc ? ForwardScanDirection : BackwardScanDirection, slot))
	{
		bool		isnull;
		Datum		d = slot_getattr(slot, attnum, &isnull);

		CHECK_FOR_INTERRUPTS();
		if (isnull)
			continue;
		if (consider(best, c, rk, d, passed))
		{
			found = true;
			break;
		}
		if (++passed_here >= INDEX_PASS_MAX)
		{
			*gave_up = true;
			break;
		}
	}
	index_endscan(scan);
	return found;
}

/* The largest id of one table (no partitions of its own). */
static void
read_leaf(Relation rel, const Column *c, ReadKind rk, AttrNumber attnum,
		  Snapshot snap, IdVal *best, Passed *passed)
{
	TupleTableSlot *slot = table_slot_create(rel, NULL);
	bool		desc = false;
	bool		gave_up = false;
	Relation	idx = NULL;
	int64		passed_before = passed->n;

	if (rk == READ_BYTES16 || rk == READ_INT8)
		idx = usable_index(rel, attnum, c->typid, &desc);
	if (idx != NULL)
	{
		if (!(rk == READ_INT8 && layout_unsigned64(&c->layout) &&
			  index_top(rel, idx, desc, true, snap, attnum, slot, c, rk, best,
						passed, &gave_up)) && !gave_up)
			(void) index_top(rel, idx, desc, false, snap, attnum, slot, c, rk,
							 best, passed, &gave_up);
		index_close(idx, AccessShareLock);
	}
	if (idx == NULL || gave_up)
	{
		TableScanDesc scan = ulid_table_beginscan(rel, snap);

		passed->n = passed_before;	/* counted again by the scan */
		while (table_scan_getnextslot(scan, ForwardScanDirection, slot))
		{
			bool		isnull;
			Datum		d = slot_getattr(slot, attnum, &isnull);

			CHECK_FOR_INTERRUPTS();
			if (!isnull)
				(void) consider(best, c, rk, d, passed);
		}
		table_endscan(scan);
	}
	ExecDropSingleTupleTableSlot(slot);
}

/*
 * The largest id of the column over the table and every partition and
 * inheritance child, read as each table's owner in a security-restricted
 * operation; foreign tables are skipped with a WARNING, and tables in
 * exclude are not read.
 */
static IdVal
read_column(const Column *c, ReadKind rk, Passed *passed, const OidSet *exclude)
{
	IdVal		best = {0};
	List	   *rels = find_all_inheritors(c->relid, AccessShareLock, NULL);
	ListCell   *lc;
	Snapshot	snap = RegisterSnapshot(GetLatestSnapshot());

	foreach(lc, rels)
	{
		Oid			relid = lfirst_oid(lc);
		char		kind = get_rel_relkind(relid);
		AttrNumber	attnum;
		Relation	rel;
		Oid			save_userid;
		int			save_sec;
		int			save_nestlevel;

		if (kind == RELKIND_PARTITIONED_TABLE)
			continue;			/* no storage: its partitions have the rows */
		if (kind == RELKIND_FOREIGN_TABLE)
		{
			ereport(WARNING,
					(errmsg("foreign table %s not read for the largest id of %s.%s",
							get_rel_name(relid), c->relname, quote_identifier(c->attname)),
					 errdetail("Reading a foreign table runs its foreign-data wrapper; its ids are not taken into account."),
					 errhint("If it holds ids of this generator, advance it by hand past the largest of them.")));
			continue;
		}
		if (kind != RELKIND_RELATION || in_set(exclude, relid))
			continue;			/* a partition left out by name, too */
		attnum = get_attnum(relid, c->attname);
		if (attnum == InvalidAttrNumber)
			continue;
		rel = table_open(relid, AccessShareLock);
		GetUserIdAndSecContext(&save_userid, &save_sec);
		SetUserIdAndSecContext(rel->rd_rel->relowner,
							   save_sec | SECURITY_RESTRICTED_OPERATION);
		save_nestlevel = NewGUCNestLevel();
		read_leaf(rel, c, rk, attnum, snap, &best, passed);
		AtEOXact_GUC(false, save_nestlevel);
		SetUserIdAndSecContext(save_userid, save_sec);
		table_close(rel, AccessShareLock);
	}
	UnregisterSnapshot(snap);
	return best;
}

/* ---- the advances ------------------------------------------------------- */

/* An id's text: a ULID's canonical text, a Snowflake id, COSID_80 text. */
static char *
id_text(const Column *c, const IdVal *v)
{
	char		buf[ULID_TEXT_LEN + 1];

	if (c->kind == GEN_SNOWFLAKE)
		return psprintf(INT64_FORMAT, v->i);
	if (c->kind == GEN_COSID80)
		return pnstrdup(v->text, COSID80_TEXT_LEN);
	ulid_b32_encode(v->key, buf);
	buf[ULID_TEXT_LEN] = '\0';
	return pstrdup(buf);
}

/* The time of an id, as Unix ms. */
static int64
id_unix_ms(const Column *c, const IdVal *v)
{
	switch (c->kind)
	{
		case GEN_MONOTONIC:
			return (int64) (ulid_load_be64(v->key) >> 16);
		case GEN_SNOWFLAKE:
			return sfl_tick_unix_ms(&c->layout, sf_unpack(&c->layout, v->i).tick);
		case GEN_COSID80:
			{
				int64		ms;
				uint64		node,
							seq;
				cosid_error err;

				(void) cosid80_parse(v->text, COSID80_TEXT_LEN, &ms, &node, &seq, &err);
				return ms;
			}
		case GEN_NONE:
			break;
	}
	return 0;
}

/* Unix ms plus an interval (22008 outside timestamptz's range). */
static int64
plus_interval(int64 ms, Interval *margin)
{
	TimestampTz ts = ulid_unix_ms_to_timestamptz(ms);

	ts = DatumGetTimestampTz(DirectFunctionCall2(timestamptz_pl_interval,
												 TimestampTzGetDatum(ts),
												 PointerGetDatum(margin)));
	return ulid_timestamptz_floor_unix_ms(ts);
}

/*
 * The id to advance to (the largest stored, or past it by margin: the
 * largest id of the millisecond or tick margin after its time) and its
 * advance.  Returns whether the state moves at all (false: every id of the
 * node lies above it already).
 */
static bool
plan_advance(Column *c, IdVal *top, int64 t, Interval *margin, bool has_margin,
			 UlidAdvance *adv)
{
	switch (c->kind)
	{
		case GEN_MONOTONIC:
			if (has_margin)
			{
				int64		m = plus_interval(t, margin);
				uint8		upper[16];

				if (m > ULID_MAX_UNIX_MS)
					ulid_report_time_exhausted();
				for (int k = 0; k < 6; k++)
					upper[k] = (uint8) (m >> (40 - 8 * k));
				memset(upper + 6, 0xFF, 10);
				if (memcmp(upper, top->key, 16) > 0)
					memcpy(top->key, upper, 16);
			}
			c->advanced_to = id_text(c, top);
			ulid_monotonic_advance_of(top->key, adv);
			return true;
		case GEN_SNOWFLAKE:
			if (has_margin)
			{
				TimestampTz ts = ulid_unix_ms_to_timestamptz(plus_interval(t, margin));
				const sfl_layout *l = &c->layout;
				int64		upper = (int64) sfl_pack(l, sf_tick_of_timestamptz(l, ts),
													 sfl_max_node(l), sfl_max_seq(l));

				if (layout_unsigned64(l) ? (uint64) upper > (uint64) top->i : upper > top->i)
					top->i = upper;
			}
			c->advanced_to = id_text(c, top);
			return sf_advance_of(&c->layout, ULID_STATE_SNOWFLAKE, c->node, top->i, adv);
		case GEN_COSID80:
			{
				int64		ms;
				uint64		node,
							seq;
				cosid_error err;

				(void) cosid80_parse(top->text, COSID80_TEXT_LEN, &ms, &node, &seq, &err);
				if (has_margin)
				{
					int64		m = plus_interval(t, margin);
					char		buf[COSID80_TEXT_LEN + 1];

					if (m > COSID80_MAX_MS)
						ereport(ERROR,
								(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
								 errmsg("the margin moves COSID_80 ids past %s", ulid_iso_or_ms(COSID80_MAX_MS))));
					cosid80_format(m, COSID80_MAX_NODE, COSID80_MAX_SEQ, buf);
					if (memcmp(buf, top->text, COSID80_TEXT_LEN) > 0)
					{
						memcpy(top->text, buf, COSID80_TEXT_LEN);
						ms = m;
						node = COSID80_MAX_NODE;
						seq = COSID80_MAX_SEQ;
					}
				}
				c->advanced_to = id_text(c, top);
				return cosid80_advance_of(c->node, ms, node, seq, adv);
			}
		case GEN_NONE:
			break;
	}
	return false;
}

static const char *
generator_text(const Column *c)
{
	switch (c->kind)
	{
		case GEN_MONOTONIC:
			return "gen_monotonic_ulid()";
		case GEN_SNOWFLAKE:
			return c->node < 0 ?
				psprintf("snowflake_next(%s, NULL)", quote_literal_cstr(sf_layout_name(&c->layout))) :
				psprintf("snowflake_next(%s, " INT64_FORMAT ")",
						 quote_literal_cstr(sf_layout_name(&c->layout)), c->node);
		case GEN_COSID80:
			return c->node < 0 ? "cosid80_next(NULL)" :
				psprintf("cosid80_next(" INT64_FORMAT ")", c->node);
		case GEN_NONE:
			break;
	}
	return NULL;
}

#define BY_HAND_HINT "Advance this generator by hand: ulid_monotonic_advance(), snowflake_advance() or cosid80_advance() with the column's largest id."

/* Order the rows as the catalog does: schema, table, column position. */
static int
column_cmp(const void *a, const void *b)
{
	const Column *x = *(Column *const *) a;
	const Column *y = *(Column *const *) b;
	int			r = strcmp(x->nspname, y->nspname);

	if (r == 0)
		r = strcmp(x->relname, y->relname);
	if (r == 0)
		r = x->attnum < y->attnum ? -1 : x->attnum > y->attnum;
	return r;
}

/*
 * A column of relid (a table of its own, not a partition) whose default,
 * expr, calls a generator: added to cols when the advance is for it.
 */
static List *
add_column(List *cols, const GenOids *o, Oid relid, AttrNumber attnum,
		   Node *expr, Oid domain)
{
	HeapTuple	reltup = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	HeapTuple	atttup;
	Form_pg_class rc;
	Form_pg_attribute att;

	if (!HeapTupleIsValid(reltup))
		return cols;
	rc = (Form_pg_class) GETSTRUCT(reltup);
	atttup = SearchSysCache2(ATTNUM, ObjectIdGetDatum(relid), Int16GetDatum(attnum));
	if (!HeapTupleIsValid(atttup))
	{
		ReleaseSysCache(reltup);
		return cols;
	}
	att = (Form_pg_attribute) GETSTRUCT(atttup);
	if ((rc->relkind == RELKIND_RELATION || rc->relkind == RELKIND_PARTITIONED_TABLE) &&
		!rc->relispartition && !att->attisdropped && att->attgenerated == '\0' &&
		(rc->relpersistence != RELPERSISTENCE_TEMP || isTempNamespace(rc->relnamespace)))
	{
		Column	   *c = palloc0(sizeof(Column));

		c->relid = relid;
		c->relnsp = rc->relnamespace;
		c->nspname = get_namespace_name(rc->relnamespace);
		c->relname = pstrdup(NameStr(rc->relname));
		c->attnum = attnum;
		c->attname = pstrdup(NameStr(att->attname));
		c->typid = getBaseType(att->atttypid);	/* a domain's: read as its base */
		c->node = -1;
		c->expr = expr;
		c->on_domain = OidIsValid(domain);
		c->domain = domain;
		match_default(expr, o, c);
		cols = lappend(cols, c);
	}
	ReleaseSysCache(atttup);
	ReleaseSysCache(reltup);
	return cols;
}

/*
 * The default's text, for a WARNING (deparsing a column default costs as
 * much as the table has columns: only for the few that need it).
 */
static char *
default_text(const Column *c)
{
	if (c->on_domain)
		return psprintf("%s (the default of the domain %s)",
						deparse_expression(c->expr, NIL, false, false),
						format_type_be(c->domain));
	return deparse_expression(c->expr, deparse_context_for(c->relname, c->relid),
							  false, false);
}

/*
 * The columns of the current database whose default calls a generator:
 * the column's own (pg_attrdef), or, for a column without one, its
 * domain's (the default PostgreSQL uses: get_typdefault(), which a domain
 * over a domain inherits when it was created).
 */
static List *
find_columns(const GenOids *o)
{
	Relation	cat = table_open(AttrDefaultRelationId, AccessShareLock);
	SysScanDesc scan = systable_beginscan(cat, InvalidOid, false, NULL, 0, NULL);
	HeapTuple	tup;
	List	   *cols = NIL;
	List	   *domains = NIL;
	List	   *domain_defs = NIL;

	while (HeapTupleIsValid(tup = systable_getnext(scan)))
	{
		Form_pg_attrdef d = (Form_pg_attrdef) GETSTRUCT(tup);
		bool		isnull;
		Datum		bin = heap_getattr(tup, Anum_pg_attrdef_adbin,
									   RelationGetDescr(cat), &isnull);
		Node	   *expr;

		if (isnull)
			continue;
		expr = stringToNode(TextDatumGetCString(bin));
		if (calls_generator(expr, (void *) o))
			cols = add_column(cols, o, d->adrelid, d->adnum, expr, InvalidOid);
	}
	systable_endscan(scan);
	table_close(cat, AccessShareLock);

	/* domains whose default calls a generator */
	cat = table_open(TypeRelationId, AccessShareLock);
	scan = systable_beginscan(cat, InvalidOid, false, NULL, 0, NULL);
	while (HeapTupleIsValid(tup = systable_getnext(scan)))
	{
		Form_pg_type t = (Form_pg_type) GETSTRUCT(tup);
		Node	   *expr;

		if (t->typtype != TYPTYPE_DOMAIN ||
			heap_attisnull(tup, Anum_pg_type_typdefaultbin, NULL))
			continue;
		expr = get_typdefault(t->oid);
		if (expr != NULL && calls_generator(expr, (void *) o))
		{
			domains = lappend_oid(domains, t->oid);
			domain_defs = lappend(domain_defs, expr);
		}
	}
	systable_endscan(scan);
	table_close(cat, AccessShareLock);
	if (domains == NIL)
		return cols;

	/* the columns of those domains without a default of their own */
	cat = table_open(AttributeRelationId, AccessShareLock);
	scan = systable_beginscan(cat, InvalidOid, false, NULL, 0, NULL);
	while (HeapTupleIsValid(tup = systable_getnext(scan)))
	{
		Form_pg_attribute att = (Form_pg_attribute) GETSTRUCT(tup);
		ListCell   *lc;
		int			i = 0;

		if (att->attnum <= 0 || att->atthasdef || att->attisdropped)
			continue;
		foreach(lc, domains)
		{
			if (lfirst_oid(lc) == att->atttypid)
			{
				cols = add_column(cols, o, att->attrelid, att->attnum,
								  (Node *) list_nth(domain_defs, i), att->atttypid);
				break;
			}
			i++;
		}
	}
	systable_endscan(scan);
	table_close(cat, AccessShareLock);
	return cols;
}

/*
 * Skip c (its largest id top, of Unix ms t, lies more than TRUST_AHEAD_MS
 * ahead of the clock and its table is not trusted): a WARNING naming the
 * table, its owner and the id.
 */
static void
skip_ahead(Column *c, const char *qualified, const char *col, IdVal *top, int64 t)
{
	HeapTuple	reltup = SearchSysCache1(RELOID, ObjectIdGetDatum(c->relid));
	const char *owner = NULL;
	char	   *id = id_text(c, top);

	if (HeapTupleIsValid(reltup))
	{
		owner = GetUserNameFromId(((Form_pg_class) GETSTRUCT(reltup))->relowner, true);
		ReleaseSysCache(reltup);
	}
	c->note = psprintf("largest id %s, of %s, more than a minute ahead of the clock, table not trusted",
					   id, ulid_iso_or_ms(t));
	ereport(WARNING,
			(errmsg("column %s.%s skipped: its largest id %s, of %s, lies more than a minute ahead of the clock",
					qualified, col, id, ulid_iso_or_ms(t)),
			 errdetail("The table is owned by %s. %s is shared by every role that mints on it: advancing it to ids that far ahead would make every role's ids run ahead too.",
					   owner ? quote_identifier(owner) : "an unknown role", c->generator),
			 errhint("If the ids are genuine (the old server's clock ran ahead, or its generator was advanced), name the table: ulid_advance_from_tables(trusted => '{%s}').",
					 qualified)));
}

PG_FUNCTION_INFO_V1(ulid_advance_from_tables);
Datum
ulid_advance_from_tables(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Interval   *margin = PG_ARGISNULL(0) ? NULL : PG_GETARG_INTERVAL_P(0);
	bool		include_far_ahead = !PG_ARGISNULL(1) && PG_GETARG_BOOL(1);
	OidSet		trusted = oid_set(fcinfo, 2);
	OidSet		exclude = oid_set(fcinfo, 3);
	OidSet		exclude_schemas = oid_set(fcinfo, 4);
	bool		has_margin;
	GenOids		o;
	List	   *cols;
	Column	  **sorted;
	UlidAdvance *advs;
	int			nadv = 0;
	int			n;
	int64		now = ulid_clock_now_ms();
	Interval	zero = {0};

	if (!superuser())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("must be superuser to advance the ulid generators from tables"),
				 errdetail("The shared generator state is a server-wide resource.")));
	if (margin == NULL ||
		DatumGetBool(DirectFunctionCall2(interval_lt, IntervalPGetDatum(margin),
										 IntervalPGetDatum(&zero))))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("margin must be zero or positive, not %s",
						margin == NULL ? "NULL" :
						DatumGetCString(DirectFunctionCall1(interval_out, IntervalPGetDatum(margin)))),
				 errdetail("The generators are advanced above each column's largest id plus the margin."),
				 errhint("Pass a margin such as interval '1 minute', or leave it out.")));
	has_margin = margin->time != 0 || margin->day != 0 || margin->month != 0;

	InitMaterializedSRF(fcinfo, 0);
	lookup_oids(get_func_namespace(fcinfo->flinfo->fn_oid), &o);
	cols = find_columns(&o);
	n = list_length(cols);
	sorted = palloc(Max(n, 1) * sizeof(Column *));
	for (int i = 0; i < n; i++)
		sorted[i] = (Column *) list_nth(cols, i);
	qsort(sorted, n, sizeof(Column *), column_cmp);
	advs = palloc(Max(n, 1) * sizeof(UlidAdvance));

	/* read every column and work out every advance; nothing moves yet */
	for (int i = 0; i < n; i++)
	{
		Column	   *c = sorted[i];
		ReadKind	rk = read_kind(c, &o);
		char	   *qualified = quote_qualified_identifier(c->nspname, c->relname);
		const char *col = quote_identifier(c->attname);
		IdVal		top;
		Passed		passed = {0};
		int64		t;

		CHECK_FOR_INTERRUPTS();
		if (in_set(&exclude, c->relid) || in_set(&exclude_schemas, c->relnsp))
		{
			c->note = "excluded";
			continue;
		}
		if (c->kind == GEN_NONE || rk == READ_NONE)
		{
			ereport(WARNING,
					(errmsg("column %s.%s skipped: its default is not a plain generator call", qualified, col),
					 errdetail("The default is %s. ulid_advance_from_tables() reads gen_monotonic_ulid() on ulid, uuid or text columns, snowflake_next('layout'[, node]) on bigint or text and cosid80_next([node]) on text, with constant arguments, under the casts a type change leaves.",
							   default_text(c)),
					 errhint(BY_HAND_HINT)));
			c->kind = GEN_NONE;
			c->note = "not a plain generator call";
			continue;
		}
		if (c->kind != GEN_MONOTONIC && !c->node_given)
			c->node = ulid_node_id();
		c->generator = (char *) generator_text(c);
		top = read_column(c, rk, &passed, &exclude);
		if (passed.n > 0)
			ereport(WARNING,
					(errmsg("column %s.%s: passed over " INT64_FORMAT " values that are not ids of %s, such as %s",
							qualified, col, passed.n, c->generator, passed.example),
					 errdetail("Only values that read back as the generator's ids count: the largest of those is advanced to.")));
		if (!top.have)
		{
			c->note = "no id stored";
			continue;			/* nothing to advance */
		}
		if (c->kind != GEN_MONOTONIC && c->node < 0)
		{
			ereport(WARNING,
					(errmsg("column %s.%s skipped: this server has no node id for %s", qualified, col, c->generator),
					 errdetail("The default mints on ulid.node_id, which is not set."),
					 errhint("Set ulid.node_id (the node the ids were minted on, if this server takes its place) and call ulid_advance_from_tables() again.")));
			c->note = "no node id";
			continue;
		}
		if (c->kind == GEN_SNOWFLAKE && (uint64) c->node > sfl_max_node(&c->layout))
		{
			ereport(WARNING,
					(errmsg("column %s.%s skipped: node " INT64_FORMAT " does not fit the layout %s",
							qualified, col, c->node, sf_layout_name(&c->layout)),
					 errdetail("Its node fields hold %d bits together: nodes 0 to " UINT64_FORMAT ".",
							   c->layout.node_bits, sfl_max_node(&c->layout)),
					 errhint(BY_HAND_HINT)));
			c->note = "node does not fit the layout";
			continue;
		}
		if (c->kind == GEN_COSID80 && (uint64) c->node > COSID80_MAX_NODE)
		{
			ereport(WARNING,
					(errmsg("column %s.%s skipped: node " INT64_FORMAT " does not fit COSID_80",
							qualified, col, c->node),
					 errhint(BY_HAND_HINT)));
			c->note = "node does not fit COSID_80";
			continue;
		}
		t = id_unix_ms(c, &top);
		if (t > now + TRUST_AHEAD_MS && !include_far_ahead && !in_set(&trusted, c->relid))
		{
			skip_ahead(c, qualified, col, &top, t);
			continue;
		}
		if (plan_advance(c, &top, t, margin, has_margin, &advs[nadv]))
		{
			if (t > now + ULID_FAR_AHEAD_MS)
				ulid_warn_far_ahead(advs[nadv].ms, "ulid_advance_from_tables()");
			if (advs[nadv].ms <= now)
				c->note = "at or below the clock: no advanced state";
			nadv++;
		}
		else
			c->note = "every id of this node lies above it: no advance needed";
	}

	/* every advance at once, or none */
	ulid_advance_states(advs, nadv);

	for (int i = 0; i < n; i++)
	{
		Column	   *c = sorted[i];
		Datum		values[5];
		bool		nulls[5] = {false, false, false, false, false};

		values[0] = ObjectIdGetDatum(c->relid);
		values[1] = DirectFunctionCall1(namein, CStringGetDatum(c->attname));
		if (c->generator != NULL)
			values[2] = CStringGetTextDatum(c->generator);
		else
			nulls[2] = true;
		if (c->advanced_to != NULL)
			values[3] = CStringGetTextDatum(c->advanced_to);
		else
			nulls[3] = true;
		if (c->note != NULL)
			values[4] = CStringGetTextDatum(c->note);
		else
			nulls[4] = true;
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
