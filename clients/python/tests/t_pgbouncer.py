"""ulid_pg's registrations behind pgbouncer in transaction mode (two server
connections, test/lib.sh pgbouncer_start), as the README's "Connection
poolers" says to configure the drivers: four psycopg 3 connections
(prepare_threshold=None) and four asyncpg connections
(statement_cache_size=0) each register and read ulid[] in turns, so that
their statements cross server connections."""
import asyncio

import asyncpg
import psycopg

from ulid_pg.asyncpg import register_ulid as register_asyncpg
from ulid_pg.psycopg import register_ulid as register_psycopg
from ulidtest import DBNAME, DSN, HOST, KNOWN, PORT, USER, Checks


def main(t):
    conns = [psycopg.connect(DSN, autocommit=True, prepare_threshold=None) for _ in range(4)]

    def psycopg_rounds():
        for c in conns:
            register_psycopg(c)
        return [c.execute('SELECT ARRAY[%s, %s]::ulid[]', (KNOWN, KNOWN.lower())).fetchone()[0]
                for _ in range(3) for c in conns]
    t.expect('psycopg 3 (prepare_threshold=None): 4 connections register_ulid and read ulid[] as lists, 3 rounds',
             [[KNOWN, KNOWN]] * 12, psycopg_rounds)
    for c in conns:
        c.close()

    async def asyncpg_rounds():
        cs = [await asyncpg.connect(host=HOST, port=PORT, database=DBNAME, user=USER, statement_cache_size=0)
              for _ in range(4)]
        await asyncio.gather(*[register_asyncpg(c) for c in cs])
        out = []
        for _ in range(3):
            out += await asyncio.gather(*[c.fetchval('SELECT ARRAY[$1::ulid, $2]', KNOWN, KNOWN.lower()) for c in cs])
        await asyncio.gather(*[c.close() for c in cs])
        return out
    t.expect('asyncpg (statement_cache_size=0): 4 connections register_ulid at once and read ulid[], 3 rounds',
             [[KNOWN, KNOWN]] * 12, lambda: asyncio.run(asyncpg_rounds()))


Checks('pgbouncer').run(main)
