"""SQLAlchemy (1.4 and 2.0): the ``ULID`` column type, and ``register_ulid(engine)``.

    from ulid_pg.sqlalchemy import ULID, register_ulid
    register_ulid(engine)      # ulid[] / array_agg results as lists, per new connection
    id = Column(ULID, primary_key=True, server_default=text("gen_ulid()"))
    tags = Column(ARRAY(ULID))

Values are ULID strs (``ULID(as_uuid=True)``: ``uuid.UUID``); a parameter may
be a str (any case), a ``uuid.UUID`` or 16 bytes: all are sent as the ULID
text, so storing a ``uuid.UUID`` into a ulid column needs no cast.  Importing
this module registers ``ulid`` for reflection (no "Did not recognize type
'ulid'" warning).

Without ``register_ulid(engine)`` the driver hands SQLAlchemy the string
``{...}`` for a ``ulid[]`` it does not know, and ``ARRAY(ULID)`` turns it into
a list of single characters without an error.
"""
from sqlalchemy import event
from sqlalchemy.dialects.postgresql.base import ischema_names
from sqlalchemy.types import UserDefinedType

from . import to_ulid, to_uuid

__all__ = ['ULID', 'register_ulid']


class ULID(UserDefinedType):
    """the ulid column type"""
    cache_ok = True

    def __init__(self, as_uuid=False):
        self.as_uuid = as_uuid

    def get_col_spec(self, **kw):
        return 'ulid'

    def bind_processor(self, dialect):
        def process(value):
            return None if value is None else to_ulid(value)
        return process

    def result_processor(self, dialect, coltype):
        if not self.as_uuid:
            return None

        def process(value):
            return None if value is None else to_uuid(value)
        return process

    @property
    def python_type(self):
        import uuid
        return uuid.UUID if self.as_uuid else str


ischema_names['ulid'] = ULID


def register_ulid(engine):
    """Register ulid with the driver on each new connection of the engine
    (psycopg2, psycopg 3, asyncpg)."""
    driver = engine.dialect.driver

    @event.listens_for(engine, 'connect')
    def connect(dbapi_connection, connection_record):
        if driver == 'psycopg2':
            from .psycopg2 import register_ulid as register
        elif driver in ('psycopg', 'psycopg_async'):
            from .psycopg import register_ulid as register
        elif driver == 'asyncpg':
            from .asyncpg import register_ulid as register_async
            dbapi_connection.run_async(register_async)
            return
        else:
            raise NotImplementedError(f'ulid_pg.sqlalchemy.register_ulid: driver {driver!r}')
        register(dbapi_connection)
        dbapi_connection.commit()  # the lookup's transaction: the pool starts clean
