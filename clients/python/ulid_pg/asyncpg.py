"""asyncpg: ``await register_ulid(conn)`` once per connection (a pool's
``init=register_ulid``).

asyncpg sends ulid as text when it has no codec (str values only).  After
it, ulid travels as its 16 binary bytes: results and ``ulid[]`` elements are
ULID strs, and a parameter of a ulid column takes a str (any case), a UUID's
text, a ``uuid.UUID`` or 16 bytes; nothing but ulid parameters changes; binary COPY
(``copy_records_to_table``) works.  ``as_uuid=True`` returns ``uuid.UUID``
values instead of strs.
"""
from . import from_bytes, to_bytes, to_ulid

__all__ = ['register_ulid']


def _encode(value):
    if isinstance(value, str):
        return to_bytes(to_ulid(value))
    if hasattr(value, 'bytes'):  # uuid.UUID
        return value.bytes
    return bytes(value)


async def register_ulid(conn, schema=None, as_uuid=False):
    if schema is None:
        schema = await conn.fetchval(
            "SELECT typnamespace::regnamespace::text FROM pg_type WHERE oid = to_regtype('ulid')")
        if schema is None:
            raise LookupError("type 'ulid' not found: CREATE EXTENSION ulid first")
    if as_uuid:
        import uuid
        decoder = lambda b: uuid.UUID(bytes=b)  # noqa: E731
    else:
        decoder = from_bytes
    await conn.set_type_codec('ulid', schema=schema, format='binary', encoder=_encode, decoder=decoder)
