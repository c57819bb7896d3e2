from django.db import migrations, models

import shop.fields


class Migration(migrations.Migration):
    initial = True
    dependencies = []
    operations = [
        migrations.CreateModel(
            name='Item',
            fields=[
                ('id', shop.fields.ULIDField(primary_key=True, serialize=False)),
                ('n', models.IntegerField()),
            ],
        ),
        migrations.CreateModel(
            name='Part',
            fields=[
                ('id', shop.fields.ULIDField(primary_key=True, serialize=False)),
                ('item', models.ForeignKey(on_delete=models.deletion.CASCADE, to='shop.item')),
            ],
        ),
        # Django 3.2 writes no column defaults: the database makes the ids
        migrations.RunSQL(
            'ALTER TABLE shop_item ALTER id SET DEFAULT gen_ulid();'
            'ALTER TABLE shop_part ALTER id SET DEFAULT gen_ulid();',
            'ALTER TABLE shop_item ALTER id DROP DEFAULT;'
            'ALTER TABLE shop_part ALTER id DROP DEFAULT;'),
    ]
