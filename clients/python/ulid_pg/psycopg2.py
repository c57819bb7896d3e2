"""psycopg2: ``register_ulid(conn)`` once per connection (``globally=True``:
for every connection to databases where ulid has the same OID).

After it, ``ulid[]`` results (columns, ``array_agg(id)``) are lists of str
instead of the string ``{...}``, and ``uuid.UUID`` parameters are adapted
(``psycopg2.extras.register_uuid``).  A str parameter works as it is (psycopg2
sends literals untyped).  psycopg2 writes a ``uuid.UUID`` as ``'...'::uuid``,
which compares with a ulid column but is not stored into one without
``%s::ulid``: pass ``ulid_pg.to_ulid(u)`` to store it as a ULID str.
"""
import psycopg2.extensions
import psycopg2.extras

__all__ = ['register_ulid']


def register_ulid(conn_or_curs, globally=False, name='ulid'):
    """Look up the OIDs of ulid and ulid[] (they differ per database) and
    register ulid[] as a list of str; returns (oid, array_oid)."""
    cur = conn_or_curs.cursor() if hasattr(conn_or_curs, 'cursor') else conn_or_curs
    cur.execute('SELECT t.oid, t.typarray FROM pg_type t WHERE t.oid = to_regtype(%s)', (name,))
    row = cur.fetchone()
    if row is None:
        raise LookupError(f'type {name!r} not found: CREATE EXTENSION ulid first, or name it schema-qualified')
    oid, array_oid = row
    scope = None if globally else conn_or_curs
    psycopg2.extensions.register_type(
        psycopg2.extensions.new_array_type((array_oid,), 'ULID[]', psycopg2.STRING), scope)
    psycopg2.extras.register_uuid()
    return oid, array_oid
