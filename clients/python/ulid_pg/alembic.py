"""Alembic autogenerate with ulid columns: in ``env.py``,

    from ulid_pg.alembic import compare_server_default, render_item
    context.configure(..., render_item=render_item, compare_server_default=compare_server_default)

``render_item`` writes ``ULID()`` into a migration with its import (else the
migration says ``ulid_pg.sqlalchemy.ULID()`` without importing it:
``NameError``).  ``compare_server_default`` (for ``compare_server_default=True``)
takes ``snowflake_next('twitter')`` and the
``snowflake_next('twitter'::snowflake_layout)`` the server reports back as
the same default, and compares generator calls (``gen_ulid()``, ...) by their
text instead of running them; anything else is left to Alembic.
Create the extension in the first migration: ``op.execute("CREATE EXTENSION
IF NOT EXISTS ulid")``.
"""
import re

from .sqlalchemy import ULID

__all__ = ['compare_server_default', 'render_item']

_CASTS = re.compile(r"::(?:snowflake_layout|ulid|uuid|text|character varying)\b")


def render_item(kind, obj, autogen_context):
    if kind == 'type' and isinstance(obj, ULID):
        autogen_context.imports.add('from ulid_pg.sqlalchemy import ULID')
        return 'ULID(as_uuid=True)' if obj.as_uuid else 'ULID()'
    return False


def _normalized(sql):
    if sql is None:
        return None
    sql = _CASTS.sub('', str(sql)).strip()
    while len(sql) > 1 and sql[0] == sql[-1] == '"':
        sql = sql[1:-1]
    return re.sub(r'\s+', '', sql)


def compare_server_default(context, inspected_column, metadata_column, inspected_default,
                           metadata_default, rendered_metadata_default):
    """False: the same default; None: let Alembic compare"""
    a, b = _normalized(inspected_default), _normalized(rendered_metadata_default)
    if a is not None and a == b:
        return False
    return None
