"""ulid_pg.psycopg2 with psycopg2 (Debian's python3-psycopg2)."""
import datetime
import io
import uuid

import psycopg2
import psycopg2.extras

import ulid_pg
from ulid_pg.psycopg2 import register_ulid
from ulidtest import (DSN, KNOWN, KNOWN_UUID, ULID_TEXT, UNTOUCHED_EXPECTED, UNTOUCHED_TABLE, Checks, untouched_rows,
                      untouched_sql)


def main(t):
    conn = psycopg2.connect(DSN)
    conn.autocommit = True
    cur = conn.cursor()
    cur.execute('CREATE TABLE items (id ulid PRIMARY KEY DEFAULT gen_ulid(), n int, tags ulid[])')

    def one(sql, args=()):
        cur.execute(sql, args)
        return cur.fetchone()[0]

    # before the registration: ulid[] is the string {...}
    t.expect('without register_ulid, a ulid[] result is the string {...} (the gap)', '{%s}' % KNOWN,
             lambda: one('SELECT ARRAY[%s]::ulid[]', (KNOWN,)))
    cur.execute(UNTOUCHED_TABLE)

    def store(col, value):
        return one(untouched_sql(col), (value,))
    # without psycopg2.extras.register_uuid(), psycopg2 cannot adapt a uuid.UUID
    no_uuid = ['error ProgrammingError'] * 2 + UNTOUCHED_EXPECTED[2:3]
    expected = no_uuid * 3 + UNTOUCHED_EXPECTED[9:]
    t.expect('without register_ulid: UUIDs, strings and bytes into uuid, text, varchar and bytea columns',
             expected, lambda: untouched_rows(store))
    other = psycopg2.connect(DSN)
    t.expect('register_ulid(conn) finds the OIDs of ulid and ulid[] of this database', True,
             lambda: all(o > 16383 for o in register_ulid(conn)))
    # issue 43 (F3): it used to call psycopg2.extras.register_uuid(), for the whole process
    t.expect('with register_ulid: the same rows (a uuid.UUID is still not adapted)', expected,
             lambda: untouched_rows(store))
    t.expect('... and another connection still reads a uuid as a str', str,
             lambda: (lambda c: (c.execute('SELECT %s::uuid', (KNOWN_UUID,)), type(c.fetchone()[0]))[1])(other.cursor()))
    other.close()

    ids = [one('INSERT INTO items (n) VALUES (%s) RETURNING id', (n,)) for n in range(1, 6)]
    t.ok('INSERT ... RETURNING id gives the DEFAULT gen_ulid() id as a 26-character str',
         all(isinstance(i, str) and ULID_TEXT.match(i) for i in ids), repr(ids))
    t.expect('WHERE id = %s with a str', 3, lambda: one('SELECT n FROM items WHERE id = %s', (ids[2],)))
    t.expect('... lowercase too', 3, lambda: one('SELECT n FROM items WHERE id = %s', (ids[2].lower(),)))
    t.expect('WHERE id IN %s with a tuple', 2, lambda: one('SELECT count(*) FROM items WHERE id IN %s', (tuple(ids[:2]),)))
    t.expect('ORDER BY id is insertion order, and the order of the strs', sorted(ids),
             lambda: (cur.execute('SELECT id FROM items ORDER BY id'), [r[0] for r in cur.fetchall()])[1])
    ts = one('SELECT ulid_time(id) FROM items WHERE id = %s', (ids[0],))
    t.ok('ulid_time(id) is a datetime with tzinfo, of the last minute',
         isinstance(ts, datetime.datetime) and ts.tzinfo is not None
         and abs((datetime.datetime.now(datetime.timezone.utc) - ts).total_seconds()) < 60, repr(ts))

    # ulid[]
    t.expect('UPDATE ... SET tags = %s with a list (text[] is stored into ulid[])', 1,
             lambda: (cur.execute('UPDATE items SET tags = %s WHERE id = %s', (ids[:2], ids[0])), cur.rowcount)[1])
    t.expect('a ulid[] column reads as a list of str', ids[:2], lambda: one('SELECT tags FROM items WHERE id = %s', (ids[0],)))
    t.expect('array_agg(id) is a list of str', ids[:2],
             lambda: one('SELECT array_agg(id ORDER BY id) FROM items WHERE id = ANY(%s::ulid[])', (ids[:2],)))

    # uuid.UUID: psycopg2 adapts it after the application's register_uuid() (process-wide)
    psycopg2.extras.register_uuid()
    u = uuid.UUID('018eafc1-8435-0cf0-5803-c72d06e78012')
    t.expect('INSERT of ulid_pg.to_ulid(uuid.UUID) stores it (no cast)', '01HTQW311N1KR5G0Y75M3EF00J',
             lambda: one('INSERT INTO items (id, n) VALUES (%s, 101) RETURNING id', (ulid_pg.to_ulid(u),)))
    t.expect('WHERE id = %s with a uuid.UUID (the ulid = uuid operator)', 101,
             lambda: one('SELECT n FROM items WHERE id = %s', (u,)))
    t.expect('ulid_pg.to_uuid(id) is the uuid.UUID of id::uuid', one('SELECT id::uuid FROM items WHERE n = 101'),
             lambda: ulid_pg.to_uuid('01HTQW311N1KR5G0Y75M3EF00J'))
    t.expect("with the application's own register_uuid(), a uuid.UUID ('...'::uuid) is stored: the assignment cast (1.3)",
             '01HTQW311N1KR5G0Y75M3EF00K', lambda: one('INSERT INTO items (id, n) VALUES (%s, 102) RETURNING id',
                                                      (uuid.UUID('018eafc1-8435-0cf0-5803-c72d06e78013'),)))

    # bulk: execute_values and COPY (text and binary)
    t.expect('execute_values inserts many rows, RETURNING their ids', 20, lambda: len(psycopg2.extras.execute_values(
        cur, 'INSERT INTO items (n) VALUES %s RETURNING id', [(n,) for n in range(200, 220)], fetch=True)))
    buf = io.StringIO()
    cur.copy_expert('COPY (SELECT id, n FROM items WHERE n < 100 ORDER BY id) TO STDOUT', buf)
    t.expect('COPY ... TO STDOUT (text) writes the ids as text',
             ''.join(f'{i}\t{n}\n' for n, i in enumerate(ids, 1)), buf.getvalue)
    cur.execute('CREATE TABLE copied (id ulid, n int)')
    buf.seek(0)
    cur.copy_expert('COPY copied FROM STDIN', buf)
    t.expect('COPY ... FROM STDIN (text) loads them back', ids,
             lambda: (cur.execute('SELECT id FROM copied ORDER BY id'), [r[0] for r in cur.fetchall()])[1])
    bin_buf = io.BytesIO()
    cur.copy_expert('COPY (SELECT id FROM items WHERE n < 100 ORDER BY id) TO STDOUT (FORMAT binary)', bin_buf)
    cur.execute('TRUNCATE copied')
    bin_buf.seek(0)
    cur.copy_expert('COPY copied (id) FROM STDIN (FORMAT binary)', bin_buf)
    t.expect('COPY (FORMAT binary) out and in: the same ids', ids,
             lambda: (cur.execute('SELECT id FROM copied ORDER BY id'), [r[0] for r in cur.fetchall()])[1])

    t.expect_error('a UUID-shaped str is 22P02, with a hint naming ::uuid::ulid and ulid_parse', '22P02',
                   lambda: cur.execute('SELECT 1 FROM items WHERE id = %s', (KNOWN_UUID,)),
                   r'(?s)HINT:.*::uuid::ulid.*ulid_parse')
    conn.close()


Checks('psycopg2').run(main)
