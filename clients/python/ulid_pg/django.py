"""Django: ``ULIDField``, a ulid column whose value, as the primary key, the
database makes (``DEFAULT gen_ulid()``, read back with ``RETURNING``).

    from ulid_pg.django import ULIDField
    class Item(models.Model):
        id = ULIDField(primary_key=True)

``makemigrations`` needs no hand edit: a primary key's column type is
``ulid DEFAULT gen_ulid()`` (as AutoField's is ``serial``), so CreateModel
and AddField make the default (Django before 5.0 writes no column defaults
otherwise).  ``set_default("app_model")`` is the operation for a column
created otherwise (an existing table, ``primary_key`` added later).

For a new object whose key is None the field sends ``DEFAULT``, so
``create()``, ``save()`` and ``bulk_create()`` leave the id to the database and
read it back into every object (a Python-side default would stay on the
objects ``bulk_create()`` makes, and a later ``save()`` would insert again).
Values are ULID strs; ``uuid.UUID`` values and UUIDs' text are taken and
stored as ULIDs.
Importing this module registers ulid with each new PostgreSQL connection
(psycopg2 or psycopg 3), so ``ArrayField(ULIDField())`` reads lists.
"""
import uuid

from django.db import migrations, models
from django.db.backends.signals import connection_created

from . import to_ulid

__all__ = ['ULIDField', 'set_default']


class Default(models.Expression):
    """the SQL keyword DEFAULT in an INSERT"""

    def as_sql(self, compiler, connection):
        return 'DEFAULT', []


class ULIDField(models.Field):
    description = 'ULID'
    empty_strings_allowed = False  # a new object's key is None, not ''

    def db_type(self, connection):
        return 'ulid DEFAULT gen_ulid()' if self.primary_key else 'ulid'

    def rel_db_type(self, connection):
        return 'ulid'  # the type of foreign keys to it

    def cast_db_type(self, connection):
        return 'ulid'

    @property
    def db_returning(self):
        return self.primary_key

    def to_python(self, value):
        if isinstance(value, (uuid.UUID, bytes)) or (isinstance(value, str) and len(value) == 36):
            return to_ulid(value)
        return value

    def get_prep_value(self, value):
        return self.to_python(super().get_prep_value(value))

    def pre_save(self, model_instance, add):
        value = super().pre_save(model_instance, add)
        if add and value is None and self.primary_key:
            return Default()
        return value


def set_default(table, column='id', expression='gen_ulid()'):
    """a migration operation: the column's DEFAULT (reversible)"""
    return migrations.RunSQL(f'ALTER TABLE {table} ALTER {column} SET DEFAULT {expression}',
                             f'ALTER TABLE {table} ALTER {column} DROP DEFAULT')


def _register(sender, connection, **kwargs):
    if connection.vendor != 'postgresql':
        return
    raw = connection.connection
    if type(raw).__module__.startswith('psycopg2'):
        from .psycopg2 import register_ulid
    else:
        from .psycopg import register_ulid
    try:
        register_ulid(raw)
    except LookupError:  # a database without the extension
        pass


connection_created.connect(_register, dispatch_uid='ulid_pg')
