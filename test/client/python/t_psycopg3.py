"""psycopg 3 (Debian's python3-psycopg 3.1) against the ulid extension:
text mode, and binary mode with a loader and a dumper registered by the OID
of ulid, looked up at run time (it differs per database)."""
import datetime
import uuid

import psycopg
from psycopg.adapt import Dumper, Loader
from psycopg.pq import Format
from psycopg.types import TypeInfo
from psycopg.types.uuid import UUIDBinaryLoader

from ulidtest import DSN, KNOWN, KNOWN_HEX, KNOWN_UUID, ULID_TEXT, Checks, ulid_from_bytes, ulid_to_bytes


class Ulid(str):
    """A str that psycopg sends as a binary ulid (see register_ulid)"""


class UlidBinaryLoader(Loader):
    format = Format.BINARY

    def load(self, data):
        return ulid_from_bytes(bytes(data))


class UlidBinaryDumper(Dumper):
    format = Format.BINARY

    def dump(self, obj):
        return ulid_to_bytes(obj)


def register_ulid(conn):
    """ulid[] as lists; binary ulid results as ULID strs; Ulid(...) values
    sent as binary ulid (and str values in a binary COPY of ulid columns)"""
    info = TypeInfo.fetch(conn, 'ulid')
    info.register(conn)
    conn.adapters.register_loader(info.oid, UlidBinaryLoader)
    conn.adapters.register_dumper(Ulid, type('UlidDumper', (UlidBinaryDumper,), {'oid': info.oid}))
    return info


