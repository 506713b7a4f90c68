import sqlite3
from pathlib import Path

import pytest

from app.store import Store

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="session")
def schema() -> str:
    return (DATA / "schema.sql").read_text()


@pytest.fixture
def store(schema):
    conn = sqlite3.connect(":memory:")
    conn.executescript(schema)
    yield Store(conn)
    conn.close()
