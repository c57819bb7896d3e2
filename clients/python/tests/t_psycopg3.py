"""ulid_pg.psycopg with psycopg 3 (Debian's python3-psycopg 3.1), text and
binary."""
import datetime
import uuid

import psycopg

from ulid_pg.psycopg import register_ulid
from ulidtest import (DSN, KNOWN, KNOWN_HEX, KNOWN_UUID, ULID_TEXT, UNTOUCHED_EXPECTED, UNTOUCHED_TABLE, Checks,
                      untouched_rows, untouched_sql)


def main(t):
    conn = psycopg.connect(DSN, autocommit=True)
    conn.execute('CREATE TABLE items (id ulid PRIMARY KEY DEFAULT gen_ulid(), n int, tags ulid[])')

    def one(sql, args=(), binary=False, prepare=None):
        with conn.cursor(binary=binary) as cur:
            return cur.execute(sql, args, prepare=prepare).fetchone()[0]

    def column(sql, args=(), binary=False):
        with conn.cursor(binary=binary) as cur:
            return [r[0] for r in cur.execute(sql, args).fetchall()]

    # before the registration
    t.expect('without register_ulid, a ulid[] result is the string {...} (the gap)', '{%s}' % KNOWN,
             lambda: one('SELECT ARRAY[%s]::ulid[]', (KNOWN,)))
    t.expect('... a binary cursor returns the raw 16 bytes', bytes.fromhex(KNOWN_HEX),
             lambda: one('SELECT %s::ulid', (KNOWN,), binary=True))
    t.expect('... and a uuid.UUID (typed uuid) is stored into a ulid column: the server\'s assignment cast (1.3)',
             '01HTQW311N1KR5G0Y75M3EF00Z', lambda: one('INSERT INTO items (id, n) VALUES (%s, -1) RETURNING id',
                                                      (uuid.UUID('018eafc1-8435-0cf0-5803-c72d06e7801f'),)))
    conn.execute(UNTOUCHED_TABLE)

    def store(col, value):
        return one(untouched_sql(col), (value,))
    t.expect('without register_ulid: UUIDs, strings and bytes into uuid, text, varchar and bytea columns',
             UNTOUCHED_EXPECTED, lambda: untouched_rows(store))
    info = register_ulid(conn)
    t.ok('register_ulid(conn) finds the OID of this database', info.oid > 16383 and info.array_oid > 16383,
         f'{info.oid} {info.array_oid}')

    # issue 43 (F1): the registration used to send every uuid.UUID as 16 untyped bytes, so a
    # varchar got 'ABCDEFGHIJKLMNOP' and most random UUIDs failed with 22021
    t.expect('with register_ulid: the same rows, in text and binary (nothing but ulid changes)',
             [UNTOUCHED_EXPECTED] * 2, lambda: [untouched_rows(store), untouched_rows(
                 lambda col, value: one(untouched_sql(col), (value,), binary=True))])
    conn.execute('DELETE FROM items')
    ids = [one('INSERT INTO items (n) VALUES (%s) RETURNING id', (n,)) for n in range(1, 6)]
    t.ok('INSERT ... RETURNING id gives the DEFAULT gen_ulid() id as a str',
         all(isinstance(i, str) and ULID_TEXT.match(i) for i in ids), repr(ids))
    t.expect('WHERE id = %s with a str', 3, lambda: one('SELECT n FROM items WHERE id = %s', (ids[2],)))
    t.expect('... server-side prepared (prepare=True)', 3,
             lambda: one('SELECT n FROM items WHERE id = %s', (ids[2],), prepare=True))
    t.expect('... lowercase, with a binary cursor', [3],
             lambda: column('SELECT n FROM items WHERE id = %s', (ids[2].lower(),), binary=True))
    t.expect('a binary cursor returns ULID strs', ids, lambda: column('SELECT id FROM items ORDER BY id', binary=True))
    t.expect_true('ulid_time(id) is a datetime with tzinfo', lambda: (
        lambda ts: isinstance(ts, datetime.datetime) and ts.tzinfo is not None)(
            one('SELECT ulid_time(id) FROM items WHERE id = %s', (ids[0],))))

    # ulid[]
    t.expect('UPDATE ... SET tags = %s with a list', 1,
             lambda: conn.execute('UPDATE items SET tags = %s WHERE id = %s', (ids[:2], ids[0])).rowcount)
    t.expect('a ulid[] column reads as a list of str', ids[:2], lambda: one('SELECT tags FROM items WHERE id = %s', (ids[0],)))
    t.expect('... also in binary', ids[:2], lambda: one('SELECT tags FROM items WHERE id = %s', (ids[0],), binary=True))
    t.expect('id = ANY(%s) with a list of str', 2, lambda: one('SELECT count(*) FROM items WHERE id = ANY(%s)', (ids[:2],)))

    # uuid.UUID: psycopg's typed uuid, stored by the assignment cast, compared by ulid = uuid
    u = uuid.UUID(KNOWN_UUID)
    t.expect('INSERT of a uuid.UUID into the ulid column, no cast', KNOWN,
             lambda: one('INSERT INTO items (id, n) VALUES (%s, 100) RETURNING id', (u,)))
    t.expect('WHERE id = %s with a uuid.UUID', 100, lambda: one('SELECT n FROM items WHERE id = %s', (u,)))
    t.expect('id::uuid reads back the same uuid.UUID', u, lambda: one('SELECT id::uuid FROM items WHERE n = 100'))
    t.expect('a list of uuid.UUID (uuid[]) stores into a ulid[] column', [KNOWN],
             lambda: one('UPDATE items SET tags = %s WHERE n = 100 RETURNING tags', ([u],)))
    conn.execute('CREATE TABLE uuids (u uuid)')
    t.expect('... and a uuid.UUID still stores into and compares with a uuid column', (u, 1), lambda: (
        one('INSERT INTO uuids VALUES (%s) RETURNING u', (u,)), one('SELECT count(*) FROM uuids WHERE u = %s', (u,))))

    # bulk: executemany, binary and text COPY
    with conn.cursor() as cur:
        cur.executemany('INSERT INTO items (n) VALUES (%s) RETURNING id', [(10,), (11,)], returning=True)
        got = []
        while True:
            got.append(cur.fetchone()[0])
            if not cur.nextset():
                break
    t.ok('executemany(..., returning=True) gives each id', len(got) == 2 and got[0] < got[1], repr(got))
    conn.execute('CREATE TABLE copied (id ulid, n int)')
    with conn.cursor() as cur:
        with cur.copy('COPY (SELECT id, n FROM items WHERE n < 10 ORDER BY id) TO STDOUT (FORMAT binary)') as cp:
            cp.set_types(['ulid', 'int4'])
            rows = list(cp.rows())
    t.expect('COPY ... TO STDOUT (FORMAT binary) with set_types(["ulid", "int4"])',
             [(i, n) for n, i in enumerate(ids, 1)], lambda: rows)
    with conn.cursor() as cur:
        with cur.copy('COPY copied FROM STDIN (FORMAT binary)') as cp:
            cp.set_types(['ulid', 'int4'])
            for row in rows:
                cp.write_row(row)
    t.expect('COPY ... FROM STDIN (FORMAT binary) writes them back', ids, lambda: column('SELECT id FROM copied ORDER BY id'))
    with conn.cursor() as cur:
        with cur.copy('COPY copied (id, n) FROM STDIN (FORMAT binary)') as cp:
            cp.set_types(['ulid', 'int4'])
            cp.write_row((uuid.UUID(KNOWN_UUID), 8))
            cp.write_row((KNOWN_UUID, 9))
    t.expect('... also a uuid.UUID and a UUID\'s text (a uuid.UUID was a TypeError)', [KNOWN, KNOWN],
             lambda: column('SELECT id FROM copied WHERE n IN (8, 9) ORDER BY n'))
    with conn.cursor() as cur:
        with cur.copy('COPY copied (id, n) FROM STDIN') as cp:
            cp.write_row((KNOWN.lower(), 7))
    t.expect('COPY ... FROM STDIN (text)', KNOWN, lambda: one('SELECT id FROM copied WHERE n = 7'))

    t.expect_error('WHERE id = %b with a str is ulid = text (42883): use %s', '42883',
                   lambda: one('SELECT n FROM items WHERE id = %b', (KNOWN,)))
    conn.close()


Checks('psycopg').run(main)
