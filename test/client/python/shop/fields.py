"""ULIDField: a ulid column; as the primary key, the database makes its value.

Django 3.2 has no db_default.  For a new object whose key is None, pre_save
gives the SQL keyword DEFAULT, so save() and bulk_create() insert
VALUES (DEFAULT, ...) and the column's DEFAULT gen_ulid() (set by the
migration) makes the id; db_returning reads it back with RETURNING into
every object.  (A Python-side default such as an expression gen_ulid() stays
on the objects bulk_create() makes, and a later save() inserts a second row.)
"""
from django.db import models


class Default(models.Expression):
    """the SQL keyword DEFAULT in an INSERT"""

    def as_sql(self, compiler, connection):
        return 'DEFAULT', []


class ULIDField(models.Field):
    description = 'ULID'
    empty_strings_allowed = False  # a new object's key is None, not ''

    def db_type(self, connection):
        return 'ulid'

    def rel_db_type(self, connection):
        return 'ulid'  # the type of foreign keys to it

    @property
    def db_returning(self):
        return self.primary_key

    def pre_save(self, model_instance, add):
        value = super().pre_save(model_instance, add)
        if add and value is None and self.primary_key:
            return Default()
        return value
