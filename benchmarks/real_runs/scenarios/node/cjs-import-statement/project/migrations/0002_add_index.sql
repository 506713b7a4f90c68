CREATE INDEX users_email ON users (email);
