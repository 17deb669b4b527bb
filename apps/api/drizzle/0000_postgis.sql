-- PostGIS first: every geometry column depends on it. pgcrypto-free: gen_random_uuid() is core since PostgreSQL 13.
CREATE EXTENSION IF NOT EXISTS postgis;