def main(t):
    conn = psycopg.connect(DSN, autocommit=True)
    conn.execute('CREATE TABLE items (id ulid PRIMARY KEY DEFAULT gen_ulid(), n int)')

    def one(sql, args=(), binary=False, prepare=None):
        with conn.cursor(binary=binary) as cur:
            return cur.execute(sql, args, prepare=prepare).fetchone()[0]

    def column(sql, args=(), binary=False):
        with conn.cursor(binary=binary) as cur:
            return [r[0] for r in cur.execute(sql, args).fetchall()]

    # text mode: a str parameter is sent untyped and the server infers ulid
    ids = [one('INSERT INTO items (n) VALUES (%s) RETURNING id', (n,)) for n in range(1, 6)]
    t.ok('INSERT ... RETURNING id gives the DEFAULT gen_ulid() id as a str',
         all(isinstance(i, str) and ULID_TEXT.match(i) for i in ids), repr(ids))
    with conn.cursor() as cur:
        cur.executemany('INSERT INTO items (n) VALUES (%s) RETURNING id', [(10,), (11,)], returning=True)
        got = []
        while True:
            got.append(cur.fetchone()[0])
            if not cur.nextset():
                break
    t.ok('executemany(..., returning=True) gives each id', len(got) == 2 and got[0] < got[1], repr(got))
    t.expect('WHERE id = %s with a str', 3, lambda: one('SELECT n FROM items WHERE id = %s', (ids[2],)))
    t.expect('... server-side prepared (prepare=True)', 3,
             lambda: one('SELECT n FROM items WHERE id = %s', (ids[2],), prepare=True))
    t.expect('ORDER BY id is insertion order', ids,
             lambda: column('SELECT id FROM items WHERE n < 10 ORDER BY id'))
    t.expect_true('ulid_time(id) is a datetime with tzinfo', lambda: (
        lambda ts: isinstance(ts, datetime.datetime) and ts.tzinfo is not None)(
            one('SELECT ulid_time(id) FROM items WHERE id = %s', (ids[0],))))

    # %b: a str is a binary text parameter, typed text
    t.expect('INSERT ... VALUES (%s) with a str', KNOWN,
             lambda: one('INSERT INTO items (id, n) VALUES (%s, 100) RETURNING id', (KNOWN,)))
    t.expect('INSERT ... VALUES (%b) with a str (text -> ulid assignment cast)', '01HTQW311N1KR5G0Y75M3EF00M',
             lambda: one('INSERT INTO items (id, n) VALUES (%b, 103) RETURNING id', ('01HTQW311N1KR5G0Y75M3EF00M',)))
    t.expect_error('WHERE id = %b with a str is ulid = text (42883): use %s', '42883',
                   lambda: one('SELECT n FROM items WHERE id = %b', (KNOWN,)))

    # uuid.UUID parameters are typed uuid
    t.expect('WHERE id = %s with a uuid.UUID (the ulid = uuid operator)', 100,
             lambda: one('SELECT n FROM items WHERE id = %s', (uuid.UUID(KNOWN_UUID),)))
    t.expect('... in binary (%b)', 100,
             lambda: one('SELECT n FROM items WHERE id = %b', (uuid.UUID(KNOWN_UUID),)))
    t.expect_error('INSERT of a uuid.UUID into the ulid column is refused (42804)', '42804',
                   lambda: one('INSERT INTO items (id) VALUES (%s) RETURNING id', (uuid.uuid4(),)))
    t.expect('... and stored with %s::ulid', '01HTQW311N1KR5G0Y75M3EF00J',
             lambda: one('INSERT INTO items (id, n) VALUES (%s::ulid, 101) RETURNING id',
                         (uuid.UUID('018eafc1-8435-0cf0-5803-c72d06e78012'),)))

    # before any registration: binary results are the raw bytes, ulid[] text is a str
    t.expect('a binary cursor returns the raw 16 bytes without a loader', bytes.fromhex(KNOWN_HEX),
             lambda: one('SELECT id FROM items WHERE id = %s', (KNOWN,), binary=True))
    t.expect('array_agg(id) in text is the string {...} without TypeInfo.register', '{%s,%s}' % (ids[0], ids[1]),
             lambda: one('SELECT array_agg(id ORDER BY id) FROM items WHERE id IN (%s, %s)', (ids[0], ids[1])))

    info = register_ulid(conn)
    t.ok('TypeInfo.fetch(conn, "ulid") finds the OID of this database', info.oid > 16383 and info.array_oid > 16383,
         f'{info.oid} {info.array_oid}')
    t.expect('array_agg(id) in text is a list of str after TypeInfo.register', ids[:2],
             lambda: one('SELECT array_agg(id ORDER BY id) FROM items WHERE id IN (%s, %s)', (ids[0], ids[1])))
    t.expect('a binary cursor returns ULID strs with the binary loader', ids,
             lambda: column('SELECT id FROM items WHERE n < 10 ORDER BY id', binary=True))
    t.expect('... and ulid[] as a list of them', ids[:2],
             lambda: one('SELECT array_agg(id ORDER BY id) FROM items WHERE n < 3', binary=True))
    t.expect('a Ulid(...) parameter is sent as a binary ulid (WHERE id = %b)', 100,
             lambda: one('SELECT n FROM items WHERE id = %b', (Ulid(KNOWN),)))
    t.expect('... and stored by INSERT', '01HTQW311N1KR5G0Y75M3EF00K',
             lambda: one('INSERT INTO items (id, n) VALUES (%b, 102) RETURNING id::text',
                         (Ulid('01HTQW311N1KR5G0Y75M3EF00K'),), binary=True))

    with psycopg.connect(DSN, autocommit=True) as other:
        other.adapters.register_loader(TypeInfo.fetch(other, 'ulid').oid, UUIDBinaryLoader)
        t.expect("... or, with psycopg's UUIDBinaryLoader for ulid's OID, uuid.UUID values", uuid.UUID(KNOWN_UUID),
                 lambda: other.cursor(binary=True).execute('SELECT id FROM items WHERE n = 100').fetchone()[0])

    # COPY in binary: set_types(['ulid', ...]) uses the registered loader and dumper
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
    t.expect('COPY ... FROM STDIN (FORMAT binary) writes them back', ids,
             lambda: column('SELECT id FROM copied ORDER BY id'))

    def copy_str_without_types():
        with conn.cursor() as cur:
            with cur.copy('COPY copied (id) FROM STDIN (FORMAT binary)') as cp:
                cp.write_row((KNOWN,))
    t.expect_error('a str in a binary COPY without set_types (26 bytes) is 22P03 naming the length', '22P03',
                   copy_str_without_types, r'26')

    # text COPY
    with conn.cursor() as cur:
        with cur.copy('COPY (SELECT id FROM items WHERE n < 10 ORDER BY id) TO STDOUT') as cp:
            text = b''.join(bytes(b) for b in cp)
    t.expect('COPY ... TO STDOUT (text) writes the ids as text', ''.join(i + '\n' for i in ids).encode(),
             lambda: text)
    conn.close()


Checks('psycopg').run(main)
