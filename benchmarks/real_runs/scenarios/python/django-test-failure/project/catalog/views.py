from django.http import JsonResponse
from django.shortcuts import get_object_or_404

from catalog.models import Product


def product_list(request):
    products = Product.objects.filter(active=True).order_by("name")
    return JsonResponse({"products": [{"name": p.name, "slug": p.slug} for p in products]})


def product_detail(request, slug):
    product = get_object_or_404(Product, slug=slug, active=True)
    return JsonResponse({"name": product.name, "price": product.price_cents / 100})
