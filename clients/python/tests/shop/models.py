from django.contrib.postgres.fields import ArrayField
from django.db import models

from ulid_pg.django import ULIDField


class Item(models.Model):
    id = ULIDField(primary_key=True)
    n = models.IntegerField()
    tags = ArrayField(ULIDField(), null=True)

    class Meta:
        app_label = 'shop'


class Part(models.Model):
    id = ULIDField(primary_key=True)
    item = models.ForeignKey(Item, on_delete=models.CASCADE)

    class Meta:
        app_label = 'shop'
