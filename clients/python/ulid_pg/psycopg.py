"""psycopg 3: ``register_ulid(conn)`` once per connection (or pool
``configure`` callback).

After it:

- ``ulid[]`` results are lists of str (also ``array_agg(id)``);
- binary results (``conn.cursor(binary=True)``, binary COPY with
  ``set_types(["ulid", ...])``) are ULID strs, and a str, a UUID's text or a
  ``uuid.UUID`` is written to a binary COPY of a ulid column as its 16 bytes.

Nothing else changes: every other parameter (``uuid.UUID``, str, bytes) is
sent exactly as without it.  A ``uuid.UUID`` is psycopg's typed ``uuid``,
which the server (1.3+) stores into a ulid column by its assignment cast and
compares with one.

A str parameter already works with ``%s`` (sent untyped); with ``%b`` it is
typed ``text`` and ``WHERE id = %b`` is 42883: use ``%s``.
"""
from psycopg.adapt import Dumper, Loader
from psycopg.pq import Format
from psycopg.types import TypeInfo

from . import from_bytes, to_bytes, to_ulid

__all__ = ['register_ulid']


class UlidBinaryLoader(Loader):
    format = Format.BINARY

    def load(self, data):
        return from_bytes(bytes(data))


class UlidBinaryDumper(Dumper):
    format = Format.BINARY

    def dump(self, obj):
        return to_bytes(to_ulid(obj))  # a str (any case), a UUID's text, a uuid.UUID or 16 bytes


def register_ulid(context, name='ulid'):
    """Register the ulid type of this database (its OID differs per
    database) on a connection or cursor; returns its TypeInfo."""
    conn = getattr(context, 'connection', context)
    info = TypeInfo.fetch(conn, name)
    if info is None:
        raise LookupError(f'type {name!r} not found: CREATE EXTENSION ulid first, or name it schema-qualified')
    info.register(context)
    adapters = context.adapters
    adapters.register_loader(info.oid, UlidBinaryLoader)
    # by OID only (COPY's set_types): no Python class changes its dumper
    adapters.register_dumper(None, type('UlidBinaryDumper', (UlidBinaryDumper,), {'oid': info.oid}))
    return info
