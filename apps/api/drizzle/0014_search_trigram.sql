-- Issue 9 (and 15): the lists' searches (`ILIKE '%text%'`) served by pg_trgm GIN indexes instead of a scan of the
-- tenant's rows. farmers and users get a stored full_name (first_name || ' ' || last_name) so the name search is one
-- indexed column; textcat (||) is not LEAKPROOF, so an index on the expression would not be used under row-level security.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
ALTER TABLE "farmers" ADD COLUMN "full_name" text GENERATED ALWAYS AS ("first_name" || ' ' || "last_name") STORED;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "full_name" text GENERATED ALWAYS AS ("first_name" || ' ' || "last_name") STORED;--> statement-breakpoint
CREATE INDEX "farmers_full_name_trgm_idx" ON "farmers" USING gin ("full_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "farmers_folio_id_trgm_idx" ON "farmers" USING gin ("folio_id" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "farmers_phone_number_trgm_idx" ON "farmers" USING gin ("phone_number" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "farmers_email_trgm_idx" ON "farmers" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_full_name_trgm_idx" ON "users" USING gin ("full_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_phone_number_trgm_idx" ON "users" USING gin ("phone_number" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "farms_name_trgm_idx" ON "farms" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
-- Under row-level security a search condition may only be an index condition when its operator is LEAKPROOF (else it
-- must run after the policy, row by row). textlike / texticlike (LIKE, ILIKE) are not marked so, though their only
-- errors come from the pattern (a malformed escape, an unsupported collation), never from the row's value: they return
-- true or false for any text, so they tell a caller nothing about a row the policy hides. Needs a superuser (like 0005);
-- without one, warn and carry on (correct, slower: the searches scan the tenant's rows).
DO $$
BEGIN
  ALTER FUNCTION textlike(text, text) LEAKPROOF;
  ALTER FUNCTION texticlike(text, text) LEAKPROOF;
EXCEPTION WHEN insufficient_privilege THEN
  RAISE WARNING 'Could not mark textlike / texticlike LEAKPROOF (needs a superuser): searches under row-level security will not use the trigram indexes.';
END $$;
