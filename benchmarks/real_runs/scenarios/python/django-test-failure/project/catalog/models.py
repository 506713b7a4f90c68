from django.db import models


class Product(models.Model):
    name = models.CharField(max_length=100)
    slug = models.SlugField(unique=True)
    price_cents = models.PositiveIntegerField()
    active = models.BooleanField(default=True)

    def __str__(self):
        return self.name
