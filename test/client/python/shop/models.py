from django.db import models

from .fields import ULIDAutoField


class Item(models.Model):
    id = ULIDAutoField(primary_key=True)
    n = models.IntegerField()

    class Meta:
        app_label = 'shop'


class Part(models.Model):
    id = ULIDAutoField(primary_key=True)
    item = models.ForeignKey(Item, on_delete=models.CASCADE)

    class Meta:
        app_label = 'shop'
