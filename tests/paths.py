"""Where the tests find the checkout and their fixtures, wherever a test module sits."""

from pathlib import Path

TESTS = Path(__file__).resolve().parent
REPO_ROOT = TESTS.parent
FIXTURES = TESTS / "fixtures"
