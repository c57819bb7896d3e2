"""psycopg2 (Debian's python3-psycopg2) against the ulid extension."""
import datetime
import io
import uuid

import psycopg2
import psycopg2.extensions
import psycopg2.extras

from ulidtest import DSN, KNOWN, KNOWN_UUID, ULID_TEXT, Checks


def main(t):
    conn = psycopg2.connect(DSN)
    conn.autocommit = True
    cur = conn.cursor()
    cur.execute('CREATE TABLE items (id ulid PRIMARY KEY DEFAULT gen_ulid(), n int)')

    # insert with the database default, the id comes back as text
    ids = []
    for n in range(1, 6):
        cur.execute('INSERT INTO items (n) VALUES (%s) RETURNING id', (n,))
        ids.append(cur.fetchone()[0])
    t.ok('INSERT ... RETURNING id gives the DEFAULT gen_ulid() id as a 26-character str',
         all(isinstance(i, str) and ULID_TEXT.match(i) for i in ids), repr(ids))
    t.expect('execute_values inserts many rows with ids from Python strs', 1, lambda: (
        psycopg2.extras.execute_values(cur, 'INSERT INTO items (id, n) VALUES %s',
                                       [(KNOWN, 100)]), cur.rowcount)[1])

    def one(sql, args=()):
        cur.execute(sql, args)
        return cur.fetchone()[0]

    t.expect('WHERE id = %s with a str', 3, lambda: one('SELECT n FROM items WHERE id = %s', (ids[2],)))
    t.expect('... lowercase too', 100, lambda: one('SELECT n FROM items WHERE id = %s', (KNOWN.lower(),)))
    t.expect('WHERE id IN %s with a tuple', 2, lambda: one('SELECT count(*) FROM items WHERE id IN %s', ((ids[0], ids[1]),)))

    # uuid.UUID parameters (psycopg2 renders them '...'::uuid once register_uuid() ran, as Django and SQLAlchemy do)
    try:
        cur.execute('SELECT %s', (uuid.UUID(KNOWN_UUID),))
        t.ok('before register_uuid(), psycopg2 cannot adapt a uuid.UUID', False, 'it did')
    except psycopg2.ProgrammingError as e:
        t.ok('before register_uuid(), psycopg2 cannot adapt a uuid.UUID', "can't adapt type 'UUID'" in str(e), str(e))
    psycopg2.extras.register_uuid()
    t.expect('WHERE id = %s with a uuid.UUID (the ulid = uuid operator)', 100,
             lambda: one('SELECT n FROM items WHERE id = %s', (uuid.UUID(KNOWN_UUID),)))
    t.expect_error('INSERT of a uuid.UUID into the ulid column is refused (42804)', '42804',
                   lambda: cur.execute('INSERT INTO items (id) VALUES (%s)', (uuid.uuid4(),)))
    u = uuid.UUID('018eafc1-8435-0cf0-5803-c72d06e78012')
    t.expect('... and stored with %s::ulid', '01HTQW311N1KR5G0Y75M3EF00J',
             lambda: one('INSERT INTO items (id, n) VALUES (%s::ulid, 101) RETURNING id', (u,)))

    # order, time, timestamp
    t.expect('ORDER BY id is insertion order, and the order of the strs',
             sorted(ids), lambda: (cur.execute('SELECT id FROM items WHERE n < 100 ORDER BY id'),
                                   [r[0] for r in cur.fetchall()])[1])
    ts = one('SELECT ulid_time(id) FROM items WHERE id = %s', (ids[0],))
    t.ok('ulid_time(id) is a datetime with tzinfo, of the last minute',
         isinstance(ts, datetime.datetime) and ts.tzinfo is not None
         and abs((datetime.datetime.now(datetime.timezone.utc) - ts).total_seconds()) < 60, repr(ts))
    t.expect('id::timestamp is ulid_time(id) as a naive UTC datetime',
             ts.replace(tzinfo=None), lambda: one('SELECT id::timestamp FROM items WHERE id = %s', (ids[0],)))

    # arrays: a list is text[]; the cast makes it ulid[]; ulid[] results need a type by OID
    t.expect_error('WHERE id = ANY(%s) with a list is text[] (42883: ulid = text)', '42883',
                   lambda: cur.execute('SELECT 1 FROM items WHERE id = ANY(%s)', (ids[:2],)))
    t.expect('WHERE id = ANY(%s::ulid[]) with a list', 2,
             lambda: one('SELECT count(*) FROM items WHERE id = ANY(%s::ulid[])', (ids[:2],)))
    t.expect('array_agg(id) is the string {...} with no type registered', '{%s,%s}' % (ids[0], ids[1]),
             lambda: one('SELECT array_agg(id ORDER BY id) FROM items WHERE id = ANY(%s::ulid[])', (ids[:2],)))
    cur.execute("SELECT 'ulid[]'::regtype::oid")
    array_oid = cur.fetchone()[0]
    psycopg2.extensions.register_type(psycopg2.extensions.new_array_type((array_oid,), 'ULID[]', psycopg2.STRING))
    t.expect('array_agg(id) is a list of str after new_array_type(ulid[] OID)', ids[:2],
             lambda: one('SELECT array_agg(id ORDER BY id) FROM items WHERE id = ANY(%s::ulid[])', (ids[:2],)))

    # COPY, text and binary
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
    data = bin_buf.getvalue()
    t.ok('COPY (FORMAT binary) writes each id as a 16-byte field',
         data.startswith(b'PGCOPY\n\xff\r\n\x00') and data.count(b'\x00\x01\x00\x00\x00\x10') == 5, data[:40].hex())
    cur.execute('TRUNCATE copied')
    bin_buf.seek(0)
    cur.copy_expert('COPY copied (id) FROM STDIN (FORMAT binary)', bin_buf)
    t.expect('COPY ... FROM STDIN (FORMAT binary) loads the same ids', ids,
             lambda: (cur.execute('SELECT id FROM copied ORDER BY id'), [r[0] for r in cur.fetchall()])[1])

    # a UUID-shaped str: 22P02, with a hint naming the ways in
    t.expect_error('a UUID-shaped str is 22P02, with a hint naming ::uuid::ulid and ulid_parse', '22P02',
                   lambda: cur.execute('SELECT 1 FROM items WHERE id = %s', (KNOWN_UUID,)),
                   r'(?s)HINT:.*::uuid::ulid.*ulid_parse')
    t.expect('... and ulid_parse(%s) takes it', 100,
             lambda: one('SELECT n FROM items WHERE id = ulid_parse(%s)', (KNOWN_UUID,)))
    conn.close()


Checks('psycopg2').run(main)
