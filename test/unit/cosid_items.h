/*
 * cosid_items.h: building CosId codec chain items (what the SQL glue reads
 * from jsonb) in C, for the unit tests and the fuzzer.
 */
#ifndef ULID_TEST_COSID_ITEMS_H
#define ULID_TEST_COSID_ITEMS_H

#include <stdarg.h>
#include <string.h>

#include "cosid.h"

static inline cosid_jval
j_str(const char *s)
{
	cosid_jval	v = {COSID_J_STRING, false, false, 0, s, strlen(s)};

	return v;
}

static inline cosid_jval
j_int(int64_t i)
{
	cosid_jval	v = {COSID_J_NUMBER, false, true, i, NULL, 0};

	return v;
}

static inline cosid_jval
j_bool(bool b)
{
	cosid_jval	v = {COSID_J_BOOL, b, false, 0, NULL, 0};

	return v;
}

/* {kind: value} */
static inline cosid_item
item_scalar(const char *kind, cosid_jval v)
{
	cosid_item	it;

	memset(&it, 0, sizeof(it));
	it.nkeys = 1;
	it.kind = kind;
	it.kind_len = strlen(kind);
	it.value = v;
	return it;
}

/* {kind: {name: value, ...}}: pairs of const char * and cosid_jval, then NULL */
static inline cosid_item
item_obj(const char *kind,...)
{
	cosid_item	it;
	va_list		ap;
	const char *name;

	memset(&it, 0, sizeof(it));
	it.nkeys = 1;
	it.kind = kind;
	it.kind_len = strlen(kind);
	it.value.type = COSID_J_OBJECT;
	va_start(ap, kind);
	while ((name = va_arg(ap, const char *)) != NULL)
	{
		cosid_jval	v = va_arg(ap, cosid_jval);

		if (it.nmembers < COSID_MAX_MEMBERS)
		{
			it.names[it.nmembers] = name;
			it.name_lens[it.nmembers] = strlen(name);
			it.members[it.nmembers] = v;
		}
		it.nmembers++;
	}
	va_end(ap);
	return it;
}

/* Build a chain of n items; COSID_OK or the first item's failure. */
static inline cosid_status
build_chain(cosid_codec *c, int n, const cosid_item *items, cosid_error *err)
{
	cosid_codec_init(c);
	for (int i = 0; i < n; i++)
	{
		cosid_status st = cosid_codec_add(c, i, &items[i], err);

		if (st != COSID_OK)
			return st;
	}
	return COSID_OK;
}

#endif
