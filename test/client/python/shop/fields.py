"""ULIDAutoField: a ulid primary key whose value the database makes.

Django 3.2 has no db_default.  An AutoField subclass is what it leaves out of
INSERT (save() and bulk_create()) and reads back with RETURNING, so the
column's DEFAULT gen_ulid() (added by the migration) makes the id and every
object gets the real one, also after bulk_create.
"""
from django.db import models


class ULIDAutoField(models.AutoField):
    description = 'ULID made by the database (DEFAULT gen_ulid())'

    def db_type(self, connection):
        return 'ulid'

    def rel_db_type(self, connection):
        return 'ulid'  # the type of foreign keys to it

    def get_internal_type(self):
        return 'ULIDAutoField'

    @property
    def validators(self):
        return [*self._validators]  # not an integer range

    def to_python(self, value):
        return value  # ULID strs (or uuid.UUID) as they are

    def get_prep_value(self, value):
        return models.Field.get_prep_value(self, value)  # not int()
