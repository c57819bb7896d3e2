"""ulid_pg.asyncpg with asyncpg (Debian's python3-asyncpg): one codec makes
ulid binary, as ULID strs (or uuid.UUID)."""
import asyncio
import datetime
import uuid

import asyncpg

from ulid_pg.asyncpg import register_ulid
from ulidtest import (DBNAME, HOST, KNOWN, KNOWN_UUID, PORT, ULID_TEXT, UNTOUCHED_EXPECTED, UNTOUCHED_TABLE, USER, Checks,
                      sqlstate_of, untouched_cases, untouched_sql)


async def run(t):
    async def connect():
        return await asyncpg.connect(host=HOST, port=PORT, database=DBNAME, user=USER)

    async def expect(desc, expected, coro):
        try:
            got = await coro
        except Exception as e:
            return t.ok(desc, False, f'{type(e).__name__}: {e}')
        return t.ok(desc, got == expected, f'expected {expected!r}, got {got!r}')

    async def expect_error(desc, exc_type, coro):
        try:
            await coro
        except Exception as e:
            return t.ok(desc, isinstance(e, exc_type), f'{type(e).__name__}: {e}')
        return t.ok(desc, False, 'no error')

    conn = await connect()
    await conn.execute('CREATE TABLE items (id ulid PRIMARY KEY DEFAULT gen_ulid(), n int, tags ulid[])')
    # before the registration
    await expect_error('without register_ulid, a uuid.UUID for a ulid parameter is refused by the client', asyncpg.exceptions.DataError,
                       conn.fetchval('SELECT n FROM items WHERE id = $1', uuid.UUID(KNOWN_UUID)))
    await expect_error('... and binary COPY of ulid fails', asyncpg.exceptions.InternalClientError,
                       conn.copy_records_to_table('items', records=[(KNOWN, 1)], columns=['id', 'n']))
    await conn.execute(UNTOUCHED_TABLE)

    async def untouched():
        out = []
        for col, value in untouched_cases():
            try:
                out.append(await conn.fetchval(untouched_sql(col).replace('%s', '$1'), value))
            except Exception as e:
                out.append(f'error {sqlstate_of(e) or type(e).__name__}')
        return out
    before = await untouched()
    t.ok('without register_ulid: UUIDs into a uuid column, strings into text and varchar, bytes into bytea',
         before[:3] == UNTOUCHED_EXPECTED[:3] and before[9:] == UNTOUCHED_EXPECTED[9:], repr(before))
    await register_ulid(conn)
    await expect('with register_ulid: the same rows and errors for every case (nothing but ulid changes)', before, untouched())

    ids = [await conn.fetchval('INSERT INTO items (n) VALUES ($1) RETURNING id', n) for n in range(1, 6)]
    t.ok('INSERT ... RETURNING id gives the DEFAULT gen_ulid() id as a str',
         all(isinstance(i, str) and ULID_TEXT.match(i) for i in ids), repr(ids))
    await expect('WHERE id = $1 with a str', 3, conn.fetchval('SELECT n FROM items WHERE id = $1', ids[2]))
    await expect('... lowercase too', 3, conn.fetchval('SELECT n FROM items WHERE id = $1', ids[2].lower()))
    await expect('ORDER BY id is insertion order', ids,
                 _col(conn, 'SELECT id FROM items ORDER BY id'))
    ts = await conn.fetchval('SELECT ulid_time(id) FROM items WHERE id = $1', ids[0])
    t.ok('ulid_time(id) is a datetime with tzinfo', isinstance(ts, datetime.datetime) and ts.tzinfo is not None, repr(ts))

    # ulid[]
    await conn.execute('UPDATE items SET tags = $1 WHERE id = $2', ids[:2], ids[0])
    await expect('a list into a ulid[] column, and back', ids[:2], conn.fetchval('SELECT tags FROM items WHERE id = $1', ids[0]))
    await expect('id = ANY($1) with a list of str', 2, conn.fetchval('SELECT count(*) FROM items WHERE id = ANY($1)', ids[:2]))

    # uuid.UUID
    u = uuid.UUID(KNOWN_UUID)
    await expect('INSERT of a uuid.UUID into the ulid column, no cast', KNOWN,
                 conn.fetchval('INSERT INTO items (id, n) VALUES ($1, 100) RETURNING id', u))
    await expect("WHERE id = $1 with a UUID's text", 100, conn.fetchval('SELECT n FROM items WHERE id = $1', KNOWN_UUID))
    await expect('WHERE id = $1 with a uuid.UUID', 100, conn.fetchval('SELECT n FROM items WHERE id = $1', u))

    # bulk: binary COPY
    await conn.execute('CREATE TABLE copied (id ulid, n int)')
    await conn.copy_records_to_table('copied', records=[(u, 100)] + [(i, n) for n, i in enumerate(ids, 1)])
    await expect('copy_records_to_table (binary COPY) of strs and a uuid.UUID', [(KNOWN, 100)] + [(i, n) for n, i in enumerate(ids, 1)],
                 _rows(conn, 'SELECT id, n FROM copied ORDER BY id'))
    await expect('executemany', 2, _executemany(conn))
    await conn.close()

    conn = await connect()
    await register_ulid(conn, as_uuid=True)
    await expect('register_ulid(conn, as_uuid=True): ids are uuid.UUID', u, conn.fetchval('SELECT id FROM items WHERE n = 100'))
    await conn.close()


async def _col(conn, sql):
    return [r[0] for r in await conn.fetch(sql)]


async def _rows(conn, sql):
    return [tuple(r) for r in await conn.fetch(sql)]


async def _executemany(conn):
    new = [KNOWN[:-1] + 'J', KNOWN[:-1] + 'K']
    await conn.executemany('INSERT INTO copied (id, n) VALUES ($1, $2)', [(new[0], 1), (new[1], 2)])
    return await conn.fetchval('SELECT count(*) FROM copied WHERE id = ANY($1)', new)


def main(t):
    asyncio.run(run(t))


Checks('asyncpg').run(main)
