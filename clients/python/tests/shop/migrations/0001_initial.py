import django.contrib.postgres.fields
from django.db import migrations, models

import ulid_pg.django


class Migration(migrations.Migration):
    initial = True
    dependencies = []
    operations = [
        migrations.CreateModel(
            name='Item',
            fields=[
                ('id', ulid_pg.django.ULIDField(primary_key=True, serialize=False)),
                ('n', models.IntegerField()),
                ('tags', django.contrib.postgres.fields.ArrayField(base_field=ulid_pg.django.ULIDField(), null=True, size=None)),
            ],
        ),
        migrations.CreateModel(
            name='Part',
            fields=[
                ('id', ulid_pg.django.ULIDField(primary_key=True, serialize=False)),
                ('item', models.ForeignKey(on_delete=models.deletion.CASCADE, to='shop.item')),
            ],
        ),
    ]
