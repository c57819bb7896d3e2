"""SQLAlchemy (1.4 and 2.0): the ``ULID`` column type, and ``register_ulid(engine)``.

    from ulid_pg.sqlalchemy import ULID, register_ulid
    register_ulid(engine)      # ulid[] / array_agg results as lists, per new connection
    id = Column(ULID, primary_key=True, server_default=text("gen_ulid()"))
    tags = Column(ARRAY(ULID))

Values are ULID strs (``ULID(as_uuid=True)``: ``uuid.UUID``); a parameter may
be a str (any case), a UUID's text, a ``uuid.UUID`` or 16 bytes: all are sent
as the ULID text.  A value set on a mapped ``ULID`` attribute becomes the
canonical form at once (uppercase ULID text, or ``uuid.UUID``), so one row is
one identity in the session whatever form the key was given in.  Importing
this module registers ``ulid`` for reflection (no "Did not recognize type
'ulid'" warning).  ``register_ulid(engine)`` changes nothing but ulid values:
other columns' parameters are sent as without it.

Without ``register_ulid(engine)`` the driver hands SQLAlchemy the string
``{...}`` for a ``ulid[]`` it does not know, and ``ARRAY(ULID)`` turns it into
a list of single characters without an error.
"""
from sqlalchemy import event
from sqlalchemy.orm import Mapper
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


@event.listens_for(Mapper, 'mapper_configured')
def _canonical_keys(mapper, class_):
    """a value set on a ULID attribute (constructor, assignment) becomes its
    canonical form, which is the identity key the row will have"""
    for prop in mapper.column_attrs:
        types = [c.type for c in prop.columns if isinstance(getattr(c, 'type', None), ULID)]
        if types:
            convert = to_uuid if types[0].as_uuid else to_ulid

            def canonical(target, value, oldvalue, initiator, convert=convert):
                return None if value is None else convert(value)
            event.listen(prop.class_attribute, 'set', canonical, retval=True)


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
