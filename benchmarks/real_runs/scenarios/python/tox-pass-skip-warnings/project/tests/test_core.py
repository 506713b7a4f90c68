import pytest

from slugs.core import SlugError, slug, slugify


def test_basic():
    assert slugify("Hello, World!") == "hello-world"


def test_accents():
    assert slugify("Crème brûlée") == "creme-brulee"


def test_sep():
    assert slugify("a b c", sep="_") == "a_b_c"


def test_empty_raises():
    with pytest.raises(SlugError, match="nothing to slug"):
        slugify("!!!")


def test_old_name_still_works():
    assert slug("Old API") == "old-api"
