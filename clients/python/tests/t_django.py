"""ulid_pg.django with Django 3.2 (Debian's python3-django) and psycopg2: the
app shop/ (a ULIDField primary key whose value the database makes, a foreign
key to it, an ArrayField of ULIDs), migrated by `migrate`."""
import datetime
import io
import json
import os
import tempfile
import uuid

import django
from django.conf import settings

from ulidtest import DBNAME, HOST, KNOWN, KNOWN_UUID, PORT, ULID_TEXT, USER, Checks

settings.configure(
    DATABASES={'default': {'ENGINE': 'django.db.backends.postgresql', 'NAME': DBNAME,
                           'USER': USER, 'HOST': HOST, 'PORT': PORT}},
    INSTALLED_APPS=['shop'],
    USE_TZ=True,
)
django.setup()

from django.core.management import call_command  # noqa: E402 (after setup)
from django.db import connection, models  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from shop.models import Item, Part  # noqa: E402


def main(t):
    def sql(query, args=()):
        with connection.cursor() as cur:
            cur.execute(query, args)
            return cur.fetchall()

    call_command('migrate', 'shop', verbosity=0)
    t.expect('migrate makes shop_item.id a ulid key with DEFAULT gen_ulid(), and the foreign key ulid',
             [('shop_item', 'id', 'ulid', 'gen_ulid()'), ('shop_item', 'tags', 'ulid[]', None),
              ('shop_part', 'id', 'ulid', 'gen_ulid()'), ('shop_part', 'item_id', 'ulid', None)],
             lambda: sql("SELECT attrelid::regclass::text, attname, atttypid::regtype::text, pg_get_expr(adbin, adrelid) "
                         "FROM pg_attribute LEFT JOIN pg_attrdef ON adrelid = attrelid AND adnum = attnum "
                         "WHERE attrelid IN ('shop_item'::regclass, 'shop_part'::regclass) AND atttypid IN ('ulid'::regtype, 'ulid[]'::regtype) "
                         "ORDER BY 1, 2"))
    out = io.StringIO()
    t.expect('makemigrations --check: the models match the migration', "No changes detected in app 'shop'",
             lambda: (call_command('makemigrations', 'shop', check=True, dry_run=True, stdout=out),
                      out.getvalue().strip())[1])

    def count():
        return Item.objects.count()

    it = Item.objects.create(n=1)
    t.ok('create() leaves the id to the database and reads it back (RETURNING)',
         isinstance(it.pk, str) and bool(ULID_TEXT.match(it.pk)), repr(it.pk))
    other = Item(n=2)
    other.save()
    t.ok('save() of a new object too', isinstance(other.pk, str) and bool(ULID_TEXT.match(other.pk)) and other.pk > it.pk,
         repr(other.pk))
    t.expect('an id given by the application is stored', KNOWN,
             lambda: (Item(id=KNOWN, n=100).save(), Item.objects.get(n=100).pk)[1])

    before = count()
    with CaptureQueriesContext(connection) as queries:
        objs = Item.objects.bulk_create([Item(n=10), Item(n=11), Item(n=12)])
    t.expect('bulk_create() sends one INSERT of DEFAULT ids, RETURNING them',
             ['INSERT INTO "shop_item" ("id", "n", "tags") VALUES (DEFAULT, 10, NULL::ulid[]), (DEFAULT, 11, NULL::ulid[]), '
              '(DEFAULT, 12, NULL::ulid[]) RETURNING "shop_item"."id"'],
             # newer Django (5.x, Debian 13) wraps it in BEGIN/COMMIT
             lambda: [q['sql'] for q in queries.captured_queries if q['sql'] not in ('BEGIN', 'COMMIT')])
    t.ok('bulk_create() gives every object the id the database made',
         all(isinstance(o.pk, str) and ULID_TEXT.match(o.pk) for o in objs)
         and [o.pk for o in objs] == [p for (p,) in sql('SELECT id FROM shop_item WHERE n >= 10 AND n < 100 ORDER BY n')],
         repr([o.pk for o in objs]))
    objs[0].n = 20
    objs[0].save()
    t.expect('save() after bulk_create() updates the row: no duplicate', (before + 3, 1, 0),
             lambda: (count(), Item.objects.filter(n=20).count(), Item.objects.filter(n=10).count()))

    t.expect('get(pk=str)', 2, lambda: Item.objects.get(pk=other.pk).n)
    t.expect('get(pk=lowercase str)', 100, lambda: Item.objects.get(pk=KNOWN.lower()).n)
    t.expect('filter(pk__in=[...])', [1, 2], lambda: sorted(Item.objects.filter(pk__in=[it.pk, other.pk]).values_list('n', flat=True)))
    t.expect("order_by('id') is insertion order", [1, 2, 20, 11, 12],
             lambda: list(Item.objects.filter(n__lt=100).order_by('id').values_list('n', flat=True)))
    t.expect("filter(id__startswith=...) (id::text LIKE)", 1, lambda: Item.objects.filter(id__startswith=KNOWN[:20]).count())
    Part.objects.create(item=it)
    t.expect('a ForeignKey to the ulid key: select_related', 1, lambda: Part.objects.select_related('item').get().item.n)
    ts = Item.objects.annotate(t=models.Func('id', function='ulid_time', output_field=models.DateTimeField())).get(pk=it.pk).t
    t.ok("annotate(Func('id', function='ulid_time')) is an aware datetime",
         isinstance(ts, datetime.datetime) and ts.tzinfo is not None, repr(ts))
    t.expect('get(pk=uuid.UUID)', 100, lambda: Item.objects.get(pk=uuid.UUID(KNOWN_UUID)).n)
    u = uuid.UUID('018eafc1-8435-0cf0-5803-c72d06e78012')
    t.expect('create(id=uuid.UUID) stores it (as the ULID)', '01HTQW311N1KR5G0Y75M3EF00J',
             lambda: (Item.objects.create(id=u, n=101), Item.objects.get(n=101).pk)[1])
    t.expect('ArrayField(ULIDField()): a list in, a list of str out', [it.pk, other.pk],
             lambda: (Item.objects.filter(pk=it.pk).update(tags=[it.pk, other.pk]), Item.objects.get(pk=it.pk).tags)[1])
    t.expect('tags__contains=[...]', [1], lambda: list(Item.objects.filter(tags__contains=[other.pk]).values_list('n', flat=True)))
    fixture = os.path.join(tempfile.mkdtemp(), 'items.json')
    with open(fixture, 'w') as f:
        json.dump([{'model': 'shop.item', 'pk': '01HTQW311N1KR5G0Y75M3EF00R', 'fields': {'n': 300}}], f)
    t.expect('loaddata of a fixture with ULID keys', 300,
             lambda: (call_command('loaddata', fixture, verbosity=0), Item.objects.get(pk='01HTQW311N1KR5G0Y75M3EF00R').n)[1])
    t.expect('delete()', (1, 0), lambda: (Item.objects.filter(n=12).delete()[0], Item.objects.filter(n=12).count()))


Checks('django').run(main)
