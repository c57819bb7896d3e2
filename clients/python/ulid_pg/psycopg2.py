"""psycopg2: ``register_ulid(conn)`` once per connection (``globally=True``:
for every connection to databases where ulid has the same OID).

After it, ``ulid[]`` results (columns, ``array_agg(id)``) are lists of str
instead of the string ``{...}``; nothing else changes (it registers a
typecaster on this connection only, and no adapter: psycopg2's adapters are
process-wide).  A str parameter works as it is (psycopg2 sends literals
untyped).  psycopg2 adapts ``uuid.UUID`` only after your own
``psycopg2.extras.register_uuid()`` (a process-wide choice); it then writes
``'...'::uuid``, which the server (1.3+) stores into a ulid column and
compares with one.
"""
import psycopg2.extensions

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
    return oid, array_oid
