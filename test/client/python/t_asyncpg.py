"""asyncpg (Debian's python3-asyncpg) against the ulid extension.  asyncpg
talks binary for the types it knows and falls back to text for ulid; one
codec registration makes ulid binary (as uuid.UUID, or as ULID strs)."""
import asyncio
import datetime
import uuid

import asyncpg

from ulidtest import DBNAME, HOST, KNOWN, KNOWN_UUID, PORT, ULID_TEXT, USER, Checks, ulid_from_bytes, ulid_to_bytes


async def run(t):
    async def connect():
        return await asyncpg.connect(host=HOST, port=PORT, database=DBNAME, user=USER)

    conn = await connect()
    await conn.execute('CREATE TABLE items (id ulid PRIMARY KEY DEFAULT gen_ulid(), n int)')

    async def expect(desc, expected, coro):
        try:
            got = await coro
        except Exception as e:
            return t.ok(desc, False, f'{type(e).__name__}: {e}')
        return t.ok(desc, got == expected, f'expected {expected!r}, got {got!r}')

    async def expect_error(desc, sqlstate, coro, exc_type=None):
        try:
            await coro
        except Exception as e:
            code = getattr(e, 'sqlstate', None)
            passed = isinstance(e, exc_type) if exc_type else code == sqlstate
            return t.ok(desc, passed, f'{type(e).__name__} {code}: {e}')
        return t.ok(desc, False, 'no error')

    async def rows(sql, *args):
        return [tuple(r) if len(r) > 1 else r[0] for r in await conn.fetch(sql, *args)]

    ids = [await conn.fetchval('INSERT INTO items (n) VALUES ($1) RETURNING id', n) for n in range(1, 6)]
    t.ok('INSERT ... RETURNING id gives the DEFAULT gen_ulid() id as a str (text fallback)',
         all(isinstance(i, str) and ULID_TEXT.match(i) for i in ids), repr(ids))
    await conn.execute('INSERT INTO items (id, n) VALUES ($1, 100)', KNOWN)
    await expect('WHERE id = $1 with a str', 3, conn.fetchval('SELECT n FROM items WHERE id = $1', ids[2]))
    await expect('ORDER BY id is insertion order', ids,
                 rows('SELECT id FROM items WHERE n < 100 ORDER BY id'))
    ts = await conn.fetchval('SELECT ulid_time(id) FROM items WHERE id = $1', ids[0])
    t.ok('ulid_time(id) is a datetime with tzinfo', isinstance(ts, datetime.datetime) and ts.tzinfo is not None, repr(ts))
    await expect('id = ANY($1) with a list of str', 2,
                 conn.fetchval('SELECT count(*) FROM items WHERE id = ANY($1)', ids[:2]))
    await expect('array_agg(id) is a list of str', ids[:2],
                 conn.fetchval('SELECT array_agg(id ORDER BY id) FROM items WHERE n < 3'))
    await expect_error('a uuid.UUID for a ulid parameter is refused by the client (DataError)', None,
                       conn.fetchval('SELECT n FROM items WHERE id = $1', uuid.UUID(KNOWN_UUID)),
                       asyncpg.exceptions.DataError)
    await expect('... $1::uuid takes it (the ulid = uuid operator)', 100,
                 conn.fetchval('SELECT n FROM items WHERE id = $1::uuid', uuid.UUID(KNOWN_UUID)))
    await expect_error('binary COPY of ulid needs a codec', None,
                       conn.copy_records_to_table('items', records=[(KNOWN, 1)], columns=['id', 'n']),
                       asyncpg.exceptions.InternalClientError)

    # binary, as uuid.UUID: ulid's wire form is uuid's
    await conn.set_builtin_type_codec('ulid', schema='public', codec_name='uuid')
    await expect('with set_builtin_type_codec("ulid", codec_name="uuid"), ids are uuid.UUID',
                 uuid.UUID(KNOWN_UUID), conn.fetchval('SELECT id FROM items WHERE n = 100'))
    await expect('... and a uuid.UUID parameter finds the row', 100,
                 conn.fetchval('SELECT n FROM items WHERE id = $1', uuid.UUID(KNOWN_UUID)))
    await conn.close()

    # binary, as ULID strs: a codec of our own
    conn = await connect()
    await conn.set_type_codec('ulid', schema='public', format='binary',
                              encoder=ulid_to_bytes, decoder=ulid_from_bytes)
    await expect('with a binary codec of ULID text <-> 16 bytes, ids are ULID strs', KNOWN,
                 conn.fetchval('SELECT id FROM items WHERE n = 100'))
    await expect('... ulid[] a list of them', ids[:2],
                 conn.fetchval('SELECT array_agg(id ORDER BY id) FROM items WHERE n < 3'))
    await expect('... a str parameter is sent as 16 bytes', 3,
                 conn.fetchval('SELECT n FROM items WHERE id = $1', ids[2]))
    await conn.execute('CREATE TABLE copied (id ulid, n int)')
    await conn.copy_records_to_table('copied', records=[(i, n) for n, i in enumerate(ids, 1)])
    await expect('copy_records_to_table (binary COPY) writes them', [(i, n) for n, i in enumerate(ids, 1)],
                 rows('SELECT id::text, n FROM copied ORDER BY id'))
    await conn.close()


def main(t):
    asyncio.run(run(t))


Checks('asyncpg').run(main)
