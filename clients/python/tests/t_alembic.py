"""ulid_pg.alembic with Alembic 1.8 (Debian's python3-alembic) and SQLAlchemy
1.4: `alembic revision --autogenerate` of a model with ULID, ARRAY(ULID) and
a snowflake_next() default writes a migration that runs (the import of ULID
included), and a second autogenerate with compare_server_default finds no
change."""
import contextlib
import glob
import io
import os
import tempfile

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from sqlalchemy import BigInteger, Column, MetaData, Table, create_engine, text
from sqlalchemy.dialects.postgresql import ARRAY

from ulid_pg.alembic import compare_server_default, render_item
from ulid_pg.sqlalchemy import ULID
from ulidtest import DBNAME, HOST, PORT, USER, Checks

URL = f'postgresql+psycopg2://{USER}@{HOST}:{PORT}/{DBNAME}'
metadata = MetaData()
Table('items', metadata,
      Column('id', ULID, primary_key=True, server_default=text('gen_ulid()')),
      Column('sf', BigInteger, server_default=text("snowflake_next('twitter')")),
      Column('tags', ARRAY(ULID)))

ENV = '''
from alembic import context
from sqlalchemy import create_engine
from ulid_pg.alembic import compare_server_default, render_item
from t_alembic import URL, metadata

with create_engine(URL).connect() as connection:
    context.configure(connection=connection, target_metadata=metadata, compare_type=True,
                      render_item=render_item, compare_server_default=compare_server_default)
    with context.begin_transaction():
        context.run_migrations()
'''


def main(t):
    work = tempfile.mkdtemp()
    cfg = Config(os.path.join(work, 'alembic.ini'), stdout=io.StringIO())
    cfg.set_main_option('script_location', os.path.join(work, 'migrations'))
    with contextlib.redirect_stdout(io.StringIO()):
        command.init(cfg, os.path.join(work, 'migrations'))
    with open(os.path.join(work, 'migrations', 'env.py'), 'w') as f:
        f.write(ENV)
    with contextlib.redirect_stdout(io.StringIO()):
        command.revision(cfg, message='first', autogenerate=True)
    [script] = glob.glob(os.path.join(work, 'migrations', 'versions', '*.py'))
    with open(script) as f:
        code = f.read()
    t.ok('autogenerate writes ULID() and ARRAY(ULID()) with their import',
         'from ulid_pg.sqlalchemy import ULID' in code and "sa.Column('id', ULID()" in code
         and 'postgresql.ARRAY(ULID())' in code, code)
    command.upgrade(cfg, 'head')
    engine = create_engine(URL)
    with engine.connect() as c:
        t.expect('upgrade head makes the columns', [('id', 'ulid', 'gen_ulid()'), ('sf', 'bigint', "snowflake_next('twitter'::snowflake_layout)"),
                                                     ('tags', 'ulid[]', None)],
                 lambda: [tuple(r) for r in c.execute(text(
                     "SELECT attname, format_type(atttypid, atttypmod), pg_get_expr(adbin, adrelid) FROM pg_attribute "
                     "LEFT JOIN pg_attrdef ON adrelid = attrelid AND adnum = attnum "
                     "WHERE attrelid = 'items'::regclass AND attnum > 0 ORDER BY attnum"))])
        opts = {'compare_type': True, 'compare_server_default': compare_server_default, 'render_item': render_item}
        t.expect('a second autogenerate (compare_server_default, compare_type) finds no change', [],
                 lambda: compare_metadata(MigrationContext.configure(c, opts=opts), metadata))
        opts['compare_server_default'] = True
        t.ok("without ulid_pg's comparator, Alembic reports the snowflake_next() default as changed (the gap)",
             any(d[0][0] == 'modify_default' for d in compare_metadata(MigrationContext.configure(c, opts=opts), metadata)
                 if isinstance(d, list)))


if __name__ == '__main__':  # env.py imports URL and metadata
    Checks('alembic').run(main)
