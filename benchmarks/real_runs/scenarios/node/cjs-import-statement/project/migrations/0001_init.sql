CREATE TABLE users (id serial primary key);
