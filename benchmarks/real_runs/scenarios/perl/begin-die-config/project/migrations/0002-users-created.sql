ALTER TABLE users ADD COLUMN created_at TEXT;
