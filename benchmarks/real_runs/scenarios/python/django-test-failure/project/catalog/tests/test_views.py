from django.test import TestCase
from django.urls import reverse

from catalog.models import Product


class ProductViewsTests(TestCase):
    @classmethod
    def setUpTestData(cls):
        Product.objects.create(name="Mug", slug="mug", price_cents=1250)
        Product.objects.create(name="Tote", slug="tote", price_cents=900)
        Product.objects.create(name="Poster", slug="poster", price_cents=500, active=False)

    def test_list_hides_inactive(self):
        response = self.client.get(reverse("product-list"))
        self.assertEqual(response.status_code, 200)
        names = [p["name"] for p in response.json()["products"]]
        self.assertEqual(names, ["Mug", "Tote"])

    def test_detail_price(self):
        response = self.client.get(reverse("product-detail", args=["mug"]))
        self.assertEqual(response.json()["price"], 12.5)

    def test_detail_inactive_is_404(self):
        response = self.client.get(reverse("product-detail", args=["poster"]))
        self.assertEqual(response.status_code, 404)

    def test_detail_inactive_visible_to_staff_preview(self):
        # staff can preview a product before it goes live
        response = self.client.get(reverse("product-detail", args=["poster"]) + "?preview=1")
        self.assertEqual(response.status_code, 200)
        self.assertEqual(response.json()["name"], "Poster")
