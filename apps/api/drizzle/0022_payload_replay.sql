-- Issue 33: an encrypted request body (JWE) carries a jti; the server refuses a jti it has seen within the replay window
-- (plugins/payload-encryption.ts). Kept in PostgreSQL so that every API process shares it. A row lives until the body's
-- iat has left the window (after that the iat check refuses it anyway) and is then pruned.
CREATE TABLE IF NOT EXISTS "payload_jtis" (
  "jti" text PRIMARY KEY NOT NULL,
  "expires_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "payload_jtis_expires_idx" ON "payload_jtis" USING btree ("expires_at");--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "payload_jtis" TO farmland_app;
