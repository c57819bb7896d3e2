"""ulid_pg.sqlalchemy with SQLAlchemy 1.4 (Debian's python3-sqlalchemy) and
psycopg2: the ULID column type, ARRAY(ULID), uuid.UUID values, server_default,
reflection."""
import datetime
import uuid
import warnings

from sqlalchemy import (Column, ForeignKey, Integer, LargeBinary, MetaData, String, Table, Text, create_engine, func, insert, inspect,
                        select, text)
from sqlalchemy.dialects import postgresql
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session, declarative_base, relationship

import ulid_pg
from ulid_pg.sqlalchemy import ULID, register_ulid
from ulidtest import DBNAME, HOST, KNOWN, KNOWN_UUID, PORT, ULID_TEXT, USER, Checks, untouched_rows

Base = declarative_base()


class Item(Base):
    __tablename__ = 'items'
    id = Column(ULID, primary_key=True, server_default=text('gen_ulid()'))
    n = Column(Integer)
    tags = Column(ARRAY(ULID))


class UItem(Base):
    """the same table, ids as uuid.UUID"""
    __table__ = Table('items', MetaData(), Column('id', ULID(as_uuid=True), primary_key=True,
                                                   server_default=text('gen_ulid()')), Column('n', Integer))


class Part(Base):
    __tablename__ = 'parts'
    id = Column(ULID, primary_key=True, server_default=text('gen_ulid()'))
    item_id = Column(ULID, ForeignKey('items.id'))
    item = relationship(Item)


class Wrong(Base):
    """the pitfall: a String column with a ulid default is accepted"""
    __tablename__ = 'wrong'
    id = Column(String, primary_key=True, server_default=text('gen_ulid()'))


class WrongUuid(Base):
    """the pitfall: a UUID column with a ulid default is accepted"""
    __tablename__ = 'wrong_uuid'
    id = Column(postgresql.UUID(as_uuid=True), primary_key=True, server_default=text('gen_ulid()'))


Untouched = Table('untouched', MetaData(), Column('u', postgresql.UUID(as_uuid=True)), Column('t', Text),
                  Column('v', String), Column('b', LargeBinary))


def untouched(engine):
    """issue 43: the same rows through typed columns that are not ULID"""
    def store(col, value):
        with engine.begin() as c:
            return repr(c.execute(insert(Untouched).values({col: value}).returning(Untouched.c[col])).scalar())
    return untouched_rows(store)


