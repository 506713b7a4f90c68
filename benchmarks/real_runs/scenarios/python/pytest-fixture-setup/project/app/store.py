import sqlite3


class Store:
    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def add_user(self, name: str) -> int:
        cur = self.conn.execute("INSERT INTO users(name) VALUES (?)", (name,))
        return cur.lastrowid

    def names(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT name FROM users ORDER BY id")]
