"""The PostgreSQL ``ulid`` type (the ``ulid`` extension) for Python clients.

One registration per stack, as pgvector-python does for ``vector``:

- psycopg 3: ``ulid_pg.psycopg.register_ulid(conn)``
- psycopg2: ``ulid_pg.psycopg2.register_ulid(conn)``
- asyncpg: ``await ulid_pg.asyncpg.register_ulid(conn)``
- SQLAlchemy: ``ulid_pg.sqlalchemy.ULID`` (a column type) and
  ``ulid_pg.sqlalchemy.register_ulid(engine)``; Alembic: ``ulid_pg.alembic``
- Django: ``ulid_pg.django.ULIDField``

A ULID is a ``str`` of 26 Crockford Base32 characters here (uppercase, as
the server writes it); ``to_ulid``/``to_uuid`` convert from and to
``uuid.UUID`` and the 16 raw bytes (the binary wire form of ``ulid``, the
same as ``uuid``'s).
"""
import uuid

__version__ = '1.2.0'
__all__ = ['ALPHABET', 'from_bytes', 'to_bytes', 'to_ulid', 'to_uuid']

ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
_VALUE = {c: i for i, c in enumerate(ALPHABET)}
_VALUE.update({c.lower(): i for i, c in enumerate(ALPHABET)})


def from_bytes(b):
    """16 raw bytes (the binary wire form) -> 26-character ULID text"""
    if len(b) != 16:
        raise ValueError(f'a ULID is 16 bytes, not {len(b)}')
    n = int.from_bytes(b, 'big')
    return ''.join(ALPHABET[(n >> 5 * i) & 31] for i in range(25, -1, -1))


def to_bytes(s):
    """26-character ULID text, any case -> 16 raw bytes"""
    if len(s) != 26 or s[0] not in '01234567':
        raise ValueError(f'not a ULID: {s!r}')
    n = 0
    for c in s:
        try:
            n = n << 5 | _VALUE[c]
        except KeyError:
            raise ValueError(f'not a ULID: {s!r} ({c!r} is not Crockford Base32)') from None
    return n.to_bytes(16, 'big')


def to_ulid(value):
    """the canonical ULID str (uppercase) from a ULID str (any case), a
    UUID's text (8-4-4-4-12 hex), a uuid.UUID or 16 bytes"""
    if isinstance(value, uuid.UUID):
        return from_bytes(value.bytes)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return from_bytes(bytes(value))
    if isinstance(value, str) and len(value) == 36 and value.count('-') == 4:
        return from_bytes(uuid.UUID(value).bytes)
    return from_bytes(to_bytes(value))


def to_uuid(value):
    """a uuid.UUID of the same 16 bytes (what id::uuid gives on the server)"""
    if isinstance(value, uuid.UUID):
        return value
    return uuid.UUID(bytes=to_bytes(to_ulid(value)) if isinstance(value, str) else bytes(value))