def main(t):
    url = f'postgresql+psycopg2://{USER}@{HOST}:{PORT}/{DBNAME}'
    plain = create_engine(url, future=True)
    Base.metadata.create_all(plain)
    Untouched.create(plain)
    before = untouched(plain)
    t.ok('without register_ulid(engine): UUID, Text, String and LargeBinary columns take their values',
         before[:3] == [repr(uuid.UUID('41424344-4546-4748-494a-4b4c4d4e4f50')), repr(uuid.UUID('c9a646d3-9c61-4cb7-bfcd-ee2522c8f633')),
                        repr(uuid.UUID(KNOWN_UUID))] and before[-4:-2] == [repr(KNOWN), repr(KNOWN.lower())], repr(before))
    with Session(plain) as s:
        s.add(Item(id=KNOWN, n=100, tags=[KNOWN]))
        s.commit()
        t.expect('without register_ulid(engine), ARRAY(ULID) reads as a list of characters (the gap)', list('{%s}' % KNOWN),
                 lambda: s.get(Item, KNOWN).tags)
    plain.dispose()
    engine = create_engine(url, future=True)
    register_ulid(engine)
    # F1/F3: register_ulid(engine) used to turn on psycopg2's register_uuid() for the process
    t.expect('with register_ulid(engine): the same rows and errors (nothing but ulid changes)', before, lambda: untouched(engine))
    with engine.connect() as c:
        t.expect('create_all makes items.id a ulid column with DEFAULT gen_ulid()', ('ulid', 'gen_ulid()'),
                 lambda: tuple(c.execute(text(
                     "SELECT format_type(atttypid, atttypmod), pg_get_expr(adbin, adrelid) FROM pg_attribute "
                     "JOIN pg_attrdef ON adrelid = attrelid AND adnum = attnum "
                     "WHERE attrelid = 'items'::regclass AND attname = 'id'")).one()))
        t.expect('... and the foreign key parts.item_id a ulid column', 'ulid',
                 lambda: c.execute(text("SELECT 'parts'::regclass::oid, atttypid::regtype::text FROM pg_attribute "
                                        "WHERE attrelid = 'parts'::regclass AND attname = 'item_id'")).one()[1])
        t.expect('the pitfall: Column(String, server_default=gen_ulid()) is silently a varchar key',
                 'character varying', lambda: c.execute(text(
                     "SELECT atttypid::regtype::text FROM pg_attribute "
                     "WHERE attrelid = 'wrong'::regclass AND attname = 'id'")).scalar())

    with Session(engine) as s:
        w = WrongUuid()
        s.add(w)
        s.flush()
        t.ok('the pitfall: Column(postgresql.UUID, server_default=gen_ulid()) silently stores ULID bits in a uuid key',
             isinstance(w.id, uuid.UUID) and s.scalar(
                 text('SELECT abs(extract(epoch FROM now() - ulid_time(CAST(:u AS uuid)::ulid))) < 60'), {'u': w.id}),
             repr(w.id))
        s.rollback()

    with Session(engine) as s:
        items = [Item(n=n) for n in range(1, 6)]
        s.add_all(items)
        s.flush()
        ids = [it.id for it in items]
        t.ok('flush() fills each id from the server default (RETURNING)',
             all(isinstance(i, str) and ULID_TEXT.match(i) for i in ids), repr(ids))
        s.add(Part(item=items[0]))
        items[0].tags = ids[1:3]
        s.commit()

    with Session(engine) as s:
        t.expect('session.get(Item, str)', 3, lambda: s.get(Item, ids[2]).n)
        t.expect('filter(Item.id.in_([...]))', [1, 2],
                 lambda: s.scalars(select(Item.n).where(Item.id.in_(ids[:2])).order_by(Item.n)).all())
        t.expect('order_by(Item.id) is insertion order', ids,
                 lambda: s.scalars(select(Item.id).where(Item.n < 100).order_by(Item.id)).all())
        ts = s.scalar(select(func.ulid_time(Item.id)).where(Item.id == ids[0]))
        t.ok('func.ulid_time(Item.id) is a datetime with tzinfo',
             isinstance(ts, datetime.datetime) and ts.tzinfo is not None, repr(ts))
        t.expect('Item.id >= func.ulid_lower(...) (a time range on the key)', 5,
                 lambda: s.scalar(select(func.count()).where(
                     Item.id >= func.ulid_lower(ts), Item.n < 100)))
        t.expect('the relationship loads through the ulid foreign key', 1,
                 lambda: s.scalars(select(Part)).one().item.n)
        t.expect('ARRAY(ULID) reads as a list of str', ids[1:3], lambda: s.get(Item, ids[0]).tags)
        t.expect('func.array_agg(Item.id) too', ids[:2],
                 lambda: sorted(s.scalar(select(func.array_agg(Item.id)).where(Item.n < 3))))
        t.expect('Item.tags.any(str)', [1], lambda: s.scalars(select(Item.n).where(Item.tags.any(ids[2]))).all())
        t.expect('session.get(Item, uuid.UUID)', 100, lambda: s.get(Item, uuid.UUID(KNOWN_UUID)).n)
        u = uuid.UUID('018eafc1-8435-0cf0-5803-c72d06e78012')
        s.add(Item(id=u, n=101))
        s.commit()
        t.expect('Item(id=uuid.UUID) is stored (sent as the ULID text)', '01HTQW311N1KR5G0Y75M3EF00J',
                 lambda: s.scalar(select(Item.id).where(Item.n == 101)))
        t.expect('ULID(as_uuid=True) reads uuid.UUID', u, lambda: s.get(UItem, u).id)
        # F9: the key given as a uuid.UUID, a UUID's text or in lower case is the ULID text at once,
        # so the session holds one object per row (it used to keep a second identity)
        given = [Item(id=uuid.UUID('018eafc1-8435-0cf0-5803-c72d06e78020'), n=102),
                 Item(id='018eafc1-8435-0cf0-5803-c72d06e78021', n=103), Item(id='01htqw311n1kr5g0y75m3ef012', n=104)]
        t.expect('Item(id=uuid.UUID | UUID text | lower case).id is the ULID text',
                 ['01HTQW311N1KR5G0Y75M3EF010', '01HTQW311N1KR5G0Y75M3EF011', '01HTQW311N1KR5G0Y75M3EF012'],
                 lambda: [g.id for g in given])
        s.add_all(given)
        s.commit()
        t.expect('... and session.get(Item, ULID text) is the same object', [True] * 3,
                 lambda: [s.get(Item, g.id.lower()) is g and s.get(Item, ulid_pg.to_uuid(g.id)) is g for g in given])
        t.expect('insert().values([...]).returning(Item.id): 50 rows, 50 ids', 50, lambda: len(set(s.scalars(
            insert(Item).values([{'n': n} for n in range(300, 350)]).returning(Item.id)).all())))

    # reflection
    with warnings.catch_warnings():
        warnings.simplefilter('error')  # "Did not recognize type 'ulid'" would fail the check
        t.expect_true('reflection: Table(autoload_with=...) knows the type (ischema_names)',
                      lambda: isinstance(Table('items', MetaData(), autoload_with=engine).c.id.type, ULID))
        t.expect_true('... and inspect().get_columns',
                      lambda: isinstance(inspect(engine).get_columns('parts')[1]['type'], ULID))
    reflected = Table('items', MetaData(), autoload_with=engine)
    with engine.connect() as c:
        t.expect('queries through the reflected table', 100,
                 lambda: c.execute(select(reflected.c.n).where(reflected.c.id == KNOWN)).scalar())
        new_id = c.execute(reflected.insert().values(n=200).returning(reflected.c.id)).scalar()
        c.commit()
        t.ok('insert through the reflected table uses the server default', bool(ULID_TEXT.match(new_id)), new_id)


Checks('sqlalchemy').run(main)
