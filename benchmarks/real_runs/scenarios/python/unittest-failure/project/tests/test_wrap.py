import unittest

from textkit.wrap import slug, wrap


class WrapTest(unittest.TestCase):
    def test_empty(self):
        self.assertEqual(wrap("", 10), [])

    def test_exact_width(self):
        self.assertEqual(wrap("aaaa bbbb cccc", 9), ["aaaa bbbb", "cccc"])

    def test_long_word(self):
        self.assertEqual(wrap("supercalifragilistic", 5), ["supercalifragilistic"])

    @unittest.skipUnless(hasattr(str, "removeprefix"), "needs 3.9")
    def test_prefix(self):
        self.assertTrue(wrap("x y", 3))


class SlugTest(unittest.TestCase):
    def test_slug(self):
        self.assertEqual(slug("Hello  World"), "hello-world")


if __name__ == "__main__":
    unittest.main()
